import type { ShellWord } from "../syntax/shell/types.js";

/**
 * Programs that run another program, and how to find it: which options take a value, how many
 * operands come before the program. An option not in the table is refused (`sudo -u root rm` must not
 * read `root` as the program), so the tables list every option of the GNU, util-linux, sudo and
 * BSD versions that matters.
 */
interface WrapperSpec {
  /** Options that take a value (`-u root`, `-uroot`, `--user=root`, `--user root`). */
  valued?: readonly string[];
  /** Options without a value. */
  flags?: readonly string[];
  /** Operands before the program (timeout's duration, chroot's folder). */
  operands?: number;
  /** `NAME=value` words before the program are environment settings (env). */
  assignments?: boolean;
  /** Options whose value is a shell command line run with `sh -c`. */
  script?: readonly string[];
  /** With no program after the options, this runs (xargs runs echo; sudo -s a shell). */
  fallback?: string;
  /** Options that make the wrapper run nothing (command -v only looks the program up). */
  nothing?: readonly string[];
  /** Flags after which the words that follow are a command line for a shell (`pnpm exec -c`). */
  shellMode?: readonly string[];
  /** Options whose value is a Python module the runner runs with its Python (`uv run -m pytest`). */
  module?: readonly string[];
  /** The program is named by its package, perhaps with a version (`rimraf@5`, `ruff==0.4`): the version is dropped. */
  packages?: boolean;
  /** The words after the options are a command line for a shell (`yarn exec`, `hatch run`). */
  scriptWords?: boolean;
  /** The program is also given words the wrapper reads from its input (xargs). */
  input?: boolean;
  /** A short option's value may follow an `=` (npm's option parser reads `-c=cmd` as `-c cmd`). */
  shortEquals?: boolean;
}

/**
 * Package and environment runners: programs that run another program through a subcommand (`uv run`,
 * `npm exec`, `bundle exec`) or by their nature (`npx`, `uvx`; the subcommand ""). `global`: the
 * program's own options before the subcommand. An option in neither table is refused where it could
 * stand before a runner's subcommand, so `npm --foo exec rm` cannot hide its program.
 */
interface RunnerSpec {
  global?: { valued?: readonly string[]; flags?: readonly string[] };
  subs: Readonly<Record<string, WrapperSpec>>;
}

const NPX: WrapperSpec = {
  valued: ["-p", "--package", "-w", "--workspace"],
  flags: ["-y", "--yes", "--no", "-q", "--quiet", "--no-install", "--ignore-existing", "--prefer-offline", "--prefer-online", "--offline", "-ws", "--workspaces", "--include-workspace-root"],
  script: ["-c", "--call"],
  packages: true,
  shortEquals: true,
};
const PNPM_DLX: WrapperSpec = { valued: ["--package"], flags: ["-s", "--silent"], shellMode: ["-c", "--shell-mode"], packages: true };
const UV_COMMON = ["--python", "-p", "--index", "--default-index", "--index-url", "--extra-index-url", "--find-links", "-f", "--directory", "--project", "--cache-dir", "--config-file", "--with", "--with-editable", "--with-requirements", "--color"];
const UV_FLAGS = ["-q", "--quiet", "-v", "--verbose", "--offline", "--no-cache", "-n", "--refresh", "--isolated", "--no-config", "--native-tls", "--no-progress", "--managed-python", "--no-managed-python", "--no-python-downloads", "--preview"];
const UVX: WrapperSpec = { valued: [...UV_COMMON, "--from"], flags: UV_FLAGS, packages: true };
const CONDA_RUN: WrapperSpec = { valued: ["-n", "--name", "-p", "--prefix", "--cwd"], flags: ["--no-capture-output", "--live-stream", "-v", "--verbose", "--debug-wrapper-scripts"] };
const POETRY_OPTIONS = { valued: ["-C", "--directory", "-P", "--project"], flags: ["-q", "--quiet", "-v", "-vv", "-vvv", "--verbose", "-n", "--no-interaction", "--no-ansi", "--ansi", "--no-plugins", "--no-cache"] };
const EXEC_ONLY: WrapperSpec = {};

