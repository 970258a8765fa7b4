import { isInside, MAX_FOLDERS, relativeInside } from "../core/paths.js";
import { JOINED_READING, readingUnits } from "../core/work.js";
import { type PathWhy, why } from "../core/place.js";
import type { Plan } from "../core/plan.js";
import type { PlanFacts } from "../core/facts.js";
import type { PlanRuleContext, RuleContext } from "../core/rule.js";
import type { CommandPath } from "./analyse.js";
import type { StepCommand } from "./plan.js";
import type { CommandOutside } from "./analyse.js";
import type { FileProbe } from "../core/file-probe.js";
import type { PathService } from "../core/path-service.js";
import type { VenvCondition } from "./installs.js";
import { type ConfigSetting, configOutsideWords, MAX_PROJECT_CONFIG_BYTES, PROJECT_CONFIG_FILES, projectConfigSetting } from "./project-config.js";
import { analysedCommands, commandsOf, partAt } from "./plan.js";

/** The path text to resolve against the workspace: relative words from the folder a `cd` moved to. */
export function commandPathText(p: CommandPath): string {
  if (p.cwd === "" || /^[/\\~]/.test(p.text) || /^[A-Za-z]:/.test(p.text)) return p.text;
  // `cd /` then `x` is `/x`, not the network path `//x`.
  return `${p.cwd.endsWith("/") ? p.cwd.slice(0, -1) : p.cwd}/${p.text}`;
}

/**
 * A path as a command names it, for the rule's words: as written (a NUL shown as `\0`), as read when
 * decoding changed it (`read`), and the folder a `cd` moved to when the path is relative to it (`cwd`).
 */
export interface NamedPath {
  written: string;
  read?: string;
  cwd?: string;
  /** The file the plan writes whose text names it (CommandPath.via). */
  via?: string;
}

/** How a rule words a named path (the `{{path}}` of its message). */
export type NamePath = (path: NamedPath) => string;

function named(p: CommandPath, text: string, folder: string): NamedPath {
  const n: NamedPath = { written: (p.written ?? p.text).replace(/\0/g, "\\0") };
  if (p.written !== undefined) n.read = p.text;
  if (text !== p.text) n.cwd = folder;
  if (p.via !== undefined) n.via = p.via;
  return n;
}

/** Arguments that say where a step's command runs (intake's and TeDDy's `cwd`), by bare name: the root is not read then. */
const WORKING_FOLDER_ARGUMENTS = new Set(["cwd", "workdir", "workingdir", "workingdirectory"]);
/** TeDDy runs an EXECUTE's command in its `cwd` and reads no other key for it (a `Working Directory` item is ignored). */
const TEDDY_WORKING_FOLDER_ARGUMENTS = new Set(["cwd"]);

/**
 * The folders a step's command may run in, as plain text ("" for the workspace root): each folder the
 * step names (`cwd`, `workdir`, `workingDirectory`, `dir`, `root`, `options.cwd`, ...: see
 * StepFacts.folders), any of which an executor may take, and the root too unless a top-level `cwd`,
 * `workdir`, `working_dir` or `working_directory` (any case or separators) says where the command runs.
 */
function workingFolders(command: StepCommand, facts: PlanFacts, dialect: Plan["dialect"]): string[] {
  const folders = facts.step(command.step).folders();
  const args = command.step.args;
  const runsIn = dialect === "teddy" ? TEDDY_WORKING_FOLDER_ARGUMENTS : WORKING_FOLDER_ARGUMENTS;
  const named = folders.some((f) => Object.hasOwn(args, f.name) && args[f.name] === f.value && runsIn.has(f.name.replace(/[^A-Za-z0-9]+/g, "").toLowerCase()));
  // More folders than that are refused by the path rules (tooManyFolderPaths): the command is read from the first ones.
  const out = folders.slice(0, MAX_FOLDERS).map((f) => f.value);
  if (!named) out.unshift("");
  return out;
}

/** A command path's text from the workspace root: read from the step's working folder, then from the `cd`s before it. */
function pathFromRoot(p: CommandPath, folder: string): string {
  const text = commandPathText(p);
  if (folder === "" || /^[/\\~]/.test(text) || /^[A-Za-z]:/.test(text)) return text;
  return commandPathText({ ...p, cwd: folder, text });
}

