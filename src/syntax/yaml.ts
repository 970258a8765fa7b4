import { Composer, CST, type Document, isAlias, isMap, isScalar, isSeq, Lexer, type Node, Parser, parseDocument, type Scalar, YAMLParseError } from "yaml";
import { NO_LEXEMES, type ReadIssue, type SourceDocument, type ValueLocation } from "../core/document.js";
import { childPointer, type Pointer } from "../core/pointer.js";
import { DEFAULT_MAX_VALUES } from "../core/policy.js";
import type { MessageData } from "../core/rule.js";
import { LineIndex } from "../core/source.js";
import { addIssue, MAX_ISSUES, unsafeKey } from "./unsafe.js";
import { describeGo, describePy, goYamlV2Plain, type PyScalar, pyyamlConstruct, pyyamlMayResolve, pyyamlPlainTag, sameReading } from "./yaml11.js";

/**
 * Who else reads the plan: `pyyaml` (a Python executor with PyYAML's safe loader, YAML 1.1) makes the
 * reader refuse every scalar and construct the two read differently; `yaml-1.2` turns those refusals off.
 */
/** The one-letter booleans of Go's yaml.v2 (`y: 1` is the key true there). */
const GO_BOOLEAN = /^[yYnN]$/;
export type YamlExecutor = "pyyaml" | "go-yaml-v2" | "yaml-1.2";

export interface YamlOptions {
  maxDepth?: number;
  /** Most value nodes the document may expand to, aliases included (a "billion laughs" file hits it). */
  maxNodes?: number;
  /** Most values the document may hold, aliases expanded (limits.maxValues); more gives `limit-exceeded` and no value. Default DEFAULT_MAX_VALUES. */
  maxValues?: number;
  /** Longest string value or key; longer gives `limit-exceeded`. Default 1 MiB. */
  maxStringLength?: number;
  /** The parser the plan's executor reads it with. Default `pyyaml`. */
  executor?: YamlExecutor;
}

const CORE_TAGS = new Set(
  ["str", "int", "float", "bool", "null", "map", "seq"].map((t) => `tag:yaml.org,2002:${t}`),
);

const MAP_TAG = "tag:yaml.org,2002:map";
const SEQ_TAG = "tag:yaml.org,2002:seq";

class Exhausted extends Error {}

/** The least text aliases may copy in, whatever the document's size (1 MiB). */
const MIN_EXPANDED_TEXT = 1024 * 1024;

/** Records an unsafe-value fact: the message of unsafe-value's `messageId`, with its data. */
type Unsafe = (start: number, end: number, messageId: string, data?: MessageData, pointer?: Pointer) => void;

/**
 * Line breaks the readers disagree on. A lone CR is a line break in YAML but content to the yaml
 * package; NEL, LS and PS are line breaks to YAML 1.1 (PyYAML, even inside comments and quotes) and
 * ordinary characters to YAML 1.2.
 */
function textBreaks(text: string, pyyaml: boolean, unsafe: Unsafe): void {
  const re = pyyaml ? /\r(?!\n)|[\u0085\u2028\u2029]/g : /\r(?!\n)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const c = m[0];
    unsafe(m.index, m.index + 1, c === "\r" ? "yamlLoneCarriageReturn" : c === "\u0085" ? "yamlNel" : c === "\u2028" ? "yamlLineSeparator" : "yamlParagraphSeparator");
  }
}

/** True when offset i lies in one of the ranges: start, end pairs in document order. */
function inside(ranges: number[], i: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[2 * mid]! > i) hi = mid - 1;
    else if (ranges[2 * mid + 1]! <= i) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Offsets of `ch` that are YAML syntax rather than text: outside the given scalar ranges and outside
 * comments, at most `max` of them. Linear: each line is searched for a comment once.
 */
function bare(text: string, ch: string, ranges: number[], max: number, accept: (i: number) => boolean = () => true): number[] {
  const out: number[] = [];
  let lineEnd = -1;
  let comment = Infinity;
  for (let i = text.indexOf(ch); i >= 0 && out.length < max; i = text.indexOf(ch, i + 1)) {
    if (!accept(i) || inside(ranges, i)) continue;
    if (i > lineEnd) {
      const lineStart = text.lastIndexOf("\n", i) + 1;
      lineEnd = text.indexOf("\n", i);
      if (lineEnd < 0) lineEnd = text.length;
      comment = Infinity;
      for (let j = text.indexOf("#", lineStart); j >= 0 && j < lineEnd; j = text.indexOf("#", j + 1)) {
        if ((j === lineStart || /[ \t]/.test(text[j - 1]!)) && !inside(ranges, j)) {
          comment = j;
          break;
        }
      }
    }
    if (i < comment) out.push(i);
  }
  return out;
}

/**
 * Tabs PyYAML refuses: outside quoted scalars, block scalar bodies and comments a tab is separation to
 * YAML 1.2 but a character that "cannot start any token" to PyYAML (also inside a plain scalar).
 */
function tabsOutsideText(text: string, ranges: number[], unsafe: Unsafe): void {
  for (const tab of bare(text, "\t", ranges, 100))
    unsafe(tab, tab + 1, "yamlTab");
}

