import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";

/*
 * Every fenced `sh` block of the README whose lines run plangate (`plangate …`, `npx plangate …`,
 * `node bin/plangate.js …`) runs here, offline, against a copy of the bundled examples, and must exit
 * as the README says: 0, or N when the line's comment starts with `exit N` (`# exit 1: …`). A block that
 * cannot run (placeholders, keys in a home folder, other programs) is marked with the fence info string
 * `sh no-run`. A runnable block may hold only plangate lines, comments and blank lines.
 */

const root = join(import.meta.dirname, "..");
const README = readFileSync(join(root, "README.md"), "utf8");
const COMMAND = /^(?:npx plangate|node bin\/plangate\.js|plangate)(?=\s|$)/;

interface Block {
  line: number;
  info: string;
  lines: { text: string; line: number }[];
}

function shBlocks(): Block[] {
  return new MarkdownIt()
    .parse(README, {})
    .filter((t) => t.type === "fence" && /^(sh|bash|shell)\b/.test(t.info))
    .map((t) => ({
      line: t.map![0] + 1,
      info: t.info.trim(),
      lines: t.content
        .split("\n")
        .map((text, i) => ({ text, line: t.map![0] + 2 + i }))
        .filter((l) => l.text.trim() !== ""),
    }));
}

const blocks = shBlocks();
const runnable = blocks.filter((b) => !/\bno-run\b/.test(b.info) && b.lines.some((l) => COMMAND.test(l.text.trim())));

/** The expected exit code: a comment that starts with `exit N` (then `:` or the end), else 0. */
export function expectedExit(line: string): number {
  const m = /#\s*exit (\d+)(?::|\s*$)/.exec(line);
  return m ? Number(m[1]) : 0;
}

/** A fresh folder with a copy of examples/ and schemas/, a `plangate` on PATH that runs this checkout's build. */
function sandbox(): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = mkdtempSync(join(tmpdir(), "plangate-readme-"));
  mkdirSync(join(cwd, ".git")); // the policy walk stops here, whatever lies above the temp folder
  cpSync(join(root, "examples"), join(cwd, "examples"), { recursive: true });
  cpSync(join(root, "schemas"), join(cwd, "schemas"), { recursive: true });
  const bin = join(cwd, ".bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "plangate"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, "bin/plangate.js"))} "$@"\n`);
  chmodSync(join(bin, "plangate"), 0o755);
  const env: NodeJS.ProcessEnv = { PATH: `${bin}:/usr/bin:/bin`, HOME: join(cwd, "home"), XDG_STATE_HOME: join(cwd, "state"), NO_COLOR: "1", LANG: "C.UTF-8" };
  return { cwd, env };
}

describe("README shell examples", () => {
  it("has runnable examples, and every block that runs plangate is either runnable or marked no-run", () => {
    expect(runnable.length).toBeGreaterThanOrEqual(3);
    for (const b of runnable)
      for (const l of b.lines) {
        const t = l.text.trim();
        expect(COMMAND.test(t) || t.startsWith("#"), `README.md:${l.line}: "${t}" is not a plangate line; mark the block \`sh no-run\` or drop the line`).toBe(true);
      }
  });

  it("reads the expected exit code from the line's comment", () => {
    expect(expectedExit("plangate validate x   # exit 1: unknown-tool")).toBe(1);
    expect(expectedExit("plangate validate x   # exit 1")).toBe(1);
    expect(expectedExit("plangate schema --check s  # exit 1 when a file is missing")).toBe(0);
    expect(expectedExit("plangate validate x")).toBe(0);
  });

  it.each(runnable.map((b) => [`README.md:${b.line}`, b] as const))("%s runs with the documented exit codes", (_name, b) => {
    const box = sandbox();
    for (const l of b.lines) {
      const t = l.text.trim();
      if (t.startsWith("#")) continue;
      const command = t.replace(/^(?:npx plangate|node bin\/plangate\.js)(?=\s|$)/, "plangate");
      const r = spawnSync("/bin/sh", ["-c", command], { cwd: box.cwd, env: box.env, encoding: "utf8", timeout: 60_000 });
      const where = `README.md:${l.line}: ${t}\n${r.stdout}\n${r.stderr}`;
      expect(r.error, where).toBeUndefined();
      expect(r.status, where).toBe(expectedExit(t));
      expect(r.stderr, where).not.toMatch(/internal error/);
    }
  });
});
