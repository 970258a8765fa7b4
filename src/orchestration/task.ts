import { basename } from "node:path";
import { LineIndex } from "../core/source.js";
import { closest } from "../core/tools.js";
import { DEFAULT_TASK_OPERATIONS } from "../policy/defaults.js";
import type { Policy } from "../core/policy.js";
import { parseJson } from "../syntax/json.js";
import { type CheckResult, type Finding, isValid, quoteList, toDiagnostics } from "./common.js";
import { findTodoTask, normaliseStatus } from "./todo.js";
import { readFactText } from "../rules/read-text.js";

/** A text to check and the name it is reported under. */
export interface NamedText {
  text: string;
  file: string;
}

/** What the task check learned about the task. */
export interface TaskInfo {
  number: number;
  title?: string;
  /** Normalised (snake_case, as state.json writes it): `not_started`, `planned`… */
  status?: string;
  language?: string;
}

export interface TaskCheckOptions {
  /** TODO.md: tasks are `### N. Title` headings whose section has a Status line. */
  todo?: NamedText;
  /** state.json: `active_projects[].project_number`. */
  state?: NamedText;
  /** The operation about to run (`research`, `plan`, `implement`…); checked against `tasks.operations`. */
  operation?: string;
  policy?: Partial<Pick<Policy, "tasks" | "rules">>;
}

export interface TaskCheckResult extends CheckResult {
  task?: TaskInfo;
}

const NUMBER = /^\d+$/;

/** The orchestrator validation strategy's task checks: number format, existence in TODO.md / state.json, and status vs operation. */
export function checkTask(number: string, options: TaskCheckOptions): TaskCheckResult {
  const rules = options.policy?.rules ?? {};
  const operations = options.policy?.tasks?.operations ?? DEFAULT_TASK_OPERATIONS;
  const file = options.todo?.file ?? options.state?.file ?? "-";
  const out = (diagnostics: TaskCheckResult["diagnostics"], task?: TaskInfo): TaskCheckResult => ({
    file,
    valid: isValid(diagnostics),
    diagnostics,
    ...(task ? { task } : {}),
  });

  const trimmed = number.trim();
  if (!NUMBER.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    const f: Finding = {
      rule: "task-number-format",
      message: `Task number "${number}" is not a number; give the task's digits only, e.g. "42".`,
      hint: "task numbers match ^\\d+$",
      expected: "^\\d+$",
      actual: number,
    };
    return out(toDiagnostics([f], rules, undefined));
  }
  const n = Number(trimmed);
  const diagnostics: TaskCheckResult["diagnostics"] = [];
  const task: TaskInfo = { number: n };
  const statuses: { status: string; raw: string; file: string; lines?: LineIndex; offset?: number }[] = [];
  let found = false;

  if (options.todo) {
    const { text, file: todoFile } = options.todo;
    const lookup = findTodoTask(text, n);
    const lines = new LineIndex(text);
    if (lookup.task) {
      found = true;
      const t = lookup.task;
      task.title = t.title;
      task.status = normaliseStatus(t.rawStatus!);
      if (t.language !== undefined) task.language = t.language;
      statuses.push({ status: task.status, raw: t.rawStatus!, file: todoFile, lines, offset: t.statusOffset });
    } else {
      const non = lookup.nonTasks[0];
      const f: Finding = {
        rule: "task-not-found",
        message: `Task ${n} not found in ${basename(todoFile)}`,
        hint: non
          ? `"### ${n}. ${non.title}" has no Status line, so it is a section heading, not a task; check the task number`
          : `add a "### ${n}. Title" heading with a "- **Status**:" line, or check the task number`,
      };
      if (non) f.offset = non.offset;
      diagnostics.push(...toDiagnostics([f], rules, todoFile, lines));
    }
  }

  if (options.state) {
    const { file: stateFile } = options.state;
    const entry = findStateTask(options.state.text, n);
    if (entry.error) {
      diagnostics.push(
        ...toDiagnostics(
          [{ rule: "task-not-found", message: `Task ${n} cannot be looked up: ${basename(stateFile)} ${entry.error}.`, hint: "fix or regenerate state.json" }],
          rules,
          stateFile,
        ),
      );
    } else if (!entry.project) {
      diagnostics.push(
        ...toDiagnostics(
          [
            {
              rule: "task-not-found",
              message: `Task ${n} not found in ${basename(stateFile)}`,
              hint: "no active_projects entry has this project_number; check the task number or sync state.json with TODO.md",
              pointer: "/active_projects",
            },
          ],
          rules,
          stateFile,
        ),
      );
    } else {
      found = true;
      const p = entry.project;
      if (typeof p.project_name === "string" && task.title === undefined) task.title = p.project_name;
      if (typeof p.language === "string") task.language = p.language;
      if (typeof p.status === "string") {
        const s = normaliseStatus(p.status);
        task.status = s;
        statuses.push({ status: s, raw: p.status, file: stateFile });
      }
    }
  }

  if (found && options.operation !== undefined) {
    const op = options.operation;
    // Own keys only: "constructor" or "__proto__" must not find Object.prototype members.
    const allowed = Object.hasOwn(operations, op) && Array.isArray(operations[op]) ? operations[op] : undefined;
    if (!allowed) {
      const near = closest(op, Object.keys(operations));
      const f: Finding = {
        rule: "task-status",
        message: `Unknown operation "${op}"; task statuses are checked only for ${quoteList(Object.keys(operations), "and")}.`,
        hint: near ? `did you mean "${near}"?` : "add it to tasks.operations in plangate.yaml",
        expected: Object.keys(operations),
        actual: op,
      };
      diagnostics.push(...toDiagnostics([f], rules, file));
    } else {
      for (const s of statuses) {
        if (allowed.includes(s.status)) continue;
        const f: Finding = {
          rule: "task-status",
          message: `Task ${n} is ${s.raw} in ${basename(s.file)}; "${op}" is allowed only from ${allowed.length ? quoteList(allowed) : "no status"}.`,
          hint: hintFor(s.status, op, operations),
          expected: allowed,
          actual: s.status,
        };
        if (s.offset !== undefined) f.offset = s.offset;
        diagnostics.push(...toDiagnostics([f], rules, s.file, s.lines));
      }
    }
  }
  return out(diagnostics, found ? task : undefined);
}

function hintFor(status: string, op: string, operations: Record<string, string[]>): string {
  const ok = Object.keys(operations).filter((o) => o !== op && operations[o]!.includes(status));
  return ok.length
    ? `from ${status} run ${quoteList(ok)} instead, or change tasks.operations.${op} in plangate.yaml`
    : `no operation starts from ${status}; change the task's status first, or tasks.operations.${op} in plangate.yaml`;
}

interface StateProject {
  project_number?: unknown;
  project_name?: unknown;
  status?: unknown;
  language?: unknown;
}

function findStateTask(text: string, n: number): { project?: StateProject; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    const issue = parseJson(text).issues[0];
    return { error: `is not valid JSON${issue ? ` (${readFactText(issue).message})` : ""}` };
  }
  const projects = (value as { active_projects?: unknown } | null)?.active_projects;
  if (!Array.isArray(projects)) return { error: "has no active_projects array" };
  for (const p of projects) {
    if (p === null || typeof p !== "object") continue;
    const num = (p as StateProject).project_number;
    if (num === n || (typeof num === "string" && NUMBER.test(num) && Number(num) === n)) return { project: p as StateProject };
  }
  return {};
}
