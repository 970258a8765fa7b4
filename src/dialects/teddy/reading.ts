/**
 * One reading of a plan.md: TeDDy's.
 *
 * TeDDy runs a plan.md as its own parser reads it (mistletoe 1.x plus TeDDy's pre-processing and
 * metadata rules), not as CommonMark reads it. plangate reads with markdown-it, so this module
 * (1) refuses every line whose block structure the two parsers could read differently (a whitelist
 * of plain line forms), and (2) computes TeDDy's reading of the actions from the same blocks, so the
 * dialect can refuse a plan whose actions plangate reads otherwise. The differential suite
 * (test/teddy-differential.test.ts) checks against TeDDy's parser itself that what plangate accepts
 * TeDDy reads the same.
 */
import type { MarkdownDocument, MdBlock } from "../../syntax/markdown.js";
import { teddyPreprocess } from "../../syntax/teddy-preprocess.js";
import type { MessageData } from "../../core/rule.js";
import { trimEndOf } from "../../core/text.js";

/** A line plangate refuses: an unsafe-value fact, its message (`messageId`) and the message's data. */
export interface ReadingIssue {
  /** 1-based line. */
  line: number;
  messageId: string;
  data: MessageData;
}

type Add = (line: number, messageId: string, data: MessageData) => void;

type Heading = Extract<MdBlock, { kind: "heading" }>;

/**
 * Characters TeDDy and plangate do not treat alike: Python's str.splitlines() breaks lines at
 * VT, FF, FS, GS, RS, NEL, U+2028 and U+2029, and Python's whitespace (str.strip, str.split, `\s`)
 * includes no-break and other Unicode spaces that CommonMark reads as text. NUL and other controls
 * are refused too (markdown-it replaces NUL), and a CR not followed by LF (TeDDy's regexes do not
 * take it for a line end). A byte order mark is removed by plangate, kept as text by TeDDy.
 */
const FOREIGN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]|\r(?!\n)/u;
const FOREIGN_G = new RegExp(FOREIGN.source, "gu");



const MAX_ISSUES = 50;

