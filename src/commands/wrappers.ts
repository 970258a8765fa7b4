import type { ShellWord } from "../syntax/shell/types.js";
import { capshInner, crossEnvInner, elsewhereInner, expectInner, hyperfineInners, ipInner, machinectlInner, nodemonInners, OTHER_SHELLS, otherShellInner, perfInner, runsElsewhere, screenInner, sshInner, tmuxInners, watchexecInners } from "./launchers.js";

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
  /**
   * Words before the program that are environment settings: `identifier`, a `NAME=value` word (bash's
   * `time` and `coproc`); `any`, any word holding `=` (env: `env ./x=1 rm` sets `./x`), after `--` too;
   * `sudo`, any word holding `=` that does not start with `/`, among the options and not after `--`.
   */
  assignments?: "identifier" | "any" | "sudo";
  /** Options whose value is split into arguments that take its place (`env -S 'A=1 prog'`, GNU env's rules). */
  splits?: readonly string[];
  /**
   * With a shellMode option, the words are one command line as sudo builds it for the shell: each
   * character but a letter, a digit, `_`, `-` and `$` escaped with a backslash (`$IFS` still expands).
   */
  shellEscape?: boolean;
  /**
   * Options whose value is a unit property (`systemd-run -p Key=value`): only the properties that bound
   * resources or time, or describe the unit, are accepted; one that runs a program, sets the
   * environment or a folder (`ExecStartPre=`, `Environment=`, `RootDirectory=`) is refused.
   */
  properties?: readonly string[];
  /**
   * A flag may take the next word as its value when it is `true` or `false` (npm's and pnpm's option
   * parser, nopt: `npx --yes true -c 'rm x'` runs `rm x`).
   */
  boolValues?: boolean;
  /** Options that run the program in package folders the runner's configuration names (see RunsIn.elsewhere). */
  elsewhere?: readonly string[];
  /** Options that take a value only when it is joined to them (`-rDIR`, `--root=DIR`); alone they take none. */
  optional?: readonly string[];
  /** Of those, the ones that alone run the program in a folder plangate does not know (`nsenter -w`: the target's). */
  unknownFolder?: readonly string[];
  /** Options that make the program run in another folder (`sudo -i`: the target user's home), and which. */
  movesTo?: Readonly<Record<string, string>>;
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
  /**
   * Options naming a file of environment settings the program gets (`uv run --env-file`, `dotenvx run -f`):
   * refused, since plangate does not read the file and a PATH or LD_PRELOAD there changes what runs.
   */
  envFiles?: readonly string[];
  /** Options whose value is one `NAME=value` setting for the program (`dotenvx run -e`): checked as `env NAME=value` is. */
  envSettings?: readonly string[];
  /**
   * The files, in the folder the program runs in or one above it, whose environment the runner loads
   * before the program (`direnv exec`: .envrc, bash code; `asdf exec`: .tool-versions, whose `path:`
   * versions name a folder of programs). Any such run is refused: plangate does not read the files, and
   * a PATH they set, or code they run, changes what the program's name runs. A plan can write them in
   * an earlier step, or find them there.
   */
  loads?: string;
  /**
   * The first operand is the folder the program runs in as its root (chroot NEWROOT): its relative paths
   * are read from that folder (an absolute one stays outside the workspace), unless `keepsFolder` is given.
   * `options`: the new root is the value of one of these options instead (`unshare -R NEWROOT`).
   * `refusedWith`: options that move the program to a folder inside the new root (`unshare -w`, `sudo -D`,
   * `sudo -i`): plangate does not join the two, so they are refused with one.
   */
  newRoot?: { keepsFolder: string; options?: readonly string[]; refusedWith?: readonly string[] };
}

/**
 * Package and environment runners: programs that run another program through a subcommand (`uv run`,
 * `npm exec`, `bundle exec`) or by their nature (`npx`, `uvx`; the subcommand ""). `global`: the
 * program's own options before the subcommand. An option in neither table is refused where it could
 * stand before a runner's subcommand, so `npm --foo exec rm` cannot hide its program.
 */
interface RunnerSpec {
  global?: { valued?: readonly string[]; flags?: readonly string[]; boolValues?: boolean; elsewhere?: readonly string[] };
  subs: Readonly<Record<string, WrapperSpec>>;
}

const NPX: WrapperSpec = {
  valued: ["-p", "--package", "-w", "--workspace"],
  flags: ["-y", "--yes", "--no", "-q", "--quiet", "--no-install", "--ignore-existing", "--prefer-offline", "--prefer-online", "--offline", "-ws", "--workspaces", "--include-workspace-root"],
  script: ["-c", "--call"],
  packages: true,
  shortEquals: true,
  boolValues: true,
  elsewhere: ["-w", "--workspace", "-ws", "--workspaces"],
};
const PNPM_DLX: WrapperSpec = { valued: ["--package"], flags: ["-s", "--silent"], shellMode: ["-c", "--shell-mode"], packages: true, boolValues: true };
const UV_COMMON = ["--python", "-p", "--index", "--default-index", "--index-url", "--extra-index-url", "--find-links", "-f", "--directory", "--project", "--cache-dir", "--config-file", "--with", "--with-editable", "--with-requirements", "--color"];
const UV_FLAGS = ["-q", "--quiet", "-v", "--verbose", "--offline", "--no-cache", "-n", "--refresh", "--isolated", "--no-config", "--native-tls", "--no-progress", "--managed-python", "--no-managed-python", "--no-python-downloads", "--preview"];
const UVX: WrapperSpec = { valued: [...UV_COMMON, "--from"], flags: UV_FLAGS, packages: true };
const CONDA_RUN: WrapperSpec = { valued: ["-n", "--name", "-p", "--prefix", "--cwd"], flags: ["--no-capture-output", "--live-stream", "-v", "--verbose", "--debug-wrapper-scripts"] };
const POETRY_OPTIONS = { valued: ["-C", "--directory", "-P", "--project"], flags: ["-q", "--quiet", "-v", "-vv", "-vvv", "--verbose", "-n", "--no-interaction", "--no-ansi", "--ansi", "--no-plugins", "--no-cache"] };
const EXEC_ONLY: WrapperSpec = {};
/** fnm's global options, which clap also reads after the subcommand. */
const FNM_VALUED = ["--node-dist-mirror", "--fnm-dir", "--multishell-path", "--log-level", "--arch", "--version-file-strategy"];
/** What the environment loaders read before the program (see WrapperSpec.loads). */
const DIRENV_FILES = ".envrc (or .env) in the folder it is given or one above it";
const ASDF_FILES = ".tool-versions in the folder or one above it";
const MISE_FILES = "mise.toml, .mise.toml, .tool-versions and the like in the folder or one above it";
/** toolbox's global options (cobra reads them after the subcommand too). */
const TOOLBOX_GLOBAL = { valued: ["--log-level"], flags: ["-y", "--assumeyes", "--log-podman", "-v", "--verbose"] };

