import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { Diagnostic } from "../core/diagnostic.js";
import { ruleText } from "../rules/read-text.js";

/** What reading a plan file gave: its bytes, or why not. */
export type BoundedRead =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: "too-large"; size: number }
  | { ok: false; reason: "not-a-file"; kind: string }
  | { ok: false; reason: "error"; code: string };

/**
 * Reads a regular file of at most `max` bytes. Devices and pipes (/dev/zero, a FIFO) would be read
 * forever or block, so only regular files are read; the size is checked on the open descriptor and
 * again while reading, so a file that grows after the check is still refused.
 */
export function readFileBounded(path: string, max: number): BoundedRead {
  let fd: number;
  try {
    // Non-blocking, so that opening a FIFO with no writer returns at once (fstat then refuses it).
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return { ok: false, reason: "error", code: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
  }
  try {
    return readOpenBounded(fd, max);
  } finally {
    closeSync(fd);
  }
}

/** readFileBounded on a descriptor the caller opened (and closes). */
export function readOpenBounded(fd: number, max: number): BoundedRead {
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, reason: "not-a-file", kind: st.isDirectory() ? "a directory" : "a device, pipe or socket" };
    if (st.size > max) return { ok: false, reason: "too-large", size: st.size };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(Math.max(st.size - total, 0) + 1, max + 1 - total, 1 << 24));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (total > max) return { ok: false, reason: "too-large", size: total };
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (err) {
    return { ok: false, reason: "error", code: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
  }
}

/**
 * The `file-not-found` diagnostic of a plan file that could not be read, in the rule's words: it does not
 * exist, is not a regular file, or cannot be read. `validation` picks the messages of `validate`, whose
 * hint also asks whether the plan was written yet; `file` names the input on the diagnostic.
 */
export function planFileNotFound(path: string, read: Extract<BoundedRead, { reason: "not-a-file" | "error" }>, options: { validation?: boolean; file?: string } = {}): Diagnostic {
  const v = options.validation === true;
  const { message, hint } =
    read.reason === "not-a-file"
      ? ruleText("file-not-found", v ? "notAPlanFile" : "notAFile", { path, kind: read.kind })
      : read.code === "ENOENT"
        ? ruleText("file-not-found", v ? "missingForValidation" : "missing", { path })
        : ruleText("file-not-found", v ? "unreadableForValidation" : "unreadable", { path, code: read.code });
  return options.file === undefined ? { rule: "file-not-found", severity: "error", message, hint } : { rule: "file-not-found", severity: "error", message, file: options.file, hint };
}

/**
 * The `limit-exceeded` diagnostic of an input over the size limit (`max` bytes), in the rule's words:
 * `fileTooLarge` (validate's), `fileTooLargeSplit` (with a hint to split the plan) or, when its size is
 * not known (standard input), `inputTooLarge`. `file` names the input on the diagnostic.
 */
export function inputTooLarge(options: { max: number; size?: number; file?: string; split?: boolean }): Diagnostic {
  const { max, size, file } = options;
  const { message, hint } = size === undefined ? ruleText("limit-exceeded", "inputTooLarge", { max }) : ruleText("limit-exceeded", options.split ? "fileTooLargeSplit" : "fileTooLarge", { size, max });
  const d: Diagnostic = file === undefined ? { rule: "limit-exceeded", severity: "error", message } : { rule: "limit-exceeded", severity: "error", message, file };
  if (hint !== undefined) d.hint = hint;
  d.expected = max;
  if (size !== undefined) d.actual = size;
  return d;
}

/** The `file-not-found` diagnostic of a plan file whose read failed with `code` (an errno code or a message). */
export function planFileFailed(path: string, code: string): Diagnostic {
  const { message, hint } = ruleText("file-not-found", "failed", { path, code });
  return { rule: "file-not-found", severity: "error", message, hint };
}

/** Configuration files (policy, tool registry) are small: a bound keeps a wrong path from hanging the CLI. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** Reads a configuration file as UTF-8; throws an Error saying why it cannot. */
export function readConfigText(path: string, max = MAX_CONFIG_BYTES): string {
  const bytes = readSmallFile(path, max);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}

/**
 * Reads a small input file (an approval, a TODO.md, a configuration) as bytes: a regular file of at most
 * `max` bytes. Throws an Error saying why it cannot (`it is a device, pipe or socket`, `it is over N
 * bytes`), with the errno `code` when there is one.
 */
export function readSmallFile(path: string, max = MAX_CONFIG_BYTES): Uint8Array {
  const read = readFileBounded(path, max);
  if (read.ok) return read.bytes;
  const err = new Error(
    read.reason === "too-large" ? `it is over ${max} bytes` : read.reason === "not-a-file" ? `it is ${read.kind}` : read.code,
  ) as NodeJS.ErrnoException;
  if (read.reason === "error") err.code = read.code;
  throw err;
}