const RUNNERS: Readonly<Record<string, RunnerSpec>> = {
  npx: { subs: { "": NPX } },
  pnpx: { subs: { "": PNPM_DLX } },
  bunx: { subs: { "": { valued: ["-p", "--package"], flags: ["--bun", "-b", "--silent", "--verbose"], packages: true } } },
  uvx: { subs: { "": UVX } },
  npm: {
    global: { valued: ["--prefix", "-w", "--workspace"], flags: ["-q", "--quiet", "-s", "--silent", "-ws", "--workspaces", "-y", "--yes", "--include-workspace-root", "--offline"] },
    subs: { exec: NPX, x: NPX },
  },
  pnpm: {
    global: { valued: ["-C", "--dir", "--filter", "-F"], flags: ["-r", "--recursive", "-w", "--workspace-root", "-s", "--silent"] },
    subs: { exec: { valued: ["--resume-from", "--filter", "-F"], flags: ["-r", "--recursive", "--parallel", "--no-bail", "--report-summary", "--reverse"], shellMode: ["-c", "--shell-mode"] }, dlx: PNPM_DLX },
  },
  yarn: { global: { valued: ["--cwd"], flags: ["-s", "--silent"] }, subs: { exec: { scriptWords: true }, dlx: { valued: ["-p", "--package"], flags: ["-q", "--quiet"], packages: true } } },
  bun: { global: { valued: ["--cwd"] }, subs: { x: { valued: ["-p", "--package"], flags: ["--bun", "-b"], packages: true }, exec: { scriptWords: true } } },
  uv: {
    global: { valued: ["--directory", "--project", "--cache-dir", "--config-file", "--color"], flags: UV_FLAGS },
    subs: {
      run: {
        valued: [...UV_COMMON, "--package", "--extra", "--no-extra", "--group", "--only-group", "--no-group", "--env-file"],
        flags: [...UV_FLAGS, "--all-extras", "--no-dev", "--dev", "--only-dev", "--no-default-groups", "--all-groups", "--all-packages", "--frozen", "--locked", "--no-sync", "--no-project", "--active", "--no-active", "--no-editable", "--exact", "--inexact", "--no-env-file"],
        module: ["-m", "--module"],
      },
      "tool run": UVX,
    },
  },
  poetry: { global: POETRY_OPTIONS, subs: { run: POETRY_OPTIONS } },
  pipenv: { global: { valued: ["--python"], flags: ["-q", "--quiet", "-v", "--verbose"] }, subs: { run: { flags: ["--system"] } } },
  pdm: { global: { valued: ["-p", "--project"], flags: ["-q", "--quiet", "-v", "--verbose", "-I", "--ignore-python"] }, subs: { run: { valued: ["-p", "--project"], flags: ["-s", "--site-packages", "-r", "--recreate"], nothing: ["-l", "--list", "-j", "--json"] } } },
  hatch: { global: { valued: ["-e", "--env", "-p", "--project", "--data-dir", "--cache-dir"], flags: ["-q", "--quiet", "-v", "--verbose", "--no-interactive"] }, subs: { run: { scriptWords: true }, "env run": { valued: ["-e", "--env", "-i", "--include", "-x", "--exclude", "-f", "--filter"], flags: ["--force-continue", "--ignore-compat"], scriptWords: true } } },
  rye: { subs: { run: {} } },
  pixi: { global: { valued: ["--manifest-path"], flags: ["-q", "--quiet", "-v", "--verbose"] }, subs: { run: { valued: ["-e", "--environment", "--manifest-path"], flags: ["--frozen", "--locked"], scriptWords: true }, exec: { valued: ["-s", "--spec"], packages: true } } },
  conda: { subs: { run: CONDA_RUN } },
  pipx: { global: { flags: ["-q", "--quiet", "-v", "--verbose"] }, subs: { run: { valued: ["--spec", "--python", "--pip-args", "--index-url", "-i"], flags: ["--no-cache", "--path", "--pypackages", "--system-site-packages", "-q", "--quiet", "-v", "--verbose"], packages: true } } },
  mamba: { subs: { run: CONDA_RUN } },
  micromamba: { subs: { run: CONDA_RUN } },
  bundle: { subs: { exec: { valued: ["--gemfile"], flags: ["--keep-file-descriptors"] } } },
  bundler: { subs: { exec: { valued: ["--gemfile"], flags: ["--keep-file-descriptors"] } } },
  direnv: { subs: { exec: { operands: 1 } } },
  asdf: { subs: { exec: EXEC_ONLY } },
  rbenv: { subs: { exec: EXEC_ONLY } },
  pyenv: { subs: { exec: EXEC_ONLY } },
  nodenv: { subs: { exec: EXEC_ONLY } },
  goenv: { subs: { exec: EXEC_ONLY } },
  opam: { subs: { exec: { valued: ["--switch", "--root"], flags: ["--set-switch", "--set-root"] } } },
  stack: { subs: { exec: EXEC_ONLY } },
  cabal: { subs: { exec: EXEC_ONLY } },
  volta: { subs: { run: { valued: ["--node", "--npm", "--yarn", "--pnpm"], flags: ["--bundled-npm", "--no-yarn", "--no-pnpm", "--verbose", "--quiet"] } } },
  dotenvx: { subs: { run: { valued: ["-f", "--env-file", "-e", "--env", "--convention"], flags: ["-o", "--overload", "-q", "--quiet", "--strict"] } } },
  op: { subs: { run: { valued: ["--env-file", "--account"], flags: ["--no-masking"] } } },
  doppler: { subs: { run: { valued: ["-p", "--project", "-c", "--config", "--mount", "--token"], flags: ["--preserve-env", "--fallback-only", "--no-fallback"], script: ["--command"] } } },
  "aws-vault": { subs: { exec: { valued: ["-d", "--duration", "-t", "--mfa-token", "--region"], flags: ["-n", "--no-session", "-j", "--json", "-s", "--server"], operands: 1 } } },
  xcrun: { subs: { "": { valued: ["--sdk", "--toolchain"], flags: ["-v", "--verbose", "-n", "--no-cache", "-k", "--kill-cache", "-l", "--log", "-r", "--run"], nothing: ["-f", "--find", "--show-sdk-path", "--show-sdk-version", "--show-sdk-build-version", "--show-sdk-platform-path", "--show-sdk-platform-version", "--version", "-h", "--help"] } } },
};