const RUNNERS: Readonly<Record<string, RunnerSpec>> = {
  npx: { subs: { "": NPX } },
  pnpx: { subs: { "": PNPM_DLX } },
  bunx: { subs: { "": { valued: ["-p", "--package"], flags: ["--bun", "-b", "--silent", "--verbose"], packages: true } } },
  uvx: { subs: { "": UVX } },
  npm: {
    global: { valued: ["--prefix", "-w", "--workspace"], flags: ["-q", "--quiet", "-s", "--silent", "-ws", "--workspaces", "-y", "--yes", "--include-workspace-root", "--offline"], boolValues: true, elsewhere: ["-w", "--workspace", "-ws", "--workspaces"] },
    subs: { exec: NPX, x: NPX },
  },
  pnpm: {
    global: { valued: ["-C", "--dir", "--filter", "-F"], flags: ["-r", "--recursive", "-w", "--workspace-root", "-s", "--silent"], boolValues: true, elsewhere: ["--filter", "-F", "-r", "--recursive", "-w", "--workspace-root"] },
    subs: {
      exec: { valued: ["--resume-from", "--filter", "-F"], flags: ["-r", "--recursive", "--parallel", "--no-bail", "--report-summary", "--reverse"], shellMode: ["-c", "--shell-mode"], boolValues: true, elsewhere: ["--filter", "-F", "-r", "--recursive", "--resume-from"] },
      dlx: PNPM_DLX,
    },
  },
  yarn: { global: { valued: ["--cwd"], flags: ["-s", "--silent"] }, subs: { exec: { scriptWords: true }, dlx: { valued: ["-p", "--package"], flags: ["-q", "--quiet"], packages: true } } },
  bun: { global: { valued: ["--cwd"] }, subs: { x: { valued: ["-p", "--package"], flags: ["--bun", "-b"], packages: true }, exec: { scriptWords: true } } },
  uv: {
    global: { valued: ["--directory", "--project", "--cache-dir", "--config-file", "--color"], flags: UV_FLAGS },
    subs: {
      run: {
        valued: [...UV_COMMON, "--package", "--extra", "--no-extra", "--group", "--only-group", "--no-group"],
        envFiles: ["--env-file"],
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
  // pixi run's first word may name a task of pixi.toml, which runs instead of a program by that name: reading
  // `pixi run X` already trusts pixi.toml, as `npm run` trusts package.json and devbox run devbox.json. Its
  // [activation] scripts and env, which run before the program, are of that manifest, the project's build.
  pixi: { global: { valued: ["--manifest-path"], flags: ["-q", "--quiet", "-v", "--verbose"] }, subs: { run: { valued: ["-e", "--environment", "--manifest-path"], flags: ["--frozen", "--locked"], scriptWords: true }, exec: { valued: ["-s", "--spec"], packages: true } } },
  conda: { subs: { run: CONDA_RUN } },
  pipx: { global: { flags: ["-q", "--quiet", "-v", "--verbose"] }, subs: { run: { valued: ["--spec", "--python", "--pip-args", "--index-url", "-i"], flags: ["--no-cache", "--path", "--pypackages", "--system-site-packages", "-q", "--quiet", "-v", "--verbose"], packages: true } } },
  mamba: { subs: { run: CONDA_RUN } },
  micromamba: { subs: { run: CONDA_RUN } },
  // --gemfile names a Gemfile (Ruby code bundler runs) by path: one in the workspace is trusted as the
  // project's Gemfile is (the path is checked), one named by BUNDLE_GEMFILE, which is no path, is refused.
  bundle: { subs: { exec: { valued: ["--gemfile"], flags: ["--keep-file-descriptors"] } } },
  bundler: { subs: { exec: { valued: ["--gemfile"], flags: ["--keep-file-descriptors"] } } },
  // Environment loaders whose files their own tools do not trust as the project's build (direnv allow,
  // mise trust; a .tool-versions `path:` redirects a name), unlike a build manifest that defines the
  // project's tasks and environment together (flake.nix, shell.nix, pixi.toml, devbox.json), which plangate
  // reads as it reads a Makefile.
  // direnv exec DIR cmd loads the first .envrc (or .env) from DIR upward: bash code, which may set PATH (PATH_add, layout).
  direnv: { subs: { exec: { loads: DIRENV_FILES } } },
  // asdf exec and asdf env read .tool-versions, where `path:DIR` makes a tool's programs those of DIR.
  asdf: { subs: { exec: { loads: ASDF_FILES }, env: { loads: ASDF_FILES } } },
  rbenv: { subs: { exec: EXEC_ONLY } },
  pyenv: { subs: { exec: EXEC_ONLY } },
  nodenv: { subs: { exec: EXEC_ONLY } },
  goenv: { subs: { exec: EXEC_ONLY } },
  opam: { subs: { exec: { valued: ["--switch", "--root"], flags: ["--set-switch", "--set-root"] } } },
  stack: { subs: { exec: EXEC_ONLY } },
  cabal: { subs: { exec: EXEC_ONLY } },
  volta: { subs: { run: { valued: ["--node", "--npm", "--yarn", "--pnpm"], flags: ["--bundled-npm", "--no-yarn", "--no-pnpm", "--verbose", "--quiet"] } } },
  // dotenvx run reads .env by default (a protected name: a plan cannot write it); -f names other files.
  dotenvx: { subs: { run: { valued: ["--convention"], flags: ["-o", "--overload", "-q", "--quiet", "--strict"], envFiles: ["-f", "--env-file"], envSettings: ["-e", "--env"] } } },
  op: { subs: { run: { valued: ["--account"], flags: ["--no-masking"], envFiles: ["--env-file"] } } },
  doppler: { subs: { run: { valued: ["-p", "--project", "-c", "--config", "--mount", "--token"], flags: ["--preserve-env", "--fallback-only", "--no-fallback"], script: ["--command"] } } },
  "aws-vault": { subs: { exec: { valued: ["-d", "--duration", "-t", "--mfa-token", "--region"], flags: ["-n", "--no-session", "-j", "--json", "-s", "--server"], operands: 1 } } },
  // fnm exec [--using VERSION] [--] cmd...: clap, whose trailing arguments start at the first word that is no option.
  fnm: { global: { valued: FNM_VALUED, flags: ["--corepack-enabled"] }, subs: { exec: { valued: ["--using", ...FNM_VALUED], flags: ["--using-file", "--corepack-enabled"], nothing: ["-h", "--help"] } } },
  // toolbox run [-c NAME] cmd...: cobra with interspersed options off, so the options end at the program.
  toolbox: { global: TOOLBOX_GLOBAL, subs: { run: { valued: ["-c", "--container", "-d", "--distro", "--preserve-fds", "-r", "--release", ...TOOLBOX_GLOBAL.valued], flags: TOOLBOX_GLOBAL.flags, nothing: ["-h", "--help"] } } },
  xcrun: { subs: { "": { valued: ["--sdk", "--toolchain"], flags: ["-v", "--verbose", "-n", "--no-cache", "-k", "--kill-cache", "-l", "--log", "-r", "--run"], nothing: ["-f", "--find", "--show-sdk-path", "--show-sdk-version", "--show-sdk-build-version", "--show-sdk-platform-path", "--show-sdk-platform-version", "--version", "-h", "--help"] } } },
};

const SPECS: Record<string, WrapperSpec> = {
  env: { valued: ["-u", "--unset", "-C", "--chdir"], flags: ["-i", "--ignore-environment", "-0", "--null", "-v", "--debug", "-"], assignments: "any", splits: ["-S", "--split-string"] },
  nice: { valued: ["-n", "--adjustment"] },
  nohup: {},
  timeout: { valued: ["-s", "--signal", "-k", "--kill-after"], flags: ["--preserve-status", "--foreground", "-v", "--verbose"], operands: 1 },
  stdbuf: { valued: ["-i", "--input", "-o", "--output", "-e", "--error"] },
  setsid: { flags: ["-c", "--ctty", "-f", "--fork", "-w", "--wait"] },
  time: { valued: ["-o", "--output", "-f", "--format"], flags: ["-p", "-a", "--append", "-v", "--verbose", "--portability", "-q", "--quiet"], assignments: "identifier" },
  command: { flags: ["-p"], nothing: ["-v", "-V"] },
  builtin: {},
  exec: { valued: ["-a"], flags: ["-c", "-l"] },
  coproc: { assignments: "identifier" },
  busybox: {},
  toybox: {},
  unbuffer: { flags: ["-p"] },
  sudo: {
    valued: ["-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir", "-h", "--host", "-p", "--prompt", "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user", "-R", "--chroot"],
    flags: ["-A", "--askpass", "-b", "--background", "-E", "--preserve-env", "-H", "--set-home", "-n", "--non-interactive", "-P", "--preserve-groups", "-S", "--stdin", "-k", "--reset-timestamp", "-N", "--no-update"],
    nothing: ["-l", "--list", "-v", "--validate", "-V", "--version", "-K", "--remove-timestamp", "-e", "--edit"],
    // -s and -i hand the command to the shell as one line; -i runs it in the target user's home.
    shellMode: ["-s", "--shell", "-i", "--login"],
    shellEscape: true,
    movesTo: { "-i": "~", "--login": "~", "-D": "", "--chdir": "" },
    // -R runs the program in the new root's "/" (or in the folder it was started in, inside that root: deeper down).
    newRoot: { keepsFolder: "", options: ["-R", "--chroot"], refusedWith: ["-D", "--chdir", "-i", "--login"] },
    assignments: "sudo",
    fallback: "sh",
  },
  doas: { valued: ["-u", "-C"], flags: ["-n", "-s"], nothing: ["-L"], fallback: "sh" },
  // systemd's run0 (root, in the current folder): any option is refused, as one may change the user, folder or environment.
  run0: { fallback: "sh" },
  // --eof, --replace and --max-lines take a value only after `=` (as -e, -i and -l take one only joined).
  xargs: {
    valued: ["-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"],
    optional: ["--eof", "--replace", "--max-lines"],
    flags: ["-0", "--null", "-o", "--open-tty", "-p", "--interactive", "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit", "-e", "-i", "-l"],
    fallback: "echo",
    input: true,
  },
  flock: { valued: ["-w", "--timeout", "-E", "--conflict-exit-code"], flags: ["-s", "--shared", "-x", "-e", "--exclusive", "-n", "--nb", "--nonblock", "-u", "--unlock", "-o", "--close", "--verbose", "-F", "--no-fork"], operands: 1, script: ["-c", "--command"] },
  chroot: { valued: ["--userspec", "--groups"], flags: ["--skip-chdir"], operands: 1, fallback: "sh", newRoot: { keepsFolder: "--skip-chdir" } },
  ionice: { valued: ["-c", "--class", "-n", "--classdata"], flags: ["-t", "--ignore"] },
  taskset: { flags: ["-a", "--all-tasks", "-c", "--cpu-list"], operands: 1 },
  strace: { valued: ["-o", "-e", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X"], flags: ["-c", "-C", "-d", "-D", "-f", "-ff", "-F", "-i", "-k", "-q", "-qq", "-r", "-t", "-tt", "-ttt", "-T", "-v", "-V", "-w", "-x", "-xx", "-y", "-yy", "-z", "-Z"] },
  ltrace: { valued: ["-o", "-e", "-s", "-u", "-a", "-l", "-L", "-n", "-x"], flags: ["-b", "-c", "-C", "-d", "-D", "-f", "-i", "-r", "-S", "-t", "-tt", "-ttt", "-T", "-w"] },
  // pkexec runs the program in the target user's home, unless --keep-cwd.
  pkexec: { valued: ["--user"], flags: ["--disable-internal-agent", "--keep-cwd"], fallback: "sh", movesTo: { "": "~", "--keep-cwd": "" } },
  // unshare -R runs the program in the new root's "/" (with -w, in that folder of it: refused).
  unshare: {
    newRoot: { keepsFolder: "", options: ["-R", "--root"], refusedWith: ["-w", "--wd"] },
    valued: ["-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd"],
    flags: ["-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time", "-f", "--fork", "-r", "--map-root-user", "-c", "--map-current-user", "--mount-proc", "--kill-child"],
    fallback: "sh",
  },
  // -r and -w take a folder only joined to them: alone, they name the target process's root and folder.
  nsenter: {
    valued: ["-t", "--target", "-S", "--setuid", "-G", "--setgid"],
    optional: ["-r", "--root", "-w", "--wd"],
    unknownFolder: ["-w", "--wd"],
    flags: ["-a", "--all", "-m", "--mount", "-u", "--uts", "-i", "--ipc", "-n", "--net", "-p", "--pid", "-U", "--user", "-C", "--cgroup", "-T", "--time", "-F", "--no-fork", "--preserve-credentials"],
    fallback: "sh",
  },
  // Read by systemdRunInner: a service runs in "/" (in the user's home with --user), a scope where it is started.
  "systemd-run": {
    valued: ["-u", "--unit", "--description", "-M", "--machine", "--slice", "--uid", "--gid", "--working-directory", "--nice"],
    flags: ["--user", "--system", "--scope", "-t", "--pty", "-P", "--pipe", "-q", "--quiet", "-G", "--collect", "--wait", "-r", "--remain-after-exit", "--no-block", "-d", "--same-dir", "-S", "--shell"],
    envSettings: ["-E", "--setenv"],
    properties: ["-p", "--property"],
    movesTo: { "": "/", "--user": "~", "--scope": "", "-d": "", "--same-dir": "", "--working-directory": "" },
    fallback: "sh",
  },
  // script [options] [file] [-- command...]: the words after `--`, joined with spaces, are a line for the shell;
  // -t takes a file only joined to it (`-tfile`, `--timing=file`).
  script: {
    valued: ["-T", "--log-timing", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-m", "--logging-format", "-E", "--echo", "-o", "--output-limit"],
    optional: ["-t", "--timing"],
    flags: ["-a", "--append", "-e", "--return", "-f", "--flush", "-q", "--quiet", "--force"],
    nothing: ["-V", "--version", "-h", "--help"],
    script: ["-c", "--command"],
    operands: 1,
    scriptWords: true,
    fallback: "sh",
  },
  chrt: { flags: ["-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-f", "--fifo", "-i", "--idle", "-o", "--other", "-r", "--rr", "-R", "--reset-on-fork", "-v", "--verbose"], nothing: ["-p", "--pid", "-m", "--max"], operands: 1 },
  setarch: { flags: ["-v", "--verbose", "-R", "--addr-no-randomize", "-F", "--fdpic-funcptrs", "-Z", "--mmap-page-zero", "-L", "--addr-compat-layout", "-X", "--read-implies-exec", "-B", "--32bit", "-I", "--short-inode", "-S", "--whole-seconds", "-T", "--sticky-timeouts", "-3", "--3gb", "--4gb", "--uname-2.6"], operands: 1, fallback: "sh" },
  faketime: { valued: ["-m", "-f"], operands: 1 },
  cgexec: { valued: ["-g"], flags: ["--sticky"] },
  // Runners whose options plangate does not list: any option is refused, the program after is checked.
  prlimit: {},
  numactl: {},
  runcon: {},
  firejail: {},
  // Read by bwrapInner: every option has a fixed number of values.
  bwrap: {},
  // Read by flatpakSpawnInner: the options are the words before the program, each value after an `=`.
  "flatpak-spawn": {},
  // entr -s runs its first argument with $SHELL -c; without it, entr puts the changed file's name in place of a /_ argument.
  entr: { flags: ["-a", "-c", "-d", "-n", "-p", "-r", "-x", "-z"], shellMode: ["-s"] },
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
  // lockf (BSD) and setlock (daemontools) hold a lock file while the program runs; tsp queues it in the current folder.
  lockf: { valued: ["-t"], flags: ["-k", "-n", "-s", "-w"], operands: 1 },
  setlock: { flags: ["-n", "-N", "-x", "-X"], operands: 1 },
  tsp: {},
  watch: { valued: ["-n", "--interval", "-q", "--equexit"], flags: ["-b", "--beep", "-c", "--color", "-C", "--no-color", "-d", "--differences", "-e", "--errexit", "-g", "--chgexit", "-p", "--precise", "-t", "--no-title", "-w", "--no-wrap", "-x", "--exec"] },
};

/**
 * GNU tools under the names Homebrew gives them beside the BSD ones on macOS (`gxargs`, `gtimeout`,
 * `gfind`): the same programs, read with the GNU tables.
 */
const GNU_PREFIXED: ReadonlyMap<string, string> = new Map(["env", "nice", "nohup", "timeout", "stdbuf", "chroot", "time", "xargs", "find"].map((n) => [`g${n}`, n]));
/** A program under its GNU name (`gtimeout` is `timeout`). */
export const unprefixed = (program: string): string => GNU_PREFIXED.get(program) ?? program;

/** Shells that take a command line with `-c` or read one from a file or standard input. */
export const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "lksh", "rbash"]);
const SHELL_VALUED = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);

/** What a wrapper makes run. */
export type Inner =
  /** Nothing runs; `env`: settings the wrapper would have made (`env PATH=x` alone). */
  | { kind: "none"; env?: readonly EnvSetting[] }
  /**
   * Another program, with its arguments. `runner`: a package or environment runner runs it (`npx`,
   * `uv run`), the ordinary way to run a project's tool, which is not a second tool in a step.
   * `fetched`: the program is a package the runner may fetch (`npx pkg`, `pnpm dlx`, `uvx`, `pipx run`).
   */
  | { kind: "argv"; words: ShellWord[]; runner?: true; input?: true; runsIn?: RunsIn; env?: readonly EnvSetting[]; fetched?: true }
  /**
   * A command line the wrapper hands to a shell (`sh -c`, `eval`, `su -c`, `watch`, `yarn exec`). `text`:
   * the line as the wrapper builds it from the words, when it is not their values joined by spaces
   * (`scl enable coll -- cmd arg` runs `cmd "arg"`).
   */
  | { kind: "script"; word: ShellWord | ShellWord[]; runner?: true; text?: string; runsIn?: RunsIn; env?: readonly EnvSetting[] }
  /** A shell that reads its commands from standard input or a file plangate does not see. */
  | { kind: "hidden"; why: WrapperReason; file?: ShellWord }
  | { kind: "unknown"; why: WrapperReason };

/**
 * The folder a runner runs its program in, when it is not the current one: `dir`, relative to the
 * current folder (or absolute, or under `~`); with `upward`, that folder or any above it up to the
 * workspace root (devbox runs in the folder of the nearest devbox.json).
 */
export interface RunsIn {
  dir?: string;
  upward?: true;
  /**
   * The option through which it runs in folders its configuration names, which plangate does not know
   * (`npm exec -w pkg`, `pnpm -r exec`, `yarn workspace pkg`): a relative path there names no file plangate can find.
   */
  elsewhere?: string;
}

/** A variable a wrapper sets for the program it runs (`bwrap --setenv NAME VALUE`). */
export interface EnvSetting {
  name: string;
  value: string | undefined;
}

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
  | { id: "remapsPaths"; data: { option: string } }
  | { id: "argumentsElsewhere"; data: { option: string } }
  | { id: "patternInCommandLine"; data: { source: string } }
  | { id: "environmentFile"; data: { option: string } }
  | { id: "loadsEnvironment"; data: { files: string } }
  | { id: "splitString"; data: { option: string; source: string } }
  | { id: "unitProperty"; data: { option: string } }
  | { id: "unknownFolder"; data: { option: string } }
  | { id: "projectElsewhere"; data: { option: string } }
  | { id: "argumentFile"; data: { source: string } }
  | { id: "configurationFile"; data: { option: string } }
  | { id: "namesProgram"; data: { option: string } }
  | { id: "codeAsText"; data: { option: string } }
  | { id: "commandText"; data: { command: string } }
  | { id: "typesKeys"; data: { command: string } }
  | { id: "laterSettings"; data: { command: string } }
  | { id: "formatCommand"; data: { source: string } }
  | { id: "folderUnknown"; data: { command: string } }
  | { id: "placeholder"; data: { source: string; placeholder: string } }
  | { id: "unknownSubcommand"; data: { command: string } }
  | { id: "shellLanguage"; data: { program: string } }
  | { id: "container"; data: { command: string } }
  | { id: "later"; data: { command: string } }
  | { id: "commandList"; data: { command: string } }
  | { id: "loadsEnvFile"; data: { program: string } }
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

/** Programs read by their own functions (launchers.ts), which may run several commands. */
const LAUNCHERS: Readonly<Record<string, (args: ShellWord[], program: string) => Inner[]>> = {
  tmux: tmuxInners,
  screen: (args) => [screenInner(args)],
  hyperfine: hyperfineInners,
  watchexec: watchexecInners,
  nodemon: nodemonInners,
  capsh: (args) => [capshInner(args)],
  machinectl: (args) => [machinectlInner(args)],
  ssh: (args) => [sshInner(args)],
  expect: (args) => [expectInner(args)],
  "cross-env": (args, program) => [crossEnvInner(program, args)],
  "cross-env-shell": (args, program) => [crossEnvInner(program, args)],
  ip: (args) => [ipInner(args)],
  perf: (args) => [perfInner(args)],
  // dotenv (dotenv-cli) and env-cmd load .env, .env-cmdrc or the files they are given before the program.
  dotenv: (_args, program) => [{ kind: "unknown", why: { id: "loadsEnvFile", data: { program } } }],
  "env-cmd": (_args, program) => [{ kind: "unknown", why: { id: "loadsEnvFile", data: { program } } }],
};

/** Is the program one that runs another program (or a command line)? */
export function isWrapper(name: string): boolean {
  const program = unprefixed(name);
  return program in SPECS || SHELLS.has(program) || Object.hasOwn(LAUNCHERS, program) || runsElsewhere(program) || OTHER_SHELLS.has(program) || program === "source" || program === "." || program === "find" || program === "eval" || program === "trap" || program === "su" || program === "runuser" || program === "sg" || program === "parallel" || program === "sem" || program === "at" || program === "batch";
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

/**
 * Runners read by their own functions, with the words that start a run after their options (`""`: any
 * invocation may run a program).
 */
const CUSTOM_RUNNERS: Readonly<Record<string, readonly string[]>> = {
  "nix-shell": [""],
  nix: ["develop", "shell"],
  mise: ["exec", "x"],
  rtx: ["exec", "x"],
  corepack: [],
  nvm: ["exec", "run"],
  pkgx: [""],
  devbox: ["run", "global"],
  scl: ["enable", "run"],
  distrobox: ["enter"],
  "distrobox-enter": [""],
  lerna: ["exec", "run"],
};

export function isRunner(name: string): boolean {
  return Object.hasOwn(RUNNERS, name) || Object.hasOwn(CUSTOM_RUNNERS, name);
}

/** What a runner runs, for the runners read by their own functions (one reading). */
type RunnerReading = { via: string; inner: Inner } | undefined;

const unknownAt = (w: ShellWord): Inner => ({ kind: "unknown", why: { id: "argumentAtRunTime", data: { source: w.source } } });

/**
 * What a runner invocation runs, with the runner's name as a message shows it (`uv run`), or undefined
 * when the words are no runner's (`npm install`, `uv pip list`). Where the words can be read more than
 * one way (`nvm exec NAME cmd`, where NAME may be an alias or the program), each reading is one of the
 * inners, and each is checked.
 */
export function runnerInner(name: string, args: ShellWord[]): { via: string; inners: Inner[] } | undefined {
  const one = (r: RunnerReading) => (r === undefined ? undefined : { via: r.via, inners: [r.inner] });
  if (name === "nix-shell") return { via: name, inners: [nixShellInner(args)] };
  // corepack runs the package manager it is given, at the version the project pins.
  if (name === "corepack") {
    const pm = args[0]?.value;
    if (pm === undefined) return args[0] ? { via: name, inners: [unknownAt(args[0])] } : undefined;
    if (pm.startsWith("-") && args.slice(1).some((w) => w.value === undefined || COREPACK_MANAGERS.test(w.value))) return { via: name, inners: [{ kind: "unknown", why: { id: "unknownOption", data: { option: pm } } }] };
    return COREPACK_MANAGERS.test(pm) ? { via: name, inners: [{ kind: "argv", words: [packageProgram(args[0]!), ...args.slice(1)], runner: true }] } : undefined;
  }
  if (name === "nix") return one(nixInner(args));
  if (name === "mise" || name === "rtx") return one(miseInner(name, args));
  if (name === "nvm") return nvmInner(args);
  if (name === "pkgx") return { via: name, inners: [pkgxInner(args)] };
  if (name === "devbox") return one(devboxInner(args));
  if (name === "scl") return one(sclInner(args));
  if (name === "distrobox" || name === "distrobox-enter") return distroboxInner(name, args);
  if (name === "lerna") return one(lernaInner(args));
  const r = Object.hasOwn(RUNNERS, name) ? RUNNERS[name]! : undefined;
  if (!r) return undefined;
  const subs = Object.keys(r.subs).sort((a, b) => b.length - a.length);
  const starts = new Set(subs.map((k) => k.split(" ")[0]!));
  const valued = new Set(r.global?.valued ?? []);
  const flags = new Set(r.global?.flags ?? []);
  let away: string | undefined;
  let i = 0;
  if (!Object.hasOwn(r.subs, ""))
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) return { via: name, inners: [unknownAt(args[i]!)] };
      if (!v.startsWith("-") || v === "-") break;
      const { name: o, attached } = optionName(v);
      if (r.global?.elsewhere?.includes(o)) away ??= o;
      if (valued.has(o)) {
        if (attached === undefined) i++;
        continue;
      }
      if (flags.has(o)) {
        if (r.global?.boolValues && attached === undefined && isBoolWord(args[i + 1])) i++;
        continue;
      }
      // An option plangate does not know: if a runner's subcommand may follow, its value may be any word.
      const later = args.slice(i + 1).some((w) => w.value === undefined || starts.has(w.value));
      return later ? { via: name, inners: [{ kind: "unknown", why: { id: "unknownOption", data: { option: o } } }] } : undefined;
    }
  const rest = args.slice(i);
  if (name === "yarn") {
    // `yarn workspace NAME cmd…` runs `yarn cmd…` in that workspace; `yarn workspaces foreach … cmd…` in each one.
    if (rest[0]?.value === "workspace" && rest.length > 2) {
      const r2 = runnerInner(name, rest.slice(2));
      return r2 && { ...r2, inners: r2.inners.map((n) => elsewhere(n, "yarn workspace")) };
    }
    const each = rest[0]?.value === "workspaces" && rest[1]?.value === "foreach" ? rest.slice(2).find((w) => w.value === undefined || w.value === "exec" || w.value === "dlx") : undefined;
    if (each) return { via: "yarn workspaces foreach", inners: [{ kind: "unknown", why: { id: "optionsNotFollowed", data: { source: each.source } } }] };
  }
  const sub = subs.find((k) => k === "" || k.split(" ").every((p, n) => rest[n]?.value === p));
  if (sub === undefined) return undefined;
  const via = sub === "" ? name : `${name} ${sub}`;
  const loads = r.subs[sub]!.loads;
  if (loads !== undefined) return { via, inners: [{ kind: "unknown", why: { id: "loadsEnvironment", data: { files: loads } } }] };
  const after = rest.slice(sub === "" ? 0 : sub.split(" ").length);
  const inner = elsewhere(asRunner(optionsThen(via, r.subs[sub]!, after)), away);
  if (name === "hatch" && (inner.kind === "argv" || inner.kind === "script")) {
    // hatch runs in its project's root (the folder of the nearest pyproject.toml, or one -p names from its configuration).
    const project = args.slice(0, i).find((w) => w.value !== undefined && /^(?:-p|--project)(?:=|$)|^-p./.test(w.value));
    if (project) return { via, inners: [{ kind: "unknown", why: { id: "projectElsewhere", data: { option: project.value!.startsWith("--") ? "--project" : "-p" } } }] };
    return { via, inners: [{ ...inner, runsIn: { upward: true } }] };
  }
  return { via, inners: [inner] };
}

/** What runs in package folders the runner's configuration names, through `option` (when given). */
function elsewhere(inner: Inner, option: string | undefined): Inner {
  return option !== undefined && (inner.kind === "argv" || inner.kind === "script") ? { ...inner, runsIn: { elsewhere: option } } : inner;
}

/** What a runner runs is the ordinary way to run a project's tool, not a second tool in a step. */
const asRunner = (inner: Inner): Inner => (inner.kind === "argv" || inner.kind === "script" ? { ...inner, runner: true } : inner);

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

/**
 * `mise exec tool@version -- cmd ...` (also `mise x`, `-c 'cmd'`; `rtx`, its old name): refused, whatever it
 * runs. mise loads the environment its configuration sets (mise.toml and the like, from the folder
 * upward): `[env]` with `_.path` puts folders before PATH, `_.source` runs a script, `_.file` reads
 * settings, and a tool's `path:` version makes its programs those of a folder. plangate does not read
 * them, and a plan can write them before it runs mise. (`mise run` runs the project's tasks, as
 * `npm run` runs package.json's scripts: plangate reads those as the project's own build.)
 */
function miseInner(name: string, args: ShellWord[]): { via: string; inner: Inner } | undefined {
  const sub = args[0]?.value;
  if (sub !== "exec" && sub !== "x") {
    if (args[0] && sub === undefined) return { via: name, inner: { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: args[0].source } } } };
    // A global option before the subcommand (`mise -C dir exec`, `mise -q x`): plangate does not follow them.
    if (sub?.startsWith("-") && args.slice(1).some((w) => w.value === undefined || w.value === "exec" || w.value === "x"))
      return { via: name, inner: { kind: "unknown", why: { id: "unknownOption", data: { option: sub } } } };
    return undefined;
  }
  return { via: `${name} ${sub}`, inner: { kind: "unknown", why: { id: "loadsEnvironment", data: { files: MISE_FILES } } } };
}

