import type { ShellWord } from "../syntax/shell/types.js";

/*
 * Writes outside the workspace that no word of a command line names: a package manager's global
 * install (`npm install -g`, `pip install --user`, `cargo install`, `go install`, `brew install`,
 * `apt-get install`), a toolchain install (`rustup toolchain install`, `uv python install`), and a
 * change to the user's or the machine's settings of a package manager (`npm config set`, `go env -w`).
 * Each writes into the user's home or the system (global node_modules and bin folders, ~/.local,
 * ~/.cargo/bin, ~/go/bin, gem folders, /usr), and most put programs on the user's PATH that later steps,
 * or the user, run. Only what is certain is reported: a global flag, a tool that always installs
 * globally, settings that are the user's by default. An option or variable that points the install
 * back into a folder (`--prefix ./tools`, `--root ./tools`, `--target ./vendor`, `GOBIN=./bin`) makes
 * it a write to that folder, a path the workspace checks read as any other; one decided at run time
 * (`GOBIN=$HOME/bin`), or exported by an earlier command, points nowhere known, and the default holds.
 */

/** What is known of the program's run besides its words. */
export interface InstallRun {
  /**
   * The variables set for the program: before it (`GOBIN=./bin go install`) or by a wrapper that runs it
   * (`env GOBIN=./bin go install`), with their values (undefined when decided at run time).
   */
  env: ReadonlyMap<string, string | undefined>;
  /** The program runs as another user or on another machine (`sudo`, `doas`, `ssh host`), with that user's environment and PATH. */
  otherUser: boolean;
  /** The program word as written (`.venv/bin/pip`, `/usr/bin/pip3`). */
  written: string;
  /** The program's word: the place of a finding that no other word decides. */
  word: ShellWord;
}

/** A write outside the workspace that no word of the line names. */
export interface OutsideWrite {
  /** The package manager as the policy's `commands.installOutside` names it (`npm`, `pip`, `cargo`, `apt-get`...). */
  manager: string;
  /** The words that make the write (`npm install -g`, `cargo install`, `pip install --user`). */
  how: string;
  /** Where it writes: `npm's global prefix (...)`. */
  where: string;
  /** What to change to keep it in the workspace. */
  fix: string;
  /** The word that decides it (the flag, or the subcommand), for the finding's place. */
  word: ShellWord;
  /** A write that holds only under what the line cannot show, decided where files are read (commands/paths.ts resolveOutside). */
  condition?: OutsideCondition;
}

/**
 * What decides a write outside the workspace that the line leaves open: the project's configuration of
 * the package manager (`npm`: .npmrc, read by npm and pnpm; `yarn`: .yarnrc and .yarnrc.yml), in the
 * folder the command runs in or one above it inside the workspace; or where a program named by its
 * absolute path lies (`/home/me/proj/.venv/bin/pip`: inside the workspace, a virtual environment of it).
 */
export type OutsideCondition = { config: "npm" | "yarn" | "pdm" } | { program: string } | VenvCondition;

/**
 * A Python project manager's install into a virtual environment it keeps outside the workspace unless the
 * project keeps it inside: Poetry's `virtualenvs.in-project` in the project's poetry.toml (and no
 * `virtualenvs.create = false`, which installs into the Python in force), or a `.venv` folder in the project's
 * root, which Poetry and pipenv then use. The root is the nearest folder, from where the command runs (or
 * `dir`, an option's folder) up to the workspace root, that holds the project's file (`pyproject.toml`,
 * `Pipfile`); without one, the folder it runs in.
 */
export interface VenvCondition {
  venv: "poetry" | "pipenv";
  /** The project's folder an option names (`poetry -C app install`), from where the command runs. */
  dir?: string;
  /** A setting on the line that keeps the environment inside (`POETRY_VIRTUALENVS_IN_PROJECT=true`): the project's files decide the rest. */
  kept?: string;
}

type Handler = (name: string, args: ShellWord[], run: InstallRun) => OutsideWrite | undefined;

const NONE: ReadonlySet<string> = new Set();
const FALSE_WORDS = new Set(["", "0", "false", "no", "n", "f", "off"]);
/** A variable set for the program to a value that is not false (pip's and uv's boolean settings); one decided at run time may be true. */
const setTrue = (run: InstallRun, name: string): boolean => run.env.has(name) && !FALSE_WORDS.has((run.env.get(name) ?? "true").toLowerCase());
/** A variable set for the program to a value known on the line (a value decided at run time points nowhere known). */
const setLiterally = (run: InstallRun, name: string): boolean => {
  const v = run.env.get(name);
  return v !== undefined && v !== "";
};

/** The words before `--`: a program's own options and operands. */
function own(args: ShellWord[]): ShellWord[] {
  const k = args.findIndex((w) => w.value === "--");
  return k < 0 ? args : args.slice(0, k);
}

/** One operand of a command, and whether it may be the value of an option plangate does not know before it. */
interface Operand {
  word: ShellWord;
  value: string;
  maybeValue: boolean;
}

/**
 * The operands of a program's words up to `--`: `valued` options take the next word; `flags` take none;
 * any other option may have taken the next word (a value of an option plangate does not list, or an
 * abbreviation of one), which is then marked `maybeValue`. A value joined with `=` is the option's.
 */
function operandsOf(args: ShellWord[], valued: ReadonlySet<string> = NONE, flags: ReadonlySet<string> = NONE): Operand[] {
  const out: Operand[] = [];
  let unknown = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) continue;
    if (v === "--") break;
    if (v.startsWith("-") && v.length > 1) {
      unknown = false;
      if (v.includes("=")) continue;
      if (valued.has(v)) i++;
      else if (!flags.has(v)) unknown = true;
      continue;
    }
    out.push({ word: args[i]!, value: v, maybeValue: unknown });
    unknown = false;
  }
  return out;
}

/**
 * The operands that may be the subcommand: the first one, and each one after it while the one before
 * may be an unknown option's value (`brew --foo install x`: `install`, or `x` if --foo took `install`).
 */
function subcommands(ops: Operand[]): Operand[] {
  const out: Operand[] = [];
  for (const o of ops) {
    out.push(o);
    if (!o.maybeValue) break;
  }
  return out;
}

/** The operand after `o` among `ops`. */
const after = (ops: Operand[], o: Operand): Operand[] => ops.slice(ops.indexOf(o) + 1);

/** The word that is one of the options `names`, exactly or with its value after `=` (a long one). */
function hasOption(args: ShellWord[], names: readonly string[]): ShellWord | undefined {
  return own(args).find((w) => w.value !== undefined && names.some((n) => w.value === n || (n.startsWith("--") && w.value!.startsWith(`${n}=`))));
}

/**
 * One of the options `names` given with a value that names a folder (`--prefix ./tools`, `--prefix=tools`,
 * `-C tools`): the value is a word the workspace checks read as a path. An empty value (`--prefix ''`)
 * names none, and the program's default holds.
 */
function redirect(args: ShellWord[], names: readonly string[]): boolean {
  const ws = own(args);
  return ws.some((w, i) => {
    const v = w.value;
    if (v === undefined) return false;
    return names.some((n) => (v === n ? (ws[i + 1]?.value ?? "") !== "" : n.startsWith("--") && v.startsWith(`${n}=`) && v.length > n.length + 1));
  });
}

/** A flag given alone or in a cluster of one-letter flags (`-g`, `-gA`), or by its long name. */
function flag(args: ShellWord[], letter: string, long: readonly string[]): ShellWord | undefined {
  return own(args).find((w) => w.value !== undefined && (long.includes(w.value) || w.value === `-${letter}` || (/^-[A-Za-z]{2,}$/.test(w.value) && w.value.includes(letter))));
}

/** A dry run (`--dry-run`, `--dry-run=true`): nothing is changed. */
const dryRun = (args: ShellWord[]): boolean => own(args).some((w) => w.value === "--dry-run" || (w.value?.startsWith("--dry-run=") === true && !FALSE_WORDS.has(w.value.slice(10).toLowerCase())));

/**
 * A short option with its value joined (`-t./vendor`), when the value reads as a path the workspace
 * checks read (`pathsIn`: it starts with `/`, `~` or `.`, or holds a `/`).
 */
const gluedPath = (args: ShellWord[], letter: string): boolean => own(args).some((w) => w.value !== undefined && w.value.startsWith(`-${letter}`) && /^[/~.]|\//.test(w.value.slice(2).replace(/^=/, "")));

/** The value of the last of the options `names` given (`--location global`, `--location=global`). */
function optionValue(args: ShellWord[], names: readonly string[]): { word: ShellWord; value: string | undefined } | undefined {
  const words = own(args);
  let found: { word: ShellWord; value: string | undefined } | undefined;
  for (let i = 0; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === undefined) continue;
    for (const n of names) {
      if (v === n) found = { word: words[i]!, value: words[i + 1]?.value };
      else if (n.startsWith("--") && v.startsWith(`${n}=`)) found = { word: words[i]!, value: v.slice(n.length + 1) };
    }
  }
  return found;
}

const write = (manager: string, how: string, where: string, fix: string, word: ShellWord): OutsideWrite => ({ manager, how, where, fix, word });
const words = (...parts: (string | undefined)[]): string => parts.filter((p) => p !== undefined && p !== "").join(" ");

// ---------------------------------------------------------------------------------------------------
// npm, pnpm, Yarn, bun, deno, corepack, Volta

/** npm's subcommands that only read, or run a program, with a global flag (`npm ls -g`, `npm root -g`). */
const NPM_GLOBAL_READS = new Set([
  "ls", "list", "la", "ll", "root", "prefix", "bin", "outdated", "view", "v", "info", "show", "search", "s", "se", "find", "help", "help-search",
  "explain", "why", "doctor", "ping", "whoami", "fund", "docs", "home", "repo", "bugs", "query", "sbom", "get", "exec", "x", "run", "run-script",
  "rum", "urn", "test", "t", "tst", "start", "stop", "restart",
]);
/** npm's options that take a value. */
const NPM_VALUED = new Set(["--prefix", "-C", "--registry", "--userconfig", "--globalconfig", "--cache", "--loglevel", "-w", "--workspace", "--location", "-L", "--tag", "--omit", "--include", "--otp", "--scope", "--before", "--install-strategy", "--save-prefix", "--depth"]);
/** npm's options that take none. */
const NPM_FLAGS = new Set([
  "-g", "--global", "--no-global", "-D", "--save-dev", "-S", "--save", "-E", "--save-exact", "-O", "--save-optional", "-P", "--save-prod", "-B", "--save-bundle",
  "--no-save", "-f", "--force", "-y", "--yes", "-s", "--silent", "-q", "--quiet", "-d", "-dd", "-ddd", "--verbose", "--json", "--parseable", "-p", "-l", "--long",
  "--all", "-a", "--dry-run", "--ignore-scripts", "--legacy-peer-deps", "--no-audit", "--no-fund", "--prefer-offline", "--offline", "-ws", "--workspaces",
]);
/** npm's configuration subcommands that change the file. */
const NPM_CONFIG_WRITES = new Set(["set", "delete", "rm", "edit", "fix"]);
const NPM_GLOBAL_WHERE = "npm's global prefix (its lib/node_modules, and its bin folder on the user's PATH)";
const NPM_CONFIG_FIX = "add --location=project, which writes the workspace's .npmrc";

/**
 * npm's (and pnpm's) global flag, the last one given: `-g`, `--global` (`--global=false` and
 * `--no-global` undo it), a cluster of one-letter flags holding `g` (nopt reads `-gS` as `-g -S`), and
 * with `location`, `--location global` (also by an abbreviation npm reads, `--locat`).
 */
