/** Where a task sits in a TODO.md and what its section says. Offsets are 0-based into the text. */
export interface TodoTask {
  number: number;
  title: string;
  headingOffset: number;
  headingEnd: number;
  /** The Status value as written (`[PLANNED]`), if the section has one. */
  rawStatus?: string;
  statusOffset?: number;
  language?: string;
}

/** What a lookup found: the task, or the headings `### N.` that are not tasks (no Status line). */
export interface TodoLookup {
  task?: TodoTask;
  /** Headings with the number whose section has no Status line (section titles, not tasks). */
  nonTasks: { offset: number; title: string }[];
}

const FIELD =
  /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(status|language)(?::(?:\*\*|__)|(?:\*\*|__)?[ \t]*:)[ \t]*(.*?)[ \t]*$/i;

/** Offset where the body starts: after YAML front matter (`---` … `---`), if any. */
export function bodyStart(text: string): number {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith("---", start)) return start;
  const first = text.indexOf("\n", start);
  if (first < 0 || text.slice(start, first).trim() !== "---") return start;
  let p = first + 1;
  while (p < text.length) {
    const nl = text.indexOf("\n", p);
    const line = text.slice(p, nl < 0 ? text.length : nl).trim();
    if (line === "---" || line === "...") return nl < 0 ? text.length : nl + 1;
    if (nl < 0) break;
    p = nl + 1;
  }
  // Unclosed front matter: read it as Markdown rather than hide every task.
  start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return start;
}

/** A fenced-code tracker that moves forward only, jumping between fence markers with indexOf. */
class Fences {
  #pos: number;
  #open: { char: string; len: number } | undefined;
  #nextTick = -2;
  #nextTilde = -2;
  constructor(
    private readonly text: string,
    from: number,
  ) {
    this.#pos = from;
  }
  /** Is `offset` (at or after every earlier call's) inside a fenced block? */
  inside(offset: number): boolean {
    const t = this.text;
    for (;;) {
      if (this.#nextTick !== -1 && this.#nextTick < this.#pos) this.#nextTick = t.indexOf("```", this.#pos);
      if (this.#nextTilde !== -1 && this.#nextTilde < this.#pos) this.#nextTilde = t.indexOf("~~~", this.#pos);
      const m = minPos(this.#nextTick, this.#nextTilde);
      if (m < 0 || m >= offset) return this.#open !== undefined;
      const ls = t.lastIndexOf("\n", m - 1) + 1;
      const lineEnd = endOfLine(t, m);
      if (m - ls <= 3 && t.slice(ls, m).trim() === "") {
        const char = t[m]!;
        let run = 0;
        while (t[m + run] === char) run++;
        if (this.#open === undefined) this.#open = { char, len: run };
        else if (this.#open.char === char && run >= this.#open.len && t.slice(m + run, lineEnd).trim() === "")
          this.#open = undefined;
        this.#pos = lineEnd + 1;
      } else {
        this.#pos = m + 3;
      }
    }
  }
}

function minPos(a: number, b: number): number {
  if (a < 0) return b;
  if (b < 0) return a;
  return Math.min(a, b);
}

function endOfLine(t: string, from: number): number {
  const nl = t.indexOf("\n", from);
  return nl < 0 ? t.length : nl;
}

/**
 * Finds task N: a `### N. Title` heading outside fenced code whose section (up to the next heading of
 * level 1-3) has a Status line. Jumps with indexOf so a large TODO.md costs little more than a search.
 */
export function findTodoTask(text: string, n: number): TodoLookup {
  const needle = `### ${n}.`;
  const start = bodyStart(text);
  const fences = new Fences(text, start);
  const nonTasks: TodoLookup["nonTasks"] = [];
  let from = start;
  for (;;) {
    const pos = text.indexOf(needle, from);
    if (pos < 0) return { nonTasks };
    from = pos + needle.length;
    if (pos > start && text.charCodeAt(pos - 1) !== 10) continue;
    const after = text.charCodeAt(pos + needle.length);
    // "### 12.5" is a subsection, not task 12: the number must end the token.
    if (!(Number.isNaN(after) || after === 32 || after === 9 || after === 10 || after === 13)) continue;
    if (fences.inside(pos)) continue;
    const headingEnd = endOfLine(text, pos);
    const title = text.slice(pos + needle.length, headingEnd).trim();
    const task = readSection(text, n, pos, headingEnd, title);
    if (task.rawStatus !== undefined) return { task, nonTasks };
    nonTasks.push({ offset: pos, title });
  }
}

function readSection(text: string, n: number, pos: number, headingEnd: number, title: string): TodoTask {
  const task: TodoTask = { number: n, title, headingOffset: pos, headingEnd };
  let p = headingEnd + 1;
  let fence: string | undefined;
  while (p < text.length) {
    const e = endOfLine(text, p);
    const line = text.slice(p, e);
    const trimmed = line.trimStart();
    if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
      const marker = trimmed.slice(0, 3);
      if (fence === undefined) fence = marker;
      else if (fence === marker) fence = undefined;
    } else if (fence === undefined) {
      if (/^#{1,3}[ \t]/.test(line)) break;
      const m = FIELD.exec(line.replace(/\r$/, ""));
      if (m) {
        const key = m[1]!.toLowerCase();
        if (key === "status" && task.rawStatus === undefined) {
          task.rawStatus = m[2]!;
          task.statusOffset = p + line.indexOf(m[2]!);
        } else if (key === "language" && task.language === undefined) task.language = m[2]!;
      }
    }
    p = e + 1;
  }
  return task;
}

/** `[NOT STARTED]`, `Not Started`, `not-started` → `not_started` (the state.json spelling). */
export function normaliseStatus(raw: string): string {
  const bracket = /\[([^\]]+)\]/.exec(raw);
  const inner = bracket ? bracket[1]! : raw;
  return inner
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_")
    .replace(/[^a-z0-9_]/g, "");
}