/** The explicit-key indicator `?` (outside every scalar and comment): PyYAML and the yaml package disagree on what follows it. */
function explicitKeys(text: string, scalars: number[], unsafe: Unsafe): void {
  // After a byte order mark too: the yaml package skips one where a document starts (a BOM-led `? "a"?`
  // was read as {"a": null}, where PyYAML refuses it).
  const indicator = (i: number) => /^[ \t\r\n]?$/.test(text[i + 1] ?? "") && (i === 0 || /[ \t\r\n[{,\ufeff]/.test(text[i - 1]!));
  for (const q of bare(text, "?", scalars, 100, indicator))
    unsafe(q, q + 1, "yamlExplicitKey");
}

/**
 * The `:` of a mapping entry at the start of a line, below its key: the yaml package reads the line above
 * as the key (`x\n : y` was {"x": "y"}), where PyYAML refuses the file (and YAML 1.2 allows no such key).
 * A `:` that opens a line after an explicit key (`? a`) or for an empty key is refused on its own.
 */
function colonFirst(text: string, scalars: number[], unsafe: Unsafe): void {
  let found = 0;
  for (let i = 0; i < text.length && found < 100; ) {
    let j = i;
    while (text[j] === " ") j++;
    if (text[j] === ":" && /^[ \t\r\n]?$/.test(text[j + 1] ?? "") && !inside(scalars, j)) {
      unsafe(j, j + 1, "yamlValueLineStart");
      found++;
    }
    const next = text.indexOf("\n", j);
    if (next < 0) break;
    i = next + 1;
  }
}

/**
 * Longest implicit key PyYAML reads: its scanner forgets a possible key when the `:` after it comes more
 * than 1024 characters after the key's first token (its anchor or tag included) or on another line.
 */
const PYYAML_KEY_SPAN = 1024;

/**
 * Flow collections the yaml package reads where PyYAML refuses the file (and YAML 1.2 forbids them too):
 * an implicit key whose first token (its anchor, tag or first character) and its `:` are on different
 * lines or more than 1024 characters apart (in block collections the yaml package refuses these itself),
 * and an anchor or tag after a scalar, which stands for no node (`{"a" &x}` was read as {"a": null}).
 * The yaml package's own lexer reads each outermost flow collection (from..to) that spans lines, is longer
 * than 1024 characters or holds an anchor or tag; no other can hold these faults.
 */
function flowKeys(text: string, from: number, to: number, unsafe: Unsafe): void {
  const source = text.slice(from, to);
  if (source.length <= PYYAML_KEY_SPAN && !/[\n\r&!]/.test(source)) return;
  let depth = 0;
  let offset = from;
  /** A new entry of a flow collection has begun and its first token is still to come. */
  let expecting = false;
  /** Offset of the current entry's first token, while it may still turn out to be a key; -1 otherwise. */
  let keyStart = -1;
  let broken = false;
  /** The current entry's key or value already holds a scalar or an alias. */
  let filled = false;
  let found = 0;
  for (const token of new Lexer().lex(source)) {
    const at = offset;
    // The lexer's own markers (document start, flow end, scalar) are not text of the document.
    if (token !== "\x02" && token !== "\x18" && token !== "\x1f") offset += token.length;
    const type = CST.tokenType(token);
    if (type === "flow-map-start" || type === "flow-seq-start" || (depth > 0 && type === "comma")) {
      if (type !== "comma") depth++;
      expecting = true;
      keyStart = -1;
      broken = false;
      filled = false;
    } else if (depth === 0) continue;
    else if (type === "flow-map-end" || type === "flow-seq-end" || type === "explicit-key-ind") {
      if (type !== "explicit-key-ind") depth--;
      expecting = false;
      keyStart = -1;
      filled = false;
    } else if (type === "map-value-ind") {
      if (keyStart >= 0 && (broken || at - keyStart > PYYAML_KEY_SPAN) && found++ < 100)
        unsafe(keyStart, at + 1, broken ? "yamlFlowKeyLines" : "yamlFlowKeyLong", { max: PYYAML_KEY_SPAN });
      expecting = false;
      keyStart = -1;
      filled = false;
    } else if (type === "newline") {
      if (keyStart >= 0) broken = true;
    } else if (type !== "space" && type !== "comment" && type !== "scalar" && type !== "flow-error-end") {
      // An anchor, a tag, an alias or a scalar's text: the entry's first token starts the possible key.
      if (expecting) {
        keyStart = at;
        expecting = false;
      }
      if (keyStart >= 0 && /[\n\r]/.test(token)) broken = true;
      if (type === "anchor" || type === "tag") {
        if (filled && found++ < 100) unsafe(at, offset, "yamlFlowDanglingProperty", { property: token });
      } else filled = true;
    }
  }
}

/**
 * Directive lines PyYAML refuses where the yaml package reads on: a second %YAML, a %TAG handle declared
 * twice (the yaml package keeps one of the prefixes), and a directive after the end marker `...` (PyYAML
 * expects another document after it; the yaml package ignores the line). A directive is a line that starts
 * with `%` before the document's `---`, or anywhere after a `...` line.
 */
function directiveFaults(text: string, unsafe: Unsafe): void {
  const open = /^---(?=[ \t\r\n]|$)/m.exec(text);
  const prefixEnd = open ? open.index : text.length;
  const close = /^\.\.\.(?=[ \t\r\n]|$)/m.exec(text);
  const afterEnd = close ? close.index : text.length;
  const seen = new Set<string>();
  const re = /^%([^\r\n]*)/gm;
  let found = 0;
  for (let m = re.exec(text); m !== null && found < 100; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (m.index > afterEnd) {
      unsafe(m.index, end, "yamlDirectiveAfterEnd");
      found++;
    } else if (m.index < prefixEnd) {
      const words = m[1]!.trim().split(/[ \t]+/);
      const name = words[0] === "TAG" ? `TAG ${words[1] ?? ""}` : words[0]!;
      if (seen.has(name)) {
        unsafe(m.index, end, "yamlDirectiveTwice", { name });
        found++;
      }
      seen.add(name);
    }
  }
}

/**
 * Where a plain scalar of a block collection (from start to end) continues on a line indented no deeper
 * than the collection itself (`indent`, its column, -1 at the root), or -1. PyYAML ends the scalar before
 * such a line (and refuses the file); the yaml package reads the line as more of the scalar when a comment
 * line stands between the key and its value (`k:\n#c\n  text\nfoo` was {"k": "text foo"}).
 */
function underIndented(text: string, start: number, end: number, indent: number): number {
  for (let i = text.indexOf("\n", start); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) {
    let j = i + 1;
    while (j < end && text[j] === " ") j++;
    if (j < end && text[j] !== "\n" && text[j] !== "\r" && j - (i + 1) <= indent) return j;
  }
  return -1;
}

/**
 * True when a double-quoted scalar escapes a line break (a `\` ending a line) and the next line is empty
 * or holds only spaces and tabs. YAML 1.2 and PyYAML keep that empty line as a line break; the yaml
 * package folds it to a space (and drops one of several), so `"a\<break><break>b"` is "a\nb" to a Python
 * executor and "a b" to plangate.
 */
function escapedBreakBeforeBlank(text: string, start: number, end: number): boolean {
  for (let i = text.indexOf("\\", start); i >= 0 && i < end; i = text.indexOf("\\", i + 2)) {
    let j = i + 1;
    if (text[j] === "\r" && text[j + 1] === "\n") j++;
    if (text[j] !== "\n") continue;
    j++;
    while (j < end && (text[j] === " " || text[j] === "\t")) j++;
    if (text[j] === "\n" || text[j] === "\r") return true;
  }
  return false;
}

/**
 * True when the first line of a block scalar's body that holds more than spaces starts, after its spaces,
 * with a tab. Where those spaces are not deeper than the block's parent, PyYAML refuses the file (a tab
 * cannot start a token) while the yaml package keeps the tab as text and reads the lines after the block
 * at the wrong level (`a:\n  k: |\n  <tab>\n  j: w` gave j to the root mapping).
 */
function tabLedBlock(text: string, body: number, end: number): boolean {
  let i = body;
  while (i < end) {
    while (i < end && text[i] === " ") i++;
    const c = text[i];
    if (c === "\t") return true;
    if (c !== "\n" && c !== "\r") return false;
    i++;
  }
  return false;
}

/** True when the quoted scalar at start..end ends with its own closing quote (not an escaped one). */
function closedQuote(text: string, start: number, end: number, q: string): boolean {
  if (end - start < 2 || text[start] !== q || text[end - 1] !== q) return false;
  let i = start + 1;
  while (i < end - 1) {
    const c = text[i]!;
    if (q === "'" && c === "'") {
      if (text[i + 1] !== "'") return false;
      i += 2;
    } else if (q === '"' && c === "\\") i += 2;
    else if (q === '"' && c === '"') return false;
    else i++;
  }
  return i === end - 1;
}

/** True when a double-quoted scalar's source spells a UTF-16 surrogate as a \\u escape. */
function surrogateEscape(text: string, start: number, end: number): boolean {
  let i = text.indexOf("\\", start);
  while (i >= 0 && i < end) {
    if (text[i + 1] === "u" && /^[dD][89abAB]/.test(text.slice(i + 2, i + 4))) return true;
    i = text.indexOf("\\", i + 2);
  }
  return false;
}

/** A YAML 1.2 value in words, for messages. */
function describe12(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  if (typeof value === "boolean") return `the boolean ${value}`;
  if (typeof value === "number" || typeof value === "bigint") return `the number ${String(value)}`;
  return "a value";
}

/**
 * The yaml package recurses once per nesting level and overflows the stack near 1,000 levels (where
 * V8 may even abort the process), so deeper documents are refused before it sees them.
 */
const YAML_MAX_DEPTH = 256;

/**
 * Most aliases, anchors and tags a YAML document may hold. Each costs the parser far more than its few
 * characters (a 1 MiB flow list of 262,000 `*a` took 5.7 s and 740 MB), and a plan needs few or none.
 */
export const MAX_YAML_REFERENCES = 50_000;

/**
 * Where the document's aliases, anchors and tags pass the limit, or undefined. Only a text with more than
 * that many `*`, `&` and `!` characters is tokenized (by the yaml package's own lexer, so that `a*b` in a
 * scalar or a `*` in a comment does not count).
 */
function referencesBeyond(text: string, max: number): number | undefined {
  let marks = 0;
  for (let i = text.indexOf("*"); i >= 0 && marks <= max; i = text.indexOf("*", i + 1)) marks++;
  for (let i = text.indexOf("&"); i >= 0 && marks <= max; i = text.indexOf("&", i + 1)) marks++;
  for (let i = text.indexOf("!"); i >= 0 && marks <= max; i = text.indexOf("!", i + 1)) marks++;
  if (marks <= max) return undefined;
  let count = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    const c = token.charCodeAt(0);
    if ((c === 0x2a || c === 0x26 || c === 0x21) && ++count > max) return offset;
    // The lexer's own markers (document start, flow end, scalar) are not text of the document.
    if (token !== "\x02" && token !== "\x18" && token !== "\x1f") offset += token.length;
  }
  return undefined;
}

/**
 * Most values and indicators a YAML document may hold: scalars, aliases, flow collections, list items,
 * `:`, `?` and `,`, as the yaml package's lexer finds them. The yaml package spends 4 to 9 microseconds
 * and a few KB on each, empty values included, so 1 MiB of `a, a, a, ...` took 3.4 s and 560 MB, and
 * 1 MiB of `[: , : , ...]` 5.4 s; a plan of 1 MiB holds about 170,000.
 */
export const MAX_YAML_TOKENS = 200_000;

/** True for the characters after which a scalar or alias may start: spaces, line breaks and `[ { , :`. */
function separates(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 0x5b || c === 0x7b || c === 0x2c || c === 0x3a;
}

/** True for `[ { , : ? -`: the characters that may be an indicator the limit counts. */
function indicates(c: number): boolean {
  return c === 0x5b || c === 0x7b || c === 0x2c || c === 0x3a || c === 0x3f || c === 0x2d;
}

const COUNTED = new Set(["scalar", "single-quoted-scalar", "double-quoted-scalar", "alias", "flow-map-start", "flow-seq-start", "seq-item-ind", "map-value-ind", "explicit-key-ind", "comma"]);

/**
 * Most tokens of any kind a YAML document may hold: besides the values and indicators above, line breaks,
 * runs of spaces, comments and closing brackets. The yaml package spends a microsecond or two on each
 * blank line and five on each stray `]` (an error object each): 1 MiB of blank lines took 1.5 s, of `]`
 * lines 2.9 s and 390 MB, of `]]]]` 3.4 s. A plan of 1 MiB holds about 230,000.
 */
export const MAX_YAML_LEXEMES = 400_000;

/** Which limit of tokensBeyond a document passes, and where. */
interface Crowded {
  at: number;
  /** `values`: values and indicators (MAX_YAML_TOKENS); `lexemes`: tokens of any kind (MAX_YAML_LEXEMES). */
  what: "values" | "lexemes";
}

/** True for the characters that may make a token of their own: indicators, brackets, quotes, `#`, `|`, `>`, a tab, a byte order mark. */
function alone(c: number): boolean {
  return indicates(c) || c === 0x5d || c === 0x7d || c === 0x23 || c === 0x22 || c === 0x27 || c === 0x7c || c === 0x3e || c === 9 || c === 0xfeff;
}

/**
 * Cheap over-estimates of a text's tokens, each counted no further than just past its limit. `values`
 * counts every `[ { , : ? -` and every other character that follows a separator and is not one itself:
 * text and comments are over-counted; in a few faulty texts a scalar right after a tag, an alias or a
 * quoted scalar is not, which the count of all tokens bounds. `lexemes`, never below the lexer's count,
 * counts every line break and character that may be a token of its own, a second one for `|` and `>` (a
 * block scalar's header and body), the end of a tag, and every change between spaces, line breaks and
 * other text, where any other token starts.
 */
export function yamlTokenEstimate(text: string, maxValues = Infinity, maxLexemes = Infinity): { values: number; lexemes: number } {
  let values = 0;
  let lexemes = 0;
  let after = true;
  let kind = 0;
  /** Within a tag (`!name`), which ends at the first character a tag cannot hold, where a scalar may start. */
  let tag = false;
  for (let i = 0; i < text.length && values <= maxValues && lexemes <= maxLexemes; i++) {
    const c = text.charCodeAt(i);
    if (indicates(c) || (after && !separates(c))) values++;
    after = separates(c);
    // 1: a space, 2: a line break, 3: a character that may be a token of its own, 4: other text.
    const k = c === 32 ? 1 : c === 10 || c === 13 ? 2 : alone(c) ? 3 : 4;
    if (k !== kind || k === 2 || k === 3) lexemes++;
    if (c === 0x7c || c === 0x3e) lexemes++;
    kind = k;
    if (c === 0x21) tag = true;
    else if (tag && !(c < 128 && TAG_CHARS[c] === 1)) {
      tag = false;
      lexemes++;
    }
  }
  return { values, lexemes };
}

/** The characters the yaml package's lexer reads as part of a tag (a `%` escape aside). */
const TAG_CHARS = new Uint8Array(128);
for (const ch of "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()") TAG_CHARS[ch.charCodeAt(0)] = 1;

/**
 * Where the document's values and indicators, or its tokens of any kind, pass their limits, or undefined.
 * Only a text whose cheap estimate (yamlTokenEstimate) passes a limit is tokenized, by the yaml package's
 * own lexer.
 */
function tokensBeyond(text: string, max: number, maxLexemes: number): Crowded | undefined {
  const { values: starts, lexemes } = yamlTokenEstimate(text, max, maxLexemes);
  if (starts <= max && lexemes <= maxLexemes) return undefined;
  let count = 0;
  let all = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    // A scalar is counted at the lexer's own marker before its text ("scalar").
    if (COUNTED.has(CST.tokenType(token) ?? "") && ++count > max) return { at: offset, what: "values" };
    // The lexer's markers (document start, flow end, scalar) are not text of the document, nor is an empty token.
    if (token === "\x02" || token === "\x18" || token === "\x1f" || token === "") continue;
    if (++all > maxLexemes) return { at: offset, what: "lexemes" };
    offset += token.length;
  }
  return undefined;
}