const SPECS: Record<string, WrapperSpec> = {
  env: { valued: ["-u", "--unset", "-C", "--chdir"], flags: ["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"], assignments: true, script: ["-S", "--split-string"] },
  nice: { valued: ["-n", "--adjustment"] },
  nohup: {},
  timeout: { valued: ["-s", "--signal", "-k", "--kill-after"], flags: ["--preserve-status", "--foreground", "-v", "--verbose"], operands: 1 },
  stdbuf: { valued: ["-i", "--input", "-o", "--output", "-e", "--error"] },
  setsid: { flags: ["-c", "--ctty", "-f", "--fork", "-w", "--wait"] },
  time: { valued: ["-o", "--output", "-f", "--format"], flags: ["-p", "-a", "--append", "-v", "--verbose", "--portability", "-q", "--quiet"] },
  command: { flags: ["-p"], nothing: ["-v", "-V"] },
  builtin: {},
  exec: { valued: ["-a"], flags: ["-c", "-l"] },
  coproc: {},
  busybox: {},
  toybox: {},
  unbuffer: { flags: ["-p"] },
  sudo: {
    valued: ["-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir", "-h", "--host", "-p", "--prompt", "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user", "-R", "--chroot"],
    flags: ["-A", "--askpass", "-b", "--background", "-E", "--preserve-env", "-H", "--set-home", "-i", "--login", "-n", "--non-interactive", "-P", "--preserve-groups", "-S", "--stdin", "-s", "--shell", "-k", "--reset-timestamp", "-N", "--no-update"],
    nothing: ["-l", "--list", "-v", "--validate", "-V", "--version", "-K", "--remove-timestamp", "-e", "--edit"],
    fallback: "sh",
  },
  doas: { valued: ["-u", "-C"], flags: ["-n", "-s"], nothing: ["-L"], fallback: "sh" },
  xargs: {
    valued: ["-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var", "--eof", "--replace"],
    flags: ["-0", "--null", "-o", "--open-tty", "-p", "--interactive", "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit", "-e", "-i", "-l"],
    fallback: "echo",
    input: true,
  },
  flock: { valued: ["-w", "--timeout", "-E", "--conflict-exit-code"], flags: ["-s", "--shared", "-x", "-e", "--exclusive", "-n", "--nb", "--nonblock", "-u", "--unlock", "-o", "--close", "--verbose", "-F", "--no-fork"], operands: 1, script: ["-c", "--command"] },
  chroot: { valued: ["--userspec", "--groups"], flags: ["--skip-chdir"], operands: 1, fallback: "sh" },
  ionice: { valued: ["-c", "--class", "-n", "--classdata"], flags: ["-t", "--ignore"] },
  taskset: { flags: ["-a", "--all-tasks", "-c", "--cpu-list"], operands: 1 },
  strace: { valued: ["-o", "-e", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"], flags: ["-c", "-C", "-d", "-D", "-f", "-ff", "-F", "-i", "-k", "-q", "-qq", "-r", "-t", "-tt", "-ttt", "-T", "-v", "-V", "-w", "-x", "-xx", "-y", "-yy", "-z", "-Z"] },
  ltrace: { valued: ["-o", "-e", "-s", "-u", "-a", "-l", "-L", "-n", "-x"], flags: ["-b", "-c", "-C", "-d", "-D", "-f", "-i", "-r", "-S", "-t", "-tt", "-ttt", "-T", "-w"] },
  pkexec: { valued: ["--user"], flags: ["--disable-internal-agent", "--keep-cwd"], fallback: "sh" },
  unshare: {
    valued: ["-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd"],
    flags: ["-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time", "-f", "--fork", "-r", "--map-root-user", "-c", "--map-current-user", "--mount-proc", "--kill-child"],
    fallback: "sh",
  },
  nsenter: {
    valued: ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "-r", "--root", "-w", "--wd"],
    flags: ["-a", "--all", "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time", "-F", "--no-fork", "--preserve-credentials"],
    fallback: "sh",
  },
  "systemd-run": {
    valued: ["-u", "--unit", "-p", "--property", "--description", "-E", "--setenv", "-M", "--machine", "--slice", "--uid", "--gid", "--working-directory"],
    flags: ["--user", "--system", "--scope", "-t", "--pty", "-P", "--pipe", "-q", "--quiet", "-G", "--collect", "--wait", "-r", "--remain-after-exit", "--no-block", "--same-dir", "-S", "--shell"],
  },
  script: { valued: ["-t", "--timing", "-T", "--log-timing", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-m", "--logging-format", "-E", "--echo"], flags: ["-a", "--append", "-e", "--return", "-f", "--flush", "-q", "--quiet"], script: ["-c", "--command"], operands: 1, fallback: "sh" },
  chrt: { flags: ["-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-f", "--fifo", "-i", "--idle", "-o", "--other", "-r", "--rr", "-R", "--reset-on-fork", "-v", "--verbose"], nothing: ["-p", "--pid", "-m", "--max"], operands: 1 },
  setarch: { flags: ["-v", "--verbose", "-R", "--addr-no-randomize", "-F", "--fdpic-funcptrs", "-Z", "--mmap-page-zero", "-L", "--addr-compat-layout", "-X", "--read-implies-exec", "-B", "--32bit", "-I", "--short-inode", "-S", "--whole-seconds", "-T", "--sticky-timeouts", "-3", "--3gb", "--4gb", "--uname-2.6"], operands: 1, fallback: "sh" },
  faketime: { valued: ["-m", "-f"], operands: 1 },
  cgexec: { valued: ["-g"], flags: ["--sticky"] },
  // Runners whose options plangate does not list: any option is refused, the program after is checked.
  prlimit: {},
  numactl: {},
  runcon: {},
  firejail: {},
  bwrap: {},
  proot: {},
  fakeroot: {},
  eatmydata: {},
  nocache: {},
  valgrind: {},
  catchsegv: {},
  torsocks: {},
  proxychains: {},
  proxychains4: {},
  rlwrap: {},
  "xvfb-run": {},
  "dbus-run-session": {},
  "ssh-agent": {},
  "systemd-inhibit": {},
  setpriv: {},
  linux32: {},
  linux64: {},
  chpst: {},
  softlimit: {},
  sshpass: {},
  ccache: {},
  caffeinate: {},
  "dbus-launch": {},
  gosu: { operands: 1 },
  "su-exec": { operands: 1 },
  setuidgid: { operands: 1 },
  envdir: { operands: 1 },
  envuidgid: { operands: 1 },
  tini: { valued: ["-p", "-e"], flags: ["-s", "-v", "-vv", "-vvv", "-w", "-g", "-l"] },
  "dumb-init": { valued: ["-r", "--rewrite"], flags: ["-c", "--single-child", "-v", "--verbose"] },
  ifne: { flags: ["-n"] },
  chronic: { flags: ["-e", "-v"] },
  watch: { valued: ["-n", "--interval", "-q", "--equexit"], flags: ["-b", "--beep", "-c", "--color", "-C", "--no-color", "-d", "--differences", "-e", "--errexit", "-g", "--chgexit", "-p", "--precise", "-t", "--no-title", "-w", "--no-wrap", "-x", "--exec"] },
};

/**
 * GNU tools under the names Homebrew gives them beside the BSD ones on macOS (`gxargs`, `gtimeout`,
 * `gfind`): the same programs, read with the GNU tables.
 */
const GNU_PREFIXED: ReadonlyMap<string, string> = new Map(["env", "nice", "nohup", "timeout", "stdbuf", "chroot", "time", "xargs", "find"].map((n) => [`g${n}`, n]));
const unprefixed = (program: string): string => GNU_PREFIXED.get(program) ?? program;

/** Shells that take a command line with `-c` or read one from a file or standard input. */
export const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "lksh", "rbash"]);
const SHELL_VALUED = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);

