/**
 * Differential test of the shell reader against bash itself: random command lines, written with every
 * kind of quoting, are run by bash with an empty PATH and a `command_not_found_handle` that prints the
 * words each command received (so nothing runs). Wherever plangate reads a line without a problem, it
 * must find exactly the commands and words bash found. Needs /bin/bash; skipped, saying so, without it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadShellReader, type ShellReader } from "../src/syntax/shell/parse.js";

const BASH = "/bin/bash";
const present = existsSync(BASH);
const sandbox = mkdtempSync(join(tmpdir(), "plangate-bash-"));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));
let reader: ShellReader;
beforeAll(async () => {
  reader = await loadShellReader();
});

const SPECIAL = ";&|<>(){}*?[]!$`'\" ~#\\\n\t";
/** One character, written one of the ways bash reads as that character. */
function spellings(c: string): string[] {
  const hex = `$'\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}'`;
  if (!SPECIAL.includes(c)) return [c, c, `\\${c}`, `'${c}'`, `"${c}"`, `$'${c}'`, hex, `${c}''`, `""${c}`];
  const out = [hex];
  if (c !== "\n") out.push(`\\${c}`);
  if (c !== "'") out.push(`'${c}'`);
  out.push(`"${"$`\"\\".includes(c) ? "\\" : ""}${c}"`);
  return out;
}
const char = (alphabet: string) => fc.constantFrom(...alphabet).chain((c) => fc.constantFrom(...spellings(c)));
const word = (alphabet: string) => fc.array(char(alphabet), { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
// Programs of letters only: no builtin or keyword, so bash hands every command to the handler.
const command = fc
  .tuple(word("abc"), fc.array(fc.tuple(fc.constantFrom(" ", "  ", "\t", " \\\n"), word("abc#=,.-+@" + SPECIAL)), { maxLength: 3 }), fc.boolean(), fc.option(word("abc=,"), { nil: undefined }))
  .map(([p, args, comment, env]) => `${env !== undefined ? `X=${env} ` : ""}${p}${args.map(([sep, w]) => sep + w).join("")}${comment ? " # note" : ""}`);
const line = fc.tuple(fc.array(command, { minLength: 1, maxLength: 3 }), fc.constantFrom("; ", "\n", " ;", "\n\n", " && ")).map(([cs, sep]) => cs.join(sep));

function bashWords(text: string): string[][] {
  const prog = `command_not_found_handle() { printf '%s\\x1f' "$@"; printf '\\x1e'; return 0; }; PATH=/nonexistent; set -f; ${text}`;
  const r = spawnSync(BASH, ["--norc", "--noprofile", "-c", prog], { cwd: sandbox, encoding: "utf8", env: { HOME: sandbox }, timeout: 5000 });
  return r.stdout.split("\x1e").filter((x) => x !== "").map((x) => x.split("\x1f").slice(0, -1));
}

describe.skipIf(!present)(`shell reader against bash${present ? "" : " (skipped: /bin/bash not found)"}`, () => {
  it("finds the commands and words bash finds, wherever it reads a line", () => {
    let compared = 0;
    fc.assert(
      fc.property(line, (text) => {
        const s = reader.parse(text);
        if (s.problems.length > 0) return;
        const ours = s.commands.filter((c) => c.words.length > 0).map((c) => c.words.map((w) => w.value));
        // Globs and run-time values are bash's to expand; plangate refuses or checks those separately.
        if (ours.some((ws) => ws.includes(undefined)) || s.commands.some((c) => c.words.some((w) => w.glob))) return;
        compared++;
        expect(ours, JSON.stringify(text)).toEqual(bashWords(text));
      }),
      { numRuns: 400, seed: 20261124 },
    );
    expect(compared).toBeGreaterThan(100);
  }, 60_000);
});