/**
 * The offset where a cheap over-estimate of the nesting passes `max` (flow brackets outside quotes,
 * plus block indentation levels and `- ` runs), or undefined. It may over-count inside block scalars,
 * which only matters for documents hundreds of levels deep.
 */
function nestingBeyond(text: string, max: number): number | undefined {
  let flow = 0;
  const indents: number[] = [];
  let lineStart = true;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      lineStart = true;
      if (quote === "'" || quote === '"') continue;
      quote = "";
      continue;
    }
    if (lineStart) {
      lineStart = false;
      let j = i;
      while (text[j] === " ") j++;
      const t = text[j];
      if (t !== undefined && t !== "\n" && t !== "\r" && t !== "#" && flow === 0 && quote === "") {
        while (indents.length > 0 && indents[indents.length - 1]! >= j - i) indents.pop();
        indents.push(j - i);
        let k = j;
        let dashes = 0;
        while (text[k] === "-" && text[k + 1] === " ") {
          dashes++;
          k += 2;
          while (text[k] === " ") k++;
        }
        if (indents.length + dashes > max) return j;
      }
    }
    if (quote) {
      if (c === quote) quote = "";
      else if (c === "\\" && quote === '"') i++;
      continue;
    }
    // A quote opens a quoted scalar only where a scalar can start (not the apostrophe in "don't").
    if ((c === '"' || c === "'") && (i === 0 || /[\s:[{,-]/.test(text[i - 1]!))) quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) quote = "#";
    else if (c === "[" || c === "{") {
      if (++flow > max) return i;
    } else if ((c === "]" || c === "}") && flow > 0) flow--;
  }
  return undefined;
}

