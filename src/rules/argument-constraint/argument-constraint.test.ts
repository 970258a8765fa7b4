import { describe, expect, it } from "vitest";
import { run } from "../../../test/helpers.js";
import { defaultPolicy } from "../../policy/defaults.js";
import type { Policy } from "../../policy/types.js";

const WS = "/workspace";
const policy = (constraints: "allow" | "refuse", allowOpenArguments = false, commands: string[] = []): Policy => {
  const p = defaultPolicy(WS);
  p.plan = { ...p.plan, constraints, allowOpenArguments };
  p.commands = { ...p.commands, allow: commands };
  return p;
};
const intake = (tool: string, args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool, arguments: args, intent: "do it" }] });
const ikoma = (tool: string, args: Record<string, unknown>) => JSON.stringify({ plan: [{ step: 1, tool_name: tool, args, description: "do it" }], reasoning: "r" });

async function found(rule: string, text: string, p: Policy): Promise<[string | undefined, number | undefined][]> {
  const r = await run(text, { policy: p });
  return r.diagnostics.filter((d) => d.rule === rule).map((d) => [d.pointer, d.step]);
}

describe("argument-constraint", () => {
  it.each([
    // refused by default: any $ object but $literal, at any depth
    ["refuse", intake("read_file", { path: { $glob: "src/**" } }), [["/steps/0/arguments/path", 1]]],
    ["refuse", intake("read_file", { path: "a", opts: { deep: [{ $any: true }] } }), [["/steps/0/arguments/opts/deep/0", 1]]],
    ["refuse", ikoma("read_file", { path: { $enum: ["a", "b"] } }), [["/plan/0/args/path", 1]]],
    ["refuse", intake("query_db", { filter: { $gt: 5 } }), [["/steps/0/arguments/filter", 1]]],
    // look-alikes of $ in every mode
    ["refuse", intake("read_file", { path: { "＄glob": "**" } }), [["/steps/0/arguments/path/＄glob", 1]]],
    ["allow", intake("read_file", { path: { "\u200b$glob": "**" } }), [["/steps/0/arguments/path/\u200b$glob", 1]]],
    // malformed constraints when allowed
    ["allow", intake("read_file", { path: { $glob: "src/**", other: 1 } }), [["/steps/0/arguments/path", 1]]],
    ["allow", intake("read_file", { path: { $glob: "" } }), [["/steps/0/arguments/path", 1]]],
    ["allow", intake("read_file", { path: { $globb: "x" } }), [["/steps/0/arguments/path", 1]]],
    ["allow", intake("read_file", { path: { $any: 1 } }), [["/steps/0/arguments/path", 1]]],
    ["allow", intake("search", { query: { $regex: "(a)\\1" } }), [["/steps/0/arguments/query/$regex", 1]]],
    ["allow", intake("search", { query: { $regex: "(?<=a)b" } }), [["/steps/0/arguments/query/$regex", 1]]],
    ["allow", intake("search", { query: { $schema: { $ref: "https://example.org/s.json" } } }), [["/steps/0/arguments/query/$schema", 1]]],
    ["allow", intake("search", { query: { $schema: { type: "strin" } } }), [["/steps/0/arguments/query/$schema", 1]]],
    ["allow", intake("search", { query: { $schema: { type: "string", pattern: "(a+)+\\1" } } }), [["/steps/0/arguments/query/$schema", 1]]],
    // constraints are whole top-level values; deeper only $literal
    ["allow", intake("search", { opts: { q: { $glob: "x*" } } }), [["/steps/0/arguments/opts/q", 1]]],
    ["allow", intake("search", { q: { $enum: [{ $glob: "x*" }, "y"] } }), [["/steps/0/arguments/q/$enum/0", 1]]],
    ["allow", intake("search", { q: [{ $any: true }] }), [["/steps/0/arguments/q/0", 1]]],
    // open arguments on paths and commands
    ["allow", intake("write_file", { path: { $any: true }, content: "x" }), [["/steps/0/arguments/path", 1]]],
    ["allow", intake("read_file", { path: { $schema: { type: "string" } } }), [["/steps/0/arguments/path", 1]]],
    ["allow", intake("run", { command: { $any: true } }), [["/steps/0/arguments/command", 1]]],
    // constraints in scQC plans
    ["allow", JSON.stringify([{ tool: "read_file", params: { path: { $glob: "src/**" } } }]), [["/0/params/path", 1]]],
  ] as const)("%s: %s", async (mode, text, expected) => {
    expect(await found("argument-constraint", text, policy(mode))).toEqual(expected);
  });

  it.each([
    ["allow", intake("read_file", { path: { $glob: "src/**/*.py" } })],
    ["allow", intake("search", { query: { $regex: "[a-z]+" }, n: { $enum: [1, 2] }, mode: { $schema: { type: "string", maxLength: 3 } } })],
    ["allow", intake("write_file", { path: "out/a.txt", content: { $any: true } })],
    ["refuse", intake("query_db", { filter: { $literal: { $gt: 5 } } })],
    ["allow", intake("query_db", { filter: { $literal: { $gt: 5 } }, deep: { x: { $literal: { $in: [1] } } } })],
    ["refuse", intake("read_file", { path: "src/$x.txt", note: "$5 and ＄6" })],
  ] as const)("accepts %s: %s", async (mode, text) => {
    expect(await found("argument-constraint", text, policy(mode))).toEqual([]);
  });

  it("lets open arguments through with plan.allowOpenArguments", async () => {
    expect(await found("argument-constraint", intake("run", { command: { $any: true } }), policy("allow", true))).toEqual([]);
  });

  it("says what to change", async () => {
    const r = await run(intake("read_file", { path: { $glob: "src/**" } }), { policy: policy("refuse") });
    const d = r.diagnostics.find((x) => x.rule === "argument-constraint")!;
    expect(d.message).toContain("plan.constraints: refuse");
    expect(d.hint).toContain("plan.constraints: allow");
  });

  it("judges a Task step's nested steps like top-level steps", async () => {
    const text = JSON.stringify({
      steps: [{ tool: "Task", arguments: { prompt: "p" }, intent: "delegate", steps: [{ tool: "Read", arguments: { file_path: { $glob: "x", y: 1 } }, intent: "read" }] }],
    });
    expect(await found("argument-constraint", text, policy("allow"))).toEqual([["/steps/0/steps/0/arguments/file_path", 1]]);
  });
});
