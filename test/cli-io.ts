import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliIO } from "../src/cli/io.js";
import { main } from "../src/cli/main.js";
import { NOW } from "./helpers.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let stateHomes: string | undefined;
let calls = 0;

/**
 * The environment of a call that names none: a user whose per-user state folder (XDG_STATE_HOME, where the
 * store of consumed approvals lives) is new for each call, so no call sees another's. A test of a user
 * without one passes `env: {}`.
 */
function defaultEnv(): Record<string, string> {
  stateHomes ??= realpathSync(mkdtempSync(join(tmpdir(), "plangate-state-home-")));
  return { XDG_STATE_HOME: join(stateHomes, String(++calls)) };
}

/** Runs the CLI in-process with captured streams and the fixed clock; `readStdin` replaces the standard input reader. */
export async function cli(
  args: string[],
  opts: { cwd?: string; stdin?: string | Uint8Array; env?: Record<string, string>; tty?: boolean; stdinTTY?: boolean; readStdin?: CliIO["readStdin"] } = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readStdin: opts.readStdin ?? (async () => (typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : (opts.stdin ?? new Uint8Array()))),
    cwd: opts.cwd ?? process.cwd(),
    env: opts.env ?? defaultEnv(),
    isTTY: opts.tty ?? false,
    ...(opts.stdinTTY !== undefined ? { stdinIsTTY: opts.stdinTTY } : {}),
    // A command that does not read standard input looks at what the caller gave it.
    ...(opts.stdin !== undefined && opts.readStdin === undefined
      ? { sniffStdin: async () => ({ bytes: typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : (opts.stdin as Uint8Array), complete: true }) }
      : {}),
    now: () => NOW,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