/** path-outside-workspace for command lines: every file-like word and redirection target (its message commandPathOutside). */
export function reportCommandPathsOutside(
  plan: Plan,
  ctx: PlanRuleContext<"commandPathOutside">,
  name: NamePath,
  /** The files a pattern names on disk (workspace-relative), undefined when they cannot be bounded. */
  matchesOnDisk?: (rel: string, p: CommandPath) => readonly string[] | undefined,
): void {
  const paths = ctx.facts.paths;
  const ws = paths.workspace;
  for (const { command, p, text, folder } of commandPaths(plan, ctx)) {
    const report = (why: PathWhy) =>
      ctx.report({
        at: partAt(command, p.span?.start),
        step: command.step.position,
        messageId: "commandPathOutside",
        data: { step: command.step.position, argument: command.name, path: name(named(p, text, folder)), why, workspace: ws },
        actual: command.text,
      });
    const readings = paths.resolve(text);
    const outside = readings.map((r) => paths.whyOutside(r)).find((w) => w !== undefined);
    if (outside) {
      report(outside);
      continue;
    }
    // A pattern names the files it matches: one may be a symlink out of the workspace (`cat lin*/passwd`).
    if (!p.glob || !matchesOnDisk) continue;
    const rels = new Set(readings.flatMap((r) => ("unsafe" in r || !isInside(r.lexical, ws) ? [] : [relativeInside(r.lexical, ws)])));
    for (const rel of rels) {
      const matches = matchesOnDisk(rel, p);
      // The validation's names to try on disk ran out (limit-exceeded): the pattern is not judged.
      if (matches === undefined && ctx.facts.work.overrun("diskNames", () => ({ step: command.step.position, at: partAt(command, p.span?.start) }))) break;
      const hit = matches === undefined ? why("patternUnbounded") : matches.flatMap((m) => paths.resolve(m).flatMap((r) => { const w = paths.whyOutside(r); return w === undefined ? [] : [why("patternMatch", { path: m, why: w })]; }))[0];
      if (hit === undefined) continue;
      report(hit);
      break;
    }
  }
}

/**
 * path-outside-workspace for what a command line writes outside the workspace without naming it: a
 * package manager's global install or user settings (CommandReport.outside; its message
 * commandInstallsOutside). Where the step runs its command does not matter: the destination is the
 * user's or the machine's.
 */
export function reportCommandInstallsOutside(plan: Plan, ctx: PlanRuleContext<"commandInstallsOutside">): void {
  if (commandsOf(plan, ctx.facts).length === 0) return;
  for (const { command, report } of analysedCommands(plan, ctx.facts))
    for (const entry of report.outside ?? []) {
      const o = resolveOutside(entry, entry.condition === undefined ? [""] : workingFolders(command, ctx.facts, plan.dialect), ctx.facts.paths);
      if (o === undefined) continue;
      ctx.report({
        at: partAt(command, o.span?.start),
        step: command.step.position,
        messageId: "commandInstallsOutside",
        data: { step: command.step.position, argument: command.name, how: o.how, where: o.where, fix: o.fix, manager: o.manager, workspace: ctx.facts.paths.workspace },
        actual: command.text,
      });
    }
}

/** What one validation (its probe) has found in the project configuration files it read, and the bytes it read. */
interface ConfigMemo {
  said: Map<string, ConfigSetting | { unread: string } | null>;
  read: number;
}
const CONFIG_MEMO = new WeakMap<FileProbe, ConfigMemo>();

/** Project configuration files one validation reads in all; past it, a file is not read and counts as saying the worst. */
export const MAX_PROJECT_CONFIG_READ = 1024 * 1024;

/** Does every reading of a path text stay inside the workspace, lexically and through symlinks? */
function staysInside(paths: PathService, text: string): boolean {
  const readings = paths.resolve(text);
  return readings.length > 0 && readings.every((r) => !("unsafe" in r) && paths.whyOutside(r) === undefined);
}