/**
 * A word nvm always reads as a Node version: a version number (`18`, `v18.1`) or a built-in alias
 * (`node`, `stable`, `lts/*`...). Any other word may be an alias the user defined (`nvm alias x 18`).
 */
const NVM_VERSION = /^(?:v?\d+(?:\.\d+){0,2}|node|stable|unstable|iojs|system|current|default|lts\/[\w*.-]+|iojs-v?\d+(?:\.\d+){0,2})$/;

/**
 * `nvm exec [--silent] [--lts[=NAME]] [VERSION] cmd...` runs `exec cmd...` (bash's exec builtin, after
 * `nvm use`); `nvm run [VERSION] args...` runs `node args...`. nvm takes the first word for the version when
 * it names one or an alias, which the user may define under any name: a word that is neither a version
 * nor a built-in alias is read both ways (the version, or the program), and each reading is checked.
 */
function nvmInner(args: ShellWord[]): { via: string; inners: Inner[] } | undefined {
  const sub = args[0]?.value;
  if (sub === undefined) return args[0] ? { via: "nvm", inners: [unknownAt(args[0])] } : undefined;
  if (sub !== "exec" && sub !== "run") return undefined;
  const via = `nvm ${sub}`;
  const rest = args.slice(1);
  let i = 0;
  let lts = false;
  for (; i < rest.length; i++) {
    const v = rest[i]!.value;
    if (v === undefined) return { via, inners: [unknownAt(rest[i]!)] };
    if (v === "--silent" || v === "") continue;
    if (v === "--lts" || v.startsWith("--lts=")) {
      lts = true;
      continue;
    }
    // nvm exec stops at any other long option and runs nothing.
    if (sub === "exec" && v.startsWith("--") && v !== "--") return { via, inners: [{ kind: "none" }] };
    break;
  }
  const first = rest[i]?.value;
  const clear = lts || first === undefined || NVM_VERSION.test(first);
  if (sub === "run") {
    // The program is node (iojs for an io.js version); a word that may be an alias is one of its arguments at worst.
    const program = word(!lts && first !== undefined && clear && first.startsWith("iojs") ? "iojs" : "node");
    return { via, inners: [{ kind: "argv", words: [program, ...rest.slice(lts || !clear || first === undefined ? i : i + 1)], runner: true }] };
  }
  const readings = lts ? [rest.slice(i)] : clear ? [rest.slice(i + 1)] : [rest.slice(i), rest.slice(i + 1)];
  const inners: Inner[] = [];
  for (const r of readings) {
    const inner = asRunner(optionsThen("exec", SPECS.exec!, r));
    if (inner.kind === "argv" && inners.some((n) => n.kind === "argv" && n.words[0] === inner.words[0])) continue;
    inners.push(inner);
  }
  return { via, inners };
}

