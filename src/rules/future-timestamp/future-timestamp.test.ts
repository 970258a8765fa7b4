import { envelope } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

const created = async (at: string) => envelope([{ tool: "a" }], { created_at: at });

ruleTester("future-timestamp", {
  valid: [
    { name: "a zoned time within the skew", code: await created("2026-11-22T12:04:00Z") },
    { name: "a zoneless time within 14 hours", code: await created("2026-11-23T01:00:00") },
  ],
  invalid: [
    { name: "a zoned time more than 5 minutes ahead", code: await created("2026-11-22T12:06:00Z"), errors: [{ line: 3, column: 17, endLine: 3, endColumn: 39, pointer: "/created_at", severity: "warning", messageId: "future", message: /is in the future/ }] },
    { name: "a zoneless time more than 14 hours ahead", code: await created("2026-11-23T03:00:00"), errors: [{ line: 3, column: 17, endLine: 3, endColumn: 38, actual: "2026-11-23T03:00:00" }] },
  ],
  docs: { file: "plan.json" },
});
