import { Buffer } from "node:buffer";
import type { Plan } from "../core/plan.js";
import type { RuleContext } from "../core/rule.js";
import { actionOf } from "../core/step-extra.js";
import { contextPath, foldName, type InWorkspace } from "../core/path-service.js";

export { foldName };
import { EditedText, Finder } from "./edited-text.js";

/** How one FIND block fared against the target file as it stands when the edit runs. */
export interface FindResult {
  pair: number;
  count: number;
  /** The 1-based numbers of the lines that hold a match, each once, in order: the first MAX_LISTED_LINES + 1 of them. */
  lines: number[];
  /** How many lines hold a match. */
  lineCount: number;
  /** No match, but the REPLACE text is already there: the edit looks applied already. */
  applied: boolean;
}

/** What the workspace says about one action, computed once per plan for every TeDDy rule. */
export interface ActionFacts {
  resolved?: InWorkspace;
  /** Kind of the target before the action runs, after the earlier actions of the plan. */
  target: "file" | "dir" | "other" | "missing" | "unknown";
  inContext?: boolean;
  finds: FindResult[];
  /**
   * For a CREATE of a missing path: the existing file or folder (workspace-relative) that the path names on
   * a file system that ignores case or Unicode normalization or drops trailing dots and spaces (macOS,
   * Windows), or a file an earlier CREATE of the plan makes under such a spelling.
   */
  twin?: string;
}

export interface TeddyFacts {
  byStep: Map<number, ActionFacts>;
  hasContext: boolean;
  /** Set when the simulation stopped at a limit: the steps from this one on were not simulated. */
  limit?: TeddyLimit;
}

/** Largest file the simulation holds: FIND/REPLACE pairs that grow a file geometrically stop here. */
export const MAX_SIMULATED_FILE_BYTES = 32 * 1024 * 1024;
/** Bytes the simulation may scan and write for one plan (every FIND search and every edited copy). */
export const MAX_SIMULATION_WORK_BYTES = 256 * 1024 * 1024;
/** Most occurrences of one FIND block the simulation counts. */
export const MAX_FIND_HITS = 100_000;
/**
 * Work an occurrence costs, in bytes of MAX_SIMULATION_WORK_BYTES: each is found, counted and placed on
 * its line. A CREATE of 100,000 one-letter lines and 1,300 EDITs of that letter were 130 million
 * occurrences, whose line numbers (kept for every match) took 2.5 GB and over a minute.
 */
const WORK_PER_HIT = 128;
/** Lines with a match a FindResult lists (a report names the first 20 and counts the rest). */
export const MAX_LISTED_LINES = 20;


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

/** The lines that hold the matches at `indexes` (in order): the first MAX_LISTED_LINES + 1, and how many. */
function lineNumbers(bytes: Buffer, indexes: readonly number[]): { lines: number[]; lineCount: number } {
  const lines: number[] = [];
  let lineCount = 0;
  let line = 1;
  let pos = 0;
  let last = 0;
  for (const idx of indexes) {
    for (let nl = bytes.indexOf(10, pos); nl >= 0 && nl < idx; nl = bytes.indexOf(10, nl + 1)) {
      line++;
      pos = nl + 1;
    }
    if (line === last) continue;
    last = line;
    lineCount++;
    if (lines.length <= MAX_LISTED_LINES) lines.push(line);
  }
  return { lines, lineCount };
}

function utf8(text: string): Buffer {
  return Buffer.from(normalizeEol(text), "utf8");
}

/**
 * A file's bytes with line endings normalised to LF; read through the probe, once. `transient`: the caller
 * keeps them only until its next call to the probe (they may be a view into a buffer the probe reuses).
 */
function readNormalized(files: RuleContext["files"], abs: string, transient: boolean): Buffer {
  const raw = files.readBytes ? files.readBytes(abs, transient ? { transient } : undefined) : undefined;
  const bytes = raw ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) : Buffer.from(files.readText(abs) ?? "", "utf8");
  return bytes.includes(13) ? utf8(bytes.toString("utf8")) : bytes;
}

/**
 * How many non-overlapping occurrences a "match all" edit replaces, from every occurrence (in order):
 * left to right, each one that starts past the end of the last one taken.
 */
