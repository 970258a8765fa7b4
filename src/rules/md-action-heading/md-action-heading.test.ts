import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";

const ws = workspace({ "a.txt": "a\n" });

describe("md-action-heading", () => {
  it("reports an unknown action type with the closest known one", async () => {
    const d = await mdDiagnostics("md-action-heading", planMd("### `CRAETE`\n- File Path: [b.txt](/b.txt)\n```\nb\n```"), ws);
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toBe('Step 1: unknown action type "CRAETE"; did you mean "CREATE"?');
  });
  it("tells a MESSAGE action to become a ## Message section", async () => {
    const d = await mdDiagnostics("md-action-heading", planMd("### `MESSAGE`\nHello."), ws);
    expect(d[0]!.hint).toContain("## Message");
  });
  it("reports an action under a heading of the wrong level, and content before the first action", async () => {
    const d = await mdDiagnostics("md-action-heading", planMd("Some text.\n\n#### READ\n- Resource: [a.txt](/a.txt)"), ws);
    expect(d.map((x) => x.line)).toEqual([10, 12]);
    expect(d[1]!.message).toContain("H4");
  });
  it("accepts known types, with backticks or trailing symbols, in CRLF plans", async () => {
    const md = planMd("### `READ**\n- Resource: [a.txt](/a.txt)", "### EXECUTE\n```shell\nls\n```", "### `CHAT_WITH_USER`\nÇa va ? 🙂");
    expect(await mdDiagnostics("md-action-heading", md, ws)).toHaveLength(0);
    expect(await mdDiagnostics("md-action-heading", md.replace(/\n/g, "\r\n"), ws)).toHaveLength(0);
  });
});

describe("md-action-heading: actions outside the Action Plan", () => {
  it("reports an action heading under another section, not one inside a code block", async () => {
    const md = "# T\n\n## Rationale\n### EDIT\n- File Path: [a.txt](/a.txt)\n\n```\n### CREATE\n```\n\n## Action Plan\n### READ\n- Resource: [a.txt](/a.txt)\n";
    const d = await mdDiagnostics("md-action-heading", md, ws);
    expect(d.map((x) => x.line)).toEqual([4]);
    expect(d[0]!.message).toContain("outside `## Action Plan`");
  });
});
