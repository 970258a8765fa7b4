import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validatePlan } from "../src/node/validate-plan.js";
import { extractPlan, planModeCheck } from "../src/node/plan-mode.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import { NOW } from "./helpers.js";

const root = join(import.meta.dirname, "..");
const dir = join(root, "examples/claude-code");
const read = (f: string) => readFileSync(join(dir, f), "utf8");

/** The content of the first fence opened by a line equal to `open` (closed by the same fence). */
function fenceAfter(text: string, open: string, close: string): string | undefined {
  const lines = text.split("\n");
  const start = lines.indexOf(open);
  if (start === -1) return undefined;
  const end = lines.indexOf(close, start + 1);
  return end === -1 ? undefined : lines.slice(start + 1, end).join("\n") + "\n";
}

const ws = mkdtempSync(join(tmpdir(), "plangate-cc-example-"));
// The project the plan edits: its Edit is replayed on src/index.js, whose result the tests then load.
mkdirSync(join(ws, "src"));
writeFileSync(join(ws, "src/index.js"), "export {};\n");
afterAll(() => rmSync(ws, { recursive: true, force: true }));

describe("examples/claude-code", () => {
  it("CLAUDE.md shows plan.md byte for byte", () => {
    expect(fenceAfter(read("CLAUDE.md"), "````markdown", "````")).toBe(read("plan.md"));
  });

  it("plan.md is one enforceable intake plan that validates with Claude Code's tools", async () => {
    const got = extractPlan(read("plan.md"));
    expect("diagnostic" in got ? got.diagnostic : got.file).toBe("plan.json");
    if ("diagnostic" in got) return;
    const policy = defaultPolicy(ws);
    policy.tools.allow = ["Read", "Write", "Edit", "Bash"];
    // The plan writes JavaScript and runs its tests, which load it (as the Claude Code starter policy lets them).
    policy.commands.writtenCode = ["node"];
    const report = await validatePlan(got.text, { file: got.file, policy, workspace: ws, now: NOW });
    expect(report.diagnostics).toEqual([]);
    expect(report.plan?.steps.map((s) => s.tool)).toEqual(["Read", "Write", "Edit", "Bash"]);
    expect(await planModeCheck(read("plan.md"), { policy, workspace: ws, now: NOW })).toBeUndefined();
  });

  it("settings.json sends every tool call before and after it runs, ExitPlanMode's events and the subagent events to `plangate guard --output claude`, and nothing else", () => {
    const settings = JSON.parse(read("settings.json")) as { hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout: number }[] }[]> };
    const commands = (event: string) => settings.hooks[event]?.map((m) => [m.matcher, ...m.hooks.map((h) => `${h.type}: ${h.command} (${h.timeout} s)`)]);
    expect(Object.keys(settings.hooks).sort()).toEqual(["PermissionRequest", "PostToolUse", "PostToolUseFailure", "PreToolUse", "SubagentStart", "SubagentStop"]);
    // The host's timeout (seconds) stays above the guard's own --timeout (5,000 ms by default): a killed hook is no answer.
    const hook = "command: plangate guard --output claude (30 s)";
    expect(commands("PreToolUse")).toEqual([["*", hook]]);
    expect(commands("PermissionRequest")).toEqual([["ExitPlanMode", hook]]);
    // Every call that ran, to check it ran with the input the guard allowed (and ExitPlanMode's acceptance).
    expect(commands("PostToolUse")).toEqual([["*", hook]]);
    expect(commands("PostToolUseFailure")).toEqual([["*", hook]]);
    expect(commands("SubagentStart")).toEqual([[undefined, hook]]);
    expect(commands("SubagentStop")).toEqual([[undefined, hook]]);
  });

  it("the constraints CLAUDE.md shows validate under the Claude Code starter policy", async () => {
    const { parsePolicyText, resolvePolicy } = await import("../src/node/policy.js");
    const { CLAUDE_CODE_STARTER_POLICY } = await import("../src/cli/commands/init.js");
    const { loadProfile } = await import("../src/node/profile-file.js");
    const policy = resolvePolicy(await parsePolicyText(CLAUDE_CODE_STARTER_POLICY, "plangate.yaml"), ws, ws);
    const text = read("CLAUDE.md");
    const shown = [...text.matchAll(/`(\{"\$(?:glob|enum|regex)"[^`]*\})`/g)].map((m) => JSON.parse(m[1]!) as unknown);
    expect(shown).toHaveLength(4);
    const plan = {
      steps: [
        { tool: "Read", arguments: { file_path: shown[0] }, intent: "read a test" },
        { tool: "Bash", arguments: { command: shown[1] }, intent: "run a test" },
        { tool: "Bash", arguments: { command: shown[2] }, intent: "test or lint" },
        { tool: "Write", arguments: { file_path: "notes.md", content: shown[3] }, intent: "write a note" },
      ],
    };
    const host = loadProfile("claude-code");
    const report = await validatePlan(JSON.stringify(plan), { file: "plan.json", policy, workspace: ws, now: NOW, host });
    expect(report.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("the README's plan-mode settings are examples/claude-code/settings.json", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### Plan mode (Claude Code)"));
    expect(fenceAfter(section, "```json", "```")).toBe(read("settings.json"));
  });
});