const YAML_OPTIONS = { uniqueKeys: false, merge: false, schema: "core", strict: true, prettyErrors: false, keepSourceTokens: false } as const;

/** A syntax error as the yaml package reports it: where, its code, its message (the detail of ours). */
interface YamlError {
  pos: [number, number];
  code: string;
  detail: string;
}

/** The first syntax error of a document the yaml package stopped composing (MAX_YAML_ERRORS). */
interface YamlFault {
  fault: YamlError;
}

/**
 * Syntax errors the yaml package may meet before it stops composing the document. Only the first is
 * reported; a text of faults (1 MiB of lines that each break the syntax) took 2 s and 250 MB, half of it
 * spent building the nodes and error objects of a document that is refused anyway.
 */
export const MAX_YAML_ERRORS = 100;

class TooManyErrors extends Error {}

type ErrorHandler = (source: number | [number, number] | readonly number[] | { offset: number; source?: string }, code: string, message: string, warning?: boolean) => void;

/**
 * Parses the one document of a text as parseDocument does (a second document is a MULTIPLE_DOCS error),
 * but stops composing it past MAX_YAML_ERRORS errors and returns the first. The composer's error handler
 * is wrapped for that; where a version of the package has none to wrap, the whole text is composed.
 */
function composeYaml(text: string): Document.Parsed | YamlFault {
  const composer = new Composer(YAML_OPTIONS);
  const inner = composer as unknown as { onError?: ErrorHandler };
  const report = inner.onError;
  if (typeof report !== "function") return parseDocument(text, YAML_OPTIONS);
  let first: YamlError | undefined;
  let errors = 0;
  const met = (error: YamlError) => {
    first ??= error;
    if (++errors > MAX_YAML_ERRORS) throw new TooManyErrors();
  };
  inner.onError = (source, code, message, warning) => {
    report(source, code, message, warning);
    if (warning) return;
    const pos: [number, number] =
      typeof source === "number" ? [source, source + 1]
      : "offset" in source ? [source.offset, source.offset + (typeof source.source === "string" ? source.source.length : 1)]
      : [source[0]!, source[1]!];
    met({ pos, code, detail: message });
  };
  // The parser's own error tokens (a stray `]` after the document) reach the composer's list directly.
  function* counted(tokens: Generator<CST.Token>): Generator<CST.Token> {
    for (const token of tokens) {
      if (token.type === "error")
        met({ pos: [token.offset, token.offset + Math.max(1, token.source.length)], code: "UNEXPECTED_TOKEN", detail: token.source ? `${token.message}: ${JSON.stringify(token.source)}` : token.message });
      yield token;
    }
  }
  let doc: Document.Parsed | undefined;
  try {
    for (const next of composer.compose(counted(new Parser().parse(text)), true, text.length)) {
      if (doc === undefined) doc = next;
      else {
        doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], "MULTIPLE_DOCS", "Source contains multiple documents; please use YAML.parseAllDocuments()"));
        break;
      }
    }
  } catch (err) {
    if (err instanceof TooManyErrors && first !== undefined) return { fault: first };
    throw err;
  }
  return doc!;
}