/** Lines of a Markdown plan that fall outside the subset on which TeDDy's parser and plangate's agree. */
export function readingIssues(doc: MarkdownDocument): ReadingIssue[] {
  const out: ReadingIssue[] = [];
  const add: Add = (line, messageId, data) => {
    if (out.length < MAX_ISSUES) out.push({ line, messageId, data });
  };
  const text = doc.text;
  if (FOREIGN.test(text)) {
    const seen = new Set<number>();
    for (const m of text.matchAll(FOREIGN_G)) {
      const line = doc.lines.position(m.index).line;
      if (seen.has(line)) continue;
      seen.add(line);
      const c = m[0];
      if (c === "\r") add(line, "readingLoneCarriageReturn", { line });
      else add(line, "readingForeignCharacter", { line, code: `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}` });
      if (out.length >= MAX_ISSUES) return out;
    }
  }
  const count = doc.lines.lineCount;
  const raw = (n: number) => doc.lines.lineText(n);
  const blank = (s: string) => /^[ \t]*$/.test(s);

  // Fenced blocks, as plangate reads them; their lines are checked as code, not as structure.
  const fenceAt: (Extract<MdBlock, { kind: "fence" }> | undefined)[] = [];
  for (const b of doc.blocks) if (b.kind === "fence") fenceAt[b.line] = b;

  let first = 1;
  while (first <= count && blank(raw(first))) first++;
  if (first > count) return out;
  if (!raw(first).startsWith("#")) {
    add(first, "readingNotFirstTitle", { line: first });
    return out;
  }
  let messageFrom = Infinity;
  type Prev = "blank" | "heading" | "loose-title" | "fence" | "list" | "para" | "hr";
  let prev: Prev = "blank";
  for (let n = first; n <= count && n < messageFrom; ) {
    const fence = fenceAt[n];
    if (fence) {
      checkFence(fence, n, raw, add);
      n = fence.endLine;
      prev = "fence";
      continue;
    }
    const line = raw(n);
    const here = n;
    n++;
    if (blank(line)) {
      prev = "blank";
      continue;
    }
    if (/^[ \t]/.test(line)) {
      add(here, "readingIndented", { line: here });
      prev = "para";
      continue;
    }
    if (line.startsWith("#")) {
      const m = /^(#{1,6}) +(\S.*)$/.exec(line);
      if (!m) {
        if (here === first && /^#[^ #\t]/.test(line)) {
          prev = "loose-title";
          continue;
        }
        add(here, "readingBadHeading", { line: here });
        prev = "para";
        continue;
      }
      const level = m[1]!.length;
      const body = m[2]!.trimEnd();
      if (/#$/.test(body) || /\t/.test(body)) {
        add(here, "readingHeadingClosing", { line: here });
      } else if (level >= 2 && !/^[A-Za-z0-9 _:`*.,'()/!?+-]+$/.test(body)) {
        add(here, "readingHeadingChars", { line: here, heading: body });
      }
      // After a `## ...Message...` heading TeDDy reads no more actions: the rest is the message.
      if (level === 2 && /Message/.test(body)) messageFrom = here + 1;
      prev = "heading";
      continue;
    }
    if (/^(`{3,}|~{3,})/.test(line)) {
      // A fence line that plangate did not read as a fence: a backtick fence whose info holds a backtick.
      add(here, "readingFenceNotOpened", { line: here });
      prev = "para";
      continue;
    }
    if (/^(-{3,}|\*{3,}|_{3,})[ \t]*$/.test(line)) {
      if (prev === "para" || prev === "list" || prev === "loose-title") {
        add(here, "readingSetextDashes", { line: here });
      }
      prev = "hr";
      continue;
    }
    if (/^=+[ \t]*$/.test(line)) {
      add(here, "readingSetextEquals", { line: here });
      prev = "para";
      continue;
    }
    if (/^-\t/.test(line)) {
      // A tab after the marker: both parsers read an item, but the checks below read items as "- ": a
      // lazy line after it joins the item for TeDDy ("-\tFoo: x" then "cwd: y" is the cwd "xcwd: y").
      add(here, "readingListTab", { line: here });
      prev = "list";
      continue;
    }
    const item = /^- (.*)$/.exec(line);
    if (item) {
      const content = item[1]!;
      if (prev === "para") {
        add(here, "readingListUnderParagraph", { line: here });
      } else if (/^(?: {3}|[ \t]*\t)/.test(content)) {
        // Five or more spaces after the "-" make the item an indented code block to CommonMark (plangate
        // reads no text in it), while TeDDy's parser reads the text: "-     cwd: /etc" is TeDDy's cwd.
        add(here, "readingListItemIndented", { line: here });
      } else if (/^[ \t]*$/.test(content) || /^([*+-]|\d{1,9}[.)])([ \t]|$)/.test(content) || /^(#|>|<|`{3}|~{3}|\[|\|)/.test(content) || /^([-*_])([ \t]*\1){2,}[ \t]*$/.test(content)) {
        add(here, "readingListItemBlock", { line: here });
      } else if (tableFollows(line, n <= count ? raw(n) : "")) {
        add(here, "readingTable", { line: here });
      }
      prev = "list";
      continue;
    }
    if (/^([*+]|\d{1,9}[.)])([ \t]|$)/.test(line) || line === "-") {
      add(here, "readingListMarker", { line: here });
      prev = "list";
      continue;
    }
    if (/^[>[<|]/.test(line)) {
      add(here, "readingBlockStart", { line: here, char: line[0]! });
      prev = "para";
      continue;
    }
    if (prev === "list" || prev === "loose-title") {
      add(here, "readingLazyContinuation", { line: here });
    } else if (tableFollows(line, n <= count ? raw(n) : "")) {
      add(here, "readingTable", { line: here });
    }
    prev = "para";
  }
  return out;
}

/** mistletoe reads a line holding "|" followed by a delimiter row as a table; CommonMark does not. */
function tableFollows(line: string, next: string): boolean {
  return line.includes("|") && /-/.test(next) && /^[ \t|:-]+$/.test(next);
}

/**
 * A fence's lines against mistletoe's rules: mistletoe closes a fence at any line that starts (after
 * up to 3 spaces) with the opening run and holds one word ("```python", "````x"); CommonMark closes
 * only at a run of fence characters. A line one closes and the other does not is refused, as is an
 * indented opening fence, and a line TeDDy's pre-processing rewrites inside the block.
 */
function checkFence(
  fence: Extract<MdBlock, { kind: "fence" }>,
  start: number,
  raw: (n: number) => string,
  add: Add,
): void {
  const open = teddyPreprocess(raw(start));
  const m = /^( *)(`{3,}|~{3,})/.exec(open);
  if (!m || m[1]!.length > 0) {
    add(start, "readingIndentedFence", { line: start });
    return;
  }
  const leader = m[2]!;
  const mark = leader.charCodeAt(0);
  const last = fence.closed ? fence.endLine - 1 : fence.endLine;
  for (let n = start + 1; n < fence.endLine; n++) {
    const original = raw(n);
    let diff = 0;
    while (original.charCodeAt(diff) === 32) diff++;
    let lead = diff;
    while (original.charCodeAt(lead) === 32 || original.charCodeAt(lead) === 9) lead++;
    const closes = n === last && fence.closed;
    // Only a line whose first non-blank character is a backtick or tilde can close or be rewritten.
    const c = original.charCodeAt(lead);
    if (!closes && c !== mark && c !== 96 && c !== 126) continue;
    const line = teddyPreprocess(original);
    const stripped = line.slice(diff);
    const mistletoeCloses = stripped.startsWith(leader) && !/\S\s+\S/.test(stripped.trim()) && diff < 4;
    if (mistletoeCloses !== closes) {
      if (closes) add(n, "readingFenceClosesForPlangate", { line: n, fence: leader });
      else add(n, "readingFenceClosesForTeddy", { line: n, open: start, fence: leader, longer: leader[0]!.repeat(leader.length + 1) });
      return;
    }
    if (line !== original && !closes) {
      add(n, "readingSixBackticks", { line: n, fence: line.trim() });
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// TeDDy's reading of the actions, from the blocks (valid where the whitelist above holds).

export interface TeddyEdit {
  find: string;
  replace: string;
}

/** What TeDDy's parser makes of one action (the parts that decide what runs). */
export interface TeddyReadAction {
  type: string;
  params: Record<string, string | boolean | number>;
  content?: string;
  command?: string;
  edits?: TeddyEdit[];
  queries?: string[];
  /** Index of the action's heading block. */
  block: number;
}

export type TeddyReading = { ok: false; why: string; block?: number } | { ok: true; message: boolean; actions: TeddyReadAction[] };

const VALID = new Set(["CREATE", "READ", "EDIT", "EXECUTE", "RESEARCH", "MESSAGE"]);
const DISPATCH = new Set(["CREATE", "READ", "EDIT", "EXECUTE", "RESEARCH"]);

/** Every metadata key TeDDy's parser looks for, as the substring "Key:" anywhere in an item. */
export const TEDDY_KEYS = ["Description", "File Path", "Resource", "Overwrite", "Lines", "Match All", "Expected Outcome", "cwd", "Allow Failure", "Background", "Timeout", "Tail", "env"];

/** Each TeDDy key by its lower case, to find the key an item spells in another case. */
const TEDDY_KEY_BY_LOWER = new Map<string, string>();
for (const k of TEDDY_KEYS) if (!TEDDY_KEY_BY_LOWER.has(k.toLowerCase())) TEDDY_KEY_BY_LOWER.set(k.toLowerCase(), k);

/** Keys whose values TeDDy converts (int(), .lower() == "true") or an executor reads as numbers. */
const NUMERIC_OR_FLAG_KEYS = new Set(["Overwrite", "Lines", "Match All", "Allow Failure", "Background", "Timeout", "Tail"]);

/** Every "Key:" TeDDy looks for, found in one pass. */
const KEY_MENTIONS = new RegExp(`(?:${TEDDY_KEYS.join("|")}):`, "g");

const letters = (s: string) => s.replace(/[^A-Za-z]/g, "");

function isH3Action(b: MdBlock | undefined, rawLine: (n: number) => string): "action" | "unknown" | false {
  if (b?.kind !== "heading" || b.level !== 3 || b.setext) return false;
  const t = b.text.trim();
  if (VALID.has(letters(t.split(":")[0]!.trim().replace(/`/g, "")))) return "action";
  // An H3 whose first inline is code is an action heading to TeDDy, of an unknown type.
  return /^###[ \t]+`/.test(rawLine(b.line)) ? "unknown" : false;
}