/**
 * What a project configuration file says (project-config.ts projectConfigSetting), read through the probe once per
 * validation: a file that is not a regular one (a folder, a device), larger than MAX_PROJECT_CONFIG_BYTES or
 * past MAX_PROJECT_CONFIG_READ in all is not read, and counts as saying the worst. A link that leads nowhere is
 * no file, as the package manager reads it.
 */
function configSaid(paths: PathService, abs: string, name: string): ConfigSetting | { unread: string } | undefined {
  const files = paths.files;
  let memo = CONFIG_MEMO.get(files);
  if (memo === undefined) CONFIG_MEMO.set(files, (memo = { said: new Map(), read: 0 }));
  const known = memo.said.get(abs);
  if (known !== undefined) return known ?? undefined;
  let said: ConfigSetting | { unread: string } | undefined;
  if (files.kind(abs) === "missing" || files.realpath(abs) === undefined) said = undefined;
  else {
    const size = files.size(abs);
    if (size === undefined) said = { unread: "it is not a regular file" };
    else if (size > MAX_PROJECT_CONFIG_BYTES) said = { unread: `it is larger than ${MAX_PROJECT_CONFIG_BYTES / 1024} KiB` };
    else if (memo.read + size > MAX_PROJECT_CONFIG_READ) said = { unread: `the validation has read ${MAX_PROJECT_CONFIG_READ / 1024} KiB of such files` };
    else {
      memo.read += size;
      const text = files.readText(abs);
      said = text === undefined ? { unread: "it cannot be read" } : projectConfigSetting(name, text);
    }
  }
  memo.said.set(abs, said ?? null);
  return said;
}

/** The folders from `dir` up to `root`, both included, when `dir` is inside `root`. */
function upTo(dir: string, root: string): string[] {
  const out: string[] = [];
  for (let d = dir; isInside(d, root); d = d.slice(0, Math.max(d.lastIndexOf("/"), 1))) {
    out.push(d);
    if (d === root || d === "/") break;
  }
  return out;
}

/**
 * A write outside the workspace as the line leaves it (CommandReport.outside), decided where the files can be
 * read: the write itself when it holds whatever the files say, undefined when its condition is not met, or
 * the write in the words of what decided it. A `config` condition reads the project's configuration files
 * (project-config.ts PROJECT_CONFIG_FILES) in each folder the command may run in (the step's `folders`, then the
 * `cd`s before it), and in each folder above it up to the workspace root, as the path and as its real
 * path: a package manager reads its project's file there. A `program` condition holds unless the program's
 * path stays inside the workspace.
 */
export function resolveOutside(o: CommandOutside, folders: readonly string[], paths: PathService): CommandOutside | undefined {
  const c = o.condition;
  if (c === undefined) return o;
  const { condition: _c, cwds, ...plain } = o;
  if ("program" in c) return staysInside(paths, c.program) ? undefined : plain;
  if ("venv" in c) return venvOutside(o, c, folders, paths);
  const dirs = new Set<string>();
  for (const folder of folders)
    for (const cwd of cwds ?? [""]) {
      const text = /^[/~]/.test(cwd) || folder === "" ? cwd : cwd === "" ? folder : `${folder}/${cwd}`;
      for (const r of paths.resolve(text === "" ? "." : text)) {
        if ("unsafe" in r) continue;
        for (const d of upTo(r.lexical, paths.workspace)) dirs.add(d);
        for (const d of upTo(r.real.includes("\0") ? paths.resolveReal(r.lexical) : r.real, paths.workspaceReal)) dirs.add(d);
      }
    }
  for (const dir of dirs)
    for (const name of PROJECT_CONFIG_FILES[c.config]) {
      const abs = dir === "/" ? `/${name}` : `${dir}/${name}`;
      const said = configSaid(paths, abs, name);
      if (said === undefined) continue;
      const root = isInside(dir, paths.workspace) ? paths.workspace : paths.workspaceReal;
      const file = relativeInside(abs, root);
      // A folder it names is a path from the file's folder: one inside the workspace keeps the install there.
      if (!("unread" in said) && said.folder !== undefined && !said.folder.includes("$") && staysInside(paths, /^[/~]/.test(said.folder) ? said.folder : `${relativeInside(dir, root) || "."}/${said.folder}`)) continue;
      return { ...plain, ...configOutsideWords(o.manager, o.where, file, said) };
    }
  return undefined;
}

