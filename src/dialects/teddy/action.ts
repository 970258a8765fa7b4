import type { NormalizeContext } from "../../core/dialect.js";
import type { Step } from "../../core/plan.js";
import { childPointer, type Pointer } from "../../core/pointer.js";
import type { EditPair, TeddyAction } from "../../core/step-extra.js";
import { INVISIBLE } from "../../core/lookalike.js";
import type { MarkdownDocument, MdBlock, MdLine } from "../../syntax/markdown.js";
import { isUrl, pathFromValue, teddyDriveStripped } from "./paths.js";
import { boldValue } from "./reading.js";
import { trimEndOf } from "../../core/text.js";
import { isFolderName, isPathName, pathNamesFor } from "../../core/paths.js";

/**
 * An EXECUTE item that says where its command runs, which TeDDy does not read (`Workdir`, `Working
 * Directory`, `working_dir`, `Dir`, `Folder`): a reader would take the command to run there. Items whose
 * words merely may name a folder elsewhere (`Root Cause`, `Base`, `Location`) are metadata.
 */
const WORKING_FOLDER = /(?:^|[^a-z])(?:c?wd|pwd|chdir|cd|dirs?|director(?:y|ies)|folders?|work(?:ing)?[ _.-]*(?:dir|directory|folder))(?:$|[^a-z])|(?:dir|directory|folder)$/i;

/** Action types the TeDDy spec defines, and those current TeDDy plans use. */
export const CORE_ACTIONS = ["CREATE", "EDIT", "READ", "PRUNE"] as const;
export const KNOWN_ACTIONS: readonly string[] = [...CORE_ACTIONS, "EXECUTE", "RESEARCH", "CHAT_WITH_USER", "PROMPT", "INVOKE", "RETURN", "CONCLUDE"];

const WORD_CHARACTER = /^[\p{L}\p{N}_]$/u;

/**
 * "`READ**" → "READ": TeDDy tolerates backticks, emphasis and colons around an action or FIND heading.
 * The text from its first letter, digit or underscore to its last (code points, as a `u` pattern reads
 * them); empty without any. One pass from each end: a pattern for the trailing run would try it again
 * from every position (seconds for a heading of a few thousand punctuation marks and spaces).
 */
export function headingWord(text: string): string {
  let start = 0;
  while (start < text.length) {
    const size = codePointSize(text, start);
    if (isWordCharacter(text, start, size)) break;
    start += size;
  }
  if (start >= text.length) return "";
  let end = text.length;
  for (;;) {
    const low = text.charCodeAt(end - 1);
    const high = end - 2 >= start ? text.charCodeAt(end - 2) : 0;
    const size = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
    if (isWordCharacter(text, end - size, size)) return text.slice(start, end);
    end -= size;
  }
}

/** Is the code point at `i` (`size` units) a letter, digit or underscore? ASCII without the pattern. */
function isWordCharacter(text: string, i: number, size: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
  return WORD_CHARACTER.test(text.slice(i, i + size));
}

/** 2 for a surrogate pair at `i`, else 1. */
function codePointSize(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) return 1;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

const PATH_KEY = /^\s*(file path|resource)\s*:/i;
const META_LINE = /^\s*([\p{L}][\p{L}\p{N} _-]{0,40}?)\s*:\s*(.*)$/u;

/**
 * Longest metadata line read (the inline text bound of a whole document, MAX_MARKDOWN_INLINE). META_LINE
 * keeps a backtrack entry per character: on a line of about 8 million characters in a document that is not
 * Latin-1 it overflowed the expression stack, and plangate stopped with an internal error.
 */
export const MAX_META_LINE = 1024 * 1024;

function argName(key: string): string {
  return key.trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "_");
}

