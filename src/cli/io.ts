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
  now(): Date;
}

/** The process's real streams. */
export function processIO(): CliIO {
  useBaselineCompilerForShell();
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: async (maxBytes = Number.POSITIVE_INFINITY) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of process.stdin) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).byteLength;
        // An endless or huge pipe must not be buffered whole: what is over the limit is rejected anyway.
        if (size > maxBytes) break;
      }
      return Buffer.concat(chunks);
    },
    cwd: process.cwd(),
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    now: () => new Date(),
  };
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