/** What a wrapper makes run. */
export type Inner =
  | { kind: "none" }
  /**
   * Another program, with its arguments. `runner`: a package or environment runner runs it (`npx`,
   * `uv run`), the ordinary way to run a project's tool, which is not a second tool in a step.
   */
  | { kind: "argv"; words: ShellWord[]; runner?: true; input?: true }
  /** A command line the wrapper hands to a shell (`sh -c`, `eval`, `su -c`, `watch`, `yarn exec`). */
  | { kind: "script"; word: ShellWord | ShellWord[]; runner?: true }
  /** A shell that reads its commands from standard input or a file plangate does not see. */
  | { kind: "hidden"; why: WrapperReason }
  | { kind: "unknown"; why: WrapperReason };

/**
 * Why what a wrapper runs cannot be made out (`unknown`) or is not seen (`hidden`): a reason id and the
 * data of its placeholders. The disallowed-tool rule holds the words of each reason.
 */
export type WrapperReason =
  // unknown: the wrapper's arguments do not show the program.
  | { id: "argumentAtRunTime"; data: { source: string } }
  | { id: "optionWithoutValue"; data: { option: string } }
  | { id: "unknownOption"; data: { option: string } }
  | { id: "noCommand"; data: Record<string, never> }
  | { id: "execNotClosed"; data: { option: string } }
  | { id: "execAtRunTime"; data: Record<string, never> }
  | { id: "optionsNotFollowed"; data: { source: string } }
  // hidden: the commands come from a file, standard input or the wrapper's input.
  | { id: "sourcedScript"; data: { program: string; script: string } }
  | { id: "sourcedNothing"; data: { program: string } }
  | { id: "scriptFile"; data: { program: string; script: string } }
  | { id: "standardInput"; data: { program: string } }
  | { id: "standardInputOption"; data: { program: string } }
  | { id: "inputLines"; data: { program: string } };