/** TeDDy's normalize_link_target and normalize_path. */
export function teddyLinkTarget(target: string): string {
  let t = target;
  if (!t.startsWith("http://") && !t.startsWith("https://")) {
    const trulyAbsolute = t.startsWith("/") && ["/tmp", "/etc", "/home", "/var", "/usr", "/root"].some((r) => t.startsWith(r));
    if (t.startsWith("/") && !trulyAbsolute) t = t.replace(/^\/+/, "");
  }
  return t.replace(/\\/g, "/");
}

interface Item {
  line: number;
  /** Raw text after "- ". */
  raw: string;
  /** The item's text with inline markup removed (plangate's reading of it). */
  text: string;
  links: { text: string; href: string }[];
}

function items(doc: MarkdownDocument, b: Extract<MdBlock, { kind: "list" }>): Item[] {
  return b.lines.map((l) => ({ line: l.line, raw: doc.lines.lineText(l.line).replace(/^- /, ""), text: l.text, links: l.links }));
}

/** The raw value after a `**Key:**` (or `**Key**:`) at the start of an item; code-span backticks removed. */
export function boldValue(raw: string): string | undefined {
  const m = /^\*\*[^*]+?(?::\*\*|\*\*:)(.*)$/.exec(raw);
  return m ? m[1]!.replace(/`/g, "").trim() : undefined;
}

function metadata(doc: MarkdownDocument, list: Extract<MdBlock, { kind: "list" }>, linkKeys: [string, string][], textKeys: [string, string][]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const item of items(doc, list)) {
    const text = item.text;
    if (text.includes("Description:")) continue;
    let done = false;
    for (const [key, name] of linkKeys) {
      if (!text.includes(`${key}:`)) continue;
      const link = item.links[0];
      if (link) params[name] = teddyLinkTarget(link.href);
      else {
        // A bold key gives the raw value (TeDDy puts emphasis underscores back); a plain key the text.
        const bold = /^\*\*/.test(item.raw) && item.raw.includes(`${key}:`) ? boldValue(item.raw) : undefined;
        const value = bold ?? text.slice(text.indexOf(`${key}:`) + key.length + 1).trim();
        if (value === "") continue;
        params[name] = value.replace(/\\/g, "/");
      }
      done = true;
      break;
    }
    if (done) continue;
    const clean = text.replace(/\*\*/g, "");
    for (const [key, name] of textKeys) {
      if (clean.includes(`${key}:`)) {
        params[name] = clean.slice(clean.indexOf(":") + 1).trim();
        break;
      }
    }
  }
  return params;
}

const pyStripNl = (s: string) => trimEndOf(s, "\n");

/** TeDDy's parse of the document's top-level blocks (MarkdownPlanParser.parse), or why it refuses. */
export function teddyReading(doc: MarkdownDocument): TeddyReading {
  const nodes = doc.blocks;
  const rawLine = (n: number) => doc.lines.lineText(n);
  const h = (i: number): Heading | undefined => {
    const b = nodes[i];
    return b?.kind === "heading" && !b.setext ? b : undefined;
  };
  const first = nodes[0];
  const titled = h(0)?.level === 1 || (first?.kind === "paragraph" && /^#[^ #\t]/.test(rawLine(first.line)));
  if (!titled) return { ok: false, why: "no title" };
  if (nodes[1]?.kind !== "list") return { ok: false, why: "no metadata list after the title" };
  if (!(h(2)?.level === 2 && h(2)!.text.includes("Rationale"))) return { ok: false, why: "no Rationale" };
  if (nodes[3]?.kind !== "fence") return { ok: false, why: "no rationale code block" };
  const section = h(4);
  if (!(section?.level === 2 && (section.text.includes("Action Plan") || section.text.includes("Message")))) return { ok: false, why: "no section" };
  const h2 = nodes.filter((b): b is Heading => b.kind === "heading" && b.level === 2 && !b.setext).map((b) => b.text.trim());
  if (h2.includes("Action Plan") && h2.includes("Message")) return { ok: false, why: "both sections" };
  if (section.text.includes("Message")) return { ok: true, message: true, actions: [] };

  const actions: TeddyReadAction[] = [];
  let i = 5;
  const fail = (why: string, block = i): TeddyReading => ({ ok: false, why, block });
  const code = (b: MdBlock | undefined) => b?.kind === "fence" || (b?.kind === "other" && b.type === "code_block");
  while (i < nodes.length) {
    const node = nodes[i]!;
    const kind = isH3Action(node, rawLine);
    if (!kind) {
      if (node.kind === "fence" || node.kind === "hr" || (node.kind === "other" && node.type === "code_block")) {
        i++;
        continue;
      }
      return fail("content that is not an action");
    }
    if (kind === "unknown") return fail("unknown action");
    const heading = node as Heading;
    const type = letters(heading.text.trim().replace(/`/g, ""));
    if (!DISPATCH.has(type)) return fail(`action ${type}`);
    const at = i;
    i++;
    const list = nodes[i];
    if (list?.kind !== "list") return fail(`${type} without a metadata list`);
    i++;
    if (type === "CREATE") {
      const params: Record<string, string | boolean> = metadata(doc, list, [["File Path", "path"]], [["Overwrite", "overwrite"]]);
      if ("overwrite" in params) params.overwrite = String(params.overwrite).toLowerCase() === "true";
      const block = nodes[i];
      if (block?.kind !== "fence") return fail("CREATE without a code block");
      i++;
      actions.push({ type, params, content: pyStripNl(block.content), block: at });
    } else if (type === "READ") {
      const params = metadata(doc, list, [["Resource", "resource"], ["File Path", "path_alias"]], [["Lines", "lines"]]);
      if ("path_alias" in params) {
        params.resource = params.path_alias!;
        delete params.path_alias;
      }
      actions.push({ type, params, block: at });
    } else if (type === "EDIT") {
      const params: Record<string, string | boolean> = metadata(doc, list, [["File Path", "path"]], [["Match All", "match_all"]]);
      if ("match_all" in params) params.match_all = String(params.match_all).toLowerCase() === "true";
      const edits: TeddyEdit[] = [];
      while (i < nodes.length && !isH3Action(nodes[i], rawLine)) {
        const fh = nodes[i];
        if (!(fh?.kind === "heading" && !fh.setext && fh.text.includes("FIND:"))) break;
        const fc = nodes[i + 1];
        if (!code(fc)) return fail("FIND without code");
        const rh = nodes[i + 2];
        if (!(rh?.kind === "heading" && !rh.setext && rh.text.includes("REPLACE:"))) return fail("FIND without REPLACE");
        const rc = nodes[i + 3];
        if (!code(rc)) return fail("REPLACE without code");
        if (fc?.kind !== "fence" || rc?.kind !== "fence") return fail("indented code");
        edits.push({ find: pyStripNl(fc.content), replace: pyStripNl(rc.content) });
        i += 4;
      }
      if (edits.length === 0) return fail("EDIT without FIND/REPLACE");
      actions.push({ type, params, edits, block: at });
    } else if (type === "EXECUTE") {
      const params: Record<string, string | boolean | number> = metadata(
        doc,
        list,
        [],
        [
          ["Expected Outcome", "expected_outcome"],
          ["cwd", "cwd"],
          ["Allow Failure", "allow_failure"],
          ["Background", "background"],
          ["Timeout", "timeout"],
          ["Tail", "tail"],
        ],
      );
      for (const k of ["allow_failure", "background"]) if (k in params) params[k] = String(params[k]).toLowerCase() === "true";
      if (typeof params.timeout === "string" && params.timeout !== "" && /^[ \t]*[+-]?\d+(_\d+)*[ \t]*$/.test(params.timeout)) params.timeout = Number(params.timeout.replace(/_/g, ""));
      const block = nodes[i];
      if (block?.kind !== "fence") return fail("EXECUTE without a code block");
      i++;
      actions.push({ type, params, command: block.content.trim(), block: at });
    } else {
      const queries: string[] = [];
      while (i < nodes.length) {
        const b = nodes[i]!;
        if (b.kind === "heading" && !b.setext && (b.level <= 2 || isH3Action(b, rawLine))) break;
        if (b.kind === "fence") for (const q of b.content.split("\n")) if (q.trim()) queries.push(q.trim());
        i++;
      }
      if (queries.length === 0) return fail("RESEARCH without queries");
      actions.push({ type, params: {}, queries, block: at });
    }
  }
  return { ok: true, message: false, actions };
}

