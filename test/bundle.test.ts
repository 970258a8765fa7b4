import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import vm from "node:vm";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const bundle = join(root, "dist", "bundle");
const bin = join(root, "bin", "plangate.js");
const preload = join(import.meta.dirname, "fixtures", "loaded-files.cjs");
const { wrap } = createRequire(import.meta.url)("../bin/load-bundle.js") as { wrap: (code: string) => string };

function run(binFile: string, args: string[], cwd = root) {
  const r = spawnSync(process.execPath, ["-r", preload, binFile, ...args], { cwd, encoding: "utf8" });
  const loaded = r.stderr.split("\n").filter((l) => l.startsWith("loaded: ")).map((l) => l.slice("loaded: ".length));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.split("\n").filter((l) => !l.startsWith("loaded: ")).join("\n"), loaded };
}
const names = (files: string[]) => files.filter((f) => f.startsWith(bundle)).map((f) => f.slice(bundle.length + 1));

// npm test builds first: without dist/bundle (npm run build) these fail rather than skip.
describe("the bundled CLI", () => {
  const tmp = mkdtempSync(join(tmpdir(), "plangate-bundle-"));
  afterAll(() => {
    chmodSync(join(tmp, "pkg", "dist", "bundle"), 0o755);
    rmSync(tmp, { recursive: true, force: true });
  });

  // Chunks that require each other load in some order only: a class extending one from a chunk still
  // loading is "Class extends value undefined", an internal error of the command that loads it first.
  it("every chunk loads when it is the first one a command loads", () => {
    const chunks = readdirSync(bundle).filter((f) => f.endsWith(".cjs") && f !== "cli.cjs");
    const script = `const { useCodeCache } = require(${JSON.stringify(join(root, "bin", "load-bundle.js"))});
for (const f of process.argv.slice(1)) {
  const fresh = useCodeCache(${JSON.stringify(bundle)}, undefined, ".cache");
  try { fresh("./" + f); } catch (e) { console.log(f + ": " + e.message); }
  for (const k of Object.keys(require.cache)) if (k.startsWith(${JSON.stringify(bundle)})) delete require.cache[k];
}`;
    // One process: each chunk is loaded with the bundle's modules dropped from the cache before it.
    const r = spawnSync(process.execPath, ["-e", script, ...chunks], { encoding: "utf8" });
    expect([r.status, r.stdout.trim().split("\n").filter((l) => l !== "")]).toEqual([0, []]);
  });

  it("bin/plangate.js runs the bundle, and loads the YAML and Markdown readers only for such input", () => {
    const json = run(bin, ["validate", "examples/intake.valid.json", "--no-policy"]);
    expect(json.code).toBe(0);
    expect(names(json.loaded)).toContain("cli.cjs");
    expect(json.loaded.filter((f) => f.includes(`${join(root, "dist")}/`) && !f.startsWith(bundle))).toEqual([]);
    const lazy = (files: string[]) => names(files).filter((f) => /^(yaml|markdown|markdown-it|validators|postgres|mcp|server)-/.test(f));
    expect(lazy(json.loaded)).toEqual([]);
    const yaml = run(bin, ["validate", "examples/intake.valid.yaml", "--no-policy"]);
    expect(yaml.code).toBe(0);
    expect(lazy(yaml.loaded).some((f) => f.startsWith("yaml-"))).toBe(true);
    expect(lazy(yaml.loaded).some((f) => f.startsWith("markdown"))).toBe(false);
  });

  it("a guard hook call of a running plan loads neither the engine, the policy validator nor child_process", () => {
    const dir = join(tmp, "hook");
    const ws = join(dir, "ws");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "in.txt"), "x\n");
    writeFileSync(join(ws, "plan.json"), JSON.stringify([1, 2, 3].map(() => ({ tool: "read_file", description: "read the input", params: { path: "in.txt" } }))));
    writeFileSync(join(dir, "tools.txt"), "read_file\n");
    const ok = (args: string[], cwd: string) => {
      const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
    };
    const keys = join(dir, "keys");
    ok(["keygen", "--out", keys], dir);
    ok(["approve", "plan.json", "--no-policy", "--tools", join(dir, "tools.txt"), "--key", join(keys, "plangate.key"), "--out", join(dir, "approval.json")], ws);
    ok(["guard", "start", "plan.json", "--no-policy", "--tools", join(dir, "tools.txt"), "--approval", join(dir, "approval.json"), "--trusted-keys", join(keys, "plangate.pub"), "--state-dir", join(dir, "state"), "--session", "s"], ws);
    const input = JSON.stringify({ session_id: "s", transcript_path: "/t", cwd: ws, hook_event_name: "PreToolUse", tool_name: "read_file", tool_input: { path: "in.txt" } });
    const r = spawnSync(process.execPath, ["-r", preload, bin, "guard", "--state-dir", join(dir, "state"), "--no-policy"], { cwd: ws, input, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const loaded = r.stderr.split("\n").filter((l) => l.startsWith("loaded: ")).map((l) => l.slice("loaded: ".length));
    expect(names(loaded)).toContain("cli.cjs");
    expect(names(loaded).filter((f) => /^(engine|validate-plan|validate-policy|yaml|markdown)-/.test(f))).toEqual([]);
    expect(loaded).not.toContain("node:child_process");
    // The listing of built-ins works: the loader compiles the bundle with node:vm.
    expect(loaded).toContain("node:vm");
  });

  it("ships V8 code caches that this Node accepts for each file start-up loads, and a second set for a guard hook call", () => {
    const caches = readdirSync(bundle).filter((f) => f.endsWith(".cjs.cache") || f.endsWith(".cjs.hook.cache"));
    expect(caches).toContain("cli.cjs.cache");
    expect(caches).toContain("cli.cjs.hook.cache");
    // The hook's set holds what a hook call loads, and not the validation engine it never runs.
    expect(caches.filter((c) => c.endsWith(".hook.cache") && /^(engine|validate)-/.test(c))).toEqual([]);
    for (const c of caches) {
      const file = join(bundle, c.replace(/(?:\.hook)?\.cache$/, ""));
      const script = new vm.Script(wrap(readFileSync(file, "utf8")), { filename: file, cachedData: readFileSync(join(bundle, c)) });
      expect(script.cachedDataRejected, c).toBe(false);
    }
  });

  it("is ASCII only, so V8 holds each file as a one-byte string (one non-ASCII character makes the whole file two-byte)", () => {
    for (const f of readdirSync(bundle).filter((n) => n.endsWith(".cjs"))) {
      const bytes = readFileSync(join(bundle, f));
      expect(bytes.findIndex((b) => b > 0x7f), f).toBe(-1);
    }
  });

  it("has no cycle among its files' requires: a file required while the one requiring it is half loaded sees its exports missing", () => {
    // A cycle made a rule's module read a value of the facts before they were defined: the claude-code
    // host's TeDDy actions were then checked as tool names.
    const deps = new Map<string, string[]>();
    for (const f of readdirSync(bundle).filter((n) => n.endsWith(".cjs"))) {
      const src = readFileSync(join(bundle, f), "utf8");
      deps.set(f, [...src.matchAll(/^(?:const|let|var) \w+ = require\("\.\/([^"]+\.cjs)"\)/gm)].map((m) => m[1]!));
    }
    expect([...deps.values()].flat().length).toBeGreaterThan(10);
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const visit = (f: string): void => {
      state.set(f, "open");
      path.push(f);
      for (const d of deps.get(f) ?? []) {
        if (state.get(d) === "open") cycles.push([...path.slice(path.indexOf(d)), d].join(" -> "));
        else if (!state.has(d)) visit(d);
      }
      path.pop();
      state.set(f, "done");
    };
    for (const f of deps.keys()) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it("runs from a read-only install whose code caches do not match, with the same output", () => {
    const pkg = join(tmp, "pkg");
    mkdirSync(join(pkg, "dist"), { recursive: true });
    cpSync(join(root, "bin"), join(pkg, "bin"), { recursive: true });
    cpSync(bundle, join(pkg, "dist", "bundle"), { recursive: true });
    for (const d of ["profiles", "schemas", "vendor", "node_modules", "package.json"]) symlinkSync(join(root, d), join(pkg, d));
    for (const c of readdirSync(join(pkg, "dist", "bundle")).filter((f) => f.endsWith(".cache"))) writeFileSync(join(pkg, "dist", "bundle", c), "not a code cache");
    chmodSync(join(pkg, "dist", "bundle"), 0o555);
    const args = ["validate", "examples/intake.invalid.json", "examples/teddy.invalid.md", "--policy", "examples/plangate.yaml"];
    const copy = run(join(pkg, "bin", "plangate.js"), args);
    const here = run(bin, args);
    expect(copy.code).toBe(1);
    expect(copy.stdout).toBe(here.stdout);
    expect(copy.stderr).toBe(here.stderr);
    expect(readdirSync(join(pkg, "dist", "bundle")).filter((f) => f.endsWith(".cache")).every((c) => readFileSync(join(pkg, "dist", "bundle", c), "utf8") === "not a code cache")).toBe(true);
  });
});
