import { pythonChecksum } from "../../core/canonical/python-json.js";
import { envelope } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

const sealed = [{ tool: "a", params: { x: 1 } }];
const edited = [...sealed, { tool: "b" }];
const big = [{ tool: "a", params: { ratio: 1.0, big: 12345678901234567890n.toString() } }];

ruleTester("checksum-mismatch", {
  valid: [
    { name: "the Python checksum", code: await envelope(big) },
    { name: "the checksum with a SHA256: prefix, upper case", code: await envelope(big, { checksum: "SHA256:" + pythonChecksum(big).toUpperCase() }) },
  ],
  invalid: [
    {
      name: "a plan edited after sealing, with expected (stored) and actual (computed)",
      code: JSON.stringify({ version: "1.0", created_at: "2026-11-20T10:00:00", checksum: pythonChecksum(sealed), plan: edited }, null, 2),
      errors: [{ line: 4, column: 15, endLine: 4, endColumn: 81, pointer: "/checksum", messageId: "mismatch", message: /the checksum does not match the plan/, expected: pythonChecksum(sealed), actual: pythonChecksum(edited) }],
    },
    {
      name: "number lexemes hash as Python reads them (1.0 is a float, not 1)",
      code: `{"version": "1.0", "checksum": "${pythonChecksum(sealed)}", "plan": [{"tool": "a", "params": {"x": 1.0}}]}`,
      errors: [{ line: 1, column: 32, endLine: 1, endColumn: 98, pointer: "/checksum", expected: pythonChecksum(sealed) }],
    },
  ],
  docs: { file: "plan.json" },
});