/** pkgx's options that take no value (and change nothing of what runs). */
const PKGX_FLAGS = new Set(["--shebang", "--json", "--json=v1", "--json=v2", "--silent", "--quiet", "--sync"]);

/**
 * `pkgx [+pkg...] [options] cmd...` (and `pkgx +pkg -- cmd...`): the first word that is neither a `+pkg` nor an
 * option is the program, named as a package may be (`node@20` runs `node`); after `--` it is named as
 * is. `-C dir` (`--chdir`, `--cd`) moves it to a folder: in a cluster of short options (`-qC dir`) it is
 * refused, as the folder would not be read.
 */
function pkgxInner(args: ShellWord[]): Inner {
  const unknown = (option: string): Inner => ({ kind: "unknown", why: { id: "unknownOption", data: { option } } });
  let runs = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return unknownAt(w);
    if (v.startsWith("+")) continue;
    if (v === "--") {
      const rest = args.slice(i + 1);
      return runs && rest.length > 0 ? { kind: "argv", words: rest, runner: true } : { kind: "none" };
    }
    if (v.startsWith("--")) {
      if (v === "--chdir" || v === "--cd") i++;
      else if (v === "--help" || v === "--version" || v === "--query" || v === "--shellcode") runs = false;
      else if (!PKGX_FLAGS.has(v)) return unknown(v);
      continue;
    }
    if (v.startsWith("-")) {
      for (const c of v.slice(1)) {
        if (c === "C") {
          if (v.length > 2) return unknown(v);
          i++;
        } else if (c === "h" || c === "Q") runs = false;
        else if (!"qsjv!".includes(c)) return unknown(`-${c}`);
      }
      continue;
    }
    if (!runs) return { kind: "none" };
    const bare = v.replace(/^([^@^~=<>]+)[@^~=<>].*$/s, "$1");
    const program = v.includes("/") || bare === v ? w : { ...w, value: bare };
    return { kind: "argv", words: [program, ...args.slice(i + 1)], runner: true };
  }
  return { kind: "none" };
}

/** devbox run's options (and the global ones it inherits). `-e`/`--env`, `--env-file` (which may set PATH) and `--all-projects` are refused. */
const DEVBOX_VALUED = new Set(["-c", "--config", "--environment"]);
const DEVBOX_FLAGS = new Set(["--pure", "--omit-nix-env", "--recompute", "-q", "--quiet", "--debug"]);
const DEVBOX_NOTHING = new Set(["-l", "--list", "-h", "--help"]);
/** Where `devbox global run` runs: its global project, outside the workspace. */
const DEVBOX_GLOBAL_DIR = "~/.local/share/devbox/global/default";

/**
 * `devbox run [options] cmd args...` (also `devbox global run`). devbox joins the command's first word
 * and its arguments, each in double quotes (`$` and backquotes still expand in them), into a line that a
 * shell splits and evaluates (`eval $DEVBOX_RUN_CMD`), in the folder of the devbox.json it finds from
 * the current folder (or -c's) upward. A script of devbox.json by that name runs instead: it is read as
 * the program, as `pixi run`'s tasks are. devbox's options end at the first word, unless the line holds
 * a `--` or devbox's options come before `run`: then they are read anywhere before the `--`. The split
 * line is expanded as file-name patterns before it is evaluated, so a pattern in it is refused.
 */