function npmGlobal(args: ShellWord[], location = true): ShellWord | undefined {
  let found: ShellWord | undefined;
  const ws = own(args);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    const v = w.value;
    if (v === undefined || !v.startsWith("-")) continue;
    if (v === "--global" || v === "-g" || (/^-[A-Za-z]{2,}$/.test(v) && v.includes("g"))) {
      // nopt reads a boolean's next word as its value when it is true or false (`--global false`).
      found = ws[i + 1]?.value === "false" ? undefined : w;
    } else if (v === "--no-global") found = undefined;
    else if (v.startsWith("--global=")) found = FALSE_WORDS.has(v.slice(9).toLowerCase()) ? undefined : w;
    else if (location) {
      const name = v.split("=")[0]!;
      if ((name.length >= 7 && "--location".startsWith(name)) || name === "-L") {
        const value = v.includes("=") ? v.slice(v.indexOf("=") + 1) : ws[i + 1]?.value;
        if (value === "global" || value === undefined) found = w;
      }
    }
  }
  return found;
}

/** A variable npm reads as a setting (`npm_config_prefix`, in any case), set on the line to a known value. */
const npmSetting = (run: InstallRun, key: string): boolean => [...run.env].some(([name, value]) => value !== undefined && value !== "" && name.toLowerCase() === `npm_config_${key}`);

function npm(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, NPM_VALUED, NPM_FLAGS);
  const subs = subcommands(ops);
  const global = npmGlobal(args);
  // The prefix (`--prefix`, `-C`, `npm_config_prefix`, or `PREFIX`, which npm reads for it) holds the global folders and the
  // global configuration (etc/npmrc): a path the workspace checks read.
  const prefix = redirect(args, ["--prefix", "-C"]) || npmSetting(run, "prefix") || setLiterally(run, "PREFIX");
  // `npm config set`, `npm set`, `npm login`: the user's ~/.npmrc, unless --location=project or --userconfig FILE.
  const config = subs.find((s) => s.value === "config" || s.value === "c");
  const change = config !== undefined ? after(ops, config).find((o) => NPM_CONFIG_WRITES.has(o.value)) : subs.find((s) => ["set", "login", "adduser", "add-user", "logout"].includes(s.value));
  if (change !== undefined) {
    const how = words(name, config?.value, change.value);
    // A setting that makes every later install global (`global true`, `location global`), in whichever file it is written.
    if (change.value === "set") {
      const rest = after(ops, change);
      const eq = rest[0]?.value.indexOf("=") ?? -1;
      const key = eq >= 0 ? rest[0]!.value.slice(0, eq) : rest[0]?.value;
      const value = eq >= 0 ? rest[0]!.value.slice(eq + 1) : rest[1]?.value;
      if ((key === "global" && !FALSE_WORDS.has((value ?? "true").toLowerCase())) || (key === "location" && value === "global"))
        return write("npm", words(how, key), `${NPM_GLOBAL_WHERE}, for every later install (the setting makes installs global)`, "leave global and location unset, and install in the workspace", rest[0]!.word);
    }
    if (global !== undefined) return prefix ? undefined : write("npm", `${how} ${global.value}`, "npm's global configuration (etc/npmrc under npm's prefix)", NPM_CONFIG_FIX, global);
    if (optionValue(args, ["--location", "-L"])?.value === "project" || hasOption(args, ["--userconfig"]) !== undefined || npmSetting(run, "userconfig")) return undefined;
    return write("npm", how, "npm's user configuration (~/.npmrc)", NPM_CONFIG_FIX, change.word);
  }
  if (prefix || dryRun(args)) return undefined;
  if (global !== undefined) {
    if (subs.length > 0 && subs.every((s) => NPM_GLOBAL_READS.has(s.value))) return undefined;
    return write("npm", words(name, subs[0]?.value, global.value), NPM_GLOBAL_WHERE, "install it in the workspace (npm install without -g, then npx), or give --prefix ./tools", global);
  }
  // `npm link` registers the package in the global folder (and with a name, links it from there, installing it); `npm unlink` alone removes it.
  const link = subs.find((s) => s.value === "link" || s.value === "ln");
  if (link !== undefined) return write("npm", words(name, link.value), NPM_GLOBAL_WHERE, "install the package by its path instead (npm install ../pkg), or give --prefix ./tools", link.word);
  const unlink = subs.find((s) => s.value === "unlink");
  if (unlink !== undefined && after(ops, unlink).length === 0) return write("npm", words(name, "unlink"), NPM_GLOBAL_WHERE, "name the package to remove from the workspace (npm uninstall pkg)", unlink.word);
  // A project's .npmrc may make every install global (`global=true`, `location=global`), as -g does.
  return byProjectConfig("npm", name, args, subs, NPM_GLOBAL_READS);
}

/** `--no-global`, `--global=false` or `--global false` on the line: the project's configuration cannot make the run global. */
function notGlobal(args: ShellWord[]): boolean {
  const ws = own(args);
  let no = false;
  for (let i = 0; i < ws.length; i++) {
    const v = ws[i]!.value;
    if (v === "--no-global") no = true;
    else if (v === "--global" || v === "-g") no = ws[i + 1]?.value === "false";
    else if (v?.startsWith("--global=")) no = v.slice(9).toLowerCase() === "false";
  }
  return no;
}

/**
 * An npm or pnpm run that would write outside the workspace if the project's .npmrc made it global: any
 * subcommand but those that only read or run a program (as with -g), unless the line says it is not global.
 */
function byProjectConfig(manager: "npm" | "pnpm", name: string, args: ShellWord[], subs: Operand[], reads: ReadonlySet<string>): OutsideWrite | undefined {
  if (subs.length === 0 || subs.every((s) => reads.has(s.value)) || notGlobal(args)) return undefined;
  const where = manager === "npm" ? NPM_GLOBAL_WHERE : PNPM_WHERE;
  return { ...write(manager, words(name, subs[0]!.value), where, "", subs[0]!.word), condition: { config: "npm" } };
}

const PNPM_GLOBAL_READS = new Set(["ls", "list", "ll", "la", "root", "bin", "outdated", "why", "view", "info", "show", "v", "audit", "licenses", "help", "exec", "run", "dlx", "test", "t", "start"]);
const PNPM_VALUED = new Set(["-C", "--dir", "--filter", "-F", "--reporter", "--loglevel", "--store-dir", "--global-dir", "--global-bin-dir", "--location", "--workspace-dir", "--virtual-store-dir", "--depth"]);
const PNPM_FLAGS = new Set(["-g", "--global", "-D", "--save-dev", "-P", "--save-prod", "-O", "--save-optional", "-E", "--save-exact", "-r", "--recursive", "-w", "--workspace-root", "-s", "--silent", "--json", "--long", "--frozen-lockfile", "--prefer-offline", "--offline", "--ignore-scripts"]);
const PNPM_WHERE = "pnpm's global folder and PNPM_HOME (on the user's PATH)";

function pnpm(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, PNPM_VALUED, PNPM_FLAGS);
  const subs = subcommands(ops);
  const itself = subs.find((s) => s.value === "setup" || s.value === "self-update");
  if (itself !== undefined)
    return write("pnpm", words(name, itself.value), itself.value === "setup" ? "the shell's start-up file and PNPM_HOME" : "pnpm's own program in PNPM_HOME", "use the pnpm installed, or install pnpm in the workspace (npm install pnpm, then npx pnpm)", itself.word);
  const config = subs.find((s) => s.value === "config" || s.value === "c");
  const change = config !== undefined ? after(ops, config).find((o) => NPM_CONFIG_WRITES.has(o.value)) : subs.find((s) => s.value === "set");
  if (change !== undefined) {
    if (optionValue(args, ["--location"])?.value === "project") return undefined;
    return write("pnpm", words(name, config?.value, change.value), "pnpm's global configuration (~/.config/pnpm/rc)", NPM_CONFIG_FIX, change.word);
  }
  // PNPM_HOME holds the global bin folder and, below it, the global packages.
  if (setLiterally(run, "PNPM_HOME") || (redirect(args, ["--global-dir"]) && redirect(args, ["--global-bin-dir"]))) return undefined;
  const global = npmGlobal(args, false);
  if (global !== undefined && !dryRun(args)) {
    if (subs.length > 0 && subs.every((s) => PNPM_GLOBAL_READS.has(s.value))) return undefined;
    return write("pnpm", words(name, subs[0]?.value, global.value), PNPM_WHERE, "install it in the workspace (pnpm add without -g, then pnpm exec)", global);
  }
  const link = subs.find((s) => s.value === "link" || s.value === "ln");
  if (link !== undefined && after(ops, link).length === 0) return write("pnpm", words(name, link.value), PNPM_WHERE, "link the package by its path (pnpm link ../pkg)", link.word);
  if (dryRun(args)) return undefined;
  return byProjectConfig("pnpm", name, args, subs, PNPM_GLOBAL_READS);
}

const YARN_VALUED = new Set(["--cwd", "--modules-folder", "--cache-folder", "--global-folder", "--prefix", "--link-folder", "--registry", "--mutex", "--network-timeout"]);
const YARN_FLAGS = new Set(["-D", "--dev", "-P", "--peer", "-O", "--optional", "-E", "--exact", "-T", "--tilde", "-W", "--ignore-workspace-root-check", "-s", "--silent", "--verbose", "--json", "--frozen-lockfile", "--immutable", "--offline", "--prefer-offline", "--ignore-scripts", "-H", "--home"]);

/** Yarn's subcommands that install or remove the project's packages (and `yarn` alone, an install). */
const YARN_INSTALLS = new Set(["install", "add", "upgrade", "up", "remove", "rebuild", "import", "dedupe", "unplug", "upgrade-interactive"]);

function yarn(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, YARN_VALUED, YARN_FLAGS);
  const subs = subcommands(ops);
  const sub = subs.find((s) => ["global", "link", "unlink", "config"].includes(s.value));
  if (sub === undefined) {
    // An install (`yarn`, `yarn add x`) goes where the project's .yarnrc or .yarnrc.yml puts its folders.
    const install = subs[0];
    if (install !== undefined && !YARN_INSTALLS.has(install.value)) return undefined;
    if (redirect(args, ["--modules-folder", "--cwd"])) return undefined;
    return { ...write("yarn", words(name, install?.value), "", "", install?.word ?? run.word), condition: { config: "yarn" } };
  }
  const rest = after(ops, sub);
  if (sub.value === "global") {
    const action = rest[0];
    if (action === undefined || ["bin", "list", "dir", "ls"].includes(action.value)) return undefined;
    // Yarn 1 puts global packages in --global-folder (YARN_GLOBAL_FOLDER), their programs in --prefix's bin.
    if ((redirect(args, ["--global-folder"]) || setLiterally(run, "YARN_GLOBAL_FOLDER")) && redirect(args, ["--prefix"])) return undefined;
    return write("yarn", words(name, "global", action.value), "Yarn's global folder and its bin folder (on the user's PATH)", "add it to the workspace (yarn add, then yarn exec)", action.word);
  }
  if (sub.value === "link" || sub.value === "unlink") {
    if (rest.length > 0 || redirect(args, ["--link-folder"])) return undefined;
    return write("yarn", words(name, sub.value), "Yarn 1's link registry (~/.config/yarn/link)", "link the package by its path (yarn link ../pkg), or add it by its path", sub.word);
  }
  // Yarn 1 writes `yarn config set` to ~/.yarnrc; Yarn 2 and later to the project's .yarnrc.yml, unless -H (--home).
  const action = rest[0];
  if (action === undefined || !["set", "delete", "unset"].includes(action.value)) return undefined;
  return write("yarn", words(name, "config", action.value), "Yarn's user configuration (~/.yarnrc with Yarn 1; ~/.yarnrc.yml with -H)", "write the setting into the workspace's .yarnrc.yml", action.word);
}

const BUN_GLOBAL_READS = new Set(["pm", "outdated", "info", "why", "audit", "run", "x", "exec", "test"]);