/**
 * Reads one YAML 1.2 document (core schema: no custom tags, no code, no merge keys) into a plain value,
 * with every value's source range, duplicate keys reported, and aliases expanded within a bound.
 */
export function parseYaml(text: string, options: YamlOptions = {}): SourceDocument {
  const maxDepth = options.maxDepth ?? 1000;
  const maxNodes = options.maxNodes ?? Math.max(100_000, text.length);
  // Counted as the values are built, as the JSON reader counts them: aliases of large lists in a 1 MiB
  // file expanded to a million values (1.9 s, 340 MB) within maxNodes.
  const maxValues = options.maxValues ?? DEFAULT_MAX_VALUES;
  /** Where the value past maxValues was met: the outermost alias being expanded, else the value itself. */
  let valuesAt = { start: 0, end: 0 };
  // Text that aliases copy in (strings and keys reached through an alias): a few aliases of a long string
  // cost nothing to read but everything to hash, compare and report. At most the text's own length again.
  const maxExpandedText = Math.max(MIN_EXPANDED_TEXT, text.length);
  const maxString = options.maxStringLength ?? 1024 * 1024;
  const tooLong = (s: string, start: number, end: number, at: Pointer, what: string) => {
    if (s.length > maxString)
      addIssue(issues, { rule: "limit-exceeded", messageId: what === "key" ? "yamlKeyTooLong" : "yamlStringTooLong", data: { max: maxString }, start, end, at });
  };
  const issues: ReadIssue[] = [];
  const lines = new LineIndex(text);
  const base = { syntax: "yaml" as const, text, lines, numbers: NO_LEXEMES };
  if (text.trim() === "") {
    issues.push({ rule: "parse-error", messageId: "yamlEmpty", start: 0, end: 0 });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const bad = NOT_PRINTABLE.exec(text);
  if (bad) {
    const code = "U+" + bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    issues.push({ rule: "parse-error", messageId: "yamlControlCharacter", data: { code }, start: bad.index, end: bad.index + 1 });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const crowded = referencesBeyond(text, MAX_YAML_REFERENCES);
  if (crowded !== undefined) {
    issues.push({ rule: "limit-exceeded", messageId: "yamlTooManyReferences", data: { max: MAX_YAML_REFERENCES }, start: crowded, end: Math.min(text.length, crowded + 1) });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const crowd = tokensBeyond(text, MAX_YAML_TOKENS, MAX_YAML_LEXEMES);
  if (crowd !== undefined) {
    const values = crowd.what === "values";
    issues.push({ rule: "limit-exceeded", messageId: values ? "yamlTooManyTokens" : "yamlTooManyLexemes", data: { max: values ? MAX_YAML_TOKENS : MAX_YAML_LEXEMES }, start: crowd.at, end: Math.min(text.length, crowd.at + 1) });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const deep = nestingBeyond(text, Math.min(maxDepth, YAML_MAX_DEPTH));
  if (deep !== undefined) {
    issues.push({ rule: "limit-exceeded", messageId: "yamlTooDeepToParse", data: { max: Math.min(maxDepth, YAML_MAX_DEPTH) }, start: deep, end: Math.min(text.length, deep + 1) });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  let doc: Document.Parsed | YamlFault;
  // The parser makes an error object for every fault it meets (one a line in some texts), each with a
  // stack trace: a 1 MiB text took 9 s. Only the first one is reported, so none needs a trace.
  const traces = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    doc = composeYaml(text);
  } catch (err) {
    issues.push(tooDeep(err, text));
    return { ...base, value: undefined, issues, locate: () => undefined };
  } finally {
    Error.stackTraceLimit = traces;
  }
  const reported = "fault" in doc ? undefined : doc.errors[0];
  const firstError: YamlError | undefined = "fault" in doc ? doc.fault : reported && { pos: reported.pos, code: reported.code, detail: reported.message };
  // The parser reports its own stack overflow on deep block nesting as a syntax error.
  if (firstError && /call stack/i.test(firstError.detail)) {
    issues.push(tooDeep(new RangeError(firstError.detail), text));
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  if (firstError || "fault" in doc) {
    const fault = firstError!;
    // The parser may place an end-of-input error one past the end; keep spans inside the text.
    const start = Math.min(fault.pos[0], text.length);
    const end = Math.min(fault.pos[1], text.length);
    issues.push({
      rule: "parse-error",
      messageId: yamlSyntaxMessage(fault.code),
      data: { detail: fault.detail.split("\n")[0]! },
      start,
      end: Math.max(start, end),
    });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const executor = options.executor ?? "pyyaml";
  // For Go's yaml.v2 (YAML 1.1 too) PyYAML's refusals are kept, though Go reads some of those values as
  // YAML 1.2 does, and every other plain scalar Go's resolver reads otherwise is refused as well: `y`,
  // `Y`, `n` and `N` (booleans there), and the numbers strconv reads (`0O17`, `0X1F`, `+_1`).
  const pyyaml = executor === "pyyaml" || executor === "go-yaml-v2";
  const goYaml = executor === "go-yaml-v2";
  const unsafe: Unsafe = (start, end, messageId, data, at) => {
    const issue: ReadIssue = { rule: "unsafe-value", messageId, start, end };
    if (data !== undefined) issue.data = data;
    if (at !== undefined) issue.at = at;
    addIssue(issues, issue);
  };
  const version = doc.directives?.yaml;
  if (version?.explicit && version.version !== "1.2") {
    const at = Math.max(0, text.indexOf("%YAML"));
    unsafe(at, at + 5, "yamlVersionDirective", { version: version.version });
  }
  for (const w of doc.warnings) {
    const start = Math.min(w.pos[0], text.length);
    unsafe(start, Math.max(start, Math.min(w.pos[1], text.length)), w.code === "TAG_RESOLVE_FAILED" ? "yamlWarningTag" : "yamlWarning", { detail: w.message.split("\n")[0]! });
  }
  textBreaks(text, pyyaml, unsafe);
  // The yaml package skips a byte order mark wherever a line may start; to PyYAML and YAML 1.2 it is content.
  // (At the start it is the file's own mark, but indentation after it is miscounted.)
  const bom = /^\ufeff[ \t]/.test(text) ? 0 : text.indexOf("\ufeff", 1);
  if (bom >= 0)
    unsafe(bom, bom + 1, "yamlInnerBom");
  if (pyyaml) {
    const root = doc.contents;
    if (isScalar(root) && (root.type === "BLOCK_LITERAL" || root.type === "BLOCK_FOLDED")) {
      const r = rangeOf(root);
      unsafe(r.start, r.end, "yamlBlockScalarDocument");
    }
    const end = /^\ufeff?(?:[ \t]*(?:#[^\n]*)?\r?\n)*\.\.\.(?=[\s]|$)/.exec(text);
    if (end) unsafe(end[0].length - 3, end[0].length, "yamlEndMarkerFirst");
  }
  /** Quoted and block scalars, in document order: where a tab is content rather than separation. */
  const textRanges: number[] = [];
  /** Every scalar, plain ones included, in document order. */
  const scalarRanges: number[] = [];
  /** The outermost flow collections, start and end pairs. */
  const flowRanges: number[] = [];
  const index = new Map<Pointer, ValueLocation>();
  let visited = 0;
  /** Anchors as defined so far in document order, and what each alias refers to, resolved where it stands. */
  const anchors = new Map<string, Node>();
  const targets = new Map<Node, Node | undefined>();
  /** Collections being read: an alias to one of them would make the plan infinite. */
  const open = new Set<Node>();
  /** Nesting of alias expansions: inside one, every node has been checked where it first stood. */
  let expanding = 0;
  /** The outermost alias being expanded: where an expansion past the budget is reported. */
  let expandedAt = { start: 0, end: 0 };
  /** Nesting of flow collections around the node being read. */
  let flow = 0;
  /** Where the innermost block collection around the node being read starts, or -1 at the root. */
  let blockAt = -1;
  const checkScalar = (node: Scalar, start: number, end: number, at: Pointer, what: string) => {
    // Past the issue limit nothing more is listed: skip the work of describing it.
    if (issues.length > MAX_ISSUES) return;
    scalarRanges.push(start, end);
    if (node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE" || node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") {
      // A block scalar's header line is syntax; its text starts on the next line.
      const body = node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE" ? start : text.indexOf("\n", start) + 1 || end;
      textRanges.push(Math.min(body, end), end);
      if ((node.type === "QUOTE_SINGLE" || node.type === "QUOTE_DOUBLE") && !closedQuote(text, start, end, node.type === "QUOTE_SINGLE" ? "'" : '"'))
        addIssue(issues, { rule: "parse-error", messageId: node.type === "QUOTE_SINGLE" ? "yamlUnclosedSingle" : "yamlUnclosedDouble", data: { what }, start, end, at });
      if (node.type === "QUOTE_DOUBLE" && surrogateEscape(text, start, end))
        unsafe(start, end, "yamlSurrogateEscape", { what }, at);
      if (node.type === "QUOTE_DOUBLE" && escapedBreakBeforeBlank(text, start, end))
        unsafe(start, end, "yamlEscapedBreakBlankLine", { what }, at);
      if ((node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") && tabLedBlock(text, body, end))
        unsafe(start, end, "yamlBlockTabLed", { what }, at);
      if ((node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") && spacedTrailingLine(text, body, end))
        unsafe(start, end, "yamlBlockSpacedLine", { what }, at);
      if ((node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED") && end >= text.length && !/[\n\r]$/.test(text) && !/^[|>][0-9+]*-/.test(text.slice(start, start + 4)))
        unsafe(start, end, "yamlBlockNoFinalBreak", { what }, at);
    }
    if (node.type === "PLAIN" && flow === 0) {
      // The collection's column, from the start of its line (a position per scalar took a third of the time of a large plan).
      const shallow = underIndented(text, start, end, blockAt < 0 ? -1 : blockAt - (text.lastIndexOf("\n", blockAt - 1) + 1));
      if (shallow >= 0) unsafe(shallow, Math.max(shallow + 1, Math.min(end, text.indexOf("\n", shallow) >>> 0)), "yamlPlainUnderIndented", { what }, at);
    }
    if (!pyyaml) return;
    const src = node.source;
    if (typeof src !== "string") return;
    if (flow > 0 && node.type === "PLAIN" && (src.includes("?") || src.startsWith(":"))) {
      unsafe(start, end, src.startsWith(":") ? "yamlFlowLeadingColon" : "yamlFlowQuestionMark", { what, source: src, quoted: src.replace(/["\\]/g, "\\$&") }, at);
      return;
    }
    const tag = node.tag;
    if (goYaml && tag === undefined && node.type === "PLAIN" && GO_BOOLEAN.test(src)) {
      unsafe(start, end, "yamlGoReadsBoolean", { what, source: src, value: /^[yY]$/.test(src) ? "true" : "false", quoted: src }, at);
      return;
    }
    if (tag !== undefined && !CORE_TAGS.has(tag)) return;
    let py: PyScalar | undefined;
    if (tag !== undefined) py = pyyamlConstruct(tag, src);
    else if (node.type === "PLAIN" && pyyamlMayResolve(src)) py = pyyamlConstruct(pyyamlPlainTag(src, what === "key"), src);
    if (py !== undefined && !sameReading(py, node.value)) {
      unsafe(
        start,
        end,
        tag !== undefined ? "yamlPyyamlReadsTagged" : typeof node.value === "number" ? "yamlPyyamlReadsNumber" : "yamlPyyamlReads",
        { what, source: node.type === "PLAIN" ? src : JSON.stringify(src), yaml12: describe12(node.value), pyyaml: describePy(py), quoted: src.replace(/["\\]/g, "\\$&") },
        at,
      );
      return;
    }
    if (!goYaml || tag !== undefined || node.type !== "PLAIN") return;
    const go = goYamlV2Plain(src);
    if (!sameReading(go, node.value))
      unsafe(start, end, "yamlGoReads", { what, source: src, yaml12: describe12(node.value), go: describeGo(go), quoted: src.replace(/["\\]/g, "\\$&") }, at);
  };
  /** Defines an anchor; PyYAML refuses a second anchor of the same name ("found duplicate anchor"). */
  const anchor = (n: Node, start: number, end: number, at?: Pointer) => {
    const name = n.anchor!;
    if (pyyaml && !/^[0-9A-Za-z_-]+$/.test(name))
      unsafe(start, end, "yamlAnchorName", { name: JSON.stringify(name) }, at);
    else if (pyyaml && anchors.has(name))
      unsafe(start, end, "yamlAnchorTwice", { name }, at);
    anchors.set(name, n);
  };
  /** Records anchors and alias targets inside a part of the document that is not read (a refused key). */
  const register = (node: unknown) => {
    if (isAlias(node)) targets.set(node, anchors.get(node.source));
    else if (node && typeof node === "object") {
      const n = node as Node;
      if (n.anchor) anchor(n, rangeOf(n).start, rangeOf(n).end);
      if (isMap(n)) for (const pair of n.items) {
        register(pair.key);
        register(pair.value);
      }
      else if (isSeq(n)) for (const item of n.items) register(item);
    }
  };
  let expandedText = 0;
  const copied = (length: number) => {
    if (expanding > 0 && (expandedText += length) > maxExpandedText) throw new Exhausted("text");
  };
  const build = (node: unknown, at: Pointer, depth: number, key?: { keyStart: number; keyEnd: number }): unknown => {
    if (++visited > maxNodes) throw new Exhausted();
    if (visited > maxValues) {
      valuesAt = expanding > 0 ? expandedAt : rangeOf(node as Node);
      throw new Exhausted("values");
    }
    if (depth > maxDepth) {
      const r = (node as Node | undefined)?.range;
      addIssue(issues, { rule: "limit-exceeded", messageId: "yamlTooDeep", data: { max: maxDepth }, start: r?.[0] ?? 0, end: r?.[1] ?? 0, at });
      throw new Exhausted("depth");
    }
    if (isAlias(node)) {
      // Each alias is resolved once, against the anchors defined before it: Alias.resolve would search
      // the whole document for every alias, which makes a file of aliases quadratic.
      let target: Node | undefined;
      if (expanding > 0) target = targets.get(node);
      else {
        target = anchors.get(node.source);
        targets.set(node, target);
      }
      const r = rangeOf(node);
      if (target === undefined || open.has(target)) {
        unsafe(r.start, r.end, target === undefined ? "yamlAliasUnknown" : "yamlAliasCycle", { alias: node.source }, at);
        index.set(at, locationOf(node, key));
        return null;
      }
      if (expanding === 0) expandedAt = r;
      expanding++;
      const v = build(target, at, depth + 1);
      expanding--;
      index.set(at, locationOf(node, key));
      return v;
    }
    const loc = locationOf(node as Node | null, key);
    index.set(at, loc);
    if (node === null || node === undefined) return null;
    const fresh = expanding === 0;
    const n = node as Node;
    if (fresh && n.anchor) anchor(n, loc.start, loc.end, at);
    const tag = n.tag;
    if (fresh && tag !== undefined && !CORE_TAGS.has(tag)) {
      addIssue(issues, { rule: "unsafe-value", messageId: "yamlTag", data: { tag }, start: loc.start, end: loc.end, at });
    }
    if (isMap(node)) {
      if (fresh && tag !== undefined && tag !== MAP_TAG && CORE_TAGS.has(tag))
        unsafe(loc.start, loc.end, "yamlTagOnMapping", { tag }, at);
      const obj: Record<string, unknown> = {};
      const firstAt = new Map<string, number>();
      if (fresh) open.add(node);
      if (fresh && node.flow && flow === 0) flowRanges.push(loc.start, loc.end);
      if (node.flow) flow++;
      const outer = blockAt;
      if (!node.flow) blockAt = loc.start;
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const kr = rangeOf(keyNode);
        let name: string;
        if (keyNode === null || (isScalar(keyNode) && (keyNode.value === null || typeof keyNode.value !== "object"))) {
          const raw = keyNode === null ? null : (keyNode as Scalar).value;
          name = raw === null ? "" : String(raw);
          if (fresh && keyNode !== null) {
            if (keyNode.anchor) anchor(keyNode, kr.start, kr.end, childPointer(at, name));
            checkScalar(keyNode as Scalar, kr.start, kr.end, childPointer(at, name), "key");
          }
          if (fresh && keyNode !== null && keyNode.tag !== undefined && !CORE_TAGS.has(keyNode.tag))
            addIssue(issues, { rule: "unsafe-value", messageId: "yamlKeyTag", data: { tag: keyNode.tag }, start: kr.start, end: kr.end, at: childPointer(at, name) });
          if (keyNode === null || typeof raw !== "string")
            addIssue(issues, keyNode === null
              ? { rule: "unsafe-value", messageId: "yamlEmptyKey", data: { name }, start: kr.start, end: kr.end, at: childPointer(at, name) }
              : { rule: "unsafe-value", messageId: "yamlKeyNotString", data: { key: String(raw), name }, start: kr.start, end: kr.end, at: childPointer(at, name) });
        } else {
          name = "";
          addIssue(issues, { rule: "unsafe-value", messageId: "yamlComplexKey", start: kr.start, end: kr.end, at });
          if (fresh) {
            register(keyNode);
            register(pair.value);
          }
          continue;
        }
        copied(name.length);
        const memberAt = childPointer(at, name);
        const first = firstAt.get(name);
        if (first !== undefined) {
          const line = lines.position(first).line;
          addIssue(issues, { rule: "duplicate-key", messageId: "yamlDuplicateKey", data: { name, line }, start: kr.start, end: kr.end, at: memberAt });
        } else firstAt.set(name, kr.start);
        tooLong(name, kr.start, kr.end, memberAt, "key");
        if (name === "<<" && (keyNode as Scalar).type === "PLAIN")
          addIssue(issues, { rule: "unsafe-value", messageId: "yamlMergeKey", start: kr.start, end: kr.end, at: memberAt });
        const why = unsafeKey(name);
        if (why) addIssue(issues, { rule: "unsafe-value", messageId: why === "prototype" ? "yamlPrototypeKey" : "yamlInvisibleKey", data: { name }, start: kr.start, end: kr.end, at: memberAt });
        const value = build(pair.value, memberAt, depth + 1, { keyStart: kr.start, keyEnd: kr.end });
        if (name === "__proto__") Object.defineProperty(obj, name, { value, enumerable: true, writable: true, configurable: true });
        else obj[name] = value;
      }
      if (node.flow) flow--;
      blockAt = outer;
      if (fresh) open.delete(node);
      return obj;
    }
    if (isSeq(node)) {
      if (fresh && tag !== undefined && tag !== SEQ_TAG && CORE_TAGS.has(tag))
        unsafe(loc.start, loc.end, "yamlTagOnSequence", { tag }, at);
      if (fresh) open.add(node);
      if (fresh && node.flow && flow === 0) flowRanges.push(loc.start, loc.end);
      if (node.flow) flow++;
      const outer = blockAt;
      if (!node.flow) blockAt = loc.start;
      const arr: unknown[] = [];
      node.items.forEach((item, i) => {
        arr.push(build(item, childPointer(at, i), depth + 1));
      });
      if (node.flow) flow--;
      blockAt = outer;
      if (fresh) open.delete(node);
      return arr;
    }
    if (isScalar(node)) {
      const v = node.value;
      if (fresh) checkScalar(node, loc.start, loc.end, at, "value");
      if (typeof v === "number" && (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v))))
        addIssue(issues, { rule: "unsafe-value", messageId: Number.isFinite(v) ? "yamlUnsafeInteger" : "yamlNonFinite", data: { number: node.source ?? String(v) }, start: loc.start, end: loc.end, at });
      if (typeof v === "bigint") return Number(v);
      if (typeof v === "string") {
        copied(v.length);
        tooLong(v, loc.start, loc.end, at, "string");
      }
      if (typeof v === "string" && hasLoneSurrogate(v))
        addIssue(issues, { rule: "unsafe-value", messageId: "yamlLoneSurrogate", start: loc.start, end: loc.end, at });
      return v;
    }
    return null;
  };
  let value: unknown;
  try {
    value = build(doc.contents, "", 0);
  } catch (err) {
    if (err instanceof Exhausted) {
      if (err.message === "text")
        issues.push({ rule: "limit-exceeded", messageId: "yamlExpansionText", data: { max: maxExpandedText }, start: expandedAt.start, end: expandedAt.end });
      else if (err.message === "values")
        issues.push({ rule: "limit-exceeded", messageId: "yamlTooManyValues", data: { max: maxValues }, start: valuesAt.start, end: valuesAt.end });
      else if (err.message !== "depth")
        issues.push({ rule: "limit-exceeded", messageId: "yamlExpansion", data: { max: maxNodes }, start: expandedAt.start, end: expandedAt.end });
    } else issues.push(tooDeep(err, text));
    return { ...base, value: undefined, issues: sortIssues(issues), locate: () => undefined };
  }
  if (pyyaml) {
    tabsOutsideText(text, textRanges, unsafe);
    if (text.includes("?")) explicitKeys(text, scalarRanges, unsafe);
    if (text.includes(":")) colonFirst(text, scalarRanges, unsafe);
  }
  for (let i = 0; i < flowRanges.length; i += 2) flowKeys(text, flowRanges[i]!, flowRanges[i + 1]!, unsafe);
  if (text.includes("%")) directiveFaults(text, unsafe);
  return { ...base, value, issues: sortIssues(issues), locate: (p) => index.get(p) };
}

/** Characters outside YAML's c-printable set: the parser would accept some of them silently. */
const NOT_PRINTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\uFFFE\uFFFF]/;


/** A value's range and its key's, built directly: this runs once per node of the document. */
function locationOf(node: Node | null | undefined, key?: { keyStart: number; keyEnd: number }): ValueLocation {
  const r = node?.range;
  const start = r ? r[0] : 0;
  const end = r ? r[1] : 0;
  return key ? { start, end, keyStart: key.keyStart, keyEnd: key.keyEnd } : { start, end };
}

function rangeOf(node: Node | null | undefined): { start: number; end: number } {
  const r = node?.range;
  return r ? { start: r[0], end: r[1] } : { start: 0, end: 0 };
}

function sortIssues(issues: ReadIssue[]): ReadIssue[] {
  return issues.sort((a, b) => a.start - b.start);
}

function hasLoneSurrogate(s: string): boolean {
  return /\p{Surrogate}/u.test(s);
}

function tooDeep(err: unknown, text: string): ReadIssue {
  const end = Math.min(text.length, 1);
  if (err instanceof RangeError) return { rule: "limit-exceeded", messageId: "yamlTooDeepToRead", start: 0, end };
  return { rule: "parse-error", messageId: "yamlUnreadable", data: { reason: (err as Error)?.message ?? String(err) }, start: 0, end };
}

/** The parse-error message for a YAML syntax error of the parser's code: its hint says what to fix. */
function yamlSyntaxMessage(code: string): string {
  switch (code) {
    case "DUPLICATE_KEY":
      return "yamlSyntaxDuplicateKey";
    case "MULTIPLE_DOCS":
      return "yamlSyntaxMultipleDocuments";
    case "BAD_INDENT":
    case "MISSING_CHAR":
      return "yamlSyntaxIndentation";
    case "TAB_AS_INDENT":
      return "yamlSyntaxTab";
    default:
      return "yamlSyntax";
  }
}

/**
 * True when a block scalar (body from `body` to `end`) is followed, after its last line with text (or
 * from its start, when it has none), by a blank line holding spaces or tabs. PyYAML and the YAML 1.2
 * reader disagree on such lines: with an indentation indicator, at the end of the file without a line
 * break, or with no text line at all, one keeps the spaces past the indentation and the other drops them.
 */
function spacedTrailingLine(text: string, body: number, end: number): boolean {
  let from = body;
  for (let i = body; i < end && i < text.length; ) {
    let j = i;
    while (j < text.length && text[j] !== "\n" && text[j] !== "\r") j++;
    if (/[^ \t]/.test(text.slice(i, j))) from = j;
    i = j + 1;
  }
  // From the end of the last text line, through the blank lines that follow it.
  for (let i = from; i < text.length; ) {
    while (i < text.length && (text[i] === "\n" || text[i] === "\r")) i++;
    let j = i;
    while (j < text.length && text[j] !== "\n" && text[j] !== "\r") j++;
    const line = text.slice(i, j);
    if (/[^ \t]/.test(line)) return false;
    if (line.length > 0) return true;
    if (j >= text.length) return false;
    i = j;
  }
  return false;
}
