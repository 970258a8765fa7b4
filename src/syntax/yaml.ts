import { type Document, isAlias, isMap, isScalar, isSeq, type Node, parseDocument, type Scalar } from "yaml";
import { NO_LEXEMES, type ReadIssue, type SourceDocument, type ValueLocation } from "../core/document.js";
import { childPointer, type Pointer } from "../core/pointer.js";
import { LineIndex } from "../core/source.js";
import { addIssue, unsafeKeyReason } from "./unsafe.js";

export interface YamlOptions {
  maxDepth?: number;
  /** Most value nodes the document may expand to, aliases included (a "billion laughs" file hits it). */
  maxNodes?: number;
  /** Longest string value or key; longer gives `limit-exceeded`. Default 1 MiB. */
  maxStringLength?: number;
}

const CORE_TAGS = new Set(
  ["str", "int", "float", "bool", "null", "map", "seq"].map((t) => `tag:yaml.org,2002:${t}`),
);

class Exhausted extends Error {}

/**
 * The yaml package recurses once per nesting level and overflows the stack near 1,000 levels (where
 * V8 may even abort the process), so deeper documents are refused before it sees them.
 */
const YAML_MAX_DEPTH = 256;

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

/**
 * Reads one YAML 1.2 document (core schema: no custom tags, no code, no merge keys) into a plain value,
 * with every value's source range, duplicate keys reported, and aliases expanded within a bound.
 */