function bun(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, new Set(["--cwd", "--cache-dir", "--backend", "--registry", "-c", "--config"]), new Set(["-g", "--global", "-d", "--dev", "-D", "-E", "--exact", "--production", "-p", "--frozen-lockfile", "--silent", "--verbose", "--dry-run"]));
  const subs = subcommands(ops);
  const upgrade = subs.find((s) => s.value === "upgrade");
  if (upgrade !== undefined) return write("bun", words(name, "upgrade"), "bun's own program (~/.bun/bin/bun)", "use the bun installed, or install bun in the workspace (npm install bun)", upgrade.word);
  if (setLiterally(run, "BUN_INSTALL")) return undefined;
  const global = flag(args, "g", ["--global"]);
  if (global !== undefined && !dryRun(args)) {
    if (subs.length > 0 && subs.every((s) => BUN_GLOBAL_READS.has(s.value))) return undefined;
    return write("bun", words(name, subs[0]?.value, global.value), "bun's global folder (~/.bun/install/global, and ~/.bun/bin on the user's PATH)", "install it in the workspace (bun add without -g, then bunx)", global);
  }
  const link = subs.find((s) => s.value === "link" || s.value === "unlink");
  if (link !== undefined && after(ops, link).length === 0) return write("bun", words(name, link.value), "bun's global link folder (~/.bun/install/global)", "add the package by its path (bun add ../pkg)", link.word);
  return undefined;
}

function deno(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const subs = subcommands(operandsOf(args, new Set(["--root", "-n", "--name", "-c", "--config", "--output", "-L", "--log-level"]), new Set(["-g", "--global", "-f", "--force", "-q", "--quiet", "-A", "--allow-all"])));
  const sub = subs.find((s) => ["install", "i", "uninstall", "upgrade"].includes(s.value));
  if (sub === undefined) return undefined;
  if (sub.value === "upgrade") {
    if (redirect(args, ["--output"])) return undefined;
    return write("deno", words(name, "upgrade"), "deno's own program", "give --output ./tools/deno, or use the deno installed", sub.word);
  }
  const global = flag(args, "g", ["--global"]);
  if (global === undefined || redirect(args, ["--root"]) || setLiterally(run, "DENO_INSTALL_ROOT")) return undefined;
  return write("deno", words(name, sub.value, global.value), "deno's install root (~/.deno/bin, on the user's PATH)", "give --root ./tools, or run it with deno run", global);
}

function corepack(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const sub = subcommands(operandsOf(args, new Set(["--install-directory"]), new Set(["-g", "--global", "--all", "--activate"])))[0];
  if (sub === undefined) return undefined;
  if (sub.value === "enable" || sub.value === "disable") {
    if (redirect(args, ["--install-directory"])) return undefined;
    return write("corepack", words(name, sub.value), "the folder of node's own programs (shims for npm, pnpm and yarn, on the user's PATH)", "give --install-directory ./bin, or run the manager through corepack (corepack pnpm install)", sub.word);
  }
  const global = hasOption(args, ["-g", "--global"]) ?? hasOption(args, ["--activate"]);
  if ((sub.value === "install" || sub.value === "prepare") && global !== undefined && !setLiterally(run, "COREPACK_HOME"))
    return write("corepack", words(name, sub.value, global.value), "corepack's home (~/.cache/node/corepack): the versions it runs by default", "pin the version in the workspace's package.json (corepack use pnpm@9)", global);
  return undefined;
}

function volta(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const sub = subcommands(operandsOf(args, NONE, new Set(["--verbose", "--quiet"])))[0];
  if (sub === undefined || !["install", "uninstall", "setup", "fetch"].includes(sub.value)) return undefined;
  if (sub.value !== "setup" && setLiterally(run, "VOLTA_HOME")) return undefined;
  return write("volta", words(name, sub.value), sub.value === "setup" ? "the shell's start-up files and Volta's home" : "Volta's home (~/.volta, whose tools are on the user's PATH)", "pin the tool in the workspace's package.json (volta pin), or set VOLTA_HOME=./.volta on the command", sub.word);
}

// ---------------------------------------------------------------------------------------------------
// pip, python -m pip, pipx, uv, Poetry, conda

/** pip's general options that take a value, and those that take none. */
const PIP_VALUED = new Set(["--log", "--log-file", "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert", "--client-cert", "--cache-dir", "--python", "--use-feature", "--use-deprecated", "--keyring-provider", "--progress-bar", "--root-user-action", "--resume-retries"]);
const PIP_FLAGS = new Set(["-h", "--help", "--debug", "--isolated", "--require-virtualenv", "-v", "--verbose", "-V", "--version", "-q", "--quiet", "--no-input", "--no-cache-dir", "--disable-pip-version-check", "--no-color", "--no-python-version-warning"]);
const PIP_VENV_FIX = "install into a virtual environment in the workspace (python -m venv .venv, then .venv/bin/pip install), or give --target ./vendor";
const USER_SITE = "Python's user site-packages and ~/.local/bin (on the user's PATH)";
const SYSTEM_PYTHON = "the system Python's site-packages (and its bin folder, on the user's PATH)";
/** A program named by its path in a system folder: the system's Python or pip, not a virtual environment's. */
const SYSTEM_PROGRAM = /^\/(?:usr|bin|sbin|opt\/homebrew|Library|System)\//;

function pip(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, PIP_VALUED, PIP_FLAGS);
  const sub = subcommands(ops).find((s) => s.value === "install" || s.value === "uninstall" || s.value === "config");
  if (sub === undefined) return undefined;
  if (sub.value === "config") {
    const action = after(ops, sub)[0];
    if (action === undefined || !["set", "unset", "edit"].includes(action.value) || hasOption(args, ["--site"]) !== undefined) return undefined;
    const global = hasOption(args, ["--global"]);
    return write("pip", words(name, "config", action.value, global?.value), global ? "pip's configuration for the whole machine (/etc/pip.conf)" : "pip's user configuration (~/.config/pip/pip.conf)", "add --site, which writes the active virtual environment's pip.conf", global ?? action.word);
  }
  // --target, --prefix and --root put the packages where they say: a path the workspace checks read.
  if (redirect(args, ["--target", "-t", "--prefix", "--root"]) || gluedPath(args, "t") || dryRun(args)) return undefined;
  if (setLiterally(run, "PIP_TARGET") || setLiterally(run, "PIP_PREFIX") || setLiterally(run, "PIP_ROOT")) return undefined;
  if (sub.value === "install") {
    const user = hasOption(args, ["--user"]);
    if (user !== undefined) return write("pip", words(name, "install --user"), USER_SITE, PIP_VENV_FIX, user);
    if (setTrue(run, "PIP_USER")) return write("pip", words(`PIP_USER=${run.env.get("PIP_USER") ?? "..."}`, name, "install"), USER_SITE, PIP_VENV_FIX, sub.word);
  }
  // optparse reads any unambiguous prefix of a long option: `--break` is --break-system-packages.
  const brk = own(args).find((w) => w.value !== undefined && w.value.length >= 7 && "--break-system-packages".startsWith(w.value));
  if (brk !== undefined) return write("pip", words(name, sub.value, "--break-system-packages"), SYSTEM_PYTHON, PIP_VENV_FIX, brk);
  if (setTrue(run, "PIP_BREAK_SYSTEM_PACKAGES")) return write("pip", words(`PIP_BREAK_SYSTEM_PACKAGES=${run.env.get("PIP_BREAK_SYSTEM_PACKAGES") ?? "..."}`, name, sub.value), SYSTEM_PYTHON, PIP_VENV_FIX, sub.word);
  // Run as another user (`sudo pip install`: that user's PATH and environment, no virtual environment of the plan's),
  // or the system's own pip named by its path (`/usr/bin/pip3 install`); a pip named by a relative path is the workspace's.
  const workspaceProgram = !/^[/~]/.test(run.written) && run.written.includes("/");
  if (run.otherUser && !workspaceProgram) return write("pip", words(name, sub.value, "(as another user)"), SYSTEM_PYTHON, PIP_VENV_FIX, sub.word);
  if (SYSTEM_PROGRAM.test(run.written)) return write("pip", words(name, sub.value), SYSTEM_PYTHON, PIP_VENV_FIX, sub.word);
  // pip's --python names the environment it installs into (a Python, or an environment's folder).
  const target = optionValue(args, ["--python"]);
  if (target !== undefined) return environmentNamed("pip", words(name, sub.value, "--python", target.value), target.value, PIP_VENV_FIX, target.word);
  // A pip (or a Python) of the workspace, named by its path (`.venv/bin/pip`, `./venv/bin/python -m pip`), is
  // its virtual environment's: it installs there. Any other (`pip`, `python3 -m pip`, through a runner that
  // may put one first on PATH) installs into whatever environment is in force when it runs, which the line
  // does not show: without an active virtual environment, the user's or the system's site-packages.
  if (workspaceProgram) return undefined;
  const w = write("pip", words(name, sub.value), ACTIVE_PYTHON, PIP_ACTIVE_FIX, sub.word);
  return run.written.startsWith("/") ? { ...w, condition: { program: run.written } } : w;
}

/** Where a pip or a Python not of the workspace installs: the environment in force. */
const ACTIVE_PYTHON =
  "the Python environment in force where it runs, which the line does not show: with no virtual environment active, the user's site-packages (~/.local, its bin folder on the user's PATH) or the system's";
const PIP_ACTIVE_FIX =
  "run the pip of the workspace's virtual environment by its path (.venv/bin/pip install, .venv/bin/python -m pip install; python3 -m venv .venv makes one), use uv pip install, or give --target ./vendor";

/**
 * An install into the environment of a Python named by an option (`--python`, `-p`): one of the workspace,
 * named by a relative path (`.venv/bin/python`, `.venv`), is inside; one named by an absolute path, or one
 * that climbs (`../x`), is inside when the path stays inside; a version or a name (`3.12`, `python3`) picks a
 * Python found where it runs, outside.
 */
function environmentNamed(manager: string, how: string, value: string | undefined, fix: string, word: ShellWord): OutsideWrite | undefined {
  const path = value !== undefined && (value.includes("/") || value.startsWith("."));
  if (path && !/^[/~]/.test(value) && !value.split("/").includes("..")) return undefined;
  const w = write(manager, how, "the environment of a Python found where the command runs, outside the workspace", fix, word);
  return path && !value.startsWith("~") ? { ...w, condition: { program: value } } : w;
}

/** Python's one-letter options that take a value (the rest of the word, or the next word). */
const PYTHON_VALUED = "WX";

/** `python -m pip ...`, `python3 -I -m pipx ...`: the module a Python runs and the words after it, or undefined. */
function pythonModule(args: ShellWord[]): { module: string; rest: ShellWord[] } | undefined {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined || !v.startsWith("-") || v === "-" || v === "--") return undefined;
    if (v.startsWith("--")) continue;
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === "c") return undefined;
      if (c === "m") {
        const glued = v.slice(k + 1);
        if (glued !== "") return { module: glued, rest: args.slice(i + 1) };
        const next = args[i + 1]?.value;
        return next === undefined ? undefined : { module: next, rest: args.slice(i + 2) };
      }
      if (PYTHON_VALUED.includes(c)) {
        if (k === v.length - 1) i++;
        break;
      }
    }
  }
  return undefined;
}

function python(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const m = pythonModule(args);
  if (m === undefined) return undefined;
  const how = words(name, "-m", m.module);
  if (m.module === "pip") return pip(how, m.rest, run);
  if (m.module === "pipx") return pipx(how, m.rest, run);
  // Python's project managers run as modules (`python -m poetry install`) install as they do.
  if (m.module === "poetry") return poetry(how, m.rest, run);
  if (m.module === "pipenv") return pipenv(how, m.rest, run);
  if (m.module === "pdm") return pdm(how, m.rest, run);
  if (m.module === "hatch") return hatch(how, m.rest, run);
  if (m.module === "ensurepip") {
    const user = hasOption(m.rest, ["--user"]);
    if (user !== undefined) return write("pip", words(how, "--user"), USER_SITE, PIP_VENV_FIX, user);
  }
  return undefined;
}