/** The project file whose folder is a Python project manager's root, by the condition's manager. */
const VENV_PROJECT_FILE: Readonly<Record<VenvCondition["venv"], string>> = { poetry: "pyproject.toml", pipenv: "Pipfile" };

/**
 * A VenvCondition decided on disk: in each folder the command may run in (and the folder an option names
 * from there), the project's root is the nearest folder up to the workspace root that holds its project
 * file (else that folder); there, poetry.toml (for Poetry) and a `.venv` folder that stays in the workspace
 * decide whether the environment is the project's. The write, in the words of what decided it, when any
 * folder leaves it outside; undefined when every one keeps it inside.
 */
function venvOutside(o: CommandOutside, c: VenvCondition, folders: readonly string[], paths: PathService): CommandOutside | undefined {
  const { condition: _c, cwds, ...plain } = o;
  const starts = new Set<string>();
  for (const folder of folders)
    for (const cwd of cwds ?? [""]) {
      let text = /^[/~]/.test(cwd) || folder === "" ? cwd : cwd === "" ? folder : `${folder}/${cwd}`;
      if (c.dir !== undefined) text = /^[/~]/.test(c.dir) || text === "" ? c.dir : `${text}/${c.dir}`;
      const readings = paths.resolve(text === "" ? "." : text);
      // A folder outside the workspace, or one plangate cannot read: its project is not the workspace's.
      if (readings.length === 0 || readings.some((r) => "unsafe" in r || !isInside(r.lexical, paths.workspace))) return plain;
      for (const r of readings) if (!("unsafe" in r)) starts.add(r.lexical);
    }
  const files = paths.files;
  for (const start of starts) {
    const root = upTo(start, paths.workspace).find((d) => files.kind(`${d === "/" ? "" : d}/${VENV_PROJECT_FILE[c.venv]}`) !== "missing") ?? start;
    const at = (name: string) => `${root === "/" ? "" : root}/${name}`;
    const rel = (name: string) => relativeInside(at(name), paths.workspace);
    let kept = c.kept !== undefined;
    if (c.venv === "poetry") {
      const said = configSaid(paths, at("poetry.toml"), "poetry.toml");
      if (said !== undefined && "unread" in said) return { ...plain, where: `${plain.where}, if ${rel("poetry.toml")} says so: plangate does not read it (${said.unread})`, fix: `make ${rel("poetry.toml")} a regular file of at most ${MAX_PROJECT_CONFIG_BYTES / 1024} KiB, or remove it` };
      // A setting on the line keeps the environment inside whatever in-project says here, but not without an environment.
      if (said !== undefined && said.inside === undefined && (said.always || c.kept === undefined))
        return { ...plain, where: `Poetry's folder for environments or the Python in force: "${said.setting}" in ${rel("poetry.toml")} (line ${said.line}) takes it out of the project`, fix: `remove "${said.setting}" from ${rel("poetry.toml")}` };
      kept ||= said !== undefined;
    }
    // A .venv there is the environment (pipenv reads a .venv file as the name or path of one, which may be anywhere): it must be a folder that stays in the workspace.
    const venv = at(".venv");
    const kind = files.kind(venv);
    if (kind === "missing") {
      if (kept) continue;
      return plain;
    }
    const real = files.realpath(venv);
    if (real !== undefined && files.kind(real) === "dir" && staysInside(paths, venv)) continue;
    if (kind === "file" && c.venv === "pipenv") return { ...plain, where: `the environment that the file ${rel(".venv")} names, which plangate does not follow`, fix: `remove ${rel(".venv")}, and set PIPENV_VENV_IN_PROJECT=1 on the command` };
    return { ...plain, where: `the environment ${rel(".venv")} leads to, which is no folder of the workspace`, fix: `make ${rel(".venv")} a folder of the workspace, or remove it and keep the environment in the project` };
  }
  return undefined;
}