/** The ids of the wrapper reasons. */
export type WrapperReasonId = WrapperReason["id"];

const NO_DATA: Record<string, never> = {};

/** Is the program one that runs another program (or a command line)? */
export function isWrapper(name: string): boolean {
  const program = unprefixed(name);
  return program in SPECS || SHELLS.has(program) || program === "source" || program === "." || program === "find" || program === "eval" || program === "trap" || program === "su" || program === "runuser" || program === "sg" || program === "parallel" || program === "sem";
}

/** The program of a runner's package (`rimraf@5`, `@scope/tool@1`, `ruff==0.4`, `black[d]`): the name alone. */
function packageProgram(w: ShellWord): ShellWord {
  const v = w.value;
  if (v === undefined) return w;
  const bare = v.replace(/^(@?[^@=<>~![]+)[@=<>~![].*$/s, "$1");
  return bare === v ? w : { ...w, value: bare };
}

const word = (value: string): ShellWord => ({ source: value, value, glob: false, start: 0, end: 0 });

/** Is the program a package or environment runner (`npx`, `uv`, `bundle`…) under some subcommand? */
/** The package managers corepack runs (`corepack pnpm@9 dlx …`). */
const COREPACK_MANAGERS = /^(?:npm|npx|pnpm|pnpx|yarn|yarnpkg)(?:@.*)?$/;

export function isRunner(name: string): boolean {
  return Object.hasOwn(RUNNERS, name) || name === "corepack" || name === "nix-shell" || name === "nix" || name === "mise" || name === "rtx";
}

/**
 * What a runner invocation runs, with the runner's name as a message shows it (`uv run`), or undefined
 * when the words are no runner's (`npm install`, `uv pip list`).
 */
export function runnerInner(name: string, args: ShellWord[]): { via: string; inner: Inner } | undefined {
  if (name === "nix-shell") return { via: name, inner: nixShellInner(args) };
  // corepack runs the package manager it is given, at the version the project pins.
  if (name === "corepack") {
    const pm = args[0]?.value;
    if (pm === undefined) return args[0] ? { via: name, inner: { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: args[0].source } } } } : undefined;
    if (pm.startsWith("-") && args.slice(1).some((w) => w.value === undefined || COREPACK_MANAGERS.test(w.value))) return { via: name, inner: { kind: "unknown", why: { id: "unknownOption", data: { option: pm } } } };
    return COREPACK_MANAGERS.test(pm) ? { via: name, inner: { kind: "argv", words: [packageProgram(args[0]!), ...args.slice(1)], runner: true } } : undefined;
  }
  if (name === "nix") return nixInner(args);
  if (name === "mise" || name === "rtx") return miseInner(name, args);
  const r = Object.hasOwn(RUNNERS, name) ? RUNNERS[name]! : undefined;
  if (!r) return undefined;
  const subs = Object.keys(r.subs).sort((a, b) => b.length - a.length);
  const starts = new Set(subs.map((k) => k.split(" ")[0]!));
  const valued = new Set(r.global?.valued ?? []);
  const flags = new Set(r.global?.flags ?? []);
  let i = 0;
  if (!Object.hasOwn(r.subs, ""))
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) return { via: name, inner: { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: args[i]!.source } } } };
      if (!v.startsWith("-") || v === "-") break;
      const { name: o, attached } = optionName(v);
      if (valued.has(o)) {
        if (attached === undefined) i++;
        continue;
      }
      if (flags.has(o)) continue;
      // An option plangate does not know: if a runner's subcommand may follow, its value may be any word.
      const later = args.slice(i + 1).some((w) => w.value === undefined || starts.has(w.value));
      return later ? { via: name, inner: { kind: "unknown", why: { id: "unknownOption", data: { option: o } } } } : undefined;
    }
  const rest = args.slice(i);
  if (name === "yarn") {
    // `yarn workspace NAME cmd…` runs `yarn cmd…` in that workspace; `yarn workspaces foreach … cmd…` in each one.
    if (rest[0]?.value === "workspace" && rest.length > 2) return runnerInner(name, rest.slice(2));
    const each = rest[0]?.value === "workspaces" && rest[1]?.value === "foreach" ? rest.slice(2).find((w) => w.value === undefined || w.value === "exec" || w.value === "dlx") : undefined;
    if (each) return { via: "yarn workspaces foreach", inner: { kind: "unknown", why: { id: "optionsNotFollowed", data: { source: each.source } } } };
  }
  const sub = subs.find((k) => k === "" || k.split(" ").every((p, n) => rest[n]?.value === p));
  if (sub === undefined) return undefined;
  const via = sub === "" ? name : `${name} ${sub}`;
  const after = rest.slice(sub === "" ? 0 : sub.split(" ").length);
  const inner = optionsThen(via, r.subs[sub]!, after);
  return { via, inner: inner.kind === "argv" || inner.kind === "script" ? { ...inner, runner: true } : inner };
}