const PIPX_READS = new Set(["run", "list", "environment", "completions", "help"]);

function pipx(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const subs = subcommands(operandsOf(args, NONE, new Set(["-q", "--quiet", "-v", "--verbose", "--global", "-h", "--help", "--version"])));
  if (subs.length === 0 || subs.every((s) => PIPX_READS.has(s.value))) return undefined;
  const sub = subs.find((s) => !PIPX_READS.has(s.value))!;
  const global = hasOption(args, ["--global"]);
  if (sub.value !== "ensurepath" && global === undefined && setLiterally(run, "PIPX_HOME") && setLiterally(run, "PIPX_BIN_DIR") && setLiterally(run, "PIPX_MAN_DIR")) return undefined;
  return write("pipx", words(name, sub.value, global?.value), sub.value === "ensurepath" ? "the shell's start-up files (the user's PATH)" : global ? "pipx's folders for the whole machine (/opt/pipx, /usr/local/bin)" : "pipx's home and ~/.local/bin (on the user's PATH)", "install it into a virtual environment in the workspace, or run it with pipx run", global ?? sub.word);
}

const UV_VALUED = new Set(["--python", "-p", "--index", "--default-index", "--index-url", "--extra-index-url", "--find-links", "-f", "--directory", "--project", "--cache-dir", "--config-file", "--color", "--allow-insecure-host", "--python-preference", "--install-dir", "-i", "--target", "--prefix", "--with", "-r", "--requirements"]);
const UV_FLAGS = new Set(["-q", "--quiet", "-v", "--verbose", "--offline", "--no-cache", "-n", "--refresh", "--isolated", "--no-config", "--native-tls", "--no-progress", "--managed-python", "--no-managed-python", "--no-python-downloads", "--preview", "--system", "--break-system-packages", "-U", "--upgrade", "--force", "--no-bin", "--default", "-e", "--editable"]);

function uv(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, UV_VALUED, UV_FLAGS);
  const sub = subcommands(ops).find((s) => ["tool", "python", "pip", "self"].includes(s.value));
  const action = sub === undefined ? undefined : after(ops, sub)[0];
  if (sub === undefined || action === undefined) return undefined;
  const how = words(name, sub.value, action.value);
  if (sub.value === "self") return action.value === "update" ? write("uv", how, "uv's own program", "use the uv installed, or install uv in the workspace", action.word) : undefined;
  if (sub.value === "tool") {
    if (action.value === "update-shell") return write("uv", how, "the shell's start-up files (the user's PATH)", "run tools with uvx (uv tool run), or add them to the project (uv add --dev)", action.word);
    if (!["install", "upgrade", "uninstall"].includes(action.value)) return undefined;
    if (setLiterally(run, "UV_TOOL_DIR") && setLiterally(run, "UV_TOOL_BIN_DIR")) return undefined;
    return write("uv", how, "uv's tool folder and ~/.local/bin (on the user's PATH)", "run it with uvx (uv tool run), or add it to the project (uv add --dev)", action.word);
  }
  if (sub.value === "python") {
    if (!["install", "uninstall", "upgrade"].includes(action.value)) return undefined;
    const dir = redirect(args, ["--install-dir", "-i"]) || setLiterally(run, "UV_PYTHON_INSTALL_DIR");
    const bin = hasOption(args, ["--no-bin"]) !== undefined || setLiterally(run, "UV_PYTHON_BIN_DIR");
    if (dir && bin) return undefined;
    return write("uv", how, "uv's Python folder (~/.local/share/uv/python) and ~/.local/bin (on the user's PATH)", "give --install-dir ./.python and --no-bin, or use a Python already installed", action.word);
  }
  if (!["install", "sync", "uninstall"].includes(action.value) || redirect(args, ["--target", "--prefix"]) || dryRun(args)) return undefined;
  const system = hasOption(args, ["--system", "--break-system-packages"]);
  const fix = "install into the workspace's virtual environment (uv venv, then uv pip install without --system), or give --target ./vendor";
  if (system !== undefined) return write("uv", words(how, system.value), SYSTEM_PYTHON, fix, system);
  for (const v of ["UV_SYSTEM_PYTHON", "UV_BREAK_SYSTEM_PACKAGES"]) if (setTrue(run, v)) return write("uv", words(`${v}=${run.env.get(v) ?? "..."}`, how), SYSTEM_PYTHON, fix, action.word);
  // `--python` (`-p`, UV_PYTHON) names the Python whose environment uv installs into; without it, uv pip
  // installs into a virtual environment only (the project's .venv, or the one active), never the user's or the system's site-packages.
  const glued = own(args).find((w) => w.value !== undefined && /^-p[^-]/.test(w.value));
  const python = optionValue(args, ["--python", "-p"]) ?? (glued === undefined ? undefined : { word: glued, value: glued.value!.slice(2).replace(/^=/, "") });
  if (python !== undefined) return environmentNamed("uv", words(how, python.word.value?.startsWith("-p") ? "-p" : "--python", python.value), python.value, fix, python.word);
  if (run.env.has("UV_PYTHON")) return environmentNamed("uv", words(`UV_PYTHON=${run.env.get("UV_PYTHON") ?? "..."}`, how), run.env.get("UV_PYTHON"), fix, action.word);
  return undefined;
}

/** Poetry's options that take a value (global ones and those of its installing commands). */
const POETRY_VALUED = new Set(["-C", "--directory", "-P", "--project", "--with", "--without", "--only", "-E", "--extras", "-G", "--group", "--source", "--python", "--platform", "--markers", "-e", "--executable"]);
const POETRY_FLAGS = new Set(["-q", "--quiet", "-v", "-vv", "-vvv", "--verbose", "-n", "--no-interaction", "--no-ansi", "--ansi", "--no-plugins", "--no-cache", "--local", "--unset", "--list", "--no-root", "--only-root", "--sync", "--all-extras", "--all-groups", "--compile", "--dry-run", "--lock", "--dev", "-D", "--editable", "--allow-prereleases", "--no-directory", "--no-update", "--keep-outdated"]);
/** Poetry's commands that install into (or remove from) the project's environment. */
const POETRY_INSTALLS = new Set(["install", "add", "update", "sync", "remove", "upgrade"]);
/** Settings that keep a Python project manager's environment in the project, on the line, for the fixes. */
const POETRY_FIX = "keep the environment in the project: set POETRY_VIRTUALENVS_IN_PROJECT=true on the command, or virtualenvs.in-project = true in the project's poetry.toml (poetry config --local virtualenvs.in-project true, in a plan of its own)";
const POETRY_WHERE = "Poetry's virtual environments folder (~/.cache/pypoetry/virtualenvs), as the project keeps no environment of its own (.venv)";
/** Poetry's settings that decide where its environment lies (`poetry config --local KEY VALUE`), and the value of each that keeps it in the project. */
const POETRY_VENV_KEYS: Readonly<Record<string, string | undefined>> = { "virtualenvs.in-project": "true", "virtualenvs.create": "true", "virtualenvs.path": undefined, "cache-dir": undefined, "virtualenvs.options.system-site-packages": "false" };

function poetry(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, POETRY_VALUED, POETRY_FLAGS);
  const sub = subcommands(ops)[0];
  if (sub === undefined) return undefined;
  const rest = after(ops, sub);
  if (sub.value === "self") {
    const action = rest[0];
    if (action === undefined || !["add", "remove", "install", "update", "lock", "sync"].includes(action.value)) return undefined;
    return write("poetry", words(name, "self", action.value), "Poetry's own environment", "add the package to the project instead (poetry add --group dev)", action.word);
  }
  if (POETRY_INSTALLS.has(sub.value)) return poetryInstall(name, sub, args, run);
  if (sub.value !== "config" || !(rest.length >= 2 || hasOption(args, ["--unset"]) !== undefined)) return undefined;
  if (hasOption(args, ["--local"]) === undefined) return write("poetry", words(name, "config"), "Poetry's user configuration (~/.config/pypoetry/config.toml)", "add --local, which writes the workspace's poetry.toml", sub.word);
  // The project's poetry.toml, written where it is not read back (plangate reads the file on disk): a setting that sends later installs outside.
  const key = rest[0]!.value.toLowerCase();
  if (!Object.hasOwn(POETRY_VENV_KEYS, key) && !key.startsWith("virtualenvs.")) return undefined;
  const keeps = POETRY_VENV_KEYS[key];
  const value = rest[1]?.value.toLowerCase();
  if (keeps !== undefined && hasOption(args, ["--unset"]) === undefined && value === keeps) return undefined;
  return write("poetry", words(name, "config --local", rest[0]!.value), "the project's poetry.toml, where it sends later installs outside the workspace (into Poetry's folder for environments, or the Python in force)", "set virtualenvs.in-project = true only, or leave Poetry's settings to the user", rest[0]!.word);
}

/**
 * `poetry install` (add, update, sync, remove): into the project's environment, which Poetry keeps in its
 * own folder outside the workspace unless the project keeps it inside (VenvCondition); into the Python in
 * force with `virtualenvs.create` false.
 */
function poetryInstall(name: string, sub: Operand, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  if (dryRun(args) || (sub.value === "add" && hasOption(args, ["--lock"]) !== undefined)) return undefined;
  const how = words(name, sub.value);
  const create = run.env.get("POETRY_VIRTUALENVS_CREATE");
  if (run.env.has("POETRY_VIRTUALENVS_CREATE") && (create === undefined || FALSE_WORDS.has(create.toLowerCase())))
    return write("poetry", words(`POETRY_VIRTUALENVS_CREATE=${create ?? "..."}`, how), ACTIVE_PYTHON, POETRY_FIX, sub.word);
  let kept: string | undefined;
  if (run.env.has("POETRY_VIRTUALENVS_IN_PROJECT")) {
    const v = run.env.get("POETRY_VIRTUALENVS_IN_PROJECT");
    if (v !== undefined && ["true", "1", "yes", "on"].includes(v.toLowerCase())) kept = `POETRY_VIRTUALENVS_IN_PROJECT=${v}`;
    // Set false (or at run time): the project's .venv is not used, and the environments' folder is.
    else if (!setLiterally(run, "POETRY_VIRTUALENVS_PATH")) return write("poetry", words(`POETRY_VIRTUALENVS_IN_PROJECT=${v ?? "..."}`, how), POETRY_WHERE, POETRY_FIX, sub.word);
  }
  // The folder of environments, set on the line: a path the workspace checks read.
  for (const v of ["POETRY_VIRTUALENVS_PATH", "POETRY_CACHE_DIR"]) if (kept === undefined && setLiterally(run, v)) kept = `${v}=${run.env.get(v)}`;
  const dir = optionValue(args, ["-C", "--directory", "-P", "--project"]);
  if (dir !== undefined && (dir.value === undefined || dir.value === "")) return write("poetry", how, POETRY_WHERE, POETRY_FIX, dir.word);
  return { ...write("poetry", how, POETRY_WHERE, POETRY_FIX, sub.word), condition: { venv: "poetry", ...(dir !== undefined ? { dir: dir.value! } : {}), ...(kept !== undefined ? { kept } : {}) } };
}

/** pipenv's options that take a value, and those that take none. */
const PIPENV_VALUED = new Set(["--python", "--py", "-r", "--requirements", "--categories", "--extra-pip-args", "--pypi-mirror", "-i", "--index"]);
const PIPENV_FLAGS = new Set(["-v", "--verbose", "-q", "--quiet", "--clear", "--site-packages", "--no-site-packages", "--bare", "-d", "--dev", "--system", "--deploy", "--ignore-pipfile", "--skip-lock", "--pre", "--keep-outdated", "--selective-upgrade", "-e", "--editable", "--dry-run", "--all", "--all-dev", "--outdated", "--lock-only"]);
/** pipenv's commands that install into (or remove from) the project's environment, and `--rm`, which removes it. */
const PIPENV_INSTALLS = new Set(["install", "sync", "update", "upgrade", "uninstall", "clean"]);
const PIPENV_WHERE = "pipenv's virtual environments folder (WORKON_HOME, ~/.local/share/virtualenvs), as the project keeps no environment of its own (.venv)";
const PIPENV_FIX = "keep the environment in the project: set PIPENV_VENV_IN_PROJECT=1 on the command (or make a .venv folder in the project first)";