function devboxInner(args: ShellWord[]): RunnerReading {
  let i = 0;
  let anywhere = false;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return { via: "devbox", inner: unknownAt(args[i]!) };
    if (!v.startsWith("-")) break;
    if (!["-q", "--quiet", "--debug"].includes(v)) {
      const later = args.slice(i + 1).some((w) => w.value === undefined || w.value === "run");
      return later ? { via: "devbox", inner: { kind: "unknown", why: { id: "unknownOption", data: { option: v } } } } : undefined;
    }
    anywhere = true;
  }
  const global = args[i]?.value === "global";
  if (global) i++;
  if (args[i]?.value !== "run") return args[i] && args[i]!.value === undefined ? { via: "devbox", inner: unknownAt(args[i]!) } : undefined;
  const via = global ? "devbox global run" : "devbox run";
  const rest = args.slice(i + 1);
  // devbox rewrites only `devbox run ...` without a `--`, ending its options at the first word.
  if (global || rest.some((w) => w.value === "--")) anywhere = true;
  const command: ShellWord[] = [];
  let dir: string | undefined;
  for (let k = 0; k < rest.length; k++) {
    const w = rest[k]!;
    const v = w.value;
    if (command.length > 0 && !anywhere) {
      command.push(w);
      continue;
    }
    if (v === undefined) return { via, inner: unknownAt(w) };
    if (v === "--") {
      command.push(...rest.slice(k + 1));
      break;
    }
    if (!v.startsWith("-") || v === "-") {
      command.push(w);
      continue;
    }
    const long = v.startsWith("--");
    const name = long ? optionName(v).name : v.slice(0, 2);
    const attached = long ? optionName(v).attached : v.length > 2 ? v.slice(2).replace(/^=/, "") : undefined;
    if (DEVBOX_NOTHING.has(name)) return { via, inner: { kind: "none" } };
    if (DEVBOX_VALUED.has(name)) {
      // devbox leaves a glued short value (`-cdir`) to cobra, which then reads options anywhere.
      if (!long && attached !== undefined && v[2] !== "=") anywhere = true;
      const value = attached ?? rest[++k]?.value;
      if (attached === undefined && rest[k] && rest[k]!.value === undefined) return { via, inner: unknownAt(rest[k]!) };
      if (name === "-c" || name === "--config") dir = value;
      continue;
    }
    if (DEVBOX_FLAGS.has(name) && (long || v.length === 2)) continue;
    if (name === "--env-file") return { via, inner: { kind: "unknown", why: { id: "environmentFile", data: { option: name } } } };
    return { via, inner: { kind: "unknown", why: { id: "unknownOption", data: { option: long ? name : v } } } };
  }
  if (command.length === 0) return { via, inner: { kind: "none" } };
  const runsIn: RunsIn = global ? { dir: DEVBOX_GLOBAL_DIR } : dir === undefined ? { upward: true } : { dir, upward: true };
  if (command.some((w) => w.value === undefined)) return { via, inner: { kind: "script", word: command, runner: true, runsIn } };
  const text = [command[0]!.value!, ...command.slice(1).map((w) => JSON.stringify(w.value))].join(" ").replace(/[ \t\n]+/g, " ").trim();
  const pattern = command.find((w) => /[*?[]/.test(w.value!));
  if (pattern) return { via, inner: { kind: "unknown", why: { id: "patternInCommandLine", data: { source: pattern.source } } } };
  return { via, inner: { kind: "script", word: command, text, runner: true, runsIn } };
}

/**
 * `scl enable|run COLL... 'command line'` (the last word), or `scl enable COLL... -- cmd args...`: scl runs
 * `cmd "arg"...` (each argument in double quotes, as written) with the shell; a first word holding
 * spaces is split (`scl 'enable coll' cmd`, as a #! line passes it). `-x`/`--exec` may stand anywhere;
 * `-` or a final `--` reads the command from standard input.
 */
function sclInner(args: ShellWord[]): RunnerReading {
  let words = args;
  const head = args[0]?.value;
  if (args.length >= 2 && head !== undefined && head.includes(" "))
    words = [...head.split(" ").filter((p) => p !== "").map((p) => ({ ...args[0]!, value: p })), ...args.slice(1)];
  const action = words[0]?.value;
  if (action === undefined) return words[0] ? { via: "scl", inner: unknownAt(words[0]) } : undefined;
  if (action !== "enable" && action !== "run") return undefined;
  const via = `scl ${action}`;
  let rest = words.slice(1);
  const late = rest.find((w) => w.value === undefined);
  if (late) return { via, inner: unknownAt(late) };
  const x = rest.findIndex((w) => w.value === "-x" || w.value === "--exec");
  if (x >= 0) rest = [...rest.slice(0, x), ...rest.slice(x + 1)];
  if (rest.length < 2) return { via, inner: { kind: "none" } };
  const sep = rest.findIndex((w) => w.value === "--");
  if (sep === 0) return { via, inner: { kind: "none" } };
  if (sep === rest.length - 1) return { via, inner: { kind: "hidden", why: { id: "standardInput", data: { program: via } } } };
  const command = sep < 0 ? [rest[rest.length - 1]!] : rest.slice(sep + 1);
  const text = [command[0]!.value!, ...command.slice(1).map((w) => `"${w.value!}"`)].join(" ");
  if (text === "-") return { via, inner: { kind: "hidden", why: { id: "standardInput", data: { program: via } } } };
  return { via, inner: { kind: "script", word: command, text, runner: true } };
}

/**
 * distrobox enter's options (the shell version's and the Go version's together: one a version does not
 * know makes it stop, running nothing). `-a` (flags for the container manager) and `-nw` (start in the
 * home folder) are refused.
 */
const DISTROBOX_FLAGS = new Set(["-v", "--verbose", "-T", "-H", "--no-tty", "-r", "--root", "-d", "--dry-run", "-Y", "-y", "--yes", "-c", "--clean-path"]);
const DISTROBOX_REFUSED = /^(?:-a|--additional-flags(?:=.*)?|-nw|--no-workdir)$/s;
const DISTROBOX_NOTHING = new Set(["-h", "--help", "-V", "--version"]);

/** One reading of distrobox enter's words: the command, a login shell, nothing, or a refusal. */
type DistroboxReading = ShellWord[] | "shell" | "none" | Inner;

/**
 * `distrobox enter [options] [NAME] [--|-e] cmd...` (`distrobox-enter`). The shell version reads every
 * bare word before `--` or `-e` as the container's name and the words after it as the command (without
 * one, a login shell); the Go version starts the command at the second bare word, or at the first when
 * a name is set by `--name` or by its configuration, and after `--` drops the first word as the name
 * unless one is set. Each reading is checked.
 */
function distroboxInner(name: string, args: ShellWord[]): { via: string; inners: Inner[] } | undefined {
  let rest = args;
  if (name === "distrobox") {
    const sub = args[0]?.value;
    if (sub === undefined) return args[0] ? { via: name, inners: [unknownAt(args[0])] } : undefined;
    if (sub !== "enter") {
      const later = sub.startsWith("-") && args.slice(1).some((w) => w.value === undefined || w.value === "enter");
      return later ? { via: name, inners: [{ kind: "unknown", why: { id: "unknownOption", data: { option: sub } } }] } : undefined;
    }
    rest = args.slice(1);
  }
  const via = "distrobox enter";
  const refused = (option: string): Inner => ({ kind: "unknown", why: { id: "unknownOption", data: { option } } });
  const shellVersion = (): DistroboxReading => {
    for (let i = 0; i < rest.length; i++) {
      const v = rest[i]!.value;
      if (v === undefined) return unknownAt(rest[i]!);
      if (v === "--" || v === "-e" || v === "--exec") return rest.slice(i + 1);
      if (DISTROBOX_NOTHING.has(v)) return "none";
      if (v === "-n" || v === "--name") i++;
      else if (DISTROBOX_REFUSED.test(v)) return refused(v);
      else if (v.startsWith("-") && v !== "-" && !DISTROBOX_FLAGS.has(v)) return "none";
    }
    return "shell";
  };
  const goVersion = (preset: boolean): DistroboxReading => {
    let seen = preset;
    let named = preset;
    const positional: ShellWord[] = [];
    for (let i = 0; i < rest.length; i++) {
      const v = rest[i]!.value;
      if (v === undefined) return unknownAt(rest[i]!);
      if (v === "--") {
        const all = [...positional, ...rest.slice(i + 1)];
        return named ? all : all.slice(1);
      }
      if (v === "-e" || v === "--exec") {
        if (seen) return rest.slice(i + 1);
        continue;
      }
      if (DISTROBOX_NOTHING.has(v)) return "none";
      if (v.startsWith("-") && v !== "-") {
        if (DISTROBOX_REFUSED.test(v)) return refused(v);
        if (v === "-n" || v === "--name" || v.startsWith("--name=")) {
          seen = named = true;
          if (!v.includes("=")) i++;
        } else if (!DISTROBOX_FLAGS.has(v)) return "none";
        continue;
      }
      if (seen) return rest.slice(i);
      seen = true;
      positional.push(rest[i]!);
    }
    return "shell";
  };
  const inners: Inner[] = [];
  for (const r of [shellVersion(), goVersion(false), goVersion(true)]) {
    if (!Array.isArray(r) && typeof r === "object" && r.kind === "unknown") return { via, inners: [r] };
    const inner: Inner = r === "none" ? { kind: "none" } : r === "shell" || (Array.isArray(r) && r.length === 0) ? { kind: "hidden", why: { id: "standardInput", data: { program: via } } } : { kind: "argv", words: r as ShellWord[], runner: true };
    const same = (n: Inner) => (n.kind === "argv" && inner.kind === "argv" ? n.words[0] === inner.words[0] : n.kind === inner.kind && inner.kind !== "argv");
    if (!inners.some(same)) inners.push(inner);
  }
  return { via, inners };
}

/** lerna's options (yargs: anywhere before `--`, a value in the next word unless it starts with `-`, or after `=`). */
const LERNA_VALUED = new Set(["--loglevel", "--concurrency", "--max-buffer", "--scope", "--ignore", "--since", "--profile-location", "--npm-client", "--registry"]);
const LERNA_FLAGS = new Set(
  ["reject-cycles", "progress", "sort", "ci", "private", "exclude-dependents", "include-dependents", "include-dependencies", "include-merged-tags", "continue-if-no-match", "stream", "parallel", "bail", "prefix", "profile", "skip-nx-cache", "verbose"].flatMap((f) => [`--${f}`, `--no-${f}`]),
);

/**
 * `lerna exec [options] [--] CMD [ARGS...]` runs, in each package's folder, the words of the command (those
 * that are not lerna's options, and all those after `--`) joined with spaces, with the shell. `lerna run
 * SCRIPT [-- ARGS...]` runs a package script there with `npm run` (or the client --npm-client names), as
 * `npm run` does in one package. Options plangate does not know are refused.
 */
