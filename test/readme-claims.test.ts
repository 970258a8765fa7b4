import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { COMMAND_NAMES } from "../src/cli/main.js";
import type { ErrorCode } from "../src/cli/io.js";
import { POLICY_FILE_NAMES } from "../src/node/policy.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import { cli } from "./cli-io.js";

/* Claims of the README that code can check: the CLI table's commands and flags, defaults, names. */

const README = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = heading.split(" ")[0]!;
  const end = README.slice(start + heading.length + 2).search(new RegExp(`\\n#{1,${level.length}} `));
  return README.slice(start, end < 0 ? undefined : start + heading.length + 2 + end);
}

/** The rows of the CLI section's command table: the command paths named in the first cell, and the row. */
function commandRows(): { paths: string[][]; row: string }[] {
  const cli = section("## CLI");
  const table = cli.slice(cli.indexOf("| command | does |"));
  const rows = table.split("\n").slice(2);
  const out: { paths: string[][]; row: string }[] = [];
  for (const row of rows) {
    if (!row.startsWith("| `")) break;
    const first = row.slice(2, row.indexOf(" | ", 2));
    const paths = first.split(" / ").map((cell) => {
      const words = cell.replace(/`/g, "").split(" ");
      const path: string[] = [];
      for (const w of words) {
        if (!/^[a-z][a-z-]*$/.test(w)) break;
        path.push(w);
      }
      return path;
    });
    out.push({ paths, row });
  }
  return out;
}

async function helpFlags(path: string[]): Promise<Set<string>> {
  // A person at a terminal: the hook (`guard`) answers help with exit 0 only then.
  const r = await cli([...path, "--help"], { stdinTTY: true });
  expect(r.code, path.join(" ")).toBe(0);
  return new Set(r.stdout.match(/--[a-z][a-z-]*/g) ?? []);
}

describe("README claims", () => {
  it("the CLI table names every command, and every flag it names is one of that command's flags", async () => {
    const rows = commandRows();
    const named = new Set(rows.flatMap((r) => r.paths.map((p) => p[0]!)));
    for (const c of COMMAND_NAMES) expect(named.has(c), c).toBe(true);
    expect(rows.length).toBeGreaterThanOrEqual(COMMAND_NAMES.length);
    for (const { paths, row } of rows) {
      const flags = new Set<string>();
      for (const p of paths) for (const f of await helpFlags(p)) flags.add(f);
      // Flags spelt in the row's text (not inside a value such as `DIR/runs/<id>.json`).
      for (const f of row.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []) expect(flags.has(f), `${paths.map((p) => p.join(" ")).join(" / ")}: ${f}`).toBe(true);
    }
  });

  it("every command that reads a policy takes --policy and --no-policy", async () => {
    for (const { paths } of commandRows())
      for (const p of paths) {
        const flags = await helpFlags(p);
        if (flags.has("--policy")) expect(flags.has("--no-policy"), p.join(" ")).toBe(true);
      }
  });

  it("the limits block shows the defaults", () => {
    const policy = section("## Policy file");
    const block = /```yaml\n(limits:[\s\S]*?)```/.exec(policy)![1]!;
    const shown = parse(block) as { limits: Record<string, number>; guard: Record<string, number> };
    const d = defaultPolicy("/");
    expect(shown.limits).toEqual({ ...d.limits });
    expect(shown.guard.maxInputBytes).toBe(d.guard.maxInputBytes);
  });

  it("names the five policy file names discovery reads", () => {
    const policy = section("## Policy file");
    for (const name of POLICY_FILE_NAMES) expect(policy).toContain(`\`${name}\``);
    expect(policy).toMatch(/all five are read/);
    expect(POLICY_FILE_NAMES).toHaveLength(5);
  });

  it("lists every code of the JSON error document", () => {
    const codes: Record<ErrorCode, true> = { usage: true, internal: true, io: true, "missing-dependency": true };
    const exit = section("### Exit codes");
    const line = exit.split("\n").find((l) => l.startsWith("`code` is"))!;
    for (const c of Object.keys(codes)) expect(line, c).toContain(`\`${c}\``);
  });

  it("states the orchestration defaults the code uses", () => {
    const d = defaultPolicy("/");
    expect(d.delegation.sessionTtlSeconds).toBe(86400);
    expect(README).toContain("`delegation.sessionTtlSeconds` (default 86400");
    expect(README).toContain(`maxSummaryTokens: ${d.returns.maxSummaryTokens}`);
    expect(README).toContain(`The encoding is \`${d.returns.encoding}\` by default`);
    expect(README).toContain(`maxAgeDays: ${d.plan.maxAgeDays}`);
  });
});
