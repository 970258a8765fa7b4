import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { isatty } from "node:tty";
import { useBaselineCompilerForShell } from "../node/wasm-compiler.js";
/** What the CLI touches of the outside world; tests pass their own. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads all of standard input; with maxBytes, stops once more than that has arrived (the caller rejects it). */
  readStdin(maxBytes?: number): Promise<Uint8Array>;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Is stdout a terminal (colour is used only then, and never with NO_COLOR). */
  isTTY: boolean;
  /**
   * Is standard input a terminal (a person typing, not a host piping a hook's JSON)? Absent: no. Only
   * `plangate guard --help` asks: the hook answers a help request with exit 0 only at a terminal.
   */
  stdinIsTTY?: boolean;
  /**
   * Looks at standard input for a command that does not read it (bounded in size and time, never waiting
   * on a pipe left open). Absent: there is nothing to look at.
   */
  sniffStdin?(): Promise<StdinSniff | undefined>;
  now(): Date;
}

/** What a bounded look at standard input saw: its first bytes, and whether they are all of it. */
export interface StdinSniff {
  bytes: Uint8Array;
  complete: boolean;
}

/** The process's real streams. */
export function processIO(): CliIO {
  useBaselineCompilerForShell();
  return {
    stdout: directWriter(1, () => process.stdout),
    stderr: directWriter(2, () => process.stderr),
    readStdin: readStandardInput,
    cwd: process.cwd(),
    env: process.env,
    // Asked only by commands that may colour their output: process.stdout is not made for a hook call.
    get isTTY() {
      return process.stdout.isTTY === true;
    },
    get stdinIsTTY() {
      return isatty(0);
    },
    sniffStdin: () => sniffStandardInput(SNIFF_MAX_BYTES, SNIFF_FIRST_MS, SNIFF_TOTAL_MS),
    now: () => new Date(),
  };
}

/**
 * Writes to a file descriptor with `writeSync`, as Node's own stream does on POSIX for a file, a terminal
 * and (on Linux) a pipe, without making the stream (about 1 ms of CPU of a hook call). Once a write cannot
 * be made at once (EAGAIN: a descriptor another process made non-blocking), the rest of it and every later
 * write go through the stream, so nothing is reordered. On Windows the stream is used for everything.
 */
export function directWriter(fd: number, stream: () => NodeJS.WritableStream): (text: string) => void {
  let viaStream = process.platform === "win32";
  return (text) => {
    if (viaStream) {
      stream().write(text);
      return;
    }
    const bytes = Buffer.from(text, "utf8");
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // The reader went away (a closed pipe) or the disk is full: not a bug, and nothing was accepted.
      if (code !== "EAGAIN") throw new CliError(`cannot write to standard ${fd === 1 ? "output" : "error"} (${code ?? (err as Error).message}${code === "EPIPE" ? ": its reader closed it" : ""}); the result was not delivered, so nothing counts as accepted`, "io");
      viaStream = true;
      stream().write(bytes.subarray(done));
    }
  };
}

const CHUNK = 65536;

/**
 * Reads all of standard input; with maxBytes, stops once more than that has arrived (the caller rejects
 * it). A file is read with `readSync` (it never blocks). On Linux a pipe is opened again, non-blocking,
 * through /proc/self/fd/0 and read as data arrives, so a stalled writer never blocks the event loop (the
 * guard's deadline must still fire). Anything else (a socket, as Node's child_process makes; a terminal;
 * Windows; no /proc) is read through `process.stdin`. The first two spare the stream modules (about 2 ms
 * of CPU of a hook call).
 */
export async function readStandardInput(maxBytes = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  if (process.platform !== "win32") {
    let kind: "file" | "fifo" | "other" = "other";
    try {
      const st = fstatSync(0);
      kind = st.isFile() ? "file" : st.isFIFO() && process.platform === "linux" ? "fifo" : "other";
    } catch {
      // No standard input to stat: the stream says what there is.
    }
    if (kind === "file") return readAvailable(0, maxBytes, false);
    if (kind === "fifo") {
      const read = await readPipeAgain((fd) => readAvailable(fd, maxBytes, true));
      if (read !== undefined) return read;
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).byteLength;
    // An endless or huge pipe must not be buffered whole: what is over the limit is rejected anyway.
    if (size > maxBytes) break;
  }
  return Buffer.concat(chunks);
}

/** How much of standard input a command that does not read it looks at, and for how long. */
const SNIFF_MAX_BYTES = 1024 * 1024;
/** A host writes a hook's event as it starts the command: what has not begun to arrive by then is no event. */
const SNIFF_FIRST_MS = 500;
const SNIFF_TOTAL_MS = 3000;

/**
 * Reads standard input for a command that does not use it, to tell a host's hook event from a script's
 * stray input: at most maxBytes (complete: false past them), waiting at most firstMs for its first byte
 * and totalMs in all, so a pipe a script leaves open delays the command, never hangs it. A terminal, a
 * device (/dev/null) or a closed descriptor is not looked at. Whatever was read is gone: the command
 * must not read standard input itself.
 */
