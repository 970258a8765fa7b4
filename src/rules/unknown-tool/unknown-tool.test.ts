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
    // A protection: a Policy built in code cannot turn it off or lower it; tools.allow: ["*"] is the way to accept every tool.
    { name: "the warning, though a policy turns the rule off", code: '[{"tool": "a"}]', options: policy((p) => (p.rules["unknown-tool"] = "off")), errors: [{ line: 1, column: 1, endLine: 1, endColumn: 16, severity: "warning" }] },
    { name: "the warning, though a policy lowers the rule to info", code: '[{"tool": "a"}]', options: policy((p) => (p.rules["unknown-tool"] = "info")), errors: [{ line: 1, column: 1, endLine: 1, endColumn: 16, severity: "warning" }] },
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

// A plan compiled to a host's calls (src/host/profile.ts): the words of each refusal. src/host/profile.test.ts
// compiles real plans that reach them.
describe("unknown-tool: steps no call of the host can match", () => {
  const why = { kind: "why", why: "dotDot" } as const;
  it.each([
    ["hostNoTool", { step: 1 }, "Step 1 has no tool, so no host call can be matched to it.", "give every step a tool"],
    ["hostNotATool", { step: 2, tool: "Shell", host: "claude-code", tools: "Bash, Read" }, 'Step 2: "Shell" is not a claude-code tool, so the host can never make this call.', "use one of the host's tools (Bash, Read)"],
    [
      "hostUnknownInput",
      { step: 1, input: "cwd", host: "claude-code", tool: "Bash", inputs: "command, description" },
      'Step 1: "cwd" is not an input of the claude-code Bash tool (command, description), so the host would refuse or ignore it and the call run would not be the one approved.',
      "drop it, or say it in an input the tool has (a folder: cd DIR && … in the command)",
    ],
    ["hostPathRefused", { step: 1, tool: "Read", key: "file_path", why }, 'Step 1: the Read path "file_path" holds "..", which a symlink can send anywhere; write the plain path, so no call of the host can match it.', "write a path relative to the workspace, inside it"],
    ["teddyNoCall", { step: 3, action: "INVOKE", host: "claude-code", actions: "CREATE, EDIT" }, "Step 3: the INVOKE action maps to no claude-code tool call, so it cannot be enforced.", "use an action the claude-code profile maps (CREATE, EDIT)"],
    ["teddyUntitledNoCall", { step: 3, host: "claude-code", actions: "CREATE" }, "Step 3: the untitled action maps to no claude-code tool call, so it cannot be enforced.", "use an action the claude-code profile maps (CREATE)"],
    ["teddyUrlNoCall", { step: 1, action: "READ", host: "paths-only" }, "Step 1: a READ of a URL maps to no paths-only tool call.", "see the host profile's teddy mapping"],
    ["teddyFileNoCall", { step: 1, action: "READ", host: "web-only" }, "Step 1: a READ of a file path maps to no web-only tool call.", "see the host profile's teddy mapping"],
    [
      "teddyIgnoredSetting",
      { step: 1, key: "cwd", action: "CREATE", host: "claude-code" },
      'Step 1: "cwd" is not a setting TeDDy reads for CREATE, and no claude-code call carries it, so the reviewer would read a setting that nothing applies.',
      "drop it, or say it where it takes effect (a folder: cd DIR && … in the command)",
    ],
    ["teddyUnbound", { step: 1, action: "EXECUTE", key: "cwd", host: "claude-code", tool: "Bash" }, 'Step 1: the EXECUTE action sets "cwd", which a claude-code Bash call cannot carry, so the call cannot be enforced.', "fold it into the command (cd DIR && …), or drop it"],
    ["teddyNoEdits", { step: 1, action: "EDIT" }, "Step 1: the EDIT action has no FIND/REPLACE pair, so it makes no call to match.", "complete the action"],
    ["teddyNoQuery", { step: 1, action: "RESEARCH" }, "Step 1: the RESEARCH action has no query, so it makes no call to match.", "complete the action"],
    ["teddyNoValue", { step: 1, action: "EDIT", source: "replace", tool: "Edit", key: "new_string" }, "Step 1: the EDIT action gives no replace for Edit.new_string, so the call cannot be enforced.", "complete the action"],
    ["teddyEmptyFind", { step: 1, action: "EDIT", tool: "Edit", key: "old_string" }, "Step 1: a FIND of the EDIT action is empty; as Edit.old_string it would not be an edit of the text the reviewer saw.", "put the exact text to replace in the FIND block"],
    ["teddyPathRefused", { step: 1, tool: "Write", key: "file_path", value: "../x", why }, 'Step 1: the Write file_path "../x" holds "..", which a symlink can send anywhere; write the plain path, so no call of the host can match it.', "write a path relative to the workspace, inside it"],
  ] as const)("%s", (messageId, data, message, hint) => {
    expect(ruleText("unknown-tool", messageId, data)).toEqual({ message, hint });
  });
});
