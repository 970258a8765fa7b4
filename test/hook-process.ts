import { spawn } from "node:child_process";
import { join } from "node:path";

/** What the real plangate process did with one call: its exit code, its output, and its JSON answer if it printed one. */
export interface HookResult {
  code: number | null;
  stdout: string;
  stderr: string;
  answer: Record<string, unknown> | undefined;
}

const bin = join(import.meta.dirname, "../bin/plangate.js");

/** Runs bin/plangate.js as a host runs a hook command: `stdin` written and closed, in `cwd`, with `env`. */
export function runPlangate(args: string[], stdin: string | undefined, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<HookResult> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [bin, ...args], { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"], env: options.env });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    p.stdin.on("error", () => undefined);
    p.stdin.end(stdin ?? "");
    p.on("close", (code) => {
      let answer: Record<string, unknown> | undefined;
      try {
        answer = stdout.trim() ? (JSON.parse(stdout) as Record<string, unknown>) : undefined;
      } catch {
        answer = undefined;
      }
      done({ code, stdout, stderr, answer });
    });
  });
}