function pipenv(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, PIPENV_VALUED, PIPENV_FLAGS);
  const sub = subcommands(ops).find((s) => PIPENV_INSTALLS.has(s.value));
  const rm = sub === undefined ? hasOption(args, ["--rm"]) : undefined;
  if ((sub === undefined && rm === undefined) || dryRun(args) || (sub?.value === "upgrade" && hasOption(args, ["--lock-only"]) !== undefined)) return undefined;
  const how = words(name, sub?.value ?? "--rm");
  const word = sub?.word ?? rm!;
  const system = hasOption(args, ["--system"]);
  if (system !== undefined) return write("pipenv", words(how, "--system"), SYSTEM_PYTHON, PIPENV_FIX, system);
  if (setTrue(run, "PIPENV_SYSTEM")) return write("pipenv", words(`PIPENV_SYSTEM=${run.env.get("PIPENV_SYSTEM") ?? "..."}`, how), SYSTEM_PYTHON, PIPENV_FIX, word);
  // A Pipfile elsewhere puts the project, and its .venv, in a folder plangate does not follow.
  if (run.env.has("PIPENV_PIPFILE")) return write("pipenv", words(`PIPENV_PIPFILE=${run.env.get("PIPENV_PIPFILE") ?? "..."}`, how), PIPENV_WHERE, "run pipenv in the project's folder rather than naming its Pipfile, with PIPENV_VENV_IN_PROJECT=1", word);
  let kept: string | undefined;
  if (setTrue(run, "PIPENV_VENV_IN_PROJECT")) kept = `PIPENV_VENV_IN_PROJECT=${run.env.get("PIPENV_VENV_IN_PROJECT")}`;
  // The folder of environments, set on the line: a path the workspace checks read.
  else if (setLiterally(run, "WORKON_HOME")) kept = `WORKON_HOME=${run.env.get("WORKON_HOME")}`;
  return { ...write("pipenv", how, PIPENV_WHERE, PIPENV_FIX, word), condition: { venv: "pipenv", ...(kept !== undefined ? { kept } : {}) } };
}

/** Hatch's global options that take a value. */
const HATCH_VALUED = new Set(["-e", "--env", "-p", "--project", "--data-dir", "--cache-dir", "--config", "--color"]);
const HATCH_FLAGS = new Set(["-v", "-q", "--verbose", "--quiet", "--no-color", "--interactive", "--no-interactive", "-h", "--help", "--version"]);
/** Hatch's commands that make an environment (and install the project's dependencies into it) before they run. */
const HATCH_ENVS = new Set(["run", "shell", "test", "fmt", "build"]);

function hatch(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, HATCH_VALUED, HATCH_FLAGS);
  const sub = subcommands(ops)[0];
  if (sub === undefined) return undefined;
  const action = after(ops, sub)[0];
  if (sub.value === "python") {
    if (action === undefined || !["install", "update", "remove"].includes(action.value)) return undefined;
    if (redirect(args, ["--dir", "-d"]) && hasOption(args, ["--private"]) !== undefined) return undefined;
    return write("hatch", words(name, "python", action.value), "Hatch's Python folder (~/.local/share/hatch/pythons), which it puts on the user's PATH", "give --dir ./.python and --private, or use a Python already installed", action.word);
  }
  if (sub.value === "self") return action !== undefined && ["update", "restore"].includes(action.value) ? write("hatch", words(name, "self", action.value), "Hatch's own environment", "use the hatch installed", action.word) : undefined;
  const makes = HATCH_ENVS.has(sub.value) || (sub.value === "env" && action !== undefined && (action.value === "create" || action.value === "run"));
  if (!makes) return undefined;
  // A data folder, or an environment's path, set on the line: a path the workspace checks read.
  if (redirect(args, ["--data-dir"]) || setLiterally(run, "HATCH_DATA_DIR") || setLiterally(run, "HATCH_ENV_TYPE_VIRTUAL_PATH")) return undefined;
  return write(
    "hatch",
    words(name, sub.value, sub.value === "env" ? action!.value : undefined),
    "Hatch's environments folder (~/.local/share/hatch/env), where it makes the environment and installs the project's dependencies",
    "set HATCH_DATA_DIR=./.hatch (or HATCH_ENV_TYPE_VIRTUAL_PATH=.venv) on the command",
    sub.value === "env" ? action!.word : sub.word,
  );
}

/** PDM's options that take a value. */
const PDM_VALUED = new Set(["-p", "--project", "-G", "--group", "-L", "--lockfile", "-c", "--config", "--venv", "--python", "-k", "--skip"]);
const PDM_FLAGS = new Set(["-v", "-q", "-g", "--global", "-l", "--local", "-d", "--delete", "--dev", "--prod", "--production", "--no-self", "--no-editable", "--no-lock", "--frozen-lockfile", "--dry-run", "--verbose", "--quiet", "--no-isolation", "-e", "--editable", "--save-compatible", "--save-exact", "--save-wildcard", "--save-minimum", "--unconstrained", "--top", "-u", "--update-all", "--clean", "--only-keep", "--fail-fast", "-x", "--no-sync", "--plugins"]);
const PDM_INSTALLS = new Set(["install", "add", "update", "sync", "remove", "use", "venv"]);

function pdm(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, PDM_VALUED, PDM_FLAGS);
  const sub = subcommands(ops)[0];
  if (sub === undefined) return undefined;
  const rest = after(ops, sub);
  if (sub.value === "self") return rest[0] !== undefined && ["add", "remove", "update"].includes(rest[0].value) ? write("pdm", words(name, "self", rest[0].value), "PDM's own environment", "add the package to the project instead (pdm add -d)", rest[0].word) : undefined;
  if (sub.value === "python" || sub.value === "py") return rest[0] !== undefined && ["install", "remove"].includes(rest[0].value) ? write("pdm", words(name, sub.value, rest[0].value), "PDM's Python folder (~/.local/share/pdm/python)", "use a Python already installed", rest[0].word) : undefined;
  if (sub.value === "config") {
    if (rest.length < 2 && hasOption(args, ["-d", "--delete"]) === undefined) return undefined;
    if (hasOption(args, ["-l", "--local"]) !== undefined) return undefined;
    return write("pdm", words(name, "config"), "PDM's user configuration (~/.config/pdm/config.toml)", "add --local, which writes the project's pdm.toml", sub.word);
  }
  if (!PDM_INSTALLS.has(sub.value) || dryRun(args) || (sub.value === "venv" && rest[0]?.value !== "create")) return undefined;
  const how = words(name, sub.value, sub.value === "venv" ? "create" : undefined);
  const global = hasOption(args, ["-g", "--global"]) ?? own(args).find((w) => w.value !== undefined && /^-[degux]*g[degux]*$/.test(w.value));
  if (global !== undefined) return write("pdm", words(how, "--global"), "PDM's global project (~/.local/share/pdm/global-project) and its environment", "install into the project (without --global)", global);
  // PDM keeps the project's environment in its .venv, unless its settings say otherwise: on the line, or in the project's pdm.toml.
  const fix = "keep the environment in the project (venv.in_project, the default), or set PDM_VENV_IN_PROJECT=true on the command";
  for (const v of ["PDM_VENV_IN_PROJECT", "PDM_USE_VENV"])
    if (run.env.has(v) && !setTrue(run, v)) return write("pdm", words(`${v}=${run.env.get(v) ?? "..."}`, how), "PDM's environments folder (~/.local/share/pdm/venvs) or the Python in force", fix, sub.word);
  if (setTrue(run, "PDM_VENV_IN_PROJECT")) return undefined;
  return { ...write("pdm", how, "PDM's environments folder (~/.local/share/pdm/venvs) or the Python in force", fix, sub.word), condition: { config: "pdm" } };
}

const CONDA_ENV_CHANGES = new Set(["install", "create", "update", "upgrade", "remove", "uninstall"]);

function conda(name: string, args: ShellWord[]): OutsideWrite | undefined {
  const ops = operandsOf(args, new Set(["-n", "--name", "-p", "--prefix", "-c", "--channel", "-f", "--file", "--solver"]), new Set(["-y", "--yes", "-q", "--quiet", "-v", "--verbose", "--json", "--dry-run", "-d", "--all", "--override-channels", "--env", "--system", "--set", "--add", "--append", "--prepend", "--remove", "--remove-key", "--show"]));
  const first = subcommands(ops).find((s) => ["init", "config", "env", ...CONDA_ENV_CHANGES].includes(s.value));
  if (first === undefined || hasOption(args, ["--dry-run", "-d"]) !== undefined) return undefined;
  if (first.value === "init") return write("conda", words(name, "init"), "the shell's start-up files", "activate the environment on the command instead (conda run -p ./env ...)", first.word);
  if (first.value === "config") {
    const change = hasOption(args, ["--set", "--add", "--append", "--prepend", "--remove", "--remove-key"]);
    if (change === undefined || hasOption(args, ["--env", "--file"]) !== undefined) return undefined;
    return write("conda", words(name, "config", change.value), hasOption(args, ["--system"]) ? "conda's configuration for the whole installation" : "conda's user configuration (~/.condarc)", "add --env, which writes the active environment's .condarc", change);
  }
  const action = first.value === "env" ? after(ops, first)[0] : first;
  if (action === undefined || !CONDA_ENV_CHANGES.has(action.value)) return undefined;
  // -p names the environment's folder, a path the workspace checks read.
  if (redirect(args, ["-p", "--prefix"])) return undefined;
  // A named environment lives in conda's own folder (envs_dirs); `create` and `env create` take the name from -n or the environment file.
  const named = hasOption(args, ["-n", "--name"]);
  const how = words(name, first.value === "env" ? "env" : undefined, action.value, named?.value?.split("=")[0]);
  // Without -n or -p, the active environment: conda's base (in its own folder) unless one of the workspace is
  // active, which the line does not show (`env update` takes the environment file's name first).
  if (named === undefined && action.value !== "create")
    return write("conda", how, "the conda environment active where it runs, which the line does not show: conda's base environment in its own folder unless one in the workspace is active", "name the workspace's environment with -p ./env", action.word);
  return write("conda", how, "a named environment in conda's own folder (envs_dirs)", "create the environment in the workspace (-p ./env)", named ?? action.word);
}

// ---------------------------------------------------------------------------------------------------
// RubyGems, Bundler, cargo, rustup, go

/** gem's commands that write the gem folder, which gem reads by any unambiguous prefix (`gem inst`), and `i` (install). */
const GEM_WRITES = ["install", "update", "uninstall", "cleanup", "pristine", "rdoc"];
const GEM_FIX = "give --install-dir ./vendor/gems (-i), or use Bundler with a path in the workspace (bundle config set --local path vendor/bundle)";