/** `nix-shell … --run 'cmd'` (or `--command`); without one it starts a shell that reads standard input. */
function nixShellInner(args: ShellWord[]): Inner {
  const attached = args.find((w) => w.value !== undefined && /^--(?:run|command)=/.test(w.value));
  if (attached) return { kind: "script", word: { ...attached, value: attached.value!.slice(attached.value!.indexOf("=") + 1) }, runner: true };
  const i = args.findIndex((w) => w.value === "--run" || w.value === "--command");
  if (i >= 0) return args[i + 1] ? { kind: "script", word: args[i + 1]!, runner: true } : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: args[i]!.value! } } };
  if (args.some((w) => w.value === undefined)) return { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: args.find((w) => w.value === undefined)!.source } } };
  return { kind: "hidden", why: { id: "standardInput", data: { program: "nix-shell" } } };
}

/** `nix develop -c cmd …`, `nix shell pkgs -c cmd …` (`--command`); without one, a shell reading standard input. */
function nixInner(args: ShellWord[]): { via: string; inner: Inner } | undefined {
  const k = args.findIndex((w) => w.value === undefined || !w.value.startsWith("-"));
  const sub = args[k]?.value;
  if (k < 0 || (sub !== undefined && sub !== "develop" && sub !== "shell")) {
    // An option's value may stand where the subcommand would (`nix --option sandbox false develop`).
    const later = k > 0 && args.slice(k + 1).some((w) => w.value === undefined || w.value === "develop" || w.value === "shell");
    return later ? { via: "nix", inner: { kind: "unknown", why: { id: "unknownOption", data: { option: args[k - 1]!.value! } } } } : undefined;
  }
  const via = `nix ${sub ?? args[k]!.source}`;
  if (sub === undefined) return { via, inner: { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: args[k]!.source } } } };
  const attached = args.findIndex((w, n) => n > k && w.value !== undefined && w.value.startsWith("--command="));
  if (attached >= 0) {
    const w = args[attached]!;
    return { via, inner: { kind: "argv", words: [{ ...w, value: w.value!.slice("--command=".length) }, ...args.slice(attached + 1)], runner: true } };
  }
  const c = args.findIndex((w, n) => n > k && (w.value === "-c" || w.value === "--command"));
  // A `--` after -c is read as ending the options, so the program is the word after it.
  const from = args[c + 1]?.value === "--" ? c + 2 : c + 1;
  if (c >= 0) return { via, inner: args.length > from ? { kind: "argv", words: args.slice(from), runner: true } : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: args[c]!.value! } } } };
  return { via, inner: { kind: "hidden", why: { id: "standardInput", data: { program: via } } } };
}

/** `mise exec tool@version -- cmd …` (also `mise x`, `-c 'cmd'`); without a command, a shell. */
function miseInner(name: string, args: ShellWord[]): { via: string; inner: Inner } | undefined {
  const sub = args[0]?.value;
  if (sub !== "exec" && sub !== "x") {
    if (args[0] && sub === undefined) return { via: name, inner: { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: args[0].source } } } };
    // A global option before the subcommand (`mise -C dir exec`, `mise -q x`): plangate does not follow them.
    if (sub?.startsWith("-") && args.slice(1).some((w) => w.value === undefined || w.value === "exec" || w.value === "x"))
      return { via: name, inner: { kind: "unknown", why: { id: "unknownOption", data: { option: sub } } } };
    return undefined;
  }
  const via = `${name} ${sub}`;
  const rest = args.slice(1);
  const attached = rest.find((w) => w.value !== undefined && w.value.startsWith("--command="));
  if (attached) return { via, inner: { kind: "script", word: { ...attached, value: attached.value!.slice("--command=".length) }, runner: true } };
  const c = rest.findIndex((w) => w.value === "-c" || w.value === "--command" || w.value === "--");
  if (c >= 0 && rest[c]!.value !== "--") return { via, inner: rest[c + 1] ? { kind: "script", word: rest[c + 1]!, runner: true } : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: rest[c]!.value! } } } };
  if (c >= 0 && rest.length > c + 1) return { via, inner: { kind: "argv", words: rest.slice(c + 1), runner: true } };
  const late = rest.find((w) => w.value === undefined);
  if (late) return { via, inner: { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: late.source } } } };
  return { via, inner: { kind: "hidden", why: { id: "standardInput", data: { program: via } } } };
}

/**
 * May `program words…` run another program? For a pattern's words (undefined: a word that may be
 * anything): a wrapper or shell always; a runner when a word may be its subcommand.
 */
export function mayRunOthers(program: string, words: readonly (string | undefined)[]): boolean {
  if (isWrapper(program)) return true;
  if (!isRunner(program)) return false;
  const r = Object.hasOwn(RUNNERS, program) ? RUNNERS[program]! : undefined;
  if (r && Object.hasOwn(r.subs, "")) return true;
  const starts = r ? new Set(Object.keys(r.subs).map((k) => k.split(" ")[0]!)) : new Set(["develop", "shell", "exec", "x"]);
  if (program === "yarn") starts.add("workspace").add("workspaces");
  const first = words.findIndex((w) => w === undefined || !w.startsWith("-"));
  if (first < 0) return false;
  // After options whose values plangate may not know, any later word may be the subcommand.
  const candidates = first === 0 ? [words[0]] : words.slice(first);
  return candidates.some((w) => w === undefined || starts.has(w));
}

