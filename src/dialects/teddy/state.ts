import type { Plan } from "../../core/plan.js";
import type { RuleContext } from "../../core/rule.js";
import { actionOf } from "./action.js";
import { contextPath, type Resolved, resolveInWorkspace } from "./paths.js";

/** How one FIND block fared against the target file as it stands when the edit runs. */
export interface FindResult {
  pair: number;
  count: number;
  /** 1-based line numbers of every match (overlapping ones included). */
  lines: number[];
  /** No match, but the REPLACE text is already there: the edit looks applied already. */
  applied: boolean;
}

/** What the workspace says about one action, computed once per plan for every TeDDy rule. */
export interface ActionFacts {
  resolved?: Resolved;
  /** Kind of the target before the action runs, after the earlier actions of the plan. */
  target: "file" | "dir" | "missing" | "unknown";
  inContext?: boolean;
  finds: FindResult[];
}

export interface TeddyFacts {
  byStep: Map<number, ActionFacts>;
  hasContext: boolean;
}

const memo = new WeakMap<Plan, TeddyFacts>();

/** Line endings normalised the same way on both sides of a FIND: CRLF and lone CR become LF. */
export function normalizeEol(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** Every start index of `needle` in `hay`, overlapping occurrences included ("aa" occurs twice in "aaa"). */
export function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === "") return out;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

function lineNumbers(text: string, indexes: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let pos = 0;
  for (const idx of indexes) {
    for (; pos < idx; pos++) if (text.charCodeAt(pos) === 10) line++;
    out.push(line);
  }
  return out;
}

/**
 * Runs the plan's actions against a virtual copy of the workspace, as the executor would apply them:
 * a CREATE makes its file exist with its content, each FIND/REPLACE pair of an EDIT applies to the text
 * the previous pairs (and earlier EDITs) left. Each real file is read once, through ctx.files.
 */
export function teddyFacts(plan: Plan, ctx: RuleContext): TeddyFacts {
  const cached = memo.get(plan);
  if (cached) return cached;
  const workspace = ctx.policy.workspace;
  const virtual = new Map<string, string>();
  const context = new Set((ctx.context ?? []).map((c) => contextPath(c, workspace)));
  const byStep = new Map<number, ActionFacts>();
  for (const step of plan.steps) {
    const action = actionOf(step);
    if (!action) continue;
    const facts: ActionFacts = { target: "unknown", finds: [] };
    byStep.set(step.position, facts);
    if (action.path === undefined || action.path === "") continue;
    const resolved = resolveInWorkspace(action.path, workspace, ctx.files);
    facts.resolved = resolved;
    facts.inContext = context.has(resolved.abs) || virtual.has(resolved.abs);
    if (!resolved.inside) continue;
    const abs = resolved.abs;
    if (virtual.has(abs)) facts.target = "file";
    else {
      let kind = ctx.files.kind(abs);
      if (kind === "symlink") {
        const real = ctx.files.realpath(abs);
        kind = real ? ctx.files.kind(real) : "missing";
      }
      facts.target = kind === "file" ? "file" : kind === "dir" ? "dir" : kind === "missing" ? "missing" : "file";
    }
    if (action.type === "CREATE" && (facts.target === "missing" || action.overwrite)) {
      virtual.set(abs, normalizeEol(action.content ?? ""));
    } else if (action.type === "EDIT" && facts.target === "file") {
      let text = virtual.get(abs) ?? normalizeEol(ctx.files.readText(abs) ?? "");
      action.edits.forEach((pair, i) => {
        if (pair.find === undefined || pair.find === "") return;
        const find = normalizeEol(pair.find);
        const hits = occurrences(text, find);
        const replace = pair.replace === undefined ? undefined : normalizeEol(pair.replace);
        const applied = hits.length === 0 && !!replace && text.includes(replace);
        facts.finds.push({ pair: i, count: hits.length, lines: hits.length > 1 ? lineNumbers(text, hits) : [], applied });
        if (replace === undefined) return;
        if (hits.length === 1) text = text.slice(0, hits[0]) + replace + text.slice(hits[0]! + find.length);
        else if (hits.length > 1 && action.matchAll) text = text.split(find).join(replace);
      });
      virtual.set(abs, text);
    }
  }
  const facts = { byStep, hasContext: ctx.context !== undefined };
  memo.set(plan, facts);
  return facts;
}