function gem(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const sub = subcommands(operandsOf(args, new Set(["-i", "--install-dir", "-n", "--bindir", "-v", "--version", "--source", "-s", "--platform", "-P", "--trust-policy"]), new Set(["--user-install", "--no-user-install", "--system", "-N", "--no-document", "--no-ri", "--no-rdoc", "-q", "--quiet", "-V", "--verbose", "--pre", "--prerelease", "-f", "--force", "--conservative", "--minimal-deps", "-E", "--env-shebang", "--local", "-l", "--remote", "-r", "--both", "-b"])))[0];
  if (sub === undefined || !(sub.value === "i" || (sub.value.length >= 2 && GEM_WRITES.some((w) => w.startsWith(sub.value))))) return undefined;
  const user = hasOption(args, ["--user-install"]);
  if (user !== undefined) return write("gem", words(name, sub.value, "--user-install"), "~/.gem and its bin folder (on the user's PATH)", GEM_FIX, user);
  const system = hasOption(args, ["--system"]);
  if (system !== undefined) return write("gem", words(name, sub.value, "--system"), "RubyGems itself", "use the RubyGems installed", system);
  if (redirect(args, ["-i", "--install-dir"]) || gluedPath(args, "i") || setLiterally(run, "GEM_HOME")) return undefined;
  return write("gem", words(name, sub.value), "RubyGems' gem folder (GEM_HOME) and its bin folder (on the user's PATH)", GEM_FIX, sub.word);
}

function bundle(name: string, args: ShellWord[]): OutsideWrite | undefined {
  const ops = operandsOf(args, new Set(["--gemfile", "--path", "--jobs", "-j", "--retry", "--with", "--without", "--binstubs", "--standalone", "--trust-policy"]), new Set(["--system", "--local", "--global", "--deployment", "--frozen", "--quiet", "--verbose", "--no-cache", "--clean", "--full-index", "--prefer-local", "--redownload", "--force"]));
  const sub = subcommands(ops)[0];
  if (sub === undefined) return undefined;
  if (sub.value === "install" || sub.value === "update") {
    const system = hasOption(args, ["--system"]);
    return system === undefined ? undefined : write("bundle", words(name, sub.value, "--system"), "the system's gem folder", "install into the workspace (bundle config set --local path vendor/bundle)", system);
  }
  if (sub.value !== "config") return undefined;
  const rest = after(ops, sub).map((o) => o.value);
  const explicit = rest[0] === "set" || rest[0] === "unset";
  const changes = explicit ? rest.length >= 2 : rest[0] !== "get" && rest[0] !== "list" && rest.length >= 2;
  if (!changes || hasOption(args, ["--local"]) !== undefined) return undefined;
  return write("bundle", words(name, "config", explicit ? rest[0] : undefined), "Bundler's user configuration (~/.bundle/config)", "add --local, which writes the workspace's .bundle/config", sub.word);
}

function cargo(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  // `cargo +nightly install x`: the toolchain comes first.
  const rest = args[0]?.value?.startsWith("+") ? args.slice(1) : args;
  let word: ShellWord;
  if (name === "cargo-binstall") word = run.word;
  else {
    const sub = subcommands(operandsOf(rest, new Set(["--config", "-Z", "-C", "--color", "--explain"]), new Set(["-v", "-vv", "--verbose", "-q", "--quiet", "--locked", "--offline", "--frozen", "-h", "--help", "-V", "--version"]))).find((s) => ["install", "uninstall", "binstall"].includes(s.value));
    if (sub === undefined) return undefined;
    word = sub.word;
  }
  if (hasOption(rest, ["--list"]) !== undefined || redirect(rest, ["--root", "--install-path"]) || setLiterally(run, "CARGO_INSTALL_ROOT")) return undefined;
  return write("cargo", name === "cargo-binstall" ? name : words(name, word.value), "cargo's bin folder (~/.cargo/bin, on the user's PATH)", "give --root ./tools (or set CARGO_INSTALL_ROOT=./tools on the command)", word);
}

/** rustup's subcommands, and their actions, that change its toolchains, settings or itself. */
const RUSTUP_WRITES: Readonly<Record<string, readonly string[] | true>> = {
  install: true,
  uninstall: true,
  update: true,
  default: true,
  set: true,
  toolchain: ["install", "uninstall", "remove", "link", "add"],
  target: ["add", "install", "remove", "uninstall"],
  component: ["add", "remove"],
  override: ["set", "unset", "add", "remove"],
  self: ["update", "uninstall", "upgrade-data"],
};

function rustup(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  if (name === "rustup-init") return write("rustup", name, "rustup itself (~/.rustup, ~/.cargo/bin and the shell's start-up files)", "use the Rust toolchain installed", run.word);
  const ops = operandsOf(args, NONE, new Set(["-v", "--verbose", "-q", "--quiet", "-h", "--help", "-V", "--version", "--no-self-update", "--force", "-y"]));
  const sub = subcommands(ops).find((s) => Object.hasOwn(RUSTUP_WRITES, s.value));
  if (sub === undefined) return undefined;
  const rest = after(ops, sub);
  const actions = RUSTUP_WRITES[sub.value]!;
  if (actions !== true && (rest[0] === undefined || !actions.includes(rest[0].value))) return undefined;
  // `rustup default` alone prints the default toolchain.
  if (sub.value === "default" && rest.length === 0) return undefined;
  // rustup updates itself (its programs in ~/.cargo/bin) as it updates, unless told not to.
  const self = sub.value === "self" || (sub.value === "update" && hasOption(args, ["--no-self-update"]) === undefined);
  if (!self && setLiterally(run, "RUSTUP_HOME")) return undefined;
  return write("rustup", words(name, sub.value, actions === true ? undefined : rest[0]!.value), self ? "rustup itself (~/.rustup, and ~/.cargo/bin on the user's PATH)" : "rustup's toolchains and settings (~/.rustup)", "use the toolchain installed, or set RUSTUP_HOME=./.rustup on the command", sub.word);
}

function go(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, new Set(["-C"]));
  const sub = subcommands(ops)[0];
  if (sub === undefined) return undefined;
  // golang.org/dl's go1.22.3 downloads its toolchain into ~/sdk.
  if (sub.value === "download" && name !== "go") return write("go", words(name, "download"), "~/sdk (a Go toolchain)", "use the Go installed", sub.word);
  if (sub.value === "env") {
    const change = hasOption(args, ["-w", "-u"]);
    return change === undefined ? undefined : write("go", words(name, "env", change.value), "go's user configuration (the file `go env GOENV` names, ~/.config/go/env)", "set the variable on the command that needs it", change);
  }
  const installs = sub.value === "install" || (sub.value === "get" && run.env.get("GO111MODULE") === "off");
  if (!installs || setLiterally(run, "GOBIN") || setLiterally(run, "GOPATH")) return undefined;
  return write("go", words(name, sub.value), "go's bin folder (GOBIN, or ~/go/bin, on the user's PATH)", "set GOBIN=./bin on the command (GOBIN=./bin go install ...), or run it with go run", sub.word);
}

// ---------------------------------------------------------------------------------------------------
// The system's package managers, and the user's

const SYSTEM_WHERE = "the system's packages (/usr, /etc, /var)";
const SYSTEM_FIX = "use a program the machine already has, or have the machine's owner install it before the run";

/**
 * Package managers read by their subcommand: each subcommand writes but those in `reads` (or, with
 * `writes`, only those in it do). `readsWith`: a subcommand that writes unless the word after it is one of
 * these (`brew services list`, `gh extension list`); alone it only prints. `dryRun`: options after which
 * nothing is changed (a one-letter one in a cluster too, `-sy`).
 */
interface SubcommandManager {
  manager?: string;
  where: string;
  fix?: string;
  reads?: ReadonlySet<string>;
  writes?: ReadonlySet<string>;
  readsWith?: Readonly<Record<string, readonly string[]>>;
  valued?: ReadonlySet<string>;
  flags?: ReadonlySet<string>;
  dryRun?: readonly string[];
  /** A variable, or an option, whose value (a folder the workspace checks read) holds all it writes. */
  rootVariable?: string;
  rootOption?: string;
}

const APT: SubcommandManager = {
  where: SYSTEM_WHERE,
  reads: new Set(["list", "search", "show", "showsrc", "policy", "depends", "rdepends", "changelog", "check", "help", "moo", "download", "source", "indextargets", "showpkg", "madison", "why", "why-not", "version", "versions", "stats", "dump", "dumpavail", "pkgnames", "showhold", "showauto", "showmanual"]),
  valued: new Set(["-o", "--option", "-c", "--config-file", "-t", "--target-release", "--default-release", "-a", "--host-architecture"]),
  flags: new Set([
    "-y", "--yes", "--assume-yes", "--assume-no", "-q", "-qq", "--quiet", "-f", "--fix-broken", "-m", "--ignore-missing", "--fix-missing", "--no-download", "-d", "--download-only",
    "-b", "--compile", "--build", "--no-install-recommends", "--install-recommends", "--install-suggests", "--no-install-suggests", "--only-upgrade", "--allow-downgrades",
    "--allow-remove-essential", "--allow-change-held-packages", "--force-yes", "--purge", "--reinstall", "--auto-remove", "--autoremove", "--allow-unauthenticated",
    "-u", "--show-upgraded", "-V", "--verbose-versions", "-h", "--help", "-v", "--version", "--full", "--installed", "--upgradable", "--all-versions", "--no-upgrade",
  ]),
  dryRun: ["-s", "--simulate", "--just-print", "--dry-run", "--recon", "--no-act"],
};
const DNF: SubcommandManager = {
  where: SYSTEM_WHERE,
  reads: new Set(["list", "info", "search", "provides", "whatprovides", "repolist", "repoinfo", "repoquery", "rq", "check-update", "check-upgrade", "check", "deplist", "help", "grouplist", "groupinfo", "updateinfo", "download", "version", "changelog", "leaves", "repomanage"]),
  readsWith: { history: ["list", "info", "userinstalled"], module: ["list", "info", "provides"], group: ["list", "info", "summary"], alias: ["list"] },
  valued: new Set(["-c", "--config", "--releasever", "--installroot", "-x", "--exclude", "--enablerepo", "--disablerepo", "--repo", "--repoid", "--setopt", "-d", "--debuglevel", "-e", "--errorlevel", "--rpmverbosity", "--forcearch", "--color", "--destdir", "--downloaddir"]),
  flags: new Set(["-y", "--assumeyes", "-q", "--quiet", "-v", "--verbose", "-C", "--cacheonly", "--refresh", "--nogpgcheck", "--allowerasing", "--best", "--nobest", "--skip-broken", "--downloadonly", "--noautoremove", "--showduplicates", "--installed", "--available", "--all", "--upgrades", "--obsoletes", "--recent", "--extras", "--security", "--bugfix", "-h", "--help", "--version"]),
  dryRun: ["--assumeno"],
};
const ZYPPER: SubcommandManager = {
  where: SYSTEM_WHERE,
  reads: new Set(["search", "se", "info", "if", "list-updates", "lu", "list-patches", "lp", "repos", "lr", "services", "ls", "packages", "pa", "patterns", "pt", "products", "pd", "patches", "what-provides", "wp", "help", "locks", "ll", "search-packages", "patch-check", "pchk", "source-download"]),
  valued: new Set(["-c", "--config", "-R", "--root", "--installroot", "-r", "--repo"]),
  flags: new Set(["-n", "--non-interactive", "-q", "--quiet", "-v", "--verbose", "-x", "--xmlout", "--no-refresh", "-h", "--help", "-V", "--version", "-i", "--installed-only", "-u", "--uninstalled-only"]),
  dryRun: ["--dry-run", "-D"],
};
const APK: SubcommandManager = {
  where: SYSTEM_WHERE,
  reads: new Set(["info", "search", "list", "policy", "version", "dot", "stats", "audit", "verify", "fetch", "manifest", "query"]),
  valued: new Set(["-X", "--repository", "-p", "--root", "--arch", "--cache-dir", "--keys-dir", "--repositories-file", "-o", "--output"]),
  flags: new Set(["-q", "--quiet", "-v", "--verbose", "-i", "--interactive", "-U", "--update-cache", "--no-cache", "-a", "--available", "-I", "--installed", "-u", "--upgradable", "-h", "--help", "-V", "--version"]),
  dryRun: ["-s", "--simulate"],
};
const BREW: SubcommandManager = {
  where: "Homebrew's prefix (/opt/homebrew, /usr/local or /home/linuxbrew; its bin folder is on the user's PATH)",
  fix: "use a program the machine already has, or have the user install it before the run",
  reads: new Set([
    "list", "ls", "info", "abv", "search", "-S", "desc", "deps", "uses", "leaves", "outdated", "config", "doctor", "dr", "home", "homepage", "log", "cat", "commands", "help",
    "options", "missing", "shellenv", "tap-info", "formulae", "casks", "which-formula", "docs", "fetch", "livecheck", "audit", "style", "readall", "--env",
  ]),
  readsWith: { services: ["list", "info"], tap: [] },
  dryRun: ["--dry-run", "-n"],
  flags: new Set(["-v", "--verbose", "-d", "--debug", "-q", "--quiet", "-h", "--help", "--cask", "--casks", "--formula", "--formulae", "--json", "--installed", "--eval-all", "-1", "-l", "--versions", "--pinned", "--full-name", "--tree", "--desc"]),
};
const PORT: SubcommandManager = {
  where: "MacPorts' prefix (/opt/local, on the user's PATH)",
  writes: new Set(["install", "uninstall", "upgrade", "selfupdate", "sync", "activate", "deactivate", "clean", "load", "unload", "reclaim", "select", "setrequested", "unsetrequested", "rev-upgrade", "migrate"]),
  dryRun: ["-y"],
};
const SNAP: SubcommandManager = {
  where: "the system's snaps (/snap, /var/lib/snapd)",
  reads: new Set(["list", "find", "search", "info", "version", "help", "connections", "interfaces", "services", "logs", "changes", "change", "tasks", "warnings", "aliases", "get", "known", "routine", "model", "whoami", "run", "debug", "paths", "download", "pack"]),
};
const FLATPAK: SubcommandManager = {
  where: "the system's or the user's Flatpak installation (/var/lib/flatpak, ~/.local/share/flatpak)",
  reads: new Set(["list", "info", "search", "remotes", "remote-ls", "remote-info", "ps", "run", "history", "documents", "document-info", "permissions", "permission-show", "enter", "kill", "help", "config",
    // flatpak-builder's steps: a build folder and a repository the command names.
    "build", "build-init", "build-finish", "build-export", "build-bundle", "build-import-bundle", "build-sign", "build-update-repo", "build-commit-from"]),
  flags: new Set(["-v", "--verbose", "--user", "--system", "-y", "--assumeyes", "--noninteractive", "--app", "--runtime", "--columns", "-h", "--help", "--version"]),
};
const writesOnly = (manager: string, where: string, writes: readonly string[], extra: Partial<SubcommandManager> = {}): SubcommandManager => ({ manager, where, writes: new Set(writes), ...extra });