function lernaInner(args: ShellWord[]): RunnerReading {
  const words: ShellWord[] = [];
  let client: ShellWord = word("npm");
  let sub: string | undefined;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (ended) {
      words.push(w);
      continue;
    }
    if (v === undefined) {
      if (sub === undefined) return { via: "lerna", inner: unknownAt(w) };
      words.push(w);
      continue;
    }
    if (v === "--") {
      ended = true;
      continue;
    }
    if (v.startsWith("-") && v !== "-") {
      const { name, attached } = optionName(v);
      if (LERNA_FLAGS.has(name) && attached === undefined) continue;
      if (!LERNA_VALUED.has(name)) {
        const later = sub !== undefined || args.slice(i + 1).some((a) => a.value === undefined || a.value === "exec" || a.value === "run");
        return later ? { via: sub === undefined ? "lerna" : `lerna ${sub}`, inner: { kind: "unknown", why: { id: "unknownOption", data: { option: name } } } } : undefined;
      }
      let value: ShellWord | undefined = attached !== undefined ? { ...w, value: attached } : undefined;
      if (value === undefined && args[i + 1] && !(args[i + 1]!.value ?? "x").startsWith("-")) value = args[++i];
      if (value && value.value === undefined) return { via: sub === undefined ? "lerna" : `lerna ${sub}`, inner: unknownAt(value) };
      if (name === "--npm-client" && value) client = value;
      continue;
    }
    if (sub === undefined) {
      if (v !== "exec" && v !== "run") return undefined;
      sub = v;
      continue;
    }
    words.push(w);
  }
  if (sub === undefined) return undefined;
  const via = `lerna ${sub}`;
  if (words.length === 0) return { via, inner: { kind: "none" } };
  // The script's name and arguments are the package's script's to read: only the client that runs it is checked.
  if (sub === "run") return { via, inner: { kind: "argv", words: [client, word("run")], runner: true } };
  return { via, inner: { kind: "script", word: words, runner: true, runsIn: { elsewhere: via } } };
}

/**
 * May `program words…` run another program? For a pattern's words (undefined: a word that may be
 * anything): a wrapper or shell always; a runner when a word may be its subcommand.
 */
export function mayRunOthers(program: string, words: readonly (string | undefined)[]): boolean {
  if (isWrapper(program)) return true;
  if (!isRunner(program)) return false;
  const r = Object.hasOwn(RUNNERS, program) ? RUNNERS[program]! : undefined;
  const keys = r ? Object.keys(r.subs).map((k) => k.split(" ")[0]!) : CUSTOM_RUNNERS[program]!;
  if (keys.includes("")) return true;
  const starts = new Set(keys);
  if (program === "yarn") starts.add("workspace").add("workspaces");
  const first = words.findIndex((w) => w === undefined || !w.startsWith("-"));
  if (first < 0) return false;
  // After options whose values plangate may not know, any later word may be the subcommand.
  const candidates = first === 0 ? [words[0]] : words.slice(first);
  // scl's first word may be several (`scl 'enable coll' cmd`, as a #! line passes them).
  return candidates.some((w) => w === undefined || starts.has(w) || (program === "corepack" && COREPACK_MANAGERS.test(w)) || (program === "scl" && /\s/.test(w)));
}

/** Is the word `true` or `false`, which nopt takes as a flag's value? */
function isBoolWord(w: ShellWord | undefined): boolean {
  return w?.value === "true" || w?.value === "false";
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
  const inners =
    program === "find"
      ? findExecs(args)
      : program === "su" || program === "runuser"
        ? suInners(program, args)
        : Object.hasOwn(LAUNCHERS, program)
          ? LAUNCHERS[program]!(args, program)
          : runsElsewhere(program)
            ? [elsewhereInner(program, args)]
            : OTHER_SHELLS.has(program)
              ? [otherShellInner(program, args)]
              : [innerOf(program, args)];
  return inners.flatMap(settingsRead);
}

/** A word that reads as a shell's `NAME=value` setting. */
const SETTING_WORD = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * A program word that reads as a setting (`FOO=1 rm x` behind a wrapper that takes no settings): the
 * wrapper would try to run a program named `FOO=1` and fail, unless it reads settings after all (some
 * version or clone of it). Both readings are checked: the word as the program, and the program after
 * the settings, with the settings checked as env's are.
 */
function settingsRead(inner: Inner): Inner[] {
  if (inner.kind !== "argv" || !SETTING_WORD.test(inner.words[0]?.value ?? "")) return [inner];
  let k = 0;
  const env: EnvSetting[] = [...(inner.env ?? [])];
  for (; k < inner.words.length && SETTING_WORD.test(inner.words[k]!.value ?? ""); k++) {
    const v = inner.words[k]!.value!;
    const eq = v.indexOf("=");
    env.push({ name: v.slice(0, eq), value: v.slice(eq + 1) });
  }
  if (k === inner.words.length) return [inner];
  return [inner, { ...inner, words: inner.words.slice(k), env }];
}

function innerOf(program: string, args: ShellWord[]): Inner {
  if (SHELLS.has(program)) return shellInner(program, args);
  if (program === "source" || program === ".")
    return args[0] ? { kind: "hidden", why: { id: "sourcedScript", data: { program, script: args[0].source } }, file: args[0] } : { kind: "hidden", why: { id: "sourcedNothing", data: { program } } };
  if (program === "eval") return args.length === 0 ? { kind: "none" } : { kind: "script", word: args };
  if (program === "trap") return trapInner(args);
  if (program === "sg") return sgInner(args);
  if (program === "parallel" || program === "sem") return parallelInner(program, args);
  if (program === "at" || program === "batch") return atInner(program, args);
  if (program === "bwrap") return bwrapInner(args);
  if (program === "flatpak-spawn") return flatpakSpawnInner(args);
  if (program === "watch") {
    const r = optionsThen(program, SPECS.watch!, args);
    if (r.kind !== "argv") return r;
    const exec = args.slice(0, args.length - r.words.length).some((w) => w.value === "-x" || w.value === "--exec");
    return exec ? r : r.words.length === 0 ? { kind: "none" } : { kind: "script", word: r.words };
  }
  const spec = SPECS[program];
  if (!spec) return { kind: "none" };
  const inner = optionsThen(program, spec, args);
  // entr's first /_ argument is the name of the file that changed: decided at run time.
  if (program === "entr" && inner.kind === "argv") {
    const k = inner.words.findIndex((w) => w.value === "/_");
    if (k >= 0) {
      const { value: _, ...late } = inner.words[k]!;
      return { ...inner, words: [...inner.words.slice(0, k), late, ...inner.words.slice(k + 1)] };
    }
  }
  return inner;
}

/**
 * The unit properties `systemd-run -p` may set: those that bound resources or time, or describe the
 * unit. Any other (`ExecStartPre=`, `Environment=`, `EnvironmentFile=`, `RootDirectory=`,
 * `WorkingDirectory=`, `BindPaths=`, `ExecSearchPath=`...) may run another program, change its
 * environment or the files its paths name.
 */
const SAFE_UNIT_PROPERTY = /^(?:CPU(?:Accounting|Weight|Quota|QuotaPeriodSec|SchedulingPolicy|SchedulingPriority|Affinity)|StartupCPUWeight|AllowedCPUs|AllowedMemoryNodes|Memory(?:Accounting|Min|Low|High|Max|SwapMax|ZSwapMax)|IO(?:Accounting|Weight|SchedulingClass|SchedulingPriority)|StartupIOWeight|Tasks(?:Accounting|Max)|Limit[A-Z]+|Nice|OOMScoreAdjust|OOMPolicy|Timeout(?:Sec|StartSec|StopSec|AbortSec)|RuntimeMaxSec|RuntimeRandomizedExtraSec|Restart(?:Sec)?|KillMode|KillSignal|SendSIGKILL|Type|RemainAfterExit|Description|CollectMode|Delegate|SuccessExitStatus|TimerSlackNSec|IPAccounting)$/;

/** How many times env -S strings within env -S strings are split. */
const MAX_SPLITS = 8;

