import { ruleTester } from "../../../test/rule-tester.js";
import { defaultPolicy } from "../../policy/defaults.js";
import type { Policy } from "../../core/policy.js";

const policy = (constraints: "allow" | "refuse", allowOpenArguments = false, commands: string[] = []): { policy: Policy } => {
  const p = defaultPolicy("/ws");
  p.plan = { ...p.plan, constraints, allowOpenArguments };
  p.commands = { ...p.commands, allow: commands };
  return { policy: p };
};
const intake = (tool: string, args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool, arguments: args, intent: "do it" }] });
const ikoma = (tool: string, args: Record<string, unknown>) => JSON.stringify({ plan: [{ step: 1, tool_name: tool, args, description: "do it" }], reasoning: "r" });

ruleTester("argument-constraint", {
  valid: [
    { code: intake("read_file", { path: { $glob: "src/**/*.py" } }), options: policy("allow") },
    { code: intake("search", { query: { $regex: "[a-z]+" }, n: { $enum: [1, 2] }, mode: { $schema: { type: "string", maxLength: 3 } } }), options: policy("allow") },
    { code: intake("write_file", { path: "out/a.txt", content: { $any: true } }), options: policy("allow") },
    { code: intake("query_db", { filter: { $literal: { $gt: 5 } } }), options: policy("refuse") },
    { code: intake("query_db", { filter: { $literal: { $gt: 5 } }, deep: { x: { $literal: { $in: [1] } } } }), options: policy("allow") },
    { code: intake("read_file", { path: "src/$x.txt", note: "$5 and ＄6" }), options: policy("refuse") },
    { name: "open arguments with plan.allowOpenArguments", code: intake("run", { command: { $any: true } }), options: policy("allow", true) },
  ],
  invalid: [
    // refused by default: any $ object but $literal, at any depth
    { code: intake("read_file", { path: { $glob: "src/**" } }), options: policy("refuse"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 69, step: 1, pointer: "/steps/0/arguments/path" }] },
    { code: intake("read_file", { path: "a", opts: { deep: [{ $any: true }] } }), options: policy("refuse"), errors: [{ line: 1, column: 71, endLine: 1, endColumn: 84, step: 1, pointer: "/steps/0/arguments/opts/deep/0" }] },
    { code: ikoma("read_file", { path: { $enum: ["a", "b"] } }), options: policy("refuse"), errors: [{ line: 1, column: 59, endLine: 1, endColumn: 78, step: 1, pointer: "/plan/0/args/path" }] },
    { code: intake("query_db", { filter: { $gt: 5 } }), options: policy("refuse"), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 61, step: 1, pointer: "/steps/0/arguments/filter" }] },
    // look-alikes of $ in every mode, reported at the key
    { code: intake("read_file", { path: { "＄glob": "**" } }), options: policy("refuse"), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 59, step: 1, pointer: "/steps/0/arguments/path/＄glob" }] },
    { code: intake("read_file", { path: { "\u200b$glob": "**" } }), options: policy("allow"), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 60, step: 1, pointer: "/steps/0/arguments/path/\u200b$glob" }] },
    // malformed constraints when allowed
    { code: intake("read_file", { path: { $glob: "src/**", other: 1 } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 79, step: 1, pointer: "/steps/0/arguments/path" }] },
    { code: intake("read_file", { path: { $glob: "" } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 63, step: 1, pointer: "/steps/0/arguments/path" }] },
    { code: intake("read_file", { path: { $globb: "x" } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 65, step: 1, pointer: "/steps/0/arguments/path" }] },
    { code: intake("read_file", { path: { $any: 1 } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 61, step: 1, pointer: "/steps/0/arguments/path" }] },
    { code: intake("search", { query: { $regex: "(a)\\1" } }), options: policy("allow"), errors: [{ line: 1, column: 59, endLine: 1, endColumn: 67, step: 1, pointer: "/steps/0/arguments/query/$regex" }] },
    { code: intake("search", { query: { $regex: "(?<=a)b" } }), options: policy("allow"), errors: [{ line: 1, column: 59, endLine: 1, endColumn: 68, step: 1, pointer: "/steps/0/arguments/query/$regex" }] },
    { code: intake("search", { query: { $schema: { $ref: "https://example.org/s.json" } } }), options: policy("allow"), errors: [{ line: 1, column: 60, endLine: 1, endColumn: 97, step: 1, pointer: "/steps/0/arguments/query/$schema" }] },
    { code: intake("search", { query: { $schema: { type: "strin" } } }), options: policy("allow"), errors: [{ line: 1, column: 60, endLine: 1, endColumn: 76, step: 1, pointer: "/steps/0/arguments/query/$schema" }] },
    { code: intake("search", { query: { $schema: { type: "string", pattern: "(a+)+\\1" } } }), options: policy("allow"), errors: [{ line: 1, column: 60, endLine: 1, endColumn: 98, step: 1, pointer: "/steps/0/arguments/query/$schema" }] },
    // constraints are whole top-level values; deeper only $literal
    { code: intake("search", { opts: { q: { $glob: "x*" } } }), options: policy("allow"), errors: [{ line: 1, column: 53, endLine: 1, endColumn: 67, step: 1, pointer: "/steps/0/arguments/opts/q" }] },
    { code: intake("search", { q: { $enum: [{ $glob: "x*" }, "y"] } }), options: policy("allow"), errors: [{ line: 1, column: 55, endLine: 1, endColumn: 69, step: 1, pointer: "/steps/0/arguments/q/$enum/0" }] },
    { code: intake("search", { q: [{ $any: true }] }), options: policy("allow"), errors: [{ line: 1, column: 46, endLine: 1, endColumn: 59, step: 1, pointer: "/steps/0/arguments/q/0" }] },
    // open arguments on paths and commands
    { code: intake("write_file", { path: { $any: true }, content: "x" }), options: policy("allow"), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 65, step: 1, pointer: "/steps/0/arguments/path" }] },
    { code: intake("read_file", { path: { $schema: { type: "string" } } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 80, step: 1, pointer: "/steps/0/arguments/path" }] },
    { code: intake("run", { command: { $any: true } }), options: policy("allow"), errors: [{ line: 1, column: 48, endLine: 1, endColumn: 61, step: 1, pointer: "/steps/0/arguments/command" }] },
    // constraints in scQC plans
    { code: JSON.stringify([{ tool: "read_file", params: { path: { $glob: "src/**" } } }]), options: policy("allow"), errors: [{ line: 1, column: 39, endLine: 1, endColumn: 57, step: 1, pointer: "/0/params/path" }] },
    {
      name: "a refused constraint says what to change",
      code: intake("read_file", { path: { $glob: "src/**" } }),
      options: policy("refuse"),
      errors: [{ line: 1, column: 51, endLine: 1, endColumn: 69, message: /plan\.constraints: refuse/, hint: /plan\.constraints: allow/ }],
    },
    {
      name: "a Task step's nested steps, judged like top-level steps",
      code: JSON.stringify({
        steps: [{ tool: "Task", arguments: { prompt: "p" }, intent: "delegate", steps: [{ tool: "Read", arguments: { file_path: { $glob: "x", y: 1 } }, intent: "read" }] }],
      }),
      options: policy("allow"),
      errors: [{ line: 1, column: 122, endLine: 1, endColumn: 141, step: 1, pointer: "/steps/0/steps/0/arguments/file_path" }],
    },
  ],
  docs: {
    file: "plan.yaml",
    options: policy("allow"),
    wrap: (example) => `steps:\n  - tool: read_file\n    intent: read the sources\n    ${example}\n`,
  },
});