function coerce(value: string): unknown {
  const v = value.trim();
  if (/^(true|yes)$/i.test(v)) return true;
  if (/^(false|no)$/i.test(v)) return false;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

function anchorLine(doc: MarkdownDocument, at: Pointer, line: number, needle: string): void {
  const start = doc.lines.lineStarts[line - 1];
  if (start === undefined) return;
  const text = doc.lines.lineText(line);
  const i = needle ? text.lastIndexOf(needle) : -1;
  doc.anchors.set(at, i >= 0 ? { start: start + i, end: start + i + needle.length } : { start, end: start + text.length });
}

/** A word of link text that names a file: a separator in it, or a name with an extension (`a.py`). */
const SHOWN_PATH = /[/\\]|^[\w.-]*\w\.[A-Za-z0-9]{1,10}$/;

/**
 * The paths a link's text shows a reader: the text itself when it is one word (spaces at its ends do not
 * show), else each word that reads as a path (`edit src/a.py now` shows `src/a.py`), without the
 * punctuation of a sentence around it; read as TeDDy reads a path.
 */
function shownPaths(text: string): string[] {
  const t = text.trim();
  if (!/\s/.test(t)) return [pathFromValue("", { text: t, href: "" })];
  return t
    .split(/\s+/)
    .map((w) => w.replace(/^[("'`]+/, "").replace(/[)"'`,;:!?]+$/, ""))
    .filter((w) => SHOWN_PATH.test(w))
    .map((w) => pathFromValue("", { text: w.replace(/(?<=[/\\].*)\.+$/, ""), href: "" }));
}

/** Builds the step of one action from the blocks under its H3 (up to the next action or separator). */
export function readAction(
  doc: MarkdownDocument,
  heading: Extract<MdBlock, { kind: "heading" }>,
  body: MdBlock[],
  index: number,
  ctx: NormalizeContext,
): Step {
  const position = index + 1;
  const at = `/actions/${index}`;
  const type = headingWord(heading.text);
  const action: TeddyAction = { type, known: KNOWN_ACTIONS.includes(type), edits: [], overwrite: false, matchAll: false };
  const args: Record<string, unknown> = {};
  const argsAt = childPointer(at, "params");
  const step: Step = { position, at, tool: type, toolAt: childPointer(at, "type"), args, argsAt, raw: heading.text, extra: { action } };
  const last = body[body.length - 1];
  doc.anchors.set(at, { start: heading.start, end: last ? last.end : heading.end });
  doc.anchors.set(step.toolAt, { start: heading.start, end: heading.end });
  /** The step as messages name it: its position and action type. */
  const where = { step: position, type: type || "untitled" };
  if (INVISIBLE.test(heading.text)) {
    ctx.report({ rule: "unsafe-value", messageId: "teddyHeadingInvisible", data: where, at: step.toolAt });
  }

  const seen = new Map<string, { line: number; lower: string }>();
  const metaLine = (line: MdLine) => {
    if (line.text.length > MAX_META_LINE) {
      const lineAt = childPointer(at, `line ${line.line}`);
      anchorLine(doc, lineAt, line.line, "");
      ctx.report({ rule: "limit-exceeded", messageId: "teddyMetadataTooLong", data: { ...where, line: line.line, max: MAX_META_LINE }, at: lineAt, step: position });
      return true;
    }
    const m = META_LINE.exec(line.text);
    if (!m) return false;
    const key = m[1]!.trim();
    const value = m[2]!;
    const lower = key.toLowerCase();
    const keyAt = childPointer(argsAt, key);
    anchorLine(doc, keyAt, line.line, line.links[0]?.href || value.trim());
    // `File Path` and `Resource` are one parameter to TeDDy (a READ's `File Path` replaces its `Resource`): the
    // two in one action give it two paths, of which a reviewer may read the one that does not run.
    const slot = lower === "resource" ? "file path" : lower;
    const first = seen.get(slot);
    if (first) {
      ctx.report({ rule: "duplicate-key", messageId: first.lower === lower ? "teddyMetadata" : "teddyPathTwice", data: { ...where, key, line: first.line }, at: keyAt, step: position });
      return true;
    }
    seen.set(slot, { line: line.line, lower });
    if (lower === "description" || lower === "goal") {
      step.intent = value.trim();
    } else if (lower === "file path" || lower === "resource") {
      const raw = value.trim();
      action.pathKey = key;
      const link = line.links[0];
      // Without a link TeDDy takes the value as written after a bold key (emphasis underscores kept, as
      // in __init__.py), and a bracketed path with its brackets (an undefined link).
      const written = link ? link.href || link.text : (boldValue(doc.lines.lineText(line.line).replace(/^\s*[-*+]\s+/, "")) ?? raw);
      const read = link ? pathFromValue(raw, link) : /^\[[^\]]+\]$/.test(written) ? written.replace(/\\/g, "/") : pathFromValue(written, undefined);
      if (type === "READ" && read.startsWith("http")) {
        // TeDDy's READ fetches every resource that starts with "http" from the web (`httpdocs/a.html`
        // too), after its reading has turned backslashes into slashes and dropped a leading `/`.
        action.url = read;
        if (!isUrl(read) || read !== written.trim()) {
          const messageId = isUrl(read) ? "teddyResourceHttpRewritten" : "teddyResourceHttpFile";
          ctx.report({ rule: "unsafe-value", messageId, data: { ...where, written: written.trim(), path: read }, at: keyAt, step: position });
        }
      } else if (lower === "resource" && isUrl(read)) action.url = read;
      else action.path = read;
      action.pathAt = keyAt;
      // A link to a web page whose text names another address or a file (`[docs/a.md](https://host/x)`).
      if (action.url !== undefined && link?.href && /[./\\]/.test(link.text) && link.text.trim() !== action.url) {
        ctx.report({ rule: "unsafe-value", messageId: "teddyLinkUrlMismatch", data: { ...where, text: link.text, url: action.url }, at: keyAt, step: position });
      }
      // The reviewer reads the link text, the executor follows the destination: they must agree.
      if (action.path !== undefined && link?.href && /[./\\]/.test(link.text)) {
        const shown = shownPaths(link.text).find((p) => p !== action.path);
        if (shown !== undefined) {
          ctx.report({
            rule: "unsafe-value",
            messageId: "teddyLinkMismatch",
            data: { ...where, text: link.text, href: link.href, path: action.path },
            at: keyAt,
            step: position,
            expected: shown,
            actual: action.path,
          });
        }
      }
      if (action.url !== undefined) args.url = action.url;
      else {
        args.path = action.path;
        doc.anchors.set(childPointer(argsAt, "path"), doc.anchors.get(keyAt)!);
        if (INVISIBLE.test(action.path ?? "")) {
          ctx.report({ rule: "unsafe-value", messageId: "teddyPathInvisible", data: { ...where, path: action.path! }, at: keyAt, step: position });
        }
        const drive = teddyDriveStripped(action.path ?? "");
        if (drive !== undefined) {
          ctx.report({ rule: "unsafe-value", messageId: "teddyPathDrive", data: { ...where, path: action.path!, stripped: drive }, at: keyAt, step: position });
        }
      }
    } else {
      const name = argName(key);
      // TeDDy reads every value as text: a folder or a path (`cwd: 123`, `cwd: true`) stays the text it
      // names, so the path rules check it and the command is read from it.
      const text = isFolderName(name) || isPathName(name, pathNamesFor(type, ctx.policy.paths.arguments, undefined));
      const v = text ? value.trim() : coerce(value);
      args[name] = v;
      doc.anchors.set(childPointer(argsAt, name), doc.anchors.get(keyAt)!);
      if (type === "EXECUTE" && key === "env") {
        // TeDDy sets the variables of a list nested under the item for the command (PATH, LD_PRELOAD,
        // BASH_ENV, NODE_OPTIONS...), which the command's text does not show.
        ctx.report({ rule: "unsafe-value", messageId: "teddyExecuteEnv", data: where, at: keyAt, step: position });
      } else if (type === "EXECUTE" && name !== "cwd" && WORKING_FOLDER.test(name)) {
        // TeDDy reads no such key: the command runs in the workspace root (or `cwd`), not where the item says.
        ctx.report({ rule: "unsafe-value", messageId: "teddyExecuteFolder", data: { ...where, key, value: value.trim() }, at: keyAt, step: position });
      }
      if (name === "overwrite") action.overwrite = v === true;
      if (name === "match_all") action.matchAll = v === true;
    }
    return true;
  };

  let pending: { side: "find" | "replace"; at: Pointer } | undefined;
  const withReplace = new Set<EditPair>();
  let fences = 0;
  let strayReported = false;
  let inMeta = true;
  for (const block of body) {
    if (block.kind !== "list" && block.kind !== "paragraph") inMeta = false;
    const word = block.kind === "heading" && block.level === 4 ? headingWord(block.text).toUpperCase() : undefined;
    if (block.kind !== "hr" && block.kind !== "fence" && (type === "CREATE" || type === "EXECUTE") && fences > 0) {
      stray(block, "teddyTextAfterBlock");
    } else if (block.kind === "list") {
      // The metadata block opens the action; later lists are prose, but a path key there still counts.
      for (const line of block.lines) if (inMeta || PATH_KEY.test(line.text)) metaLine(line);
    } else if (block.kind === "paragraph") {
      // In prose only **Key:** lines are metadata, so "Note: …" in a message stays text.
      for (const line of block.lines) if (line.bold && (inMeta || PATH_KEY.test(line.text))) metaLine(line);
      if (!block.lines.every((l) => l.bold && l.text.length <= MAX_META_LINE && META_LINE.test(l.text))) inMeta = false;
    } else if (word === "FIND" || word === "REPLACE") {
      const side = word === "FIND" ? "find" : "replace";
      let pair = action.edits[action.edits.length - 1];
      // A REPLACE completes the pair its FIND opened; anything else opens a new pair.
      if (side === "find" || !pair || withReplace.has(pair)) {
        pair = { at: childPointer(at, "edits", action.edits.length) };
        action.edits.push(pair);
        doc.anchors.set(pair.at, { start: block.start, end: block.end });
      }
      if (side === "replace") withReplace.add(pair);
      pending = { side, at: childPointer(pair.at, side) };
      doc.anchors.set(pending.at, { start: block.start, end: block.end });
    } else if (block.kind === "fence") {
      fences++;
      // As TeDDy reads a block: every trailing line break dropped (a command: trimmed).
      const text = trimEndOf(block.content, "\n");
      if (pending) {
        const pair = action.edits[action.edits.length - 1]!;
        pair[pending.side] = text;
        doc.anchors.set(pending.at, { start: block.start, end: block.end });
        pending = undefined;
      } else if (fences === 1 && (type === "CREATE" || type === "EXECUTE")) {
        const key = type === "CREATE" ? "content" : "command";
        if (type === "CREATE") action.content = text;
        else args.command = block.content.trim();
        doc.anchors.set(childPointer(at, key), { start: block.start, end: block.end });
        if (type === "EXECUTE") doc.anchors.set(childPointer(argsAt, "command"), { start: block.start, end: block.end });
      } else if (type === "CREATE" || type === "EXECUTE") {
        stray(block, "teddySecondBlock");
      }
      if (type === "RESEARCH") {
        const queries = (args.queries as string[] | undefined) ?? [];
        for (const q of block.content.split("\n")) if (q.trim()) queries.push(q.trim());
        args.queries = queries;
      }
    }
  }
  return step;

  function stray(block: MdBlock, messageId: string) {
    if (strayReported) return;
    strayReported = true;
    const strayAt = childPointer(at, "stray");
    doc.anchors.set(strayAt, { start: block.start, end: block.end });
    ctx.report({
      rule: "parse-error",
      messageId,
      data: { ...where, line: block.line, action: type },
      at: strayAt,
      step: position,
    });
  }
}