/** Skips a wrapper's options (and operands, and env's assignments); the rest is the program it runs. */
function optionsThen(program: string, spec: WrapperSpec, args: ShellWord[], splits = 0): Inner {
  const valued = new Set(spec.valued ?? []);
  const flags = new Set(spec.flags ?? []);
  const script = new Set(spec.script ?? []);
  const nothing = new Set(spec.nothing ?? []);
  const shellMode = new Set(spec.shellMode ?? []);
  const module = new Set(spec.module ?? []);
  const envFiles = new Set(spec.envFiles ?? []);
  const envSettings = new Set(spec.envSettings ?? []);
  const splitting = new Set(spec.splits ?? []);
  const optional = new Set(spec.optional ?? []);
  const properties = new Set(spec.properties ?? []);
  const env: EnvSetting[] = [];
  const setting = (text: string) => {
    const eq = text.indexOf("=");
    env.push({ name: eq < 0 ? text : text.slice(0, eq), value: eq < 0 ? undefined : text.slice(eq + 1) });
  };
  const isSetting = (v: string) =>
    spec.assignments === "identifier" ? /^[A-Za-z_][A-Za-z0-9_]*=/.test(v) : spec.assignments === "any" ? v.includes("=") : spec.assignments === "sudo" ? v.includes("=") && !v.startsWith("/") : false;
  /** The option names met (a cluster's letters one by one), for movesTo. */
  const seen = new Set<string>();
  /** What runs, in package folders if an option met so far puts it there. */
  const away = (inner: Inner): Inner => elsewhere(inner, (spec.elsewhere ?? []).find((o) => seen.has(o)));
  // The words of a split string take its place, and are read as the wrapper's words (env -S '-i A=1 prog' x).
  const split = (option: string, value: ShellWord | undefined, from: number): Inner => {
    if (!value) return { kind: "unknown", why: { id: "optionWithoutValue", data: { option } } };
    if (value.value === undefined) return unknownAt(value);
    const words = splitEnvString(value.value);
    if (words === undefined || splits >= MAX_SPLITS || movesFolder(words)) return { kind: "unknown", why: { id: "splitString", data: { option, source: value.source } } };
    const { value: _text, ...bare } = value;
    const inserted = words.map((v): ShellWord => (v === undefined ? { ...bare } : { ...bare, value: v }));
    return withEnv(optionsThen(program, spec, [...inserted, ...args.slice(from)], splits + 1), env);
  };
  let operands = spec.operands ?? 0;
  let shell = false;
  let root: string | undefined;
  /** The option that named the new root. */
  let rootOption: string | undefined;
  let keepsFolder = false;
  let settings = false;
  let ended = false;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return { kind: "unknown", why: { id: "argumentAtRunTime", data: { source: w.source } } };
    if (spec.newRoot && v === spec.newRoot.keepsFolder) keepsFolder = true;
    if (v === "--") {
      i++;
      ended = true;
      break;
    }
    if (v === "-" && flags.has("-")) continue;
    // nice's old form: `nice -5 prog` is `nice -n 5 prog`.
    if (program === "nice" && /^-\d+$/.test(v)) continue;
    // After env's first setting no option follows: a word starting with `-` is the program.
    if (v.startsWith("-") && v !== "-" && !(settings && spec.assignments !== "sudo")) {
      if (v.startsWith("--")) {
        const { name, attached } = optionName(v);
        seen.add(name);
        if (script.has(name)) return away(attached !== undefined ? { kind: "script", word: { ...w, value: attached } } : args[i + 1] ? { kind: "script", word: args[i + 1]! } : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: name } } });
        if (splitting.has(name)) return split(name, attached !== undefined ? { ...w, value: attached } : args[i + 1], attached !== undefined ? i + 1 : i + 2);
        if (nothing.has(name)) return { kind: "none" };
        if (module.has(name)) return moduleInner(name, attached !== undefined ? { ...w, value: attached } : args[i + 1], args.slice(attached !== undefined ? i + 1 : i + 2));
        if (envFiles.has(name)) return { kind: "unknown", why: { id: "environmentFile", data: { option: name } } };
        if (envSettings.has(name)) {
          const value = attached ?? args[i + 1]?.value;
          if (value === undefined) return args[i + 1] ? unknownAt(args[i + 1]!) : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: name } } };
          if (attached === undefined) i++;
          setting(value);
          continue;
        }
        if (properties.has(name)) {
          const value = attached ?? args[i + 1]?.value;
          if (value === undefined) return args[i + 1] ? unknownAt(args[i + 1]!) : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: name } } };
          if (attached === undefined) i++;
          if (!SAFE_UNIT_PROPERTY.test(value.split("=")[0]!)) return { kind: "unknown", why: { id: "unitProperty", data: { option: `${name} ${value}` } } };
          continue;
        }
        if (optional.has(name)) {
          if (attached === undefined && spec.unknownFolder?.includes(name)) return { kind: "unknown", why: { id: "unknownFolder", data: { option: name } } };
          continue;
        }
        if (shellMode.has(name)) shell = true;
        else if (valued.has(name)) {
          if (attached === undefined) i++;
          if (spec.newRoot?.options?.includes(name)) [root, rootOption] = [attached ?? args[i]?.value, name];
          continue;
        } else if (!flags.has(name) && !(program === "sudo" && name === "--preserve-env")) return { kind: "unknown", why: { id: "unknownOption", data: { option: name } } };
        if (spec.boolValues && attached === undefined && isBoolWord(args[i + 1])) i++;
        continue;
      }
      // A cluster of short options: -abc, -uroot, -n10.
      let flag = false;
      for (let k = 1; k < v.length; k++) {
        const o = "-" + v[k]!;
        seen.add(o);
        flag = false;
        const glued = v.slice(k + 1);
        if (script.has(o)) {
          const rest = spec.shortEquals ? glued.replace(/^=/, "") : glued;
          return away(rest ? { kind: "script", word: { ...w, value: rest } } : args[i + 1] ? { kind: "script", word: args[i + 1]! } : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: o } } });
        }
        if (splitting.has(o)) return split(o, glued ? { ...w, value: glued } : args[i + 1], glued ? i + 1 : i + 2);
        if (nothing.has(o)) return { kind: "none" };
        if (module.has(o)) return moduleInner(o, glued ? { ...w, value: glued } : args[i + 1], args.slice(glued ? i + 1 : i + 2));
        if (shellMode.has(o)) {
          shell = true;
          flag = true;
          continue;
        }
        if (envFiles.has(o)) return { kind: "unknown", why: { id: "environmentFile", data: { option: o } } };
        if (envSettings.has(o) || properties.has(o)) {
          const value = glued || args[i + 1]?.value;
          if (value === undefined) return args[i + 1] ? unknownAt(args[i + 1]!) : { kind: "unknown", why: { id: "optionWithoutValue", data: { option: o } } };
          if (!glued) i++;
          if (envSettings.has(o)) setting(value);
          else if (!SAFE_UNIT_PROPERTY.test(value.split("=")[0]!)) return { kind: "unknown", why: { id: "unitProperty", data: { option: `${o} ${value}` } } };
          break;
        }
        if (optional.has(o)) {
          if (!glued && spec.unknownFolder?.includes(o)) return { kind: "unknown", why: { id: "unknownFolder", data: { option: o } } };
          break;
        }
        if (valued.has(o)) {
          if (!glued) i++;
          if (spec.newRoot?.options?.includes(o)) [root, rootOption] = [glued || args[i]?.value, o];
          break;
        }
        if (!flags.has(o) && !(program === "xargs" && /^-[eil]$/.test(o) && k === 1)) return { kind: "unknown", why: { id: "unknownOption", data: { option: o } } };
        if (program === "xargs" && /^-[eil]$/.test(o)) break; // -e, -i, -l take only an attached value
        flag = true;
      }
      if (flag && spec.boolValues && isBoolWord(args[i + 1])) i++;
      continue;
    }
    if (isSetting(v)) {
      setting(v);
      settings = true;
      continue;
    }
    if (operands > 0) {
      if (spec.newRoot && !spec.newRoot.options && root === undefined) root = v;
      operands--;
      continue;
    }
    break;
  }
  // A folder inside the new root (unshare -R root -w dir): not joined to the root, refused.
  if (rootOption !== undefined && spec.newRoot?.refusedWith?.some((o) => seen.has(o))) return { kind: "unknown", why: { id: "remapsPaths", data: { option: rootOption } } };
  // After `--`, env (and bash's time) still read settings before the program.
  if (ended && (spec.assignments === "any" || spec.assignments === "identifier"))
    for (; i < args.length && args[i]!.value !== undefined && isSetting(args[i]!.value!); i++) setting(args[i]!.value!);
  const rest = args.slice(i);
  // The program runs in the new root's "/": its relative paths are read from that folder.
  let runsIn: RunsIn | undefined = root !== undefined && !keepsFolder ? { dir: root } : undefined;
  // Or in a folder an option (or the program by default) moves it to; an option keeping the folder wins.
  if (spec.movesTo) {
    const moves = [...seen].filter((o) => Object.hasOwn(spec.movesTo!, o)).map((o) => spec.movesTo![o]!);
    const to = moves.includes("") ? undefined : (moves[moves.length - 1] ?? spec.movesTo[""]);
    if (to !== undefined && to !== "") runsIn = { dir: to };
  }
  const packages = (spec.elsewhere ?? []).find((o) => seen.has(o));
  if (packages !== undefined) runsIn = { elsewhere: packages };
  const also = { ...(env.length > 0 ? { env } : {}), ...(runsIn ? { runsIn } : {}) };
  if (rest.length === 0) return spec.fallback ? { kind: "argv", words: [word(spec.fallback)], ...also } : env.length > 0 ? { kind: "none", env } : { kind: "none" };
  if (shell && spec.shellEscape) {
    // sudo -s and -i: the words, escaped, are one line for the shell.
    const text = rest.every((r) => r.value !== undefined) ? rest.map((r) => r.value!.replace(/[^A-Za-z0-9_$-]/g, "\\$&")).join(" ") : undefined;
    return { kind: "script", word: rest, ...(text !== undefined ? { text } : {}), ...(runsIn ? { runsIn } : {}), ...(env.length > 0 ? { env } : {}) };
  }
  if (shell || spec.scriptWords) return { kind: "script", word: rest, ...(runsIn ? { runsIn } : {}) };
  const words = spec.packages ? [packageProgram(rest[0]!), ...rest.slice(1)] : rest;
  if (spec.input) return { kind: "argv", words, input: true };
  return { kind: "argv", words, ...also, ...(spec.packages ? { fetched: true as const } : {}) };
}

/** The inner with the settings made before it (env's, before an `-S` string whose words it was read from). */
function withEnv(inner: Inner, env: readonly EnvSetting[]): Inner {
  if (env.length === 0 || (inner.kind !== "argv" && inner.kind !== "none" && inner.kind !== "script")) return inner;
  return { ...inner, env: [...env, ...(inner.env ?? [])] };
}

/** Do the options at the start of an env -S string's words move the program to another folder (-C, --chdir)? */
function movesFolder(words: (string | undefined)[]): boolean {
  for (let k = 0; k < words.length; k++) {
    const v = words[k];
    if (v === undefined || v === "--" || !v.startsWith("-") || v === "-") return false;
    if (v.startsWith("--")) {
      const { name, attached } = optionName(v);
      if (name.length > 3 && "--chdir".startsWith(name)) return true;
      if (attached === undefined && name.length > 3 && "--unset".startsWith(name)) k++;
      continue;
    }
    for (let c = 1; c < v.length; c++) {
      if (v[c] === "C") return true;
      if (v[c] === "u" || v[c] === "S") {
        if (c === v.length - 1) k++;
        break;
      }
    }
  }
  return false;
}

/**
 * GNU env's -S string split into arguments, by its rules: white space separates them outside quotes;
 * `'...'` is literal but for `\\` and `\'`; `"..."` keeps white space; `\_` separates outside double quotes
 * and is a space inside; `\c` ends the string, as does `#` at the start of an argument; `\f \n \r \t \v`
 * are those characters and `\" \# \$ \' \\` the character; `${NAME}` is the variable's value (undefined here:
 * decided at run time). Undefined when env refuses the string (another escape, `$NAME`, an open quote).
 */
export function splitEnvString(text: string): (string | undefined)[] | undefined {
  const out: { value: string; late: boolean }[] = [];
  let sep = true;
  let sq = false;
  let dq = false;
  const current = () => {
    if (sep) out.push({ value: "", late: false });
    sep = false;
    return out[out.length - 1]!;
  };
  const ESCAPED: Readonly<Record<string, string>> = { '"': '"', "#": "#", $: "$", "'": "'", "\\": "\\", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };
  let i = 0;
  while (i < text.length) {
    let c = text[i]!;
    if (c === "'" && !dq) {
      sq = !sq;
      current();
      i++;
      continue;
    }
    if (c === '"' && !sq) {
      dq = !dq;
      current();
      i++;
      continue;
    }
    if (/^[ \t\n\v\f\r]$/.test(c) && !sq && !dq) {
      sep = true;
      while (i < text.length && /^[ \t\n\v\f\r]$/.test(text[i]!)) i++;
      continue;
    }
    if (c === "#" && sep) break;
    if (c === "\\" && !(sq && text[i + 1] !== "\\" && text[i + 1] !== "'")) {
      const e = text[++i];
      if (e === "_") {
        if (!dq) {
          sep = true;
          i++;
          continue;
        }
        c = " ";
      } else if (e === "c") {
        if (dq) return undefined;
        break;
      } else if (e !== undefined && Object.hasOwn(ESCAPED, e)) c = ESCAPED[e]!;
      else return undefined;
    } else if (c === "$" && !sq) {
      const m = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}/.exec(text.slice(i));
      if (!m) return undefined;
      // An unset variable adds nothing, not even an empty argument: its value is decided at run time either way.
      current().late = true;
      i += m[0].length;
      continue;
    }
    current().value += c;
    i++;
  }
  if (sq || dq) return undefined;
  return out.map((a) => (a.late ? undefined : a.value));
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
      return args[i + 1] ? { kind: "hidden", why: { id: "scriptFile", data: { program, script: args[i + 1]!.source } }, file: args[i + 1]! } : { kind: "hidden", why: { id: "standardInput", data: { program } } };
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
    return { kind: "hidden", why: { id: "scriptFile", data: { program, script: args[i]!.source } }, file: args[i]! };
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

/**
 * at and batch run, later, the commands they read from standard input or from the file -f names; -l, -r,
 * -d, -c and -V list, remove or show jobs and run nothing.
 */