function countNonOverlapping(hits: readonly number[], length: number): number {
  let n = 0;
  let next = 0;
  for (const i of hits) {
    if (i < next) continue;
    n++;
    next = i + length;
  }
  return n;
}

/** Replaces every non-overlapping occurrence, left to right, as a "match all" edit does. */
function replaceAll(hay: Buffer, find: Finder, replace: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (const i of find.find(hay, Infinity, Infinity, false)) {
    parts.push(hay.subarray(from, i), replace);
    from = i + find.length;
  }
  parts.push(hay.subarray(from));
  return Buffer.concat(parts);
}

/**
 * Runs the plan's actions against a virtual copy of the workspace, as the executor would apply them:
 * a CREATE makes its file exist with its content, each FIND/REPLACE pair of an EDIT applies to the text
 * the previous pairs (and earlier EDITs) left. Each real file is read once, through ctx.files.
 */
export function teddyFacts(plan: Plan, ctx: RuleContext): TeddyFacts {
  return ctx.facts.derive(TEDDY, plan, () => simulate(plan, ctx));
}

/** Where the simulation stopped, as limit-exceeded words it (its message ids and data). */
export type TeddyLimit =
  | { step: number; messageId: "teddySimulationWork"; data: { step: number; mib: number } }
  | { step: number; messageId: "teddyFindHits"; data: { step: number; pair: number; max: number; path: string } }
  | { step: number; messageId: "teddyFileGrowth"; data: { step: number; pair: number; path: string; mib: number; max: number } };

const TEDDY = Symbol("teddy facts");


/**
 * The workspace-relative path of an existing entry that `abs` (missing as written) names where names are
 * folded (foldName), or undefined: each folder on the way is listed, and a name is taken as written when
 * the folder holds it, else as the one entry it folds to. Undefined when a folder cannot be listed.
 */
function diskTwin(abs: string, workspace: string, files: RuleContext["files"], folded: Map<string, Map<string, string> | undefined>): string | undefined {
  if (!files.list || !abs.startsWith(`${workspace}/`)) return undefined;
  const segs = abs.slice(workspace.length + 1).split("/");
  let dir = workspace;
  let rel = "";
  let differs = false;
  for (const seg of segs) {
    const listing = files.list(dir);
    if (!listing) return undefined;
    let name: string | undefined = seg;
    if (!listing.has(seg)) {
      let byFold = folded.get(dir);
      if (byFold === undefined && !folded.has(dir)) {
        byFold = new Map();
        for (const n of listing.keys()) byFold.set(foldName(n), n);
        folded.set(dir, byFold);
      }
      name = byFold?.get(foldName(seg));
      if (name === undefined) return undefined;
      differs = true;
    }
    dir = `${dir}/${name}`;
    rel = rel === "" ? name : `${rel}/${name}`;
  }
  return differs ? rel : undefined;
}
/** A file the simulation holds no text of any more: no later action touches it. */
const RELEASED = Symbol("released");