const SUBCOMMAND_MANAGERS: Readonly<Record<string, SubcommandManager>> = {
  apt: APT,
  "apt-get": APT,
  aptitude: APT,
  nala: APT,
  "apt-mark": writesOnly("apt-mark", SYSTEM_WHERE, ["hold", "unhold", "auto", "manual", "minimize-manual", "install", "remove", "purge", "deinstall"]),
  dnf: DNF,
  dnf5: DNF,
  yum: DNF,
  microdnf: DNF,
  tdnf: DNF,
  zypper: ZYPPER,
  apk: APK,
  brew: BREW,
  port: PORT,
  snap: SNAP,
  flatpak: FLATPAK,
  // FreeBSD's pkg: only its writing commands (Vercel's `pkg index.js` is another program of that name).
  pkg: writesOnly("pkg", SYSTEM_WHERE, ["install", "add", "delete", "remove", "upgrade", "update", "autoremove", "clean", "lock", "unlock", "set", "bootstrap", "register", "backup"], { dryRun: ["-n", "--dry-run"] }),
  choco: writesOnly("choco", "the system's programs (C:\\ProgramData\\chocolatey)", ["install", "upgrade", "uninstall", "pin", "source", "feature", "config", "apikey", "setapikey"]),
  winget: writesOnly("winget", "the system's or the user's programs", ["install", "add", "upgrade", "update", "uninstall", "remove", "rm", "import", "configure", "settings", "source", "pin"]),
  scoop: writesOnly("scoop", "scoop's folder (~/scoop, on the user's PATH)", ["install", "update", "uninstall", "bucket", "reset", "cleanup", "hold", "unhold", "config", "alias", "shim"]),
  nvm: writesOnly("nvm", "nvm's folder (NVM_DIR, ~/.nvm)", ["install", "uninstall", "alias", "unalias", "install-latest-npm", "reinstall-packages"], { fix: "use a Node.js already installed, or set NVM_DIR=./.nvm on the command", rootVariable: "NVM_DIR" }),
  fnm: writesOnly("fnm", "fnm's folder (~/.local/share/fnm)", ["install", "uninstall", "default", "alias", "unalias"], { valued: new Set(["--fnm-dir", "--node-dist-mirror", "--log-level", "--arch", "--version-file-strategy"]), fix: "use a Node.js already installed, or give --fnm-dir ./.fnm", rootVariable: "FNM_DIR", rootOption: "--fnm-dir" }),
  asdf: writesOnly("asdf", "asdf's data folder (~/.asdf, whose shims are on the user's PATH)", ["install", "uninstall", "plugin", "plugin-add", "plugin-remove", "plugin-update", "global", "reshim", "update"], { fix: "use a version already installed, or set ASDF_DATA_DIR=./.asdf on the command", rootVariable: "ASDF_DATA_DIR" }),
  gh: writesOnly("gh", "gh's extensions and settings (~/.local/share/gh, ~/.config/gh): an extension, an alias or an editor there is a command gh runs later", [], { readsWith: { extension: ["list", "ls", "browse", "search", "exec", "create"], ext: ["list", "ls", "browse", "search", "exec", "create"], config: ["get", "list", "ls"], alias: ["list", "ls"], auth: ["status", "token"] }, fix: "have the user change gh's settings or install the extension" }),
  glab: writesOnly("glab", "glab's settings (~/.config/glab-cli): an alias or an editor there is a command glab runs later", [], { readsWith: { config: ["get", "list"], alias: ["list"], auth: ["status"] }, fix: "have the user change glab's settings" }),
  az: writesOnly("az", "the Azure CLI's settings and extensions (~/.azure): an extension is code az runs", ["login", "logout", "configure", "init", "upgrade"], { readsWith: { config: ["get"], extension: ["list", "list-available", "show"] }, fix: "have the user change the Azure CLI's settings or install the extension", rootVariable: "AZURE_CONFIG_DIR" }),
  aws: writesOnly("aws", "the AWS CLI's settings (~/.aws/config, ~/.aws/credentials)", [], { readsWith: { configure: ["get", "list", "list-profiles", "export-credentials"], sso: [] }, fix: "have the user change the AWS CLI's settings, or set AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE to files of the workspace on the command", rootVariable: "AWS_CONFIG_FILE" }),
  helm: writesOnly("helm", "Helm's plugins folder (HELM_PLUGINS), whose plugins helm runs", [], { readsWith: { plugin: ["list", "ls"] }, fix: "have the user install the plugin, or set HELM_PLUGINS=./.helm/plugins on the command", rootVariable: "HELM_PLUGINS" }),
  gcloud: writesOnly("gcloud", "the Google Cloud SDK's own folder or its settings (~/.config/gcloud)", [], { readsWith: { components: ["list"], config: ["list", "get", "get-value"], auth: ["list", "print-access-token", "print-identity-token"] }, fix: "have the user install the component or change the settings, or set CLOUDSDK_CONFIG to a folder of the workspace on the command", rootVariable: "CLOUDSDK_CONFIG" }),
  // Python's tool installers besides pipx and uv tool: rye's and pixi's global tools, on the user's PATH.
  rye: writesOnly("rye", "rye's home (~/.rye, whose shims and tools are on the user's PATH)", ["install", "uninstall"], { readsWith: { tools: ["list", "ls"], toolchain: ["list", "ls"], self: ["completion"] }, fix: "add the tool to the project (rye add --dev), or set RYE_HOME=./.rye on the command", rootVariable: "RYE_HOME" }),
  pixi: writesOnly("pixi", "pixi's global environments (~/.pixi, whose bin folder is on the user's PATH)", ["self-update"], { readsWith: { global: ["list", "ls", "tree", "help"] }, fix: "add the tool to the project (pixi add), or run it with pixi exec", rootVariable: "PIXI_HOME" }),
  docker: writesOnly("docker", "docker's settings (~/.docker, DOCKER_CONFIG): credentials, contexts and CLI plugins, or the daemon's plugins", ["login", "logout"], { readsWith: { context: ["ls", "list", "inspect", "show"], plugin: ["ls", "list", "inspect"] }, fix: "have the user change docker's settings", rootVariable: "DOCKER_CONFIG", rootOption: "--config" }),
};

function subcommandManager(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const spec = SUBCOMMAND_MANAGERS[name]!;
  const dry = spec.dryRun;
  if (dry !== undefined && own(args).some((w) => w.value !== undefined && (dry.includes(w.value) || (/^-[A-Za-z]{2,}$/.test(w.value) && dry.some((d) => d.length === 2 && w.value!.includes(d[1]!)))))) return undefined;
  const ops = operandsOf(args, spec.valued, spec.flags);
  const subs = subcommands(ops);
  let how: string | undefined;
  let decisive: Operand | undefined;
  const sub = spec.readsWith === undefined ? undefined : subs.find((s) => Object.hasOwn(spec.readsWith!, s.value));
  if (sub !== undefined) {
    // Alone it prints (`brew tap`, `brew services`, `gh extension`); with a word that only reads, it reads.
    const next = after(ops, sub)[0];
    if (next === undefined || spec.readsWith![sub.value]!.includes(next.value)) return undefined;
    [how, decisive] = [words(name, sub.value, next.value), next];
  } else if (spec.writes !== undefined) decisive = subs.find((s) => spec.writes!.has(s.value));
  else if (subs.length > 0 && !subs.every((s) => spec.reads!.has(s.value))) decisive = subs.find((s) => !spec.reads!.has(s.value));
  if (decisive === undefined) return undefined;
  if ((spec.rootVariable !== undefined && setLiterally(run, spec.rootVariable)) || (spec.rootOption !== undefined && redirect(args, [spec.rootOption]))) return undefined;
  return write(spec.manager ?? name, how ?? words(name, decisive.value), spec.where, spec.fix ?? SYSTEM_FIX, decisive.word);
}

/** pacman's operations by their long names (and those of the AUR helpers that share its options). */
const PACMAN_OPERATIONS: Readonly<Record<string, string>> = { "--sync": "S", "--remove": "R", "--upgrade": "U", "--database": "D", "--query": "Q", "--deptest": "T", "--files": "F", "--version": "V", "--help": "h", "--getpkgbuild": "G", "--show": "P", "--yay": "Y" };
const PACMAN_MODIFIERS: Readonly<Record<string, string>> = { "--search": "s", "--info": "i", "--list": "l", "--groups": "g", "--print": "p", "--print-format": "p", "--refresh": "y", "--sysupgrade": "u", "--clean": "c", "--downloadonly": "w" };