/**
 * Every path a plan's command lines name, once per command and resolved text. A relative path is read
 * from the folder the step runs its command in (its `cwd`), as the executor's shell reads it.
 */
function* commandPaths(plan: Plan, ctx: RuleContext): Generator<{ command: StepCommand; p: CommandPath; text: string; folder: string; base: string }> {
  if (commandsOf(plan, ctx.facts).length === 0) return;
  const work = ctx.facts.work;
  for (const { command, report } of analysedCommands(plan, ctx.facts)) {
    if (report.paths.length === 0) continue;
    // Each path read from each folder is work of its own, bounded for the whole validation (core/work.ts):
    // a line of 4,000 paths in 64 folders is a quarter of a million readings, and a plan may repeat it in
    // every step. Past the bound (limit-exceeded) the command's paths are not read.
    if (work.spent("pathReadings") || work.spent("pathTexts")) return;
    const bases = workingFolders(command, ctx.facts, plan.dialect);
    let units = 0;
    for (const base of bases) for (const p of report.paths) units += readingUnits(base.length + p.cwd.length + p.text.length) * (base === "" ? 1 : JOINED_READING);
    if (!work.spend("pathReadings", units, { step: command.step.position, at: command.at })) return;
    const done = new Set<string>();
    for (const base of bases)
      for (const p of report.paths) {
        const text = pathFromRoot(p, base);
        if (done.has(text)) continue;
        done.add(text);
        const folder = base === "" ? p.cwd : p.cwd === "" ? base : commandPathText({ ...p, cwd: base, text: p.cwd });
        yield { command, p, text, folder, base };
      }
  }
}

/**
 * A protected path a command path reaches on disk beyond its own name: a pattern's existing match, a
 * protected entry in a folder the program writes whole, or the workspace root written whole.
 */
export type DiskReach =
  | { kind: "match"; path: string }
  | { kind: "holds"; folder: string; path: string }
  | { kind: "root"; folder: string }
  /** A folder a protected glob names by its place (`.claude`, `.github/workflows`): what is written whole into it may be a protected file (`path`, a pattern). */
  | { kind: "under"; folder: string; path: string };

/** How a command's paths are matched against some protected globs. */
export interface CommandPathChecks {
  /** The protected spelling of a path, if any. */
  protectedAs: (path: string) => string | undefined;
  /** A protected path a glob below the workspace root can match (`.gi?/config`: `.git/config`), if any. */
  globReaches?: (glob: string, p: CommandPath) => string | undefined;
  /** What a pattern's existing matches, or a folder written whole, reach on disk (workspace-relative). */
  onDisk?: (rel: string, p: CommandPath) => DiskReach | undefined;
  /** A protected path below a folder a protected glob names by its place (`.github`: `.github/workflows/**`), if any. */
  under?: (rel: string) => string | undefined;
}

/**
 * Programs given a folder that do not fill it: they make, remove (empty), enter, list or stat it, change
 * its own mode or owner (recursively, they write it whole: CommandPath.tree), stage or show what git
 * holds of it, or copy, move, link or download files into it under names the line gives. Any other program
 * given a folder a protected glob names by its place (`tsc --outDir .github`, `pip install --target
 * .claude`, `cargo build --target-dir .husky`) may write any file in it, a protected one among them.
 */
const KEEPS_FOLDER = new Set([
  "mkdir", "gmkdir", "rmdir", "grmdir", "touch", "gtouch", "ls", "gls", "stat", "gstat", "file", "test", "[", "[[", "du", "realpath", "readlink", "basename", "dirname", "cd", "pushd", "popd",
  "chmod", "chown", "chgrp", "gchmod", "gchown", "gchgrp", "find", "gfind", "fd", "fdfind", "tree", "echo", "printf",
  "cp", "mv", "install", "ln", "gcp", "gmv", "ginstall", "gln", "rsync", "scp", "ditto", "curl", "wget",
  "git add", "git status", "git diff", "git log", "git show", "git blame", "git ls-files", "git check-ignore", "git grep", "git mv", "git commit",
]);

/**
 * protected-path-write for command lines (its message commandProtectedPath): a command may write any file
 * it names, so any protected one is reported; what a program that only reads its operands is given, only
 * when it is a secret.
 */