/**
 * Metadata items of an action, against the forms on which the two readings agree: one line
 * `- **Key:** value`, the key spelled as TeDDy spells it, no other TeDDy key in the item (TeDDy
 * matches "Key:" anywhere in the item, so "Note: see File Path: [x](/x)" sets the path), a link only
 * as the whole value of a path key, no HTML, entities, escapes or stray emphasis.
 */
export function metadataIssues(doc: MarkdownDocument, list: Extract<MdBlock, { kind: "list" }>): ReadingIssue[] {
  const out: ReadingIssue[] = [];
  for (const item of items(doc, list)) {
    const bad = (messageId: string, data?: MessageData) => out.push({ line: item.line, messageId, data: { line: item.line, ...data } });
    // mistletoe reads ~~text~~ as strikethrough and drops the tildes (a~~b~~ is "ab" to TeDDy, and
    // "File~~ ~~Path:" is the key "File Path:"); markdown-it here keeps them as text.
    if (item.raw.includes("~~")) {
      bad("metadataStrikethrough");
      continue;
    }
    const m = /^\*\*([^*:]+):\*\*(.*)$/.exec(item.raw) ?? /^\*\*([^*:]+)\*\*:(.*)$/.exec(item.raw) ?? /^([^*:`[\]<>_\\&]+):(.*)$/.exec(item.raw);
    if (!m) {
      bad("metadataForm");
      continue;
    }
    const key = m[1]!.trim();
    const value = m[2]!;
    const bold = item.raw.startsWith("**");
    const known = TEDDY_KEY_BY_LOWER.get(key.toLowerCase());
    if (known && known !== key) {
      bad("metadataKeyCase", { key, known });
      continue;
    }
    if (key === "Description") continue;
    // TeDDy turns these with Python's int() and str.lower(), which read any Unicode digit
    // (Timeout: ٣٠ is 30 to TeDDy, text to plangate): their values must be plain ASCII.
    if (NUMERIC_OR_FLAG_KEYS.has(key) && !/^[\x20-\x7e]*$/.test(value)) {
      bad("metadataNotAscii", { key });
      continue;
    }
    const flat = `${key}:${value}`.replace(/[*_`\\]/g, "");
    const named = flat.match(KEY_MENTIONS) ?? [];
    const own = TEDDY_KEYS.includes(key) ? 1 : 0;
    const stray = named.find((k) => k !== `${key}:`);
    const other = stray ? stray.slice(0, -1) : named.length !== own ? key : undefined;
    if (other) {
      bad("metadataMentionsKey", { other });
      continue;
    }
    if (/[<>&]/.test(value)) {
      bad("metadataHtml");
      continue;
    }
    if (/\\[!-/:-@[-`{-~]/.test(value)) {
      bad("metadataEscape");
      continue;
    }
    const isLinkKey = key === "File Path" || key === "Resource";
    const link = /^ *\[([^[\]]*)\]\(([^()\s<>]*)\) *$/.exec(value);
    if (link) {
      if (!isLinkKey) bad("metadataLink");
      else if (!/^[A-Za-z0-9._/\\~+@,=:%-]+$/.test(link[2]!) || !/^[A-Za-z0-9 ._/\\~+@,=:%-]*$/.test(link[1]!))
        bad("metadataLinkCharacters");
      continue;
    }
    if (/[[\]]/.test(value) && !(isLinkKey && /^ *\[[^[\]()]+\] *$/.test(value))) {
      bad("metadataBrackets");
      continue;
    }
    const outsideCode = value.replace(/`[^`\s][^`]*`/g, "x");
    // A run of two or more backticks pairs only with a run of the same length (`a``b` is one code
    // span holding a``b), which the single-backtick pairing here does not follow.
    if (/`/.test(outsideCode) || value.includes("``")) {
      bad("metadataCodeSpan");
      continue;
    }
    // TeDDy drops a path's backticks and keeps the rest: `a.py` and `b.py` is the one path "a.py and b.py",
    // where a reviewer reads two files. A code span holds the whole path or none of it.
    if (isLinkKey && value.includes("`") && !/^ *`[^`]+` *$/.test(value)) {
      bad("metadataPathSpans");
      continue;
    }
    if (/\*/.test(outsideCode)) {
      bad("metadataAsterisk");
      continue;
    }
    // TeDDy keeps emphasis underscores of a bold path key's value (__init__.py); elsewhere only intraword ones agree.
    if (!(bold && isLinkKey) && /(^|[^A-Za-z0-9])_|_([^A-Za-z0-9]|$)/.test(outsideCode)) {
      bad("metadataUnderscore");
      continue;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// One shape for both readings, to compare them (here against the emulation, in the differential
// suite against TeDDy's parser itself).

/** An action as it runs: type, target, content, edits, command, queries and the parameters TeDDy uses. */
export interface RunReading {
  type: string;
  path?: string;
  /** A READ resource TeDDy fetches from the web (one that starts with "http"), rather than a file. */
  url?: string;
  content?: string;
  edits?: { find: string | null; replace: string | null }[];
  command?: string;
  queries?: string[];
  params: Record<string, string>;
}

/** The parameters TeDDy's parser reads for each action type (besides the path). */
export const TEDDY_PARAMS: Record<string, readonly string[]> = {
  CREATE: ["overwrite"],
  READ: ["lines"],
  EDIT: ["match_all"],
  EXECUTE: ["expected_outcome", "cwd", "allow_failure", "background", "timeout", "tail", "env"],
  RESEARCH: [],
};

const str = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** TeDDy's actions (as its parser returns them, or as teddyReading emulates them) in the shared shape. */
export function projectTeddy(actions: readonly { type: string; params: Record<string, unknown> }[]): RunReading[] {
  return actions
    .filter((a) => a.type !== "MESSAGE")
    .map((a) => {
      const p = a.params;
      const r: RunReading = { type: a.type, params: {} };
      const path = p.path ?? p.resource;
      if (a.type === "READ" && typeof path === "string" && path.startsWith("http")) r.url = path;
      else if (path !== undefined) r.path = str(path);
      if (a.type === "CREATE") r.content = str(p.content ?? "");
      if (a.type === "EDIT") r.edits = ((p.edits as { find: string; replace: string }[] | undefined) ?? []).map((e) => ({ find: e.find, replace: e.replace }));
      if (a.type === "EXECUTE") r.command = str(p.command ?? "");
      if (a.type === "RESEARCH") r.queries = (p.queries as string[] | undefined) ?? [];
      for (const k of TEDDY_PARAMS[a.type] ?? []) if (p[k] !== undefined) r.params[k] = str(p[k]);
      return r;
    });
}

/** The emulated reading in TeDDy's output shape. */
export function emulatedActions(reading: Extract<TeddyReading, { ok: true }>): { type: string; params: Record<string, unknown> }[] {
  return reading.actions.map((a) => ({
    type: a.type,
    params: { ...a.params, ...(a.content !== undefined ? { content: a.content } : {}), ...(a.edits ? { edits: a.edits } : {}), ...(a.command !== undefined ? { command: a.command } : {}), ...(a.queries ? { queries: a.queries } : {}) },
  }));
}

/** plangate's steps of a TeDDy plan in the shared shape. */
export function projectPlangate(steps: readonly { tool?: string; args: Record<string, unknown>; extra?: Readonly<Record<string, unknown>> }[]): RunReading[] {
  return steps.map((s) => {
    const type = s.tool ?? "";
    const action = s.extra?.action as { content?: string; edits?: { find?: string; replace?: string }[] } | undefined;
    const r: RunReading = { type, params: {} };
    if (s.args.url !== undefined) r.url = str(s.args.url);
    else if (s.args.path !== undefined) r.path = str(s.args.path);
    if (type === "CREATE") r.content = action?.content ?? "";
    if (type === "EDIT") r.edits = (action?.edits ?? []).map((e) => ({ find: e.find ?? null, replace: e.replace ?? null }));
    if (type === "EXECUTE") r.command = str(s.args.command ?? "");
    if (type === "RESEARCH") r.queries = (s.args.queries as string[] | undefined) ?? [];
    for (const k of TEDDY_PARAMS[type] ?? []) if (s.args[k] !== undefined) r.params[k] = str(s.args[k]);
    return r;
  });
}

/** Index of the first action read differently, the field that differs, or undefined when the readings agree. */
export function firstDifference(plangate: readonly RunReading[], teddy: readonly RunReading[]): { index: number; field: string; plangate?: unknown; teddy?: unknown } | undefined {
  const n = Math.max(plangate.length, teddy.length);
  for (let i = 0; i < n; i++) {
    const a = plangate[i];
    const b = teddy[i];
    if (!a || !b) return { index: i, field: "action", plangate: a?.type, teddy: b?.type };
    for (const field of ["type", "path", "url", "content", "edits", "command", "queries", "params"] as const) {
      const x = JSON.stringify(a[field] ?? null);
      const y = JSON.stringify(b[field] ?? null);
      if (x !== y) return { index: i, field, plangate: a[field], teddy: b[field] };
    }
  }
  return undefined;
}