export async function sniffStandardInput(maxBytes: number, firstMs: number, totalMs: number): Promise<StdinSniff | undefined> {
  if (isatty(0)) return undefined;
  let kind: "file" | "fifo" | "stream" | "none" = "stream";
  if (process.platform !== "win32") {
    try {
      const st = fstatSync(0);
      kind = st.isFile() ? "file" : st.isFIFO() && process.platform === "linux" ? "fifo" : st.isFIFO() || st.isSocket() ? "stream" : "none";
    } catch {
      kind = "none";
    }
  }
  if (kind === "none") return undefined;
  if (kind === "file") {
    const bytes = readAvailable(0, maxBytes, false);
    return { bytes: bytes.subarray(0, maxBytes), complete: bytes.byteLength <= maxBytes };
  }
  if (kind === "fifo") {
    const seen = await readPipeAgain((fd) => sniffNonBlocking(fd, maxBytes, firstMs, totalMs));
    if (seen !== undefined) return seen;
  }
  return sniffStream(maxBytes, firstMs, totalMs);
}

/** Reads a non-blocking descriptor until its end, past maxBytes, or a deadline; each deadline is checked after a read, never before. */
async function sniffNonBlocking(fd: number, maxBytes: number, firstMs: number, totalMs: number): Promise<StdinSniff> {
  const chunks: Buffer[] = [];
  let size = 0;
  const start = performance.now();
  let wait = 1;
  let buf = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") return { bytes: Buffer.concat(chunks, size), complete: false };
      const waited = performance.now() - start;
      if (waited >= totalMs || (size === 0 && waited >= firstMs)) return { bytes: Buffer.concat(chunks, size), complete: false };
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 16);
      continue;
    }
    if (n === 0) return { bytes: Buffer.concat(chunks, size), complete: true };
    chunks.push(buf.subarray(0, n));
    buf = Buffer.allocUnsafe(CHUNK);
    size += n;
    if (size > maxBytes) return { bytes: Buffer.concat(chunks, size).subarray(0, maxBytes), complete: false };
  }
}

/**
 * Reads `process.stdin` (a socket, as Node's child_process makes) until its end, past maxBytes, or a
 * deadline, then closes it. A deadline passed while the process could not run is checked again once
 * the data already there has been delivered.
 */
function sniffStream(maxBytes: number, firstMs: number, totalMs: number): Promise<StdinSniff> {
  return new Promise((done) => {
    const stdin = process.stdin;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (complete: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(first);
      clearTimeout(total);
      stdin.off("data", onData).off("end", onEnd).off("error", onError);
      stdin.on("error", () => undefined);
      stdin.destroy();
      const bytes = Buffer.concat(chunks, size);
      done({ bytes: bytes.subarray(0, maxBytes), complete: complete && size <= maxBytes });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    // setImmediate runs after the poll phase: data already readable is delivered first.
    const first = setTimeout(() => setImmediate(() => size === 0 && finish(false)), firstMs);
    const total = setTimeout(() => setImmediate(() => finish(false)), totalMs);
    stdin.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/**
 * Standard input, a pipe on Linux, opened again non-blocking through /proc/self/fd/0, given to `read` and
 * closed after; undefined where /proc cannot open it (a sandbox): then the stream reads the pipe.
 */
async function readPipeAgain<T>(read: (fd: number) => Promise<T>): Promise<T | undefined> {
  let fd: number;
  try {
    fd = openSync("/proc/self/fd/0", fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    return await read(fd);
  } finally {
    closeSync(fd);
  }
}

/** Reads fd to its end, or past maxBytes; a non-blocking fd with nothing to read yet is tried again shortly. */
function readAvailable(fd: number, maxBytes: number, nonBlocking: true): Promise<Uint8Array>;
function readAvailable(fd: number, maxBytes: number, nonBlocking: false): Uint8Array;
function readAvailable(fd: number, maxBytes: number, nonBlocking: boolean): Uint8Array | Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  /** Reads what there is: true at the end (or past maxBytes), false when a non-blocking fd has nothing yet. */
  const step = (): boolean => {
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      let n: number;
      try {
        n = readSync(fd, buf, 0, CHUNK, null);
      } catch (err) {
        if (nonBlocking && (err as NodeJS.ErrnoException).code === "EAGAIN") return false;
        throw err;
      }
      if (n === 0) return true;
      chunks.push(n === CHUNK ? buf : buf.subarray(0, n));
      size += n;
      if (size > maxBytes) return true;
    }
  };
  if (!nonBlocking) {
    step();
    return Buffer.concat(chunks, size);
  }
  return (async () => {
    let wait = 1;
    while (!step()) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 16);
    }
    return Buffer.concat(chunks, size);
  })();
}

/** Exit codes: 0 accepted, 1 rejected, 2 usage or internal error (as ESLint: 1 never means "plangate failed"). */
export const EXIT = { ok: 0, rejected: 1, usage: 2, internal: 2 } as const;

/** The `code` of a JSON error document. */
export type ErrorCode = "usage" | "internal" | "io" | "missing-dependency";

/** An error that ends a command with exit 2 and says what to change: a usage error, an unwritable output. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode = "usage",
  ) {
    super(message);
  }
}

/** A usage error: bad flag, missing argument, unreadable policy. Exit code 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, "usage");
  }
}

/**
 * The one shape of every error printed with `--output json` (usage, internal, io):
 * `{"version": 1, "error": {"code", "message"}}`.
 */
export function errorDocument(code: ErrorCode, message: string): string {
  return JSON.stringify({ version: 1, error: { code, message } }, null, 2) + "\n";
}

/** Did the command line ask for `--output json` (`--output json`, `--output=json`, `-o json`, `-ojson`)? */
export function wantsJson(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if ((a === "--output" || a === "-o") && argv[i + 1] === "json") return true;
    if (a === "--output=json" || a === "-ojson") return true;
  }
  return false;
}
