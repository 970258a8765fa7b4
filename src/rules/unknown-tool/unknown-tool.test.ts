import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../../../test/cli-io.js";
import { unconstrainedToolsDiagnostic } from "../../approval/record.js";
import { defaultPolicy } from "../../policy/defaults.js";
import { ruleText } from "../read-text.js";
import { tools } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

const policy = (patch: (p: ReturnType<typeof defaultPolicy>) => void) => {
  const p = defaultPolicy("/ws");
  patch(p);
  return { policy: p };
};

ruleTester("unknown-tool", {
  valid: [
    { name: "registered tools and glob entries", code: '[{"tool": "plot_qc"}, {"tool": "git_status"}]', options: { tools: tools("plot_qc", "git_*") } },
    { name: "every tool, silently, when the policy allows * explicitly", code: '[{"tool": "a"}, {"tool": "anything_else"}]', options: policy((p) => (p.tools.allow = ["*"])) },
    { name: "the warning turned off", code: '[{"tool": "a"}]', options: policy((p) => (p.rules["unknown-tool"] = "off")) },
  ],
  invalid: [
    {
      name: "a tool not in the registry, with a did-you-mean hint",
      code: '[{"tool": "plot_qc"}, {"tool": "plot_qcc"}]',
      options: { tools: tools("plot_qc", "run_scar") },
      errors: [{ line: 1, column: 32, endLine: 1, endColumn: 42, step: 2, pointer: "/1/tool", severity: "error", messageId: "unknownToolNear", message: 'Step 2: unknown tool "plot_qcc"; did you mean "plot_qc"?' }],
    },
    {
      name: "a tool not in the registry and like none of its tools",
      code: '[{"tool": "zzz"}]',
      options: { tools: tools("plot_qc") },
      errors: [{ line: 1, column: 11, endLine: 1, endColumn: 16, step: 1, pointer: "/0/tool", messageId: "unknownTool", message: /^Step 1: unknown tool "zzz" \(not in /, hint: /, or add "zzz" there$/ }],
    },
    { name: "names compare exactly (no case folding)", code: '[{"tool": "Plot_QC"}]', options: { tools: tools("plot_qc") }, errors: [{ line: 1, column: 11, endLine: 1, endColumn: 20, pointer: "/0/tool" }] },
    {
      name: "without a registry or allow list, one warning per plan, at the steps (legacy)",
      code: '[{"tool": "a"}, {"tool": "b"}, {"tool": "c"}]',
      errors: [{ line: 1, column: 1, endLine: 1, endColumn: 46, severity: "warning", pointer: "", messageId: "unchecked", message: /any tool would be accepted/, hint: /tools\.allow: \["\*"\]/ }],
    },
    {
      name: "without a registry or allow list, one warning per plan, at the steps (intake)",
      code: '{"steps": [{"tool": "a", "arguments": {}, "intent": "x"}, {"tool": "b", "arguments": {}, "intent": "y"}]}',
      errors: [{ line: 1, column: 11, endLine: 1, endColumn: 105, severity: "warning", pointer: "/steps", messageId: "unchecked", message: /any tool would be accepted/, hint: /tools\.allow: \["\*"\]/ }],
    },
    { name: "the warning lowered to info", code: '[{"tool": "a"}]', options: policy((p) => (p.rules["unknown-tool"] = "info")), errors: [{ line: 1, column: 1, endLine: 1, endColumn: 16, severity: "info" }] },
  ],
  docs: { file: "plan.yaml", options: { tools: tools("plot_qc") } },
});

// `approve`, `guard start` and plan mode refuse a plan whose tools nothing constrains, as an error of this rule.
describe("unknown-tool: the refusal of a plan whose tools nothing constrains", () => {
  it("unconstrained: approve says so, with how to constrain the tools", async () => {
    const message = "No tool registry or allow list is in force, so the plan's tool names were not checked: an approved plan could call any tool.";
    const hint = 'pass --tools FILE, or set tools.allow, tools.allowFile or tools.registry in plangate.yaml; to accept every tool on purpose, write tools.allow: ["*"]';
    expect(ruleText("unknown-tool", "unconstrained")).toEqual({ message, hint });
    expect(unconstrainedToolsDiagnostic()).toEqual({ rule: "unknown-tool", severity: "error", message, hint, messageId: "unconstrained" });
    const dir = mkdtempSync(join(tmpdir(), "plangate-unconstrained-"));
    writeFileSync(join(dir, "plan.json"), '[{"tool": "a"}]');
    const r = await cli(["approve", "plan.json", "--no-policy", "-o", "json"], { cwd: dir });
    rmSync(dir, { recursive: true, force: true });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).results[0].diagnostics).toEqual([{ rule: "unknown-tool", severity: "error", message, hint }]);
  });
});
