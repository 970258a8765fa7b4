import { describe, expect, it } from "vitest";
import { checkTask } from "../../orchestration/task.js";
import { rules, task } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { TASK_TODO, TODO_12, taskInput } from "../../../test/kind-inputs.js";

describe("task-not-found", () => {
  it("says so in the orchestrator validation strategy's words", () => {
    const r = task("999");
    expect(rules(r)).toEqual(["task-not-found"]);
    expect(r.diagnostics[0]!.message).toBe("Task 999 not found in TODO.md");
    expect(r.diagnostics[0]!.file).toBe("TODO.md");
  });
  it("finds a task: title, normalised status and language", () => {
    const r = task("12");
    expect(r.valid).toBe(true);
    expect(r.task).toEqual({ number: 12, title: "Fix the parser", status: "planned", language: "lean4" });
    expect(task("3").task?.status).toBe("completed");
    expect(task("5").task).toEqual({ number: 5, title: "Write the docs", status: "not_started", language: "markdown" });
  });
  it("reads leading zeros as the same number", () => {
    expect(task("012").task?.number).toBe(12);
  });
  it("does not take a numbered section title without a Status line for a task, and says why", () => {
    const r = task("0");
    expect(rules(r)).toEqual(["task-not-found"]);
    expect(r.diagnostics[0]!.hint).toContain("section heading");
    expect(r.diagnostics[0]!.line).toBe(11);
  });
  it("ignores headings in fenced code and subsection numbers", () => {
    expect(rules(task("7"))).toEqual(["task-not-found"]);
    expect(task("12").task?.title).toBe("Fix the parser");
  });
  it("skips YAML front matter", () => {
    const text = "---\nnote: |\n  x\n### 4. in front matter\n- **Status**: [PLANNED]\n---\n# TODO\n";
    expect(rules(checkTask("4", { todo: { text, file: "TODO.md" } }))).toEqual(["task-not-found"]);
  });
  it("checks state.json's active_projects too, and both when both are given", () => {
    const state = JSON.stringify({ active_projects: [{ project_number: "12", status: "planned" }] });
    expect(rules(checkTask("12", { state: { text: state, file: "state.json" } }))).toEqual([]);
    const r = checkTask("5", { state: { text: state, file: "state.json" } });
    expect(r.diagnostics[0]!.message).toBe("Task 5 not found in state.json");
    const both = task("3", { withState: true });
    expect(rules(both)).toEqual(["task-not-found"]);
    expect(both.diagnostics[0]!.file).toBe("state.json");
  });
  it("reports a state.json that cannot be read instead of passing", () => {
    const r = checkTask("12", { state: { text: "{oops", file: "state.json" } });
    expect(rules(r)).toEqual(["task-not-found"]);
    expect(r.diagnostics[0]!.message).toContain("not valid JSON");
    expect(rules(checkTask("12", { state: { text: "[]", file: "state.json" } }))).toEqual(["task-not-found"]);
  });
  it("reports a TODO file too busy to read as CommonMark instead of looking it up partly", () => {
    // Setext headings need the CommonMark reading; 200,000 of them make 600,000 tokens.
    const text = "# TODO\n\n### 4. Task\n- **Status**: [PLANNED]\n\n" + "a\n=\n".repeat(200_000);
    const r = checkTask("4", { todo: { text, file: "TODO.md" } });
    expect(rules(r)).toEqual(["task-not-found"]);
    expect(r.diagnostics[0]!.message).toBe("Task 4 cannot be looked up: TODO.md makes more than 250000 Markdown tokens by line 166666, too many to read.");
    const lines = "---\nx: 1\n---\n# TODO\n\nTitle\n=\n\n### 4. Task\n- **Status**: [PLANNED]\n" + "\n".repeat(500_000);
    expect(checkTask("4", { todo: { text: lines, file: "TODO.md" } }).diagnostics[0]!.message).toBe(
      "Task 4 cannot be looked up: TODO.md has more than 500000 lines, too many to read as Markdown.",
    );
  });
  it("finds the last of 2,000 tasks", () => {
    const parts = ["# TODO", ""];
    for (let i = 2000; i >= 1; i--) parts.push(`### ${i}. Task ${i}`, `- **Status**: [PLANNED]`, `- **Language**: lean4`, "", "Text.", "");
    const text = parts.join("\n");
    expect(checkTask("1", { todo: { text, file: "TODO.md" } }).task?.title).toBe("Task 1");
    expect(rules(checkTask("2001", { todo: { text, file: "TODO.md" } }))).toEqual(["task-not-found"]);
  });
});

kindRuleTester("task-not-found", "task", {
  text: (input) => input.text,
  valid: [
    { name: "found in TODO.md", input: taskInput("12", [TODO_12]) },
    { name: "found in state.json", input: taskInput("12", [{ kind: "state", file: "state.json", entry: { rawStatus: "planned", status: "planned" } }]) },
    { name: "not a number: looked up nowhere", input: taskInput("x", []) },
  ],
  invalid: [
    { name: "no such task in TODO.md", input: taskInput("13", [{ kind: "todo", file: "specs/TODO.md" }]), errors: [{ messageId: "notInTodo", message: "Task 13 not found in TODO.md" }] },
    {
      name: "a heading without a Status line",
      input: taskInput("7", [{ kind: "todo", file: "TODO.md", heading: { title: "Phase B", offset: TASK_TODO.indexOf("### 7") } }]),
      errors: [{ messageId: "headingOnly", line: 5, column: 1, hint: '"### 7. Phase B" has no Status line, so it is a section heading, not a task; check the task number' }],
    },
    {
      name: "state.json that cannot be searched",
      input: taskInput("12", [{ kind: "state", file: "specs/state.json", error: "has no active_projects array" }]),
      errors: [{ messageId: "stateUnreadable", message: "Task 12 cannot be looked up: state.json has no active_projects array." }],
    },
    {
      name: "a TODO file with too many lines to read",
      input: taskInput("12", [{ kind: "todo", file: "TODO.md", tooBusy: { what: "lines", max: 500_000, line: 500_000 } }]),
      errors: [{ messageId: "todoTooManyLines", message: "Task 12 cannot be looked up: TODO.md has more than 500000 lines, too many to read as Markdown." }],
    },
    {
      name: "a TODO file with too many Markdown tokens to read",
      input: taskInput("12", [{ kind: "todo", file: "TODO.md", tooBusy: { what: "tokens", max: 250_000, line: 9 } }]),
      errors: [{ messageId: "todoTooManyTokens", message: "Task 12 cannot be looked up: TODO.md makes more than 250000 Markdown tokens by line 10, too many to read." }],
    },
    { name: "no such project in state.json", input: taskInput("13", [{ kind: "state", file: "state.json" }]), errors: [{ messageId: "notInState", pointer: "/active_projects" }] },
  ],
});