function simulate(plan: Plan, ctx: RuleContext): TeddyFacts {
  const workspace = ctx.policy.workspace;
  // Each file as the actions so far leave it; RELEASED once the last action touching it is done with it.
  const virtual = new Map<string, EditedText | typeof RELEASED>();
  const context = new Set((ctx.context ?? []).map((c) => contextPath(c, workspace)));
  const byStep = new Map<number, ActionFacts>();
  const paths = ctx.facts.paths;
  // The last action touching each file (keyed as the simulation keys files): its final edit need not be
  // applied (copying a large file for nothing), and its text need not be kept past it.
  const lastUse = new Map<string, number>();
  const resolvedOf = new Map<object, InWorkspace>();
  for (const step of plan.steps) {
    const path = actionOf(step)?.path;
    if (!path) continue;
    const resolved = paths.inWorkspace(path);
    resolvedOf.set(step, resolved);
    lastUse.set(resolved.abs, step.position);
  }
  let work = 0;
  let limit: TeddyFacts["limit"];
  // The files the plan creates, by their folded workspace-relative path; each folder's entries by folded name.
  const createdFolded = new Map<string, string>();
  const foldedListings = new Map<string, Map<string, string> | undefined>();
  const relative = (abs: string) => (abs.startsWith(`${workspace}/`) ? abs.slice(workspace.length + 1) : abs);
  const foldPath = (rel: string) => rel.split("/").map(foldName).join("/");
  for (const step of plan.steps) {
    const action = actionOf(step);
    if (!action) continue;
    const facts: ActionFacts = { target: "unknown", finds: [] };
    byStep.set(step.position, facts);
    if (action.path === undefined || action.path === "") continue;
    const resolved = resolvedOf.get(step) ?? paths.inWorkspace(action.path);
    facts.resolved = resolved;
    facts.inContext = context.has(resolved.abs) || virtual.has(resolved.abs);
    if (!resolved.inside) continue;
    const abs = resolved.abs;
    facts.target = virtual.has(abs) ? "file" : (resolved.kind ?? "missing");
    if (action.type === "CREATE" && facts.target === "missing" && !action.overwrite) {
      const created = createdFolded.get(foldPath(relative(abs)));
      facts.twin = created !== undefined ? relative(created) : diskTwin(abs, workspace, ctx.files, foldedListings);
    }
    if (action.type === "CREATE" && (facts.target === "missing" || action.overwrite)) {
      virtual.set(abs, new EditedText(utf8(action.content ?? "")));
      const folded = foldPath(relative(abs));
      if (!createdFolded.has(folded)) createdFolded.set(folded, abs);
    } else if (action.type === "EDIT" && facts.target === "file") {
      // Searched where it lies: a match is a byte offset, a line number is counted only for a report.
      // A file no later action touches is read into the probe's reused buffer, and released after this action.
      const last = lastUse.get(abs) === step.position;
      const held = virtual.get(abs);
      if (held === RELEASED) throw new Error(`the simulated text of ${abs} was released before its last use`);
      const text = held ?? new EditedText(readNormalized(ctx.files, abs, last));
      for (const [i, pair] of action.edits.entries()) {
        if (pair.find === undefined || pair.find === "") continue;
        const find = new Finder(utf8(pair.find));
        work += text.length;
        if (work > MAX_SIMULATION_WORK_BYTES) {
          limit = { step: step.position, messageId: "teddySimulationWork", data: { step: step.position, mib: MAX_SIMULATION_WORK_BYTES / 1024 / 1024 } };
          break;
        }
        // A match of a valid UTF-8 needle starts on a character boundary, so byte matches are the text's.
        const hits = text.occurrences(find, MAX_FIND_HITS);
        work += hits.length * WORK_PER_HIT;
        if (hits.length > MAX_FIND_HITS) {
          limit = { step: step.position, messageId: "teddyFindHits", data: { step: step.position, pair: i + 1, max: MAX_FIND_HITS, path: action.path } };
          break;
        }
        const replace = pair.replace === undefined ? undefined : utf8(pair.replace);
        const applied = hits.length === 0 && replace !== undefined && replace.length > 0 && text.includes(replace);
        facts.finds.push({ pair: i, count: hits.length, ...(hits.length > 1 ? lineNumbers(text.bytes(), hits) : { lines: [], lineCount: 0 }), applied });
        if (work > MAX_SIMULATION_WORK_BYTES) {
          limit = { step: step.position, messageId: "teddySimulationWork", data: { step: step.position, mib: MAX_SIMULATION_WORK_BYTES / 1024 / 1024 } };
          break;
        }
        if (replace === undefined || (i === action.edits.length - 1 && last)) continue;
        const replaced = hits.length === 1 ? 1 : hits.length > 1 && action.matchAll ? countNonOverlapping(hits, find.length) : 0;
        if (replaced === 0) continue;
        const size = text.length + replaced * (replace.length - find.length);
        if (size > MAX_SIMULATED_FILE_BYTES) {
          limit = { step: step.position, messageId: "teddyFileGrowth", data: { step: step.position, pair: i + 1, path: action.path, mib: Math.round(size / 1024 / 1024), max: MAX_SIMULATED_FILE_BYTES / 1024 / 1024 } };
          break;
        }
        work += size;
        if (hits.length === 1) text.replace(hits[0]!, find.length, replace);
        else text.set(replaceAll(text.bytes(), find, replace));
      }
      virtual.set(abs, last ? RELEASED : text);
      if (limit) break;
    }
  }
  return { byStep, hasContext: ctx.context !== undefined, ...(limit ? { limit } : {}) };
}