/** pacman, yay and paru: an operation that only reads (`-Q`, `-Ss`, `-Si`), or one that changes the system. */
function pacman(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  let op: string | undefined;
  let opWord: ShellWord | undefined;
  let modifiers = "";
  const ws = own(args);
  for (const w of ws) {
    const v = w.value;
    if (v === undefined || !v.startsWith("-") || v === "-") continue;
    if (v.startsWith("--")) {
      const o = v.split("=")[0]!;
      if (Object.hasOwn(PACMAN_OPERATIONS, o) && op === undefined) [op, opWord] = [PACMAN_OPERATIONS[o], w];
      else if (Object.hasOwn(PACMAN_MODIFIERS, o)) modifiers += PACMAN_MODIFIERS[o];
      continue;
    }
    for (const c of v.slice(1)) {
      if (op === undefined && /[SRUDQTFVhGPY]/.test(c)) [op, opWord] = [c, w];
      else modifiers += c;
    }
  }
  if (op === undefined) {
    // yay and paru alone upgrade the system; given a word, they search for it and install what is picked.
    if (name === "pacman") return undefined;
    const first = ws.find((w) => w.value !== undefined && !w.value.startsWith("-"));
    return write(name, words(name, first?.value), SYSTEM_WHERE, SYSTEM_FIX, first ?? run.word);
  }
  const reads =
    "QTVhGP".includes(op) ||
    (op === "F" && !modifiers.includes("y")) ||
    (op === "S" && /[silgp]/.test(modifiers) && !/[yuwc]/.test(modifiers)) ||
    ((op === "R" || op === "U") && modifiers.includes("p"));
  return reads ? undefined : write(name, words(name, opWord!.value), SYSTEM_WHERE, SYSTEM_FIX, opWord!);
}

/** Package managers whose options say what they do: dpkg's and rpm's actions, emerge, xbps, nix-env and nix-channel. */
function optionManager(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ws = own(args);
  const has = (...o: string[]) => ws.find((w) => w.value !== undefined && o.some((x) => w.value === x || w.value!.startsWith(`${x}=`)));
  const cluster = (letters: RegExp) => ws.find((w) => w.value !== undefined && /^-[A-Za-z]+$/.test(w.value) && letters.test(w.value.slice(1)));
  let word: ShellWord | undefined;
  let where = SYSTEM_WHERE;
  let fix = SYSTEM_FIX;
  if (name === "dpkg") {
    if (has("--dry-run", "--no-act", "--simulate")) return undefined;
    word = has("--install", "--unpack", "--configure", "--remove", "--purge", "--triggers-only", "--set-selections", "--clear-selections", "--update-avail", "--merge-avail", "--clear-avail", "--forget-old-unavail", "--add-architecture", "--remove-architecture", "--record-avail") ?? cluster(/^[irPA]/);
  } else if (name === "rpm") {
    if (has("--test")) return undefined;
    word = has("--install", "--upgrade", "--freshen", "--erase", "--reinstall", "--import", "--rebuilddb", "--initdb", "--setperms", "--setugids", "--restore") ?? cluster(/^[iUFe]/);
  } else if (name === "emerge") {
    if (has("--pretend", "--search", "--searchdesc", "--info", "--help", "--version", "--list-sets") || cluster(/[psShV]/)) return undefined;
    word = ws[0] ?? run.word;
  } else if (name === "xbps-install" || name === "xbps-remove") {
    if (has("--dry-run") || cluster(/n/)) return undefined;
    word = ws[0] ?? run.word;
  } else if (name === "nix-env") {
    if (has("--dry-run")) return undefined;
    word = has("--install", "--uninstall", "--upgrade", "--set", "--set-flag", "--rollback", "--switch-generation", "--delete-generations", "--switch-profile") ?? cluster(/^[ieuG]/);
    where = "the user's Nix profile (~/.nix-profile, on the user's PATH)";
    fix = "use nix-shell or nix develop for the command, or a program the machine already has";
  } else if (name === "nix-channel") {
    word = has("--add", "--remove", "--update", "--rollback");
    where = "the user's Nix channels (~/.nix-channels)";
    fix = "name the package set on the command (nix-shell -I nixpkgs=...)";
  }
  return word === undefined ? undefined : write(name, words(name, word === run.word ? undefined : word.value), where, fix, word);
}

/** `nix profile install`: the user's profile. */
function nix(name: string, args: ShellWord[]): OutsideWrite | undefined {
  const ops = operandsOf(args, new Set(["--profile", "--option", "--extra-experimental-features", "--experimental-features"]), new Set(["--impure", "-L", "--print-build-logs", "-v", "--verbose", "--offline", "--refresh"]));
  const sub = subcommands(ops).find((s) => s.value === "profile");
  const action = sub === undefined ? undefined : after(ops, sub)[0];
  if (action === undefined || !["install", "add", "remove", "upgrade", "rollback", "wipe-history"].includes(action.value) || redirect(args, ["--profile"])) return undefined;
  return write("nix", words(name, "profile", action.value), "the user's Nix profile (~/.nix-profile, on the user's PATH)", "use nix shell or nix develop for the command, or give --profile ./.nix-profile", action.word);
}

/** pyenv, rbenv, nodenv, goenv: their root holds the versions and the shims on the user's PATH. */
const ENV_ROOTS: Readonly<Record<string, string>> = { pyenv: "PYENV_ROOT", rbenv: "RBENV_ROOT", nodenv: "NODENV_ROOT", goenv: "GOENV_ROOT" };
const ENV_WRITES = new Set(["install", "uninstall", "global", "rehash", "update", "virtualenv", "virtualenv-delete"]);

function versionManager(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, NONE, new Set(["-f", "--force", "-s", "--skip-existing", "-v", "--verbose", "-k", "--keep", "-l", "--list"]));
  const sub = subcommands(ops).find((s) => ENV_WRITES.has(s.value));
  // `pyenv global` alone prints the global version; `pyenv install -l` lists.
  if (sub === undefined || (sub.value === "global" && after(ops, sub).length === 0) || hasOption(args, ["-l", "--list"]) !== undefined) return undefined;
  if (setLiterally(run, ENV_ROOTS[name]!)) return undefined;
  return write(name, words(name, sub.value), `${name}'s root (~/.${name}, whose shims are on the user's PATH)`, `use a version already installed (${name} local writes the workspace's version file), or set ${ENV_ROOTS[name]!}=./.${name} on the command`, sub.word);
}

const MISE_WRITES = new Set(["install", "i", "use", "u", "upgrade", "up", "uninstall", "remove", "rm", "prune", "plugins", "plugin", "p", "reshim", "self-update", "settings", "link"]);

function mise(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, new Set(["-C", "--cd", "-E", "--env", "-j", "--jobs"]), new Set(["-g", "--global", "-y", "--yes", "-q", "--quiet", "-v", "--verbose", "-f", "--force", "--dry-run", "-n"]));
  const sub = subcommands(ops).find((s) => MISE_WRITES.has(s.value));
  if (sub === undefined || hasOption(args, ["--dry-run", "-n"]) !== undefined) return undefined;
  const next = after(ops, sub)[0]?.value;
  if (["plugins", "plugin", "p"].includes(sub.value) && (next === undefined || ["ls", "list", "ls-remote"].includes(next))) return undefined;
  if (sub.value === "settings" && !["set", "add", "unset"].includes(next ?? "")) return undefined;
  const global = hasOption(args, ["-g", "--global"]);
  const always = sub.value === "self-update" || sub.value === "settings" || global !== undefined;
  if (!always && setLiterally(run, "MISE_DATA_DIR")) return undefined;
  return write("mise", words(name, sub.value, global?.value), always ? "mise's own program or its user configuration (~/.config/mise)" : "mise's data folder (~/.local/share/mise, whose shims are on the user's PATH)", "use a version already installed, or set MISE_DATA_DIR=./.mise on the command", global ?? sub.word);
}

/** VS Code and the editors built on it: an extension is code the editor runs. */
function editor(name: string, args: ShellWord[]): OutsideWrite | undefined {
  const change = hasOption(args, ["--install-extension", "--uninstall-extension", "--update-extensions"]);
  if (change === undefined || redirect(args, ["--extensions-dir"])) return undefined;
  return write(name, words(name, change.value!.split("=")[0]), "the editor's extensions folder (~/.vscode/extensions and the like), whose code the editor runs", "give --extensions-dir inside the workspace, or have the user install the extension", change);
}

/** kubectl's `config` actions that only read. */
const KUBECONFIG_READS = new Set(["view", "get-contexts", "get-clusters", "get-users", "current-context"]);

/**
 * `kubectl krew install`: krew's plugins are programs on the user's PATH that kubectl runs. `kubectl
 * config set-context` (and every `config` action but those that read) changes the user's kubeconfig.
 */
function krew(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  const ops = operandsOf(args, new Set(["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server"]), new Set(["-v"]));
  const config = subcommands(ops).find((o) => o.value === "config");
  const change = config === undefined ? undefined : after(ops, config)[0];
  if (change !== undefined && !KUBECONFIG_READS.has(change.value) && !redirect(args, ["--kubeconfig"]) && !setLiterally(run, "KUBECONFIG"))
    return write("kubectl", words(name, "config", change.value), "kubectl's configuration (~/.kube/config), whose exec entries name programs kubectl runs", "have the user change the configuration, or give --kubeconfig a file of the workspace", change.word);
  const k = subcommands(ops).find((o) => o.value === "krew");
  const action = k === undefined ? undefined : after(ops, k)[0];
  if (action === undefined || !["install", "upgrade", "uninstall", "remove", "update", "index"].includes(action.value) || setLiterally(run, "KREW_ROOT")) return undefined;
  return write("krew", words(name, "krew", action.value), "krew's root (~/.krew, on the user's PATH)", "have the user install the plugin, or set KREW_ROOT=./.krew on the command", action.word);
}

const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ["npm", npm],
  ["pnpm", pnpm],
  ["yarn", yarn],
  ["yarnpkg", yarn],
  ["bun", bun],
  ["deno", deno],
  ["corepack", corepack],
  ["volta", volta],
  ["pip", pip],
  ["python", python],
  ["py", python],
  ["pypy", python],
  ["pipx", pipx],
  ["uv", uv],
  ["poetry", poetry],
  ["pipenv", pipenv],
  ["hatch", hatch],
  ["pdm", pdm],
  ["conda", conda],
  ["mamba", conda],
  ["micromamba", conda],
  ["gem", gem],
  ["bundle", bundle],
  ["bundler", bundle],
  ["cargo", cargo],
  ["cargo-binstall", cargo],
  ["rustup", rustup],
  ["rustup-init", rustup],
  ["go", go],
  ["pacman", pacman],
  ["yay", pacman],
  ["paru", pacman],
  ["dpkg", optionManager],
  ["rpm", optionManager],
  ["emerge", optionManager],
  ["xbps-install", optionManager],
  ["xbps-remove", optionManager],
  ["nix-env", optionManager],
  ["nix-channel", optionManager],
  ["nix", nix],
  ["pyenv", versionManager],
  ["rbenv", versionManager],
  ["nodenv", versionManager],
  ["goenv", versionManager],
  ["mise", mise],
  ["rtx", mise],
  ["code", editor],
  ["code-insiders", editor],
  ["codium", editor],
  ["cursor", editor],
  ["windsurf", editor],
  ["kubectl", krew],
  ...Object.keys(SUBCOMMAND_MANAGERS).map((n): [string, Handler] => [n, subcommandManager]),
]);

/** A versioned name of one of them (`pip3`, `pip3.12`, `python3.11`, `pypy3`, and golang.org/dl's `go1.22.3`): the family. */
const VERSIONED = /^(pip|python|pypy|go)\d+(?:\.\d+)*(?:(?:rc|beta)\d+|t)?$/;

/** The handler of a program by its name (as plangate reads program names), or undefined for a program that writes nothing outside without naming it. */
function handlerOf(name: string): Handler | undefined {
  const h = HANDLERS.get(name);
  if (h !== undefined || !/\dt?$/.test(name)) return h;
  const m = VERSIONED.exec(name);
  return m === null ? undefined : HANDLERS.get(m[1]!);
}

/** Is a program, by its name, one whose invocations may write outside the workspace without naming a path? A lookup, and nothing else, for any other program. */
export function mayWriteOutside(name: string): boolean {
  return handlerOf(name) !== undefined;
}

/** The write outside the workspace that an invocation of `name` (a program mayWriteOutside names) makes without naming it, if any. */
export function outsideWrite(name: string, args: ShellWord[], run: InstallRun): OutsideWrite | undefined {
  return handlerOf(name)?.(name, args, run);
}
