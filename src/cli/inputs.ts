import { lstatSync, readdirSync, readFileSync, type Stats } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { UsageError } from "./io.js";

/*
 * What `plangate validate` reads when given directories and globs, as ESLint and ruff do: a directory is
 * walked for plan files (`.json`, `.yaml`, `.yml`, `.md`), a quoted glob (`"plans/**\/*.json"`) is expanded
 * by plangate, and `.plangateignore` (gitignore-style) in the working directory plus the default ignores
 * (`node_modules`, `.git`) leave files out. Files named on the command line are always read.
 */

/** One input file, and whether the user named it (a found file that is not a plan is skipped quietly). */
export interface InputFile {
  /** As shown in reports: the argument, or the path relative to the working directory. */
  name: string;
  path: string;
  named: boolean;
}

const PLAN_EXTENSIONS = /\.(?:json|ya?ml|md)$/i;
/** Policy files are never plans. */
const POLICY_NAMES = new Set(["plangate.yaml", ".plangate.yaml", "plangate.yml", ".plangate.yml", "plangate.json"]);
const DEFAULT_IGNORES = ["node_modules", ".git"];
/** A walk stops here: a hostile tree (a link loop, millions of files) cannot run forever. */
const MAX_FILES = 100_000;
const MAX_DEPTH = 64;

/** A gitignore-style matcher: `#` comments, `!` negation, a trailing `/` for folders, a `/` anchors to the root. */
export function ignoreMatcher(lines: readonly string[]): (rel: string, dir: boolean) => boolean {
  const rules: { negate: boolean; dirOnly: boolean; test: (p: string) => boolean }[] = [];
  for (const raw of lines) {
    let line = raw.trimEnd();
    if (line === "" || line.startsWith("#")) continue;
    const negate = line.startsWith("!");
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.startsWith("/") || line.slice(0, -1).includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "") continue;
    const glob = anchored ? line : `**/${line}`;
    const m = picomatch(glob, { dot: true });
    rules.push({ negate, dirOnly, test: (p) => m(p) });
  }
  return (rel, dir) => {
    let ignored = false;
    for (const r of rules) if ((!r.dirOnly || dir) && r.test(rel)) ignored = !r.negate;
    return ignored;
  };
}

function readIgnoreFile(cwd: string): string[] {
  try {
    return readFileSync(join(cwd, ".plangateignore"), "utf8").split(/\r?\n/);
  } catch {
    return [];
  }
}

function stat(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

const GLOB_CHARS = /[*?[\]{}]/;

/** The plan files the arguments stand for, in a stable order; `-` stays standard input. */
export function expandInputs(args: readonly string[], cwd: string): InputFile[] {
  const ignoreLines = [...DEFAULT_IGNORES.map((d) => `${d}/`), ...readIgnoreFile(cwd)];
  const matcher = ignoreMatcher(ignoreLines);
  // Ignoring a folder ignores what is under it, also when the walk starts inside it.
  const ignored = (rel: string, dir: boolean): boolean => {
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) if (parts[i - 1] !== ".." && matcher(parts.slice(0, i).join("/"), true)) return true;
    return matcher(rel, dir);
  };
  const out: InputFile[] = [];
  const seen = new Set<string>();
  const relOf = (p: string) => relative(cwd, p).split(sep).join("/");
  const add = (path: string, named: boolean, name = relOf(path) || path) => {
    if (seen.has(path)) return;
    if (out.length >= MAX_FILES) throw new UsageError(`more than ${MAX_FILES} input files; name fewer folders or add a .plangateignore`);
    seen.add(path);
    out.push({ name, path, named });
  };
  const walk = (dir: string, depth: number, keep: (rel: string) => boolean) => {
    if (depth > MAX_DEPTH) return;
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (err) {
      throw new UsageError(`cannot read the folder ${dir} (${(err as NodeJS.ErrnoException).code})`);
    }
    for (const e of entries) {
      const p = join(dir, e);
      const st = stat(p);
      // Links are not followed: a folder of plans does not reach outside itself by a link.
      if (!st || st.isSymbolicLink()) continue;
      const rel = relOf(p);
      if (st.isDirectory()) {
        if (!ignored(rel, true)) walk(p, depth + 1, keep);
      } else if (st.isFile() && PLAN_EXTENSIONS.test(e) && !POLICY_NAMES.has(e) && !ignored(rel, false) && keep(rel)) add(p, false);
    }
  };
  for (const arg of args) {
    if (arg === "-") {
      out.push({ name: "-", path: "-", named: true });
      continue;
    }
    const path = resolve(cwd, arg);
    const st = stat(path);
    if (st?.isDirectory()) walk(path, 0, () => true);
    else if (!st && GLOB_CHARS.test(arg)) {
      // A glob plangate expands: walk from its literal prefix, keep what matches.
      const base = picomatch.scan(arg).base || ".";
      const match = picomatch(relOf(resolve(cwd, arg)), { dot: false });
      const root = resolve(cwd, base);
      if (stat(root)?.isDirectory()) walk(root, 0, (rel) => match(rel));
    } else add(path, true, arg);
  }
  return out;
}
