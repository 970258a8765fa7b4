import type { TaskInput, TaskSource } from "../core/input/task.js";
import type { Policy } from "../core/policy.js";
import { LineIndex } from "../core/source.js";
import { DEFAULT_TASK_OPERATIONS } from "../policy/defaults.js";
import { taskNumber } from "../rules/tasks.js";
import { parseJson } from "../syntax/json.js";
import { type CheckResult, diagnosticsOf, findingsOf, isValid } from "./common.js";
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

/**
 * The orchestrator validation strategy's task checks: number format, existence in TODO.md / state.json, and
 * status vs operation. The files are searched here; the "task" rules (task-number-format, task-not-found,
 * task-status) judge what was found.
 */
export function checkTask(number: string, options: TaskCheckOptions): TaskCheckResult {
  const rules = options.policy?.rules ?? {};
  const operations = options.policy?.tasks?.operations ?? DEFAULT_TASK_OPERATIONS;
  const file = options.todo?.file ?? options.state?.file ?? "-";
  const n = taskNumber(number);
  const sources: TaskSource[] = [];
  let task: TaskInfo | undefined;
  // Nothing is looked up for a reference that is not a number.
  if (n !== undefined) {
    const info: TaskInfo = { number: n };
    let found = false;
    if (options.todo) {
      const lookup = findTodoTask(options.todo.text, n);
      const t = lookup.task;
      if (t) {
        found = true;
        const status = normaliseStatus(t.rawStatus!);
        info.title = t.title;
        info.status = status;
        if (t.language !== undefined) info.language = t.language;
        sources.push({ kind: "todo", file: options.todo.file, entry: { title: t.title, rawStatus: t.rawStatus!, status, statusOffset: t.statusOffset! } });
      } else {
        const non = lookup.nonTasks[0];
        const busy = lookup.tooBusy;
        sources.push({
          kind: "todo",
          file: options.todo.file,
          ...(non ? { heading: { title: non.title, offset: non.offset } } : {}),
          ...(busy ? { tooBusy: { what: busy.what, max: busy.max, line: busy.line } } : {}),
        });
      }
    }
    if (options.state) {
      const stateFile = options.state.file;
      const entry = findStateTask(options.state.text, n);
      if (entry.error) sources.push({ kind: "state", file: stateFile, error: entry.error });
      else if (!entry.project) sources.push({ kind: "state", file: stateFile });
      else {
        found = true;
        const p = entry.project;
        if (typeof p.project_name === "string" && info.title === undefined) info.title = p.project_name;
        if (typeof p.language === "string") info.language = p.language;
        const status = typeof p.status === "string" ? { rawStatus: p.status, status: normaliseStatus(p.status) } : {};
        if (status.status !== undefined) info.status = status.status;
        sources.push({ kind: "state", file: stateFile, entry: status });
      }
    }
    if (found) task = info;
  }
  const input: TaskInput = {
    reference: number,
    text: options.todo?.text ?? "",
    file,
    sources,
    ...(options.operation !== undefined ? { operation: options.operation } : {}),
    operations,
  };
  const diagnostics = diagnosticsOf(findingsOf("task", input, rules), rules, undefined, new LineIndex(input.text));
  return { file, valid: isValid(diagnostics), diagnostics, ...(task ? { task } : {}) };
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
