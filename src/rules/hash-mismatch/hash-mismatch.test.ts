import { createHash } from "node:crypto";
import { planHash } from "../../ops/hash.js";
import { RULES } from "../index.js";
import { ruleTester } from "../../../test/rule-tester.js";

const text = '[{"tool": "a", "params": {"x": 1}}]';
const hash = (await planHash(text))!;
// The doc examples are read under the hash of the good one (the approved plan).
const approved = (await planHash(RULES.find((r) => r.meta.id === "hash-mismatch")!.meta.docs.good!, { file: "plan.yaml" }))!;

ruleTester("hash-mismatch", {
  valid: [
    { name: "the plan hash", code: text, options: { expectedHash: hash } },
    { name: "the raw file's SHA-256", code: text, options: { expectedHash: createHash("sha256").update(text).digest("hex") } },
  ],
  invalid: [
    {
      name: "a plan whose hash differs",
      code: text,
      options: { expectedHash: "sha256:" + "0".repeat(64) },
      // The whole plan against a hash given from outside: the diagnostic has no position in the text.
      errors: [{ severity: "error", message: /differs from the expected sha256:0{64}/, expected: "sha256:" + "0".repeat(64), actual: hash, messageId: "differs" }],
    },
  ],
  docs: { file: "plan.yaml", options: { expectedHash: approved } },
});