/** A long option's name and its value after `=` (`--user=root`); a short option word as is. */
export function optionName(word: string): { name: string; attached?: string } {
  if (word.startsWith("--")) {
    const eq = word.indexOf("=");
    return eq < 0 ? { name: word } : { name: word.slice(0, eq), attached: word.slice(eq + 1) };
  }
  return { name: word };
}

/** What `program args…` runs, for a program that runs others (find may run several). */
export function innersOf(name: string, args: ShellWord[]): Inner[] {
  const program = unprefixed(name);
  return program === "find" ? findExecs(args) : [innerOf(program, args)];
}

function innerOf(program: string, args: ShellWord[]): Inner {
  if (SHELLS.has(program)) return shellInner(program, args);
  if (program === "source" || program === ".")
    return { kind: "hidden", why: args[0] ? { id: "sourcedScript", data: { program, script: args[0].source } } : { id: "sourcedNothing", data: { program } } };
  if (program === "eval") return args.length === 0 ? { kind: "none" } : { kind: "script", word: args };
  if (program === "trap") return trapInner(args);
  if (program === "su" || program === "runuser") return suInner(program, args);
  if (program === "sg") return sgInner(args);
  if (program === "parallel" || program === "sem") return parallelInner(program, args);
  if (program === "watch") {
    const r = optionsThen(program, SPECS.watch!, args);
    if (r.kind !== "argv") return r;
    const exec = args.slice(0, args.length - r.words.length).some((w) => w.value === "-x" || w.value === "--exec");
    return exec ? r : r.words.length === 0 ? { kind: "none" } : { kind: "script", word: r.words };
  }
  const spec = SPECS[program];
  if (!spec) return { kind: "none" };
  return optionsThen(program, spec, args);
}

/** Skips a wrapper's options (and operands, and env's assignments); the rest is the program it runs. */
function optionsThen(program: string, spec: WrapperSpec, args: ShellWord[]): Inner {
  const valued = new Set(spec.valued ?? []);
  const flags = new Set(spec.flags ?? []);
  const script = new Set(spec.script ?? []);
  const nothing = new Set(spec.nothing ?? []);
  const shellMode = new Set(spec.shellMode ?? []);
  const module = new Set(spec.module ?? []);
  let operands = spec.operands ?? 0;
  let shell = false;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: w.source } } };
    if (v === "--") {
      i++;
      break;
    }
    if (v === "-" && flags.has("-")) continue;
    // nice's old form: `nice -5 prog` is `nice -n 5 prog`.
    if (program === "nice" && /^-\d+$/.test(v)) continue;
    if (v.startsWith("-") && v !== "-") {
      if (v.startsWith("--")) {
        const { name, attached } = optionName(v);
        if (script.has(name)) return attached !== undefined ? { kind: "script", word: { ...w, value: attached } } : args[i + 1] ? { kind: "script", word: args[i + 1]! } : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: name } } };
        if (nothing.has(name)) return { kind: "none" };
        if (module.has(name)) return moduleInner(name, attached !== undefined ? { ...w, value: attached } : args[i + 1], args.slice(attached !== undefined ? i + 1 : i + 2));
        if (shellMode.has(name)) shell = true;
        else if (valued.has(name)) {
          if (attached === undefined) i++;
        } else if (!flags.has(name) && !(program === "sudo" && name === "--preserve-env")) return { kind: "unknown", why: { id: "unknownOption", data: { option: name } } };
        continue;
      }
      // A cluster of short options: -abc, -uroot, -n10.
      for (let k = 1; k < v.length; k++) {
        const o = "-" + v[k]!;
        if (script.has(o)) {
          const rest = spec.shortEquals ? v.slice(k + 1).replace(/^=/, "") : v.slice(k + 1);
          return rest ? { kind: "script", word: { ...w, value: rest } } : args[i + 1] ? { kind: "script", word: args[i + 1]! } : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: o } } };
        }
        if (nothing.has(o)) return { kind: "none" };
        if (module.has(o)) {
          const rest = v.slice(k + 1);
          return moduleInner(o, rest ? { ...w, value: rest } : args[i + 1], args.slice(rest ? i + 1 : i + 2));
        }
        if (shellMode.has(o)) {
          shell = true;
          continue;
        }
        if (valued.has(o)) {
          if (k === v.length - 1) i++;
          break;
        }
        if (!flags.has(o) && !(program === "xargs" && /^-[eil]$/.test(o) && k === 1)) return { kind: "unknown", why: { id: "unknownOption", data: { option: o } } };
        if (program === "xargs" && /^-[eil]$/.test(o)) break; // -e, -i, -l take only an attached value
      }
      continue;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) continue;
    if (operands > 0) {
      operands--;
      continue;
    }
    break;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return spec.fallback ? { kind: "argv", words: [word(spec.fallback)] } : { kind: "none" };
  if (shell || spec.scriptWords) return { kind: "script", word: rest };
  const words = spec.packages ? [packageProgram(rest[0]!), ...rest.slice(1)] : rest;
  return spec.input ? { kind: "argv", words, input: true } : { kind: "argv", words };
}

