import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";

const ws = workspace({ "a.txt": "a\n", "b.txt": "b\n" });
const a = "### READ\n- Resource: [a.txt](/a.txt)";
const b = "### READ\n- Resource: [b.txt](/b.txt)";

describe("md-action-separator", () => {
  it("reports two actions not separated by ---", async () => {
    const d = await mdDiagnostics("md-action-separator", planMd(`${a}\n\n${b}`), ws);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ line: 13, pointer: "/actions/1/type" });
    expect(d[0]!.message).toContain("Step 2 (READ)");
    const unicode = planMd(`### CHAT_WITH_USER\nÇa te va ? 🙂\n\n${b}`).replace(/\n/g, "\r\n");
    expect(await mdDiagnostics("md-action-separator", unicode, ws)).toHaveLength(1);
  });
  it("accepts --- between actions, and a --- line right under a paragraph", async () => {
    expect(await mdDiagnostics("md-action-separator", planMd(a, b), ws)).toHaveLength(0);
    const md = planMd("### CHAT_WITH_USER\nDo you agree?\n---\n" + b);
    expect(await mdDiagnostics("md-action-separator", md, ws)).toHaveLength(0);
    expect(await mdDiagnostics("md-action-separator", planMd(a, b).replace(/\n/g, "\r\n"), ws)).toHaveLength(0);
  });
  it("accepts actions back to back when the policy sets markdown.requireSeparators: false", async () => {
    const d = await mdDiagnostics("md-action-separator", planMd(`${a}\n\n${b}`), ws, { policyPatch: (p) => (p.markdown.requireSeparators = false) });
    expect(d).toHaveLength(0);
  });
});
