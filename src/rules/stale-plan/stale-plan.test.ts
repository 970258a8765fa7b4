import { describe, expect, it } from "vitest";
import { envelope, run } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

const created = async (at: string) => envelope([{ tool: "a" }], { created_at: at });

ruleTester("stale-plan", {
  valid: [
    { name: "22 days old", code: await created("2026-11-01T00:00:00Z") },
    { name: "exactly at the limit", code: await created("2026-10-23T12:00:00Z") },
  ],
  invalid: [
    { name: "a warning with the age in days", code: await created("2025-10-05T15:40:20.123456"), errors: [{ line: 3, column: 17, endLine: 3, endColumn: 45, severity: "warning", pointer: "/created_at", messageId: "stale", message: /412 days old/, actual: 412 }] },
    { name: "over maxAgeDays", code: await created("2026-11-01T00:00:00Z"), options: { maxAgeDays: 7 }, errors: [{ line: 3, column: 17, endLine: 3, endColumn: 39, messageId: "stale", message: /older than the 7-day limit/, actual: 21 }] },
  ],
  // The good example's creation time is a placeholder: it runs as a time within the last 30 days.
  docs: { file: "plan.json", wrap: (example) => example.replace("<within the last 30 days>", "2026-11-20T10:00:00") },
});

describe("stale-plan and the plan's verdict", () => {
  it("leaves the plan valid", async () => {
    expect((await run(await created("2025-10-05T15:40:20.123456"))).valid).toBe(true);
  });
});