function atInner(program: string, args: ShellWord[]): Inner {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return unknownAt(args[i]!);
    if (v === "--" || !v.startsWith("-") || v === "-") break;
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if ("lrdcV".includes(c)) return { kind: "none" };
      if (!"qfut".includes(c)) continue;
      const value = k < v.length - 1 ? v.slice(k + 1) : args[++i]?.value;
      if (c === "f") return { kind: "hidden", why: { id: "scriptFile", data: { program, script: value ?? "" } } };
      break;
    }
  }
  return { kind: "hidden", why: { id: "standardInput", data: { program } } };
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

/** bwrap's options and how many values each takes (it reads each exactly, `--` ends them). */
const BWRAP_ARITY: Readonly<Record<string, number>> = {
  ...Object.fromEntries(
    ["--level-prefix", "--unshare-all", "--unshare-user", "--unshare-user-try", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup", "--unshare-cgroup-try", "--share-net", "--disable-userns", "--assert-userns-disabled", "--clearenv", "--new-session", "--die-with-parent", "--as-pid-1"].map((o) => [o, 0]),
  ),
  ...Object.fromEntries(
    ["--argv0", "--chdir", "--remount-ro", "--overlay-src", "--tmp-overlay", "--ro-overlay", "--proc", "--exec-label", "--file-label", "--dev", "--tmpfs", "--mqueue", "--dir", "--lock-file", "--sync-fd", "--block-fd", "--userns-block-fd", "--info-fd", "--json-status-fd", "--seccomp", "--add-seccomp-fd", "--userns", "--userns2", "--pidns", "--unsetenv", "--uid", "--gid", "--hostname", "--cap-add", "--cap-drop", "--perms", "--size"].map((o) => [o, 1]),
  ),
  ...Object.fromEntries(["--bind", "--bind-try", "--ro-bind", "--ro-bind-try", "--dev-bind", "--dev-bind-try", "--bind-fd", "--ro-bind-fd", "--file", "--bind-data", "--ro-bind-data", "--symlink", "--setenv", "--chmod"].map((o) => [o, 2])),
  "--overlay": 3,
};
/** bwrap's bind mounts: a source shown at another path makes the program's paths name other files. */
const BWRAP_BINDS = new Set(["--bind", "--bind-try", "--ro-bind", "--ro-bind-try", "--dev-bind", "--dev-bind-try"]);
/** Mounts of what a file descriptor or an overlay holds: the files under their path are not the ones named. */
const BWRAP_REMAPS = new Set(["--bind-fd", "--ro-bind-fd", "--overlay-src", "--overlay", "--tmp-overlay", "--ro-overlay"]);

/**
 * `bwrap [options] cmd...`: each option takes a fixed number of values. A bind mount is followed only
 * when it shows a folder at its own absolute path (`--ro-bind /usr /usr`): one shown elsewhere (`--bind
 * src dst`, where a relative destination is read from the sandbox's root), an overlay or a mount of a
 * file descriptor makes the program's paths name other files, and is refused; so is `--args`, which
 * reads more arguments from a file descriptor. `--setenv` is a setting of the program's environment.
 */
function bwrapInner(args: ShellWord[]): Inner {
  const env: EnvSetting[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return unknownAt(args[i]!);
    if (v === "--") {
      i++;
      break;
    }
    if (v === "--help" || v === "--version") return { kind: "none" };
    if (v === "--args") return { kind: "unknown", why: { id: "argumentsElsewhere", data: { option: v } } };
    if (!v.startsWith("-")) break;
    const arity = Object.hasOwn(BWRAP_ARITY, v) ? BWRAP_ARITY[v]! : undefined;
    if (arity === undefined) return { kind: "unknown", why: { id: "unknownOption", data: { option: v } } };
    const values = args.slice(i + 1, i + 1 + arity);
    if (values.length < arity) return { kind: "none" };
    const late = values.find((w) => w.value === undefined);
    if (late) return unknownAt(late);
    if (BWRAP_REMAPS.has(v) || (BWRAP_BINDS.has(v) && (values[0]!.value !== values[1]!.value || !values[0]!.value!.startsWith("/"))))
      return { kind: "unknown", why: { id: "remapsPaths", data: { option: v } } };
    if (v === "--setenv") env.push({ name: values[0]!.value!, value: values[1]!.value });
    i += arity;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return { kind: "none" };
  return env.length > 0 ? { kind: "argv", words: rest, env } : { kind: "argv", words: rest };
}

/** flatpak-spawn's options: those without a value, and those with one (after an `=`: the options are the words before the program). */
const FLATPAK_SPAWN_FLAGS = new Set(["-v", "--verbose", "--clear-env", "--watch-bus", "--expose-pids", "--share-pids", "--latest-version", "--sandbox", "--no-network", "--host"]);
const FLATPAK_SPAWN_VALUED = new Set(["--forward-fd", "--env", "--unset-env", "--sandbox-expose", "--sandbox-expose-ro", "--sandbox-expose-path", "--sandbox-expose-path-ro", "--sandbox-expose-path-try", "--sandbox-expose-path-ro-try", "--sandbox-flag", "--sandbox-flag-try", "--sandbox-a11y-own-name", "--directory", "--app-path", "--usr-path"]);

/**
 * `flatpak-spawn [--host] [--opt=value...] cmd...`: every word before the program that starts with `-` is one
 * of its options, so a value is always joined with `=` (`--directory=dir`); `--env=NAME=VALUE` sets a
 * variable; `--env-fd` reads variables from a file descriptor, and is refused.
 */
function flatpakSpawnInner(args: ShellWord[]): Inner {
  const env: EnvSetting[] = [];
  let ended = false;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return unknownAt(args[i]!);
    if (!v.startsWith("-")) break;
    // After `--`, the words that start with `-` are left over, and run nothing.
    if (ended) continue;
    if (v === "--") {
      ended = true;
      continue;
    }
    const { name, attached } = optionName(v);
    if (name === "-h" || name === "--help") return { kind: "none" };
    if (FLATPAK_SPAWN_FLAGS.has(name) && attached === undefined) continue;
    if (FLATPAK_SPAWN_VALUED.has(name)) {
      if (attached === undefined) return { kind: "none" };
      if (name === "--env") {
        const eq = attached.indexOf("=");
        env.push({ name: eq < 0 ? attached : attached.slice(0, eq), value: eq < 0 ? undefined : attached.slice(eq + 1) });
      }
      continue;
    }
    return { kind: "unknown", why: { id: "unknownOption", data: { option: name } } };
  }
  const rest = args.slice(i);
  if (rest.length === 0) return { kind: "none" };
  return env.length > 0 ? { kind: "argv", words: rest, env } : { kind: "argv", words: rest };
}

/** su's and runuser's options (util-linux): each long one's kind; short ones after getopt's "c:fg:G:lmpPs:u:hVw:". */
const SU_LONG: Readonly<Record<string, "value" | "flag" | "nothing">> = {
  command: "value",
  "session-command": "value",
  fast: "flag",
  login: "flag",
  "preserve-environment": "flag",
  pty: "flag",
  shell: "value",
  group: "value",
  "supp-group": "value",
  user: "value",
  "whitelist-environment": "value",
  help: "nothing",
  version: "nothing",
};
const SU_LONG_OF: Readonly<Record<string, string>> = { c: "command", f: "fast", g: "group", G: "supp-group", l: "login", m: "preserve-environment", p: "preserve-environment", P: "pty", s: "shell", u: "user", h: "help", V: "version", w: "whitelist-environment" };

/**
 * su and runuser (util-linux), whose options getopt reads anywhere before `--`. `-c cmd` (`--command`,
 * `--session-command`) is a command line for the user's shell, or for the program `-s` names; without
 * one, the shell reads standard input or runs the script it is given. `runuser -u user [--] cmd...` runs
 * the command itself, without a shell.
 */
function suInners(program: string, args: ShellWord[]): Inner[] {
  const unknown = (option: string): Inner[] => [{ kind: "unknown", why: { id: "unknownOption", data: { option } } }];
  const set = new Map<string, ShellWord>();
  const operands: ShellWord[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return [unknownAt(w)];
    if (v === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!v.startsWith("-") || v === "-") {
      operands.push(w);
      continue;
    }
    let long: string | undefined;
    let attached: string | undefined;
    if (v.startsWith("--")) {
      const o = optionName(v);
      const typed = o.name.slice(2);
      // getopt_long takes a long option's unambiguous abbreviation.
      const names = Object.keys(SU_LONG).filter((n) => (n === "user" ? program === "runuser" : true) && n.startsWith(typed));
      long = names.includes(typed) ? typed : names.length === 1 ? names[0] : undefined;
      if (long === undefined) return unknown(o.name);
      attached = o.attached;
    } else {
      for (let k = 1; k < v.length; k++) {
        const name = Object.hasOwn(SU_LONG_OF, v[k]!) && (v[k] !== "u" || program === "runuser") ? SU_LONG_OF[v[k]!] : undefined;
        if (name === undefined) return unknown(`-${v[k]!}`);
        if (SU_LONG[name] === "value") {
          long = name;
          attached = k < v.length - 1 ? v.slice(k + 1) : undefined;
          break;
        }
        if (SU_LONG[name] === "nothing") return [{ kind: "none" }];
        set.set(name, w);
      }
      if (long === undefined) continue;
    }
    const kind = SU_LONG[long]!;
    if (kind === "nothing") return [{ kind: "none" }];
    if (kind === "flag") {
      set.set(long, w);
      continue;
    }
    const value = attached !== undefined ? { ...w, value: attached } : args[++i];
    if (!value) return [{ kind: "unknown", why: { id: "optionWithoutValue", data: { option: v } } }];
    if (value.value === undefined) return [unknownAt(value)];
    set.set(long === "session-command" ? "command" : long, value);
  }
  // A login shell (-l, --login, or `-` as the first operand) starts in the target user's home.
  const login = set.has("login") || operands[0]?.value === "-";
  const home = (inners: Inner[]): Inner[] => (login ? inners.map((n) => (n.kind === "argv" || n.kind === "script" ? { ...n, runsIn: { dir: "~" } } : n)) : inners);
  if (set.has("user")) {
    // runuser -u runs the command itself; with a shell's options, or without a command, it stops.
    if (set.has("command") || set.has("shell") || set.has("fast") || set.has("login") || operands[0]?.value === "-" || operands.length === 0) return [{ kind: "none" }];
    return [{ kind: "argv", words: operands }];
  }
  const command = set.get("command");
  const shell = set.get("shell");
  // -s names the program that runs the command line: one plangate does not know as a shell is checked
  // as the program, and the line is read as a shell's too (fish or csh may run it as one).
  if (shell !== undefined && !SHELLS.has(shell.value!.replace(/^.*\//, ""))) return home(command ? [{ kind: "argv", words: [shell, command] }, { kind: "script", word: command }] : [{ kind: "argv", words: [shell] }]);
  if (command) return home([{ kind: "script", word: command }]);
  return [{ kind: "argv", words: [word("sh")] }];
}
