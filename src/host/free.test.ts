import { describe, expect, it } from "vitest";
import { loadHostProfile } from "../node/host-profile.js";
import { defaultPolicy } from "../policy/defaults.js";
import { GENERIC } from "./profile.js";
import { freeToolProblem } from "./free.js";
import type { ToolRegistry } from "../core/tools.js";

const CC = await loadHostProfile("claude-code");
const policy = defaultPolicy("/ws");
const withRead = (...read: string[]) => ({ tools: { ...policy.tools, read: [...(policy.tools.read ?? []), ...read] } });
const registry = (annotations: Record<string, { readOnlyHint?: unknown; destructiveHint?: unknown }>): ToolRegistry => ({
  names: new Set(Object.keys(annotations)),
  patterns: [],
  schemas: new Map(),
  annotations: new Map(Object.entries(annotations)),
  source: "tools.json",
});

describe("guard.free: only tools that only read may run without a step", () => {
  it.each([
    // The claude-code profile decides for its own tools: read: true, or the profile's own free tools.
    ["claude-code", "Read"],
    ["claude-code", "Glob"],
    ["claude-code", "Grep"],
    ["claude-code", "LS"],
    ["claude-code", "TodoWrite"],
    // Tools no profile describes: the policy's and the registry's word that they read.
    ["generic", "read_file"],
    ["generic", "Read"],
    ["generic", "list_directory"],
    ["claude-code", "mcp__fs__read_file", withRead("mcp__fs__read_file")],
    ["claude-code", "mcp__docs__lookup", policy, registry({ mcp__docs__lookup: { readOnlyHint: true } })],
  ] as const)("%s: %s may be free", (host, tool, p = policy, reg?: ToolRegistry) => {
    expect(freeToolProblem(tool, host === "generic" ? GENERIC : CC, p, reg)).toBeUndefined();
  });

  it.each([
    // The host's writers, whatever tools.read says.
    ["claude-code", "Write", policy, /the claude-code profile's "Write" writes files, runs commands/],
    ["claude-code", "Edit", policy, /"Edit" writes files/],
    ["claude-code", "MultiEdit", policy, /"MultiEdit" writes files/],
    ["claude-code", "NotebookEdit", policy, /"NotebookEdit" writes files/],
    ["claude-code", "Bash", policy, /"Bash" writes files, runs commands/],
    ["claude-code", "Bash", withRead("Bash"), /"Bash" writes files, runs commands/],
    ["claude-code", "Write", withRead("Write"), /"Write" writes files/],
    ["claude-code", "Task", policy, /"Task" writes files/],
    ["claude-code", "WebFetch", policy, /"WebFetch" writes files, runs commands or reaches out/],
    // Spelt like a profile tool but not it: frees nothing, or a look-alike tool.
    ["claude-code", "read", policy, /"read" is spelt like the claude-code profile's tool "Read" but is not it.*write "Read"/],
    ["claude-code", "bash", policy, /spelt like the claude-code profile's tool "Bash"/],
    ["claude-code", "Re\u0430d", policy, /spelt like the claude-code profile's tool "Read"/],
    ["claude-code", "Multi_Edit", policy, /spelt like the claude-code profile's tool "MultiEdit"/],
    // No profile describes them: a known writer in any spelling, whatever tools.read says.
    ["generic", "Write", withRead("Write"), /a tool of that name writes files, runs commands or starts an agent/],
    ["generic", "bash", withRead("bash"), /a tool of that name writes/],
    ["generic", "B\u0430sh", withRead("B\u0430sh"), /a tool of that name writes/],
    ["generic", "run-command", withRead("run-command"), /a tool of that name writes/],
    ["generic", "NOTEBOOK_EDIT", withRead("NOTEBOOK_EDIT"), /a tool of that name writes/],
    ["generic", "write_file", policy, /a tool of that name writes/],
    // Nothing says they read: taken as writers.
    ["generic", "mcp__github__create_issue", policy, /nothing says it only reads.*list it in tools\.read or mark it readOnlyHint: true/],
    ["claude-code", "mcp__fs__read_file", policy, /nothing says it only reads/],
    ["generic", "text_editor", policy, /nothing says it only reads/],
  ] as const)("%s: %s may not be free", (host, tool, p, message) => {
    expect(freeToolProblem(tool, host === "generic" ? GENERIC : CC, p, undefined)).toMatch(message);
  });

  it("a registry's annotation that says a tool writes wins over tools.read", () => {
    const reg = registry({ mcp__fs__save: { readOnlyHint: true, destructiveHint: true } });
    expect(freeToolProblem("mcp__fs__save", CC, withRead("mcp__fs__save"), reg)).toMatch(/nothing says it only reads/);
  });
});