export function parseYaml(text: string, options: YamlOptions = {}): SourceDocument {
  const maxDepth = options.maxDepth ?? 1000;
  const maxNodes = options.maxNodes ?? Math.max(100_000, text.length);
  const maxString = options.maxStringLength ?? 1024 * 1024;
  const tooLong = (s: string, start: number, end: number, at: Pointer, what: string) => {
    if (s.length > maxString)
      addIssue(issues, { rule: "limit-exceeded", message: `The ${what} is longer than ${maxString} characters.`, start, end, pointer: at, hint: "shorten it, or raise limits.maxStringLength in plangate.yaml if the input is trusted" });
  };
  const issues: ReadIssue[] = [];
  const lines = new LineIndex(text);
  const base = { syntax: "yaml" as const, text, lines, numbers: NO_LEXEMES };
  if (text.trim() === "") {
    issues.push({ rule: "parse-error", message: "The file is empty: write a YAML plan.", start: 0, end: 0, hint: "add the plan's root mapping, e.g. steps: [...]" });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const bad = NOT_PRINTABLE.exec(text);
  if (bad) {
    const code = "U+" + bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    issues.push({ rule: "parse-error", message: `Control character ${code} is not allowed in a YAML file.`, start: bad.index, end: bad.index + 1, hint: "remove it, or write it as an escape in a double-quoted string; the file may be binary or in another encoding" });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const deep = nestingBeyond(text, Math.min(maxDepth, YAML_MAX_DEPTH));
  if (deep !== undefined) {
    issues.push({ rule: "limit-exceeded", message: `Nesting is deeper than ${Math.min(maxDepth, YAML_MAX_DEPTH)} levels.`, start: deep, end: Math.min(text.length, deep + 1), hint: "flatten the document" });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { uniqueKeys: false, merge: false, schema: "core", strict: true, prettyErrors: false, keepSourceTokens: false });
  } catch (err) {
    issues.push(tooDeep(err, text));
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const firstError = doc.errors[0];
  // The parser reports its own stack overflow on deep block nesting as a syntax error.
  if (firstError && /call stack/i.test(firstError.message)) {
    issues.push(tooDeep(new RangeError(firstError.message), text));
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  if (firstError) {
    // The parser may place an end-of-input error one past the end; keep spans inside the text.
    const start = Math.min(firstError.pos[0], text.length);
    const end = Math.min(firstError.pos[1], text.length);
    issues.push({
      rule: "parse-error",
      message: `YAML syntax error: ${firstError.message.split("\n")[0]}`,
      start,
      end: Math.max(start, end),
      hint: yamlHint(firstError.code),
    });
    return { ...base, value: undefined, issues, locate: () => undefined };
  }
  const index = new Map<Pointer, ValueLocation>();
  let visited = 0;
  const targets = new Map<Node, Node | undefined>();
  const build = (node: unknown, at: Pointer, depth: number, key?: { keyStart: number; keyEnd: number }): unknown => {
    if (++visited > maxNodes) throw new Exhausted();
    if (depth > maxDepth) {
      const r = (node as Node | undefined)?.range;
      addIssue(issues, { rule: "limit-exceeded", message: `Nesting is deeper than ${maxDepth} levels.`, start: r?.[0] ?? 0, end: r?.[1] ?? 0, pointer: at, hint: "flatten the document, or raise limits.maxDepth" });
      throw new Exhausted("depth");
    }
    if (isAlias(node)) {
      // Alias.resolve searches the document; a file full of aliases must not make that quadratic.
      let target = targets.get(node);
      if (target === undefined) {
        target = node.resolve(doc);
        targets.set(node, target);
      }
      const v = build(target, at, depth + 1);
      index.set(at, locationOf(node, key));
      return v;
    }
    const loc = locationOf(node as Node | null, key);
    index.set(at, loc);
    if (node === null || node === undefined) return null;
    const tag = (node as Node).tag;
    if (tag !== undefined && !CORE_TAGS.has(tag)) {
      addIssue(issues, { rule: "unsafe-value", message: `The YAML tag "${tag}" is not allowed: plans are plain data.`, start: loc.start, end: loc.end, pointer: at, hint: "remove the tag; write the value as a plain string, number, list or mapping" });
    }
    if (isMap(node)) {
      const obj: Record<string, unknown> = {};
      const firstAt = new Map<string, number>();
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const kr = rangeOf(keyNode);
        let name: string;
        if (keyNode === null || (isScalar(keyNode) && (keyNode.value === null || typeof keyNode.value !== "object"))) {
          const raw = keyNode === null ? null : (keyNode as Scalar).value;
          name = raw === null ? "" : String(raw);
          if (keyNode === null || typeof raw !== "string")
            addIssue(issues, { rule: "unsafe-value", message: `The key ${keyNode === null ? "(empty)" : String(raw)} is not a string: JSON and YAML consumers read it differently.`, start: kr.start, end: kr.end, pointer: childPointer(at, name), hint: `quote the key: "${name}"` });
        } else {
          name = "";
          addIssue(issues, { rule: "unsafe-value", message: "A complex (non-scalar) key cannot be a plan field.", start: kr.start, end: kr.end, pointer: at, hint: "use a plain string key" });
          continue;
        }
        const memberAt = childPointer(at, name);
        const first = firstAt.get(name);
        if (first !== undefined) {
          const line = lines.position(first).line;
          addIssue(issues, { rule: "duplicate-key", message: `Duplicate key "${name}" in one mapping (first at line ${line}): JSON and YAML consumers disagree on which wins.`, start: kr.start, end: kr.end, pointer: memberAt, hint: "keep exactly one" });
        } else firstAt.set(name, kr.start);
        tooLong(name, kr.start, kr.end, memberAt, "key");
        if (name === "<<" && (keyNode as Scalar).type === "PLAIN")
          addIssue(issues, { rule: "unsafe-value", message: "The merge key << means a merge to YAML 1.1 readers and a key named \"<<\" to YAML 1.2 readers: consumers would run different plans.", start: kr.start, end: kr.end, pointer: memberAt, hint: "write the merged members out in full" });
        const why = unsafeKeyReason(name);
        if (why) addIssue(issues, { rule: "unsafe-value", message: `The key "${name}" ${why}.`, start: kr.start, end: kr.end, pointer: memberAt, hint: "rename the key" });
        const value = build(pair.value, memberAt, depth + 1, { keyStart: kr.start, keyEnd: kr.end });
        if (name === "__proto__") Object.defineProperty(obj, name, { value, enumerable: true, writable: true, configurable: true });
        else obj[name] = value;
      }
      return obj;
    }
    if (isSeq(node)) {
      const arr: unknown[] = [];
      node.items.forEach((item, i) => {
        arr.push(build(item, childPointer(at, i), depth + 1));
      });
      return arr;
    }
    if (isScalar(node)) {
      const v = node.value;
      if (typeof v === "number" && (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v))))
        addIssue(issues, { rule: "unsafe-value", message: `The number ${node.source ?? String(v)} ${Number.isFinite(v) ? "is beyond ±(2^53-1): consumers round it differently" : "is not finite: JSON cannot represent it"}.`, start: loc.start, end: loc.end, pointer: at, hint: "write it as a string, or within range" });
      if (typeof v === "bigint") return Number(v);
      if (typeof v === "string") tooLong(v, loc.start, loc.end, at, "string");
      if (typeof v === "string" && hasLoneSurrogate(v))
        addIssue(issues, { rule: "unsafe-value", message: "The string holds a lone UTF-16 surrogate, which UTF-8 cannot represent.", start: loc.start, end: loc.end, pointer: at, hint: "remove the \\uD800-\\uDFFF escape" });
      return v;
    }
    return null;
  };
  let value: unknown;
  try {
    value = build(doc.contents, "", 0);
  } catch (err) {
    if (err instanceof Exhausted) {
      if (err.message !== "depth")
        issues.push({ rule: "limit-exceeded", message: `The document expands to more than ${maxNodes} values (aliases included): a resource-exhaustion attack or a runaway file.`, start: 0, end: 0, hint: "remove the nested aliases, or raise limits if the input is trusted" });
    } else issues.push(tooDeep(err, text));
    return { ...base, value: undefined, issues: sortIssues(issues), locate: () => undefined };
  }
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
  const overflow = err instanceof RangeError;
  return {
    rule: overflow ? "limit-exceeded" : "parse-error",
    message: overflow ? "The document is nested too deeply to read." : `The YAML could not be read: ${(err as Error)?.message ?? String(err)}`,
    start: 0,
    end: Math.min(text.length, 1),
    hint: overflow ? "flatten the document" : "check the YAML syntax",
  };
}

function yamlHint(code: string): string {
  switch (code) {
    case "DUPLICATE_KEY":
      return "keep exactly one of the keys";
    case "MULTIPLE_DOCS":
      return "a plan file holds one YAML document: remove the extra '---' section";
    case "BAD_INDENT":
    case "MISSING_CHAR":
      return "check the indentation and the ':' after each key";
    case "TAB_AS_INDENT":
      return "indent with spaces, not tabs";
    default:
      return "fix the YAML syntax at this position";
  }
}
