import { describe, expect, it } from "vitest";
import { ruleTester } from "../../../test/rule-tester.js";
import { constraintProblems } from "../../commands/constraint-check.js";
import type { Step } from "../../core/plan.js";
import { reportText } from "../../core/rule.js";
import argumentConstraint from "./index.js";
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
    { code: intake("read_file", { path: { $glob: "src/**" } }), options: policy("refuse"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 69, step: 1, pointer: "/steps/0/arguments/path", messageId: "constraintsRefused" }] },
    { code: intake("read_file", { path: "a", opts: { deep: [{ $any: true }] } }), options: policy("refuse"), errors: [{ line: 1, column: 71, endLine: 1, endColumn: 84, step: 1, pointer: "/steps/0/arguments/opts/deep/0", messageId: "constraintsRefused" }] },
    { code: ikoma("read_file", { path: { $enum: ["a", "b"] } }), options: policy("refuse"), errors: [{ line: 1, column: 59, endLine: 1, endColumn: 78, step: 1, pointer: "/plan/0/args/path", messageId: "constraintsRefused" }] },
    { code: intake("query_db", { filter: { $gt: 5 } }), options: policy("refuse"), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 61, step: 1, pointer: "/steps/0/arguments/filter", messageId: "constraintsRefused" }] },
    // look-alikes of $ in every mode, reported at the key
    { code: intake("read_file", { path: { "＄glob": "**" } }), options: policy("refuse"), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 59, step: 1, pointer: "/steps/0/arguments/path/＄glob", messageId: "lookalikeKey" }] },
    { code: intake("read_file", { path: { "\u200b$glob": "**" } }), options: policy("allow"), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 60, step: 1, pointer: "/steps/0/arguments/path/\u200b$glob", messageId: "lookalikeKey" }] },
    // malformed constraints when allowed
    { code: intake("read_file", { path: { $glob: "src/**", other: 1 } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 79, step: 1, pointer: "/steps/0/arguments/path", messageId: "invalidConstraint" }] },
    { code: intake("read_file", { path: { $glob: "" } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 63, step: 1, pointer: "/steps/0/arguments/path", messageId: "invalidConstraint" }] },
    { code: intake("read_file", { path: { $globb: "x" } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 65, step: 1, pointer: "/steps/0/arguments/path", messageId: "invalidConstraint" }] },
    { code: intake("read_file", { path: { $any: 1 } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 61, step: 1, pointer: "/steps/0/arguments/path", messageId: "invalidConstraint" }] },
    { code: intake("search", { query: { $regex: "(a)\\1" } }), options: policy("allow"), errors: [{ line: 1, column: 59, endLine: 1, endColumn: 67, step: 1, pointer: "/steps/0/arguments/query/$regex", messageId: "unusableRegex" }] },
    { code: intake("search", { query: { $regex: "(?<=a)b" } }), options: policy("allow"), errors: [{ line: 1, column: 59, endLine: 1, endColumn: 68, step: 1, pointer: "/steps/0/arguments/query/$regex", messageId: "unusableRegex" }] },
    { code: intake("search", { query: { $schema: { $ref: "https://example.org/s.json" } } }), options: policy("allow"), errors: [{ line: 1, column: 60, endLine: 1, endColumn: 97, step: 1, pointer: "/steps/0/arguments/query/$schema", messageId: "unusableSchema" }] },
    { code: intake("search", { query: { $schema: { type: "strin" } } }), options: policy("allow"), errors: [{ line: 1, column: 60, endLine: 1, endColumn: 76, step: 1, pointer: "/steps/0/arguments/query/$schema", messageId: "unusableSchema" }] },
    { code: intake("search", { query: { $schema: { type: "string", pattern: "(a+)+\\1" } } }), options: policy("allow"), errors: [{ line: 1, column: 60, endLine: 1, endColumn: 98, step: 1, pointer: "/steps/0/arguments/query/$schema", messageId: "unusableSchema" }] },
    // constraints are whole top-level values; deeper only $literal
    { code: intake("search", { opts: { q: { $glob: "x*" } } }), options: policy("allow"), errors: [{ line: 1, column: 53, endLine: 1, endColumn: 67, step: 1, pointer: "/steps/0/arguments/opts/q", messageId: "nestedConstraint" }] },
    { code: intake("search", { q: { $enum: [{ $glob: "x*" }, "y"] } }), options: policy("allow"), errors: [{ line: 1, column: 55, endLine: 1, endColumn: 69, step: 1, pointer: "/steps/0/arguments/q/$enum/0", messageId: "nestedConstraint" }] },
    { code: intake("search", { q: [{ $any: true }] }), options: policy("allow"), errors: [{ line: 1, column: 46, endLine: 1, endColumn: 59, step: 1, pointer: "/steps/0/arguments/q/0", messageId: "nestedConstraint" }] },
    // open arguments on paths and commands
    { code: intake("write_file", { path: { $any: true }, content: "x" }), options: policy("allow"), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 65, step: 1, pointer: "/steps/0/arguments/path", messageId: "openWrittenPath" }] },
    { code: intake("read_file", { path: { $schema: { type: "string" } } }), options: policy("allow"), errors: [{ line: 1, column: 51, endLine: 1, endColumn: 80, step: 1, pointer: "/steps/0/arguments/path", messageId: "openPath" }] },
    { code: intake("run", { command: { $any: true } }), options: policy("allow"), errors: [{ line: 1, column: 48, endLine: 1, endColumn: 61, step: 1, pointer: "/steps/0/arguments/command", messageId: "openCommand" }] },
    // constraints in scQC plans
    { code: JSON.stringify([{ tool: "read_file", params: { path: { $glob: "src/**" } } }]), options: policy("allow"), errors: [{ line: 1, column: 39, endLine: 1, endColumn: 57, step: 1, pointer: "/0/params/path", messageId: "constraintInDialect" }] },
    {
      name: "a refused constraint says what to change",
      code: intake("read_file", { path: { $glob: "src/**" } }),
      options: policy("refuse"),
      errors: [{ line: 1, column: 51, endLine: 1, endColumn: 69, message: /plan\.constraints: refuse/, hint: /plan\.constraints: allow/, messageId: "constraintsRefused" }],
    },
    {
      name: "a path $glob that cannot be read, an $enum of more than 1000 values, a malformed constraint inside a value",
      code: intake("write_file", { path: { $glob: "src/[" }, mode: { $enum: Array.from({ length: 1001 }, (_, i) => i) }, opts: { deep: { $glob: "x", y: 1 } } }),
      options: policy("allow"),
      errors: [
        { step: 1, pointer: "/steps/0/arguments/path/$glob", messageId: "unreadableGlob", message: 'Step 1: argument "path": the path $glob cannot be read: an unclosed [.', hint: "write a plain glob: *, **, ?, [abc], [a-z], {a,b}" },
        { step: 1, pointer: "/steps/0/arguments/mode/$enum", messageId: "enumTooLarge", message: 'Step 1: argument "mode": the $enum has 1001 values, over 1000.', hint: "list fewer values, or split the step" },
        { step: 1, pointer: "/steps/0/arguments/opts/deep", messageId: "invalidNestedConstraint", message: /^Step 1: a value inside an argument is no valid constraint: an object with a "\$" key is a constraint and has exactly one key/ },
      ],
    },
    {
      name: "a Task step's nested steps, judged like top-level steps",
      code: JSON.stringify({
        steps: [{ tool: "Task", arguments: { prompt: "p" }, intent: "delegate", steps: [{ tool: "Read", arguments: { file_path: { $glob: "x", y: 1 } }, intent: "read" }] }],
      }),
      options: policy("allow"),
      errors: [{ line: 1, column: 122, endLine: 1, endColumn: 141, step: 1, pointer: "/steps/0/steps/0/arguments/file_path", messageId: "invalidConstraint" }],
    },
  ],
  docs: {
    file: "plan.yaml",
    options: policy("allow"),
    wrap: (example) => `steps:\n  - tool: read_file\n    intent: read the sources\n    ${example}\n`,
  },
});

// Without the JSON Schema checker (it could not be loaded), a $schema cannot be used: refused, not skipped.
describe("argument-constraint without the JSON Schema checker", () => {
  it("schemaCheckerNotLoaded: a $schema is refused", () => {
    const args = { query: { $schema: { type: "string" } } };
    const step: Step = { position: 1, at: "/steps/0", tool: "search", toolAt: "/steps/0/tool", args, argsAt: "/steps/0/arguments", raw: { tool: "search", arguments: args } };
    const problems = constraintProblems(step, undefined, () => false);
    expect(problems).toEqual([{ at: "/steps/0/arguments/query/$schema", messageId: "schemaCheckerNotLoaded", data: { key: "query" } }]);
    expect(reportText(argumentConstraint.meta, { messageId: problems[0]!.messageId, data: { ...problems[0]!.data, step: 1 } })).toEqual({
      message: 'Step 1: argument "query": the $schema cannot be used: the JSON Schema checker could not be loaded.',
      hint: "write a small self-contained JSON Schema (2020-12) with no $ref outside it",
    });
  });
});