/** `uv run -m pytest -x`: the runner's Python runs the module (`python -m pytest -x`). */
function moduleInner(option: string, value: ShellWord | undefined, rest: ShellWord[]): Inner {
  if (!value) return { kind: "unknown", why: { id: "optionWithoutValue", data: { option } } };
  return { kind: "argv", words: [word("python"), word("-m"), value, ...rest] };
}

function shellInner(program: string, args: ShellWord[]): Inner {
  let command = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: args[i]!.source } } };
    if (v === "--" || v === "-") {
      if (command) return args[i + 1] ? { kind: "script", word: args[i + 1]! } : { kind: "unknown", why: { id: "noCommand", data: NO_DATA } };
      return args[i + 1] ? { kind: "hidden", why: { id: "scriptFile", data: { program, script: args[i + 1]!.source } } } : { kind: "hidden", why: { id: "standardInput", data: { program } } };
    }
    if (/^[-+]/.test(v) && v.length > 1) {
      if (SHELL_VALUED.has(v)) {
        i++;
        continue;
      }
      if (v.startsWith("--")) continue;
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(v)) command = true;
      else if (/^-[A-Za-z]*s[A-Za-z]*$/.test(v)) return { kind: "hidden", why: { id: "standardInputOption", data: { program } } };
      continue;
    }
    if (command) return { kind: "script", word: args[i]! };
    return { kind: "hidden", why: { id: "scriptFile", data: { program, script: args[i]!.source } } };
  }
  if (command) return { kind: "unknown", why: { id: "noCommand", data: NO_DATA } };
  return { kind: "hidden", why: { id: "standardInput", data: { program } } };
}

function trapInner(args: ShellWord[]): Inner {
  const ops = args.filter((w) => !(w.value === "-p" || w.value === "-l" || w.value === "--"));
  if (ops.length < 2 || ops[0]!.value === "-" || ops[0]!.value === "") return { kind: "none" };
  return { kind: "script", word: ops[0]! };
}

/** Every program find runs (each -exec, -execdir, -ok, -okdir). */
function findExecs(args: ShellWord[]): Inner[] {
  const out: Inner[] = [];
  let rest = args;
  for (;;) {
    const i = rest.findIndex((w) => /^-(exec|execdir|ok|okdir)$/.test(w.value ?? ""));
    if (i < 0) break;
    const end = rest.findIndex((w, k) => k > i && (w.value === ";" || w.value === "+"));
    const words = rest.slice(i + 1, end < 0 ? undefined : end);
    if (end < 0 || words.length === 0) {
      out.push({ kind: "unknown", why: { id: "execNotClosed", data: { option: rest[i]!.value! } } });
      break;
    }
    out.push({ kind: "argv", words });
    rest = rest.slice(end + 1);
  }
  if (args.some((w) => w.value === undefined && /exec|ok/.test(w.source))) out.push({ kind: "unknown", why: { id: "execAtRunTime", data: NO_DATA } });
  return out;
}

function suInner(program: string, args: ShellWord[]): Inner {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: args[i]!.source } } };
    if (v === "-c" || v === "--command") return args[i + 1] ? { kind: "script", word: args[i + 1]! } : { kind: "unknown", why: { id: "noCommand", data: NO_DATA } };
    if (v.startsWith("--command=")) return { kind: "script", word: { ...args[i]!, value: v.slice(10) } };
    if (/^-c./.test(v)) return { kind: "script", word: { ...args[i]!, value: v.slice(2) } };
  }
  return { kind: "argv", words: [word("sh")] };
}

/** `sg group -c 'cmd'` or `sg group cmd args`: the command is a line for /bin/sh. */
function sgInner(args: ShellWord[]): Inner {
  const rest = args.slice(args[0]?.value === "-" ? 1 : 0);
  if (rest.length < 2) return { kind: "argv", words: [word("sh")] };
  const after = rest.slice(1);
  if (after[0]?.value === "-c") return after[1] ? { kind: "script", word: after[1] } : { kind: "unknown", why: { id: "noCommand", data: NO_DATA } };
  return { kind: "script", word: after };
}

/**
 * GNU parallel (and sem) run the words before `:::` as a shell command line, once per input. Options
 * are not followed: any is refused. With no command, parallel runs lines from its input.
 */
function parallelInner(program: string, args: ShellWord[]): Inner {
  const end = args.findIndex((w) => w.value !== undefined && /^:::[:+]*$/.test(w.value));
  const command = end < 0 ? args : args.slice(0, end);
  const option = command.find((w) => w.value === undefined || w.value.startsWith("-"));
  if (option) return { kind: "unknown", why: { id: option.value === undefined ? "argumentAtRunTime" : "optionsNotFollowed", data: { source: option.source } } };
  if (command.length === 0) return { kind: "hidden", why: { id: "inputLines", data: { program } } };
  return { kind: "script", word: command };
}