export function reportCommandPathsProtected(
  plan: Plan,
  ctx: PlanRuleContext<"commandProtectedPath" | "commandTreeProtected" | "commandTreeRoot" | "commandTreeUnder">,
  name: NamePath,
  /** The checks of what a command may write: every protected path. */
  writes: CommandPathChecks,
  /** The checks of what a program that only reads its operands is given (`cat x`, `< x`): the secrets. Made when first needed. */
  reads: () => CommandPathChecks = () => writes,
): void {
  const paths = ctx.facts.paths;
  const ws = paths.workspace;
  const wsReal = paths.workspaceReal;
  let readChecks: CommandPathChecks | undefined;
  for (const { command, p, text, folder, base: runsIn } of commandPaths(plan, ctx)) {
    // Read, not written (`cat .github/workflows/ci.yml`): only the secrets are refused (to read tools, none is).
    const { protectedAs, globReaches, onDisk } = p.read ? (readChecks ??= reads()) : writes;
    const candidates: string[] = [];
    for (const r of paths.resolve(text)) {
      if ("unsafe" in r) continue;
      if (isInside(r.lexical, ws)) candidates.push(relativeInside(r.lexical, ws));
      if (isInside(r.real, wsReal)) candidates.push(relativeInside(r.real, wsReal));
      candidates.push(r.lexical, r.real);
    }
    let hit: string | undefined;
    for (const c of candidates) if ((hit = protectedAs(c)) !== undefined) break;
    // The shell expands a pattern to the files it matches: `cp a .e*` writes .env.
    if (hit === undefined && p.glob && globReaches)
      for (const c of candidates) if (!c.startsWith("/") && (hit = globReaches(c, p)) !== undefined) break;
    const relatives = candidates.filter((c) => !c.startsWith("/"));
    // A pattern read as ".." where a segment could match it (`conf/*`) expands on disk as written.
    if (p.glob && p.written !== undefined)
      for (const r of paths.resolve(pathFromRoot({ ...p, text: p.written }, runsIn)))
        if (!("unsafe" in r) && isInside(r.lexical, ws)) relatives.push(relativeInside(r.lexical, ws));
    let reach: DiskReach | undefined;
    if (hit === undefined && onDisk && (p.glob || p.tree)) for (const c of relatives) if ((reach = onDisk(c, p)) !== undefined) break;
    // A folder a protected glob names by its place, given to a program that may fill it: what it writes there may be a protected file.
    if (hit === undefined && reach === undefined && !p.read && !p.source && !p.glob && !p.tree && p.program !== undefined && !KEEPS_FOLDER.has(p.program) && writes.under)
      for (const c of relatives) {
        const under = writes.under(c);
        if (under !== undefined) {
          reach = { kind: "under", folder: c, path: under };
          break;
        }
      }
    // The validation's names to try on disk ran out (limit-exceeded): what the pattern reaches is not judged.
    if (reach !== undefined && ctx.facts.work.overrun("diskNames", () => ({ step: command.step.position, at: partAt(command, p.span?.start) }))) continue;
    if (hit === undefined && reach?.kind === "match") hit = reach.path;
    else if (hit === undefined && reach !== undefined) {
      const base = { step: command.step.position, argument: command.name, path: name(named(p, text, folder)) };
      ctx.report({
        at: partAt(command, p.span?.start),
        step: command.step.position,
        ...(reach.kind === "root"
          ? { messageId: "commandTreeRoot" as const, data: base }
          : reach.kind === "under"
            ? { messageId: "commandTreeUnder" as const, data: { ...base, witness: reach.path } }
            : { messageId: "commandTreeProtected" as const, data: { ...base, witness: reach.path } }),
        actual: command.text,
      });
      continue;
    }
    if (hit === undefined) continue;
    ctx.report({
      at: partAt(command, p.span?.start),
      step: command.step.position,
      messageId: "commandProtectedPath",
      data: { step: command.step.position, argument: command.name, path: name(named(p, text, folder)), resolved: hit !== p.text ? ` (${hit})` : "" },
      actual: command.text,
    });
  }
}
