import type { MessageData } from "../core/rule.js";
import { isRemoteUrl } from "../core/paths.js";
import { mixedScriptWord } from "../core/lookalike.js";
import type { ShellReader } from "../syntax/shell/parse.js";
import type { ShellScript, ShellWord, SimpleCommand } from "../syntax/shell/types.js";
import { allowed, allowedNaming, type CommandPolicy, deniedBy, inlineCodeAllowed, installAllowed, programName } from "./match.js";
import { mayWriteOutside, type OutsideCondition, outsideWrite } from "./installs.js";
import { readSedLine, readSedScript } from "./sed.js";
import { inlineCodeOf, interpreterOf, loadedFilesOf, scriptFileOf } from "./inline-code.js";
import { bumpsVersion, COMPOSE_ENV, fetchedAsItself, generatesFiles, type Load, loadsOf, packageRunnerLoads, rewritesFiles } from "./loaders.js";
import { envFilesOf } from "./dotenv.js";
import { awkPrograms, readAwkProgram } from "./awk.js";
import { type Inner, innersOf, isWrapper, optionName, type RunsIn, runnerInner, SHELLS, unprefixed } from "./wrappers.js";

/**
 * How a command line is judged. `single`: an intake or scQC `command` argument, one program per step
 * (chaining, substitutions and programs that run programs are `multiple-tools`). `chain`: a TeDDy
 * EXECUTE block or a host's Bash call, where chaining is the documented use; each program is checked.
 */
export type CommandMode = "single" | "chain";

/**
 * The message ids of what the analysis finds, by the rule that reports it. Each rule words its own in its
 * folder (`command-messages.ts`), as clauses of "the command … {clause}.".
 */
export interface CommandMessageIds {
  "parse-error":
    | "unreadableCommand"
    | "unreadableCommandAndOne"
    | "unreadableCommandAndMore"
    | "nestedTooDeep"
    | "listNotStrings"
    | "notCommandLine"
    | "argvBesideNotStrings"
    | "parserNotLoaded"
    | "notChecked"
    | "planCommandsTooLong"
    | "planCommandsUnreadable"
    | "planCommandsTooMany"
    | "mixedScriptWord";
  "multiple-tools": "compoundCommand" | "runsThroughWrapper" | "handsCommandLine";
  "disallowed-tool":
    | "rewiringVariable"
    | "programAtRunTime"
    | "nonAsciiProgram"
    | "commandDenied"
    | "notAllowed"
    | "fetchedNotAllowed"
    | "wrapperUnknown"
    | "hiddenCommands"
    | "commandLineAtRunTime"
    | "definesAlias"
    | "bindsName"
    | "loadsBuiltins"
    | "subscriptExpansion"
    | "givenAsText"
    | "storedCode"
    | "gitRunsCode"
    | "gitRunsCommandLine"
    | "optionRunsCommand"
    | "scriptRunsCommand"
    | "unreadableScript"
    | "inlineCode"
    | "writtenCode"
    | "unreadableAwk"
    | "trustsCode"
    | "writtenUnknown"
    | "writtenManifest"
    | "writtenUnreadable";
  "unresolved-argument": "redirectAtRunTime" | "awkFileAtRunTime" | "setsCdpath" | "arithmeticVariable" | "valueAtRunTime" | "inputWords" | "folderNotFollowed" | "packageFolders" | "backupSuffixVariable";
}

/** A rule that reports findings about command lines. */
export type CommandRule = keyof CommandMessageIds;

/** Where in the analysed line a finding is: offsets of the top-level command (or syntax) it was found in. */
export interface CommandSpan {
  start: number;
  end: number;
}

/**
 * A finding about a command line: the rule that reports it, its message id and the data of its
 * placeholders, and the part of the line it is about (absent when it is about the whole line).
 */
export type CommandFinding<R extends CommandRule = CommandRule> = R extends CommandRule
  ? {
      rule: R;
      messageId: CommandMessageIds[R];
      data: MessageData;
      span?: CommandSpan;
      /** The finding is about running this file (an index into CommandReport.runs): a file the plan writes is judged by its text instead. */
      run?: number;
      /** Found in the text of a file the plan writes, which the command runs: `build.sh, which step 1 writes`. */
      via?: string;
    }
  : never;

/**
 * A file a command line runs, reads as its commands or code, or whose manifest a runner reads: the plan
 * judges its text when an earlier step (or the line itself) writes it (src/commands/written.ts).
 */
export interface CommandRun {
  /** The file as the line names it (`build.sh`, `./build.sh`), or the manifest's name (`Makefile`, `package.json`). */
  text: string;
  /** The folder it is relative to after `cd` ("" for the workspace root). */
  cwd: string;
  /**
   * How its text is read: `shell` (a shell runs it), `program` (run by its path: its `#!` line decides),
   * an interpreter's name as commands.inlineCode names it (`python`, `node`), `sed` or `awk` (a script
   * file), `dotenv` (an environment file: src/commands/dotenv.ts), or `manifest` (a runner reads what to
   * run from it: a makefile, a justfile, package.json).
   */
  as: string;
  /** The program that runs it, as spelt (`bash`, `python3`, `make`). */
  program: string;
  /** For a manifest: found by its name in any folder (a runner may look in the folders above, or one its options name). */
  anywhere?: true;
  /** The program whose word names the file, as CommandPath.program: that path is the run's, not a write. */
  owner?: string;
  /** For package.json: the scripts the runner runs (undefined: any of them). */
  scripts?: readonly string[];
  /**
   * Files the program loads by itself (src/commands/loaders.ts), found by their names in any folder:
   * `text` is then only a key, and `as` is `load.as`.
   */
  load?: Load;
  /** A script or program of the project run by its path: when the plan does not write it, it may load any code the plan writes. */
  project?: true;
  span?: CommandSpan;
}

/** A word of the command that names a file: the workspace rules check it. */
export interface CommandPath {
  text: string;
  /** The word as written, when `text` differs (a glob read as `..`). */
  written?: string;
  /** The word is a pattern the shell expands (`.e*`, `.gi?/config`): it names whichever files it matches. */
  glob?: true;
  /** Each segment of the pattern matches hidden names too (`shopt -s dotglob`: `lib/?git/config` matches `lib/.git/config`). */
  dotglob?: true;
  /** A `**` segment of the pattern matches any number of folders (`shopt -s globstar`). */
  globstar?: true;
  /**
   * The program writes everything under it, when it is a folder (`rm -r`, `find … -delete`, `chmod -R`,
   * `cp -r`, `mv`, `rsync`, `git clean`): the files in it are written without being named.
   */
  tree?: true;
  /** The program only reads it (an operand of `cat`, `grep`, `ls`...; see READERS): a protected path may be read. */
  read?: true;
  /**
   * What a program copies, archives or links from (`cp`'s, `rsync`'s, `install`'s and `ln`'s sources, the
   * files `tar -c` and `zip` put in an archive): it is read, and only the destination is written. Read by
   * src/commands/written.ts alone (the other rules count it as they count any word of the program).
   */
  source?: true;
  /** The folder it is relative to after `cd` ("" for the workspace root; may be absolute). */
  cwd: string;
  /** Where in the analysed line the word (or the command it is in) is. */
  span?: CommandSpan;
  /** The program whose word it is (`chmod`, `git add`); absent for a redirection's target. */
  program?: string;
  /** Named in the text of a file the plan writes, which the command runs (see CommandFinding.via). */
  via?: string;
  /**
   * A project file the program rewrites that no word names (loaders.ts rewritesFiles): how, for
   * messages, and how many of the line's runs (CommandReport.runs) come before it, which its own
   * runs and loads are among. Read by src/commands/written.ts alone.
   */
  rewritten?: { how: string; after: number };
}

export interface CommandReport {
  findings: CommandFinding[];
  paths: CommandPath[];
  /** Every program the command runs, as far as it can be known (for messages and tests). */
  programs: string[];
  /**
   * Writes outside the workspace that no word names: a package manager's global install (`npm install
   * -g`, `cargo install`, `pip install --user`, `apt-get install`) or a change to its user settings (`npm
   * config set`), as src/commands/installs.ts reads them; absent when there is none.
   */
  outside?: CommandOutside[];
  /**
   * Words that are only a TODO, TBD or FIXME marker (`--version TODO`, `--tag=TBD`): a value the plan left
   * for the executor to fill in (unresolved-argument's in a plan; a host's own shell call is not a plan).
   * Not a search program's words (`rg TODO src`, `git grep FIXME`), which look for the marker, nor text
   * only printed (`echo TODO`).
   */
  markers: CommandMarker[];
  /** The files the line runs or reads its commands from (see CommandRun); absent when there is none. */
  runs?: CommandRun[];
  /**
   * Programs that may write any file under the folder they run in without a word naming it: a package a
   * runner fetches and runs (`npx degit`, `uvx cookiecutter`; `fetched`), a project generator or a clone
   * by another tool than git (loaders.ts generatesFiles). Read by src/commands/written.ts alone, which
   * follows what they write for the programs that load files later; absent when there is none.
   */
  generates?: CommandGenerates[];
}

/** A program that may write files no word names (see CommandReport.generates). */
export interface CommandGenerates {
  /** The program, as CommandPath.program names it. */
  program: string;
  /** The folder it runs in, as CommandPath.cwd. */
  cwd: string;
  /** Run from a package a runner fetches (`npx`, `pnpm dlx`, `uvx`, `pipx run`). */
  fetched?: true;
  /** The runner that fetches it (`npx`): what that runner itself runs and loads comes before the package writes. */
  runner?: string;
}

/** A write outside the workspace that no word of the line names (see CommandReport.outside). */
export interface CommandOutside {
  /** The package manager, as `commands.installOutside` names it (`npm`, `pip`, `cargo`, `apt-get`...). */
  manager: string;
  /** The words that make the write (`npm install -g`, `cargo install`). */
  how: string;
  /** Where it writes (`npm's global prefix (...)`). */
  where: string;
  /** What to change to keep it in the workspace. */
  fix: string;
  span?: CommandSpan;
  /** A write that holds only under what the line cannot show (installs.ts OutsideCondition), decided by paths.ts resolveOutside. */
  condition?: OutsideCondition;
  /** The folders a `cd` moved to before the commands of a condition, from where the step runs them ("": none): where a `config` condition's files are read. */
  cwds?: string[];
}

/** A marker word of a command line (see CommandReport.markers). */
export interface CommandMarker {
  word: string;
  span?: CommandSpan;
}

/**
 * A finding about a file the plan writes and a command runs (src/commands/written.ts): its text is not in
 * the plan (`unknown`), it is a manifest plangate does not read (`manifest`), or its text cannot be read
 * (`unreadable`).
 */
export function writtenFinding(kind: "unknown" | "manifest" | "unreadable" | "code", data: MessageData, span?: CommandSpan): CommandFinding<"disallowed-tool"> {
  const at = span ? { span } : {};
  if (kind === "code") return { rule: "disallowed-tool", messageId: "writtenCode", data, ...at };
  if (kind === "unknown") return { rule: "disallowed-tool", messageId: "writtenUnknown", data, ...at };
  if (kind === "manifest") return { rule: "disallowed-tool", messageId: "writtenManifest", data, ...at };
  return { rule: "disallowed-tool", messageId: "writtenUnreadable", data, ...at };
}

/** Most programs of a line that write files no word names kept with their folders (CommandReport.generates); past it each is said to write anywhere. */
const MAX_GENERATES = 64;

/** How deep `sh -c "sh -c '…'"` and wrappers of wrappers are followed. */
const MAX_NESTING = 8;

/**
 * Variables that decide which program or code runs: setting one (`PATH=/tmp rm`, `export LD_PRELOAD=…`,
 * `env BASH_ENV=x sh`) makes every program check meaningless. Besides the loader's and the shells', the
 * variables through which common tools run a program, a command line or code they are given, or read a
 * configuration that names one (or environment settings from a file: uv's, pipenv's, mise's, dotenv's
 * `DOTENV_CONFIG_PATH` and the keys that decrypt an encrypted one, Compose's files): the user's shell, editor, pager and browser (`sudo -s`, `git commit`,
 * `git log`, `less`'s input filter), git's own (another repository's hooks through GIT_DIR), the
 * interpreters' module paths and option variables, make's extra makefiles, Rust's compiler wrappers,
 * go's -toolexec in GOFLAGS, npm's configuration, screen's configuration file (SCREENRC, SYSSCREENRC),
 * and HOME and XDG_CONFIG_HOME, under which git and the shells find their configuration files. Also the settings that name a file of code, a folder code is
 * loaded from, or an interpreter a runner or package manager uses: Bundler's Gemfile and configuration
 * folder, RubyGems' load path, Yarn's own program (`yarnPath`), rc file, plugins and environment files
 * (YARN_LIST below), Python's user site folder, bytecode cache and breakpoint hook, the virtual
 * environment or interpreter uv, pipenv, pdm, hatch and pipx use, the JVM options of the build tools'
 * launchers (`-javaagent`), rustc's flags (`-C linker=`), cargo's home, aliases, credential
 * providers, patches and source replacements (crates from a folder), rustup's toolchain, go's configuration file, make's flags (`--eval`, `SHELL=`), Lua's, PHP's, R's and Erlang's start-up
 * code, .NET's start-up hooks and profilers, OpenSSL's configuration (engines it loads), mise's
 * trusted configuration folders, and the settings files and programs of tools whose options of that kind
 * are read on the line: Mercurial's configuration files, editor and merge tool (HGRCPATH, HGEDITOR,
 * HGMERGE), Subversion's editor and tunnel (SVN_EDITOR, SVN_SSH), wget's and curl's option files (WGETRC,
 * CURL_HOME), Ansible's and Salt's configuration (ANSIBLE_CONFIG, SALT_CONFIG_DIR, SALT_MINION_CONFIG), and the
 * container engines' settings that name programs: docker's configuration folder (DOCKER_CONFIG: credential
 * helpers, CLI plugins), an ssh:// DOCKER_HOST (docker runs ssh), podman's containers.conf, storage.conf
 * (`mount_program`), registries.conf and auth file (credential helpers), nerdctl's configuration and CNI
 * plugins (NERDCTL_TOML, CNI_PATH, NETCONFPATH). A build's own files at their usual place (Gemfile, .bundle/config,
 * .npmrc, .yarnrc.yml, pyproject.toml, .cargo/config.toml) are the project's, read as its Makefile is;
 * a setting naming another one is not, and its value is no path plangate checks.
 */
const REWIRING_VARIABLES = new RegExp(
  "^(?:" +
    [
      "PATH|LD_[A-Z0-9_]+|DYLD_[A-Z0-9_]+|BASH_ENV|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|GLOBIGNORE|EXECIGNORE|BASH_LOADABLES_PATH|BASH_FUNC_.*",
      "SCREENRC|SYSSCREENRC|SHELL|EDITOR|VISUAL|PAGER|MANPAGER|MANOPT|LESSOPEN|LESSCLOSE|LESS|MORE|LESSKEY[A-Z_]*|LESSEDIT|GROFF_BIN_PATH|BROWSER|HOME|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|ZDOTDIR|SSH_ASKPASS|SUDO_ASKPASS|SUDO_EDITOR",
      "UV_ENV_FILE|PIPENV_DOTENV_LOCATION|MISE_ENV_FILE|DOTENV_CONFIG_PATH|DOTENV_CONFIG_DOTENV_KEY|DOTENV_KEY|DOTENV_PRIVATE_KEY(?:_[A-Z0-9_]+)?|COMPOSE_FILE|COMPOSE_ENV_FILES",
      "GIT_SSH|GIT_SSH_COMMAND|GIT_EXEC_PATH|GIT_CONFIG(?:_[A-Z0-9_]+)?|GIT_PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_EXTERNAL_DIFF|GIT_ASKPASS|GIT_PROXY_COMMAND|GIT_DIR|GIT_WORK_TREE|GIT_COMMON_DIR|GIT_TEMPLATE_DIR",
      "NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|PERL5DB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|GCONV_PATH",
      "JUST_CHOOSER|JUST_CYGPATH|JUST_DOTENV_COMMAND|JUST_DOTENV_PATH|JUST_DOTENV_FILENAME|JUST_JUSTFILE",
      "MAKEFILES|RUSTC|RUSTC_WRAPPER|RUSTC_WORKSPACE_WRAPPER|RUSTDOC|CARGO_BUILD_RUSTC(?:_WRAPPER|_WORKSPACE_WRAPPER)?|CARGO_HOST_(?:LINKER|RUNNER|RUSTFLAGS)|CARGO_DOC_BROWSER|CARGO_TARGET_[A-Z0-9_]+_(?:LINKER|RUNNER)|GOFLAGS|[Nn][Pp][Mm]_[Cc][Oo][Nn][Ff][Ii][Gg]_.*",
      "BUNDLE_GEMFILE|BUNDLE_BIN_PATH|BUNDLE_APP_CONFIG|GEM_PATH|PYTHONUSERBASE|PYTHONPYCACHEPREFIX|PYTHONBREAKPOINT|PYTHONWARNINGS|NODE_REPL_EXTERNAL_MODULE",
      "VIRTUAL_ENV|UV_PYTHON|UV_PROJECT_ENVIRONMENT|UV_CONFIG_FILE|PIPENV_PYTHON|PDM_PYTHON|HATCH_PYTHON|PIPX_DEFAULT_PYTHON|MISE_TRUSTED_CONFIG_PATHS",
      "MAVEN_OPTS|GRADLE_OPTS|JAVA_OPTS|SBT_OPTS|ANT_OPTS|GRADLE_USER_HOME|MAKEFLAGS|GNUMAKEFLAGS|MFLAGS",
      "RUSTFLAGS|RUSTDOCFLAGS|CARGO_ENCODED_RUST(?:DOC)?FLAGS|CARGO_BUILD_RUST(?:DOC)?FLAGS|CARGO_BUILD_RUSTDOC|CARGO_TARGET_[A-Z0-9_]+_RUST(?:DOC)?FLAGS|CARGO_HOME|CARGO_ALIAS_[A-Z0-9_]+|CARGO_(?:REGISTRY|REGISTRIES_[A-Z0-9_]+)_CREDENTIAL_PROVIDER|CARGO_CREDENTIAL_PROVIDER|CARGO_PATCH_[A-Z0-9_]+|CARGO_SOURCE_[A-Z0-9_]+|RUSTUP_TOOLCHAIN|GOENV",
      "HGRCPATH|HGEDITOR|HGMERGE|SVN_EDITOR|SVN_SSH|WGETRC|CURL_HOME|ANSIBLE_CONFIG|SALT_CONFIG_DIR|SALT_MINION_CONFIG|SALT_MASTER_CONFIG",
      "DOCKER_CONFIG|DOCKER_HOST|CONTAINERS_CONF|CONTAINERS_CONF_OVERRIDE|CONTAINERS_STORAGE_CONF|CONTAINERS_REGISTRIES_CONF|REGISTRIES_CONFIG_PATH|REGISTRY_AUTH_FILE|NERDCTL_TOML|CNI_PATH|NETCONFPATH",
      "LUA_INIT(?:_5_[0-9])?|LUA_C?PATH(?:_5_[0-9])?|PHPRC|PHP_INI_SCAN_DIR|R_PROFILE(?:_USER)?|R_ENVIRON(?:_USER)?|ERL_[AZ]?FLAGS|DOTNET_STARTUP_HOOKS|CORECLR_PROFILER_PATH(?:_[A-Z0-9]+)?|OPENSSL_CONF|OPENSSL_ENGINES|OPENSSL_MODULES",
    ].join("|") +
    ")$",
);
/**
 * Variables that say where a program writes: its temporary files (`TMPDIR=/etc mktemp`), its history, its
 * caches and data, the virtual environments of Python's project managers (`POETRY_VIRTUALENVS_PATH`, `WORKON_HOME`,
 * `HATCH_DATA_DIR`), go's workspace file (`GOWORK`, which `go work` writes and every build reads the modules
 * it uses from), the prefix or folder it installs into (`PREFIX`, `DESTDIR`, `GOBIN`, `CARGO_TARGET_DIR`,
 * `PIP_TARGET`, `GEM_HOME`, npm's `npm_config_prefix`), the configuration or credentials file it updates (`PIP_CONFIG_FILE`, `KUBECONFIG`,
 * `AWS_SHARED_CREDENTIALS_FILE`, `DOCKER_CONFIG`), git's index and object store, a TLS key log, a
 * coverage or profile file, and the Windows homes. A value set on the line (`NAME=value cmd`, `export
 * NAME=value`) is a path the line writes, checked as one.
 */
const LOCATION_VARIABLES = new RegExp(
  "^(?:" +
    [
      "TMPDIR|TMP|TEMP|TEMPDIR|GOTMPDIR|HISTFILE|LESSHISTFILE|NODE_REPL_HISTORY|PYTHON_HISTORY|SQLITE_HISTORY|MYSQL_HISTFILE|PSQL_HISTORY|REDISCLI_HISTFILE",
      "XDG_CACHE_HOME|XDG_DATA_HOME|XDG_STATE_HOME|XDG_RUNTIME_DIR|USERPROFILE|APPDATA|LOCALAPPDATA|PREFIX|DESTDIR|INSTALL_PREFIX",
      "GOPATH|GOBIN|GOCACHE|GOMODCACHE|GOWORK|CARGO_TARGET_DIR|CARGO_INSTALL_ROOT|RUSTUP_HOME|PIP_TARGET|PIP_PREFIX|PIP_ROOT|PIP_CACHE_DIR|PIP_CONFIG_FILE|PIP_LOG|PIP_SRC",
      "YARN_CACHE_FOLDER|YARN_GLOBAL_FOLDER|PNPM_HOME|BUN_INSTALL|DENO_DIR|DENO_INSTALL_ROOT|COREPACK_HOME|VOLTA_HOME|NVM_DIR|PYENV_ROOT|RBENV_ROOT|CONDA_PKGS_DIRS|POETRY_CACHE_DIR|UV_CACHE_DIR|UV_TOOL_DIR|UV_TOOL_BIN_DIR|PIPX_HOME|PIPX_BIN_DIR",
      "PIPX_MAN_DIR|UV_PYTHON_INSTALL_DIR|UV_PYTHON_BIN_DIR|POETRY_VIRTUALENVS_PATH|WORKON_HOME|HATCH_DATA_DIR|HATCH_CACHE_DIR|HATCH_ENV_TYPE_VIRTUAL_PATH|RYE_HOME|PIXI_HOME|GEM_HOME|NODENV_ROOT|GOENV_ROOT|FNM_DIR|ASDF_DATA_DIR|MISE_DATA_DIR|HELM_PLUGINS|KREW_ROOT|[Nn][Pp][Mm]_[Cc][Oo][Nn][Ff][Ii][Gg]_[Pp][Rr][Ee][Ff][Ii][Xx]",
      "GIT_INDEX_FILE|GIT_OBJECT_DIRECTORY|KUBECONFIG|DOCKER_CONFIG|AWS_CONFIG_FILE|AWS_SHARED_CREDENTIALS_FILE|GNUPGHOME|CLOUDSDK_CONFIG|AZURE_CONFIG_DIR|HELM_CONFIG_HOME|HELM_CACHE_HOME|HELM_DATA_HOME|TF_DATA_DIR|TF_PLUGIN_CACHE_DIR",
      "SSL_KEYLOGFILE|COVERAGE_FILE|LLVM_PROFILE_FILE|GCOV_PREFIX|CCACHE_DIR|SCCACHE_DIR|MPLCONFIGDIR|IPYTHONDIR|JUPYTER_CONFIG_DIR|JUPYTER_DATA_DIR|JUPYTER_RUNTIME_DIR|HF_HOME|TORCH_HOME|NUMBA_CACHE_DIR",
    ].join("|") +
    ")$",
);

/**
 * Yarn reads every `YARN_*` variable as a setting (the name folded to lower case, `_` between words):
 * those that name the program Yarn runs instead of itself (`yarnPath`), another rc file, plugins (code
 * it loads) or environment files its scripts get.
 */
const YARN_LIST = /^yarn_+(?:yarn_+path|rc_+filename|plugins|inject_+environment_+files)$/i;
/**
 * Values of the variables above that choose nothing of the plan's making, or a path checked as one (npm's prefix): a Python named by its
 * version (`UV_PYTHON=3.12`, `cpython@3.12`), a toolchain by its name (`RUSTUP_TOOLCHAIN=nightly`),
 * warning filters of built-in categories (`PYTHONWARNINGS=ignore`, a dotted category imports its
 * module), the JVM's memory and `-XX:` options, make's options that set how it runs (`MAKEFLAGS=-j8`),
 * and rustc's flags that only set lints, cfgs and code generation (quietRustflags).
 */
const QUIET_VALUES: readonly (readonly [RegExp, (value: string) => boolean])[] = [
  [/^(?:UV_PYTHON|PIPENV_PYTHON|PDM_PYTHON|HATCH_PYTHON|PIPX_DEFAULT_PYTHON)$/, (v) => PYTHON_VERSION.test(v)],
  [/^RUSTUP_TOOLCHAIN$/, (v) => /^[A-Za-z0-9][\w.-]*$/.test(v)],
  // A daemon's socket or TCP address: no program (an ssh:// host runs ssh).
  [/^DOCKER_HOST$/, (v) => /^(?:unix|tcp|npipe|fd):/i.test(v)],
  // npm's prefix holds its global folders and global configuration, as `--prefix` on the line names them: a path checked as one (LOCATION_VARIABLES).
  [/^npm_config_prefix$/i, () => true],
  [/^PYTHONWARNINGS$/, (v) => !/[.]/.test(v.split(",").map((f) => f.split(":")[2] ?? "").join(""))],
  // A -XX: option with a value only when it is a number (-XX:OnError=cmd runs a command, -XX:VMOptionsFile=f and -XX:Flags=f read more options).
  [/^(?:MAVEN_OPTS|GRADLE_OPTS|JAVA_OPTS|SBT_OPTS|ANT_OPTS)$/, (v) => /^\s*(?:-X(?:m[sx]|ss)\d+[kKmMgG]?|-XX:(?:[+-]\w+|\w+=\d[\d.]*[kKmMgGtT%]?))?(?:\s+(?:-X(?:m[sx]|ss)\d+[kKmMgG]?|-XX:(?:[+-]\w+|\w+=\d[\d.]*[kKmMgGtT%]?)))*\s*$/.test(v)],
  // make's options that set how it runs, not what: no --eval, no makefile, include folder or variable (SHELL=).
  [/^(?:MAKEFLAGS|GNUMAKEFLAGS|MFLAGS)$/, (v) => v.split(/\s+/).every((w) => w === "" || /^-?[jklsinqwBkrRtde0-9]+$|^--(?:jobs|keep-going|silent|quiet|no-print-directory|print-directory|always-make|load-average|output-sync)(?:=\w+)?$/.test(w))],
  [/^(?:RUSTFLAGS|RUSTDOCFLAGS|CARGO_BUILD_RUST(?:DOC)?FLAGS|CARGO_TARGET_[A-Z0-9_]+_RUST(?:DOC)?FLAGS)$/, (v) => quietRustflags(v)],
];
const PYTHON_VERSION_NUMBER = String.raw`\d+(?:\.(?:\d+|\*)){0,2}(?:(?:a|b|rc)\d+)?(?:t|d|td|\+(?:freethreaded|debug|gil))?`;
const PYTHON_SPECIFIER = String.raw`(?:[<>=!~^]=?|===?)?\s*${PYTHON_VERSION_NUMBER}`;
/**
 * A Python named by its version, as uv, pipx, poetry and pdm read one (`3.12`, `>=3.11,<3.13`,
 * `cpython@3.12`, `pypy3.10`, `cp312`, `3.13t`, `any`, a managed install's key): no file, and no program
 * of another name. Anything else (`./venv/bin/python`, `python`, `.venv`) names a program, by its path
 * or by a name looked up in PATH, which the tool runs.
 */
const PYTHON_VERSION = new RegExp(
  String.raw`^(?:any|default|(?:(?:cpython|pypy|graalpy|pyodide|python|cp|pp|gp|py)@?)?${PYTHON_SPECIFIER}(?:\s*,\s*${PYTHON_SPECIFIER})*|(?:cpython|pypy|graalpy|pyodide)-${PYTHON_VERSION_NUMBER}(?:-\w+){0,3})$`,
  "i",
);
/** rustc's `-C` options that only tune code generation (no linker, no library, no plugin, no file). */
const RUSTC_CODEGEN = /^(?:opt-level|debuginfo|debug-assertions|overflow-checks|target-cpu|target-feature|codegen-units|strip|panic|lto|force-frame-pointers|embed-bitcode|relocation-model|code-model|split-debuginfo|symbol-mangling-version|instrument-coverage|metadata)=[\w.,+="-]*$/;
/** Are rustc's flags lints (`-D warnings`, `--cap-lints warn`), cfgs (`--cfg x`) and code generation options only? */
function quietRustflags(value: string): boolean {
  const t = value.split(/\s+/).filter((w) => w !== "");
  for (let i = 0; i < t.length; i++) {
    const w = t[i]!;
    const m = /^(-[DWAF]|--cap-lints|--cfg|-C)(=?)(.*)$/.exec(w);
    if (!m) return false;
    const arg = m[3] !== "" ? m[3]! : t[++i];
    if (arg === undefined) return false;
    if (m[1] === "-C" ? !RUSTC_CODEGEN.test(arg) : !/^[\w:="-]+$/.test(arg)) return false;
  }
  return true;
}
/**
 * The pager and editor variables, and the values of them that run nothing of the plan's choosing: no
 * pager (`GIT_PAGER=cat git log`, `PAGER=`), or an editor that accepts the text as it is
 * (`GIT_EDITOR=true git rebase --continue`), with options at most. less (and more, which may be less)
 * reads a lesskey file with -k, whose settings may name an input filter it runs (LESSOPEN), and writes
 * a log file with -o and -O: a cluster with one of them is no quiet value (`less -kkeys`).
 */
const PAGER_OR_EDITOR = /^(?:PAGER|GIT_PAGER|MANPAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SEQUENCE_EDITOR)$/;
const QUIET_PROGRAM = /^(?:(?:cat|true|false|:)(?: -[A-Za-z]+)*|(?:less|more)(?: -[A-NP-Za-jl-np-z]+)*)?$/;
/** less's (and more's) option variables, and their quiet values: option letters and numbers, without -k, -o or -O (`LESS=-R`, `LESS=FRX`). */
const LESS_OPTIONS = /^(?:LESS|MORE)$/;
const QUIET_LESS_OPTIONS = /^-?[0-9A-NP-Za-jl-np-z]*(?: -[0-9A-NP-Za-jl-np-z]+)*$/;
/**
 * git settings that name a program, a command line or code git runs, or another configuration to read
 * (case-insensitive, as git reads its keys).
 */
const GIT_CODE_KEY =
  /^(?:alias\..*|core\.(?:pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy|alternaterefscommand)|sequence\.editor|diff\.external|diff\..*\.(?:command|textconv)|(?:difftool|mergetool)\..*\.cmd|merge\..*\.driver|filter\..*\.(?:clean|smudge|process)|credential\.(?:.*\.)?helper|gpg\.(?:.*\.)?program|pager\..*|interactive\.difffilter|uploadpack\.packobjectshook|remote\..*\.(?:uploadpack|receivepack|proxy|vcs)|protocol\..*|(?:http|https)\.(?:.*\.)?proxy|include\.path|includeif\..*|sendemail\..*|web\.browser|browser\..*\.(?:cmd|path)|man\..*\.(?:cmd|path)|init\.templatedir|ssh\.variant|core\.sshcommand)$/i;
/**
 * Options through which a program runs a program or command line it is given: a name ending in "=" is an
 * option with a value (`--rsh=x`, `--rsh x`); a two-letter one also matches its value joined (`-ex`).
 */
const COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  tar: ["--to-command=", "--use-compress-program=", "-I", "--checkpoint-action=", "--info-script=", "--new-volume-script=", "-F"],
  gtar: ["--to-command=", "--use-compress-program=", "-I", "--checkpoint-action=", "--info-script=", "--new-volume-script=", "-F"],
  bsdtar: ["--use-compress-program=", "-I"],
  rsync: ["-e", "--rsh=", "--rsync-path="],
  fd: ["-x", "--exec=", "-X", "--exec-batch="],
  fdfind: ["-x", "--exec=", "-X", "--exec-batch="],
  rg: ["--pre="],
  // gdb reads long options with one dash or two; -x and -ix read a file of commands, --args runs the program.
  gdb: ["-ex", "-ex=", "--ex=", "-eval-command=", "--eval-command=", "-iex", "--iex=", "-init-eval-command=", "--init-eval-command=", "-x", "--x=", "-command=", "--command=", "-ix", "--ix=", "-init-command=", "--init-command=", "-args", "--args"],
  vim: ["-c", "--cmd=", "-S"],
  vi: ["-c", "--cmd=", "-S"],
  nvim: ["-c", "--cmd=", "-S", "-l"],
  view: ["-c", "--cmd=", "-S"],
  vimdiff: ["-c", "--cmd=", "-S"],
  ex: ["-c", "--cmd=", "-S"],
  ssh: ["-F", "-I"],
  scp: ["-S", "-F"],
  sftp: ["-S", "-F", "-D"],
  zip: ["-TT", "--unzip-command="],
  // Code or a command line given on the line, not the project's own file: make's --eval (-E), tox's
  // overrides of its configuration (-x testenv.commands=...), just's shell and --command.
  // make reads a long option by any prefix that names one alone: --ev and --eva are --eval.
  make: ["--eval=", "--eva=", "--ev=", "-E"],
  gmake: ["--eval=", "--eva=", "--ev=", "-E"],
  tox: ["-x", "--override="],
  // just: its shell and the shell's arguments, a command, the command whose output is loaded as an
  // environment file, the chooser and cygpath programs. clap reads long options only as spelt (just and
  // watchexec do not set infer_long_args): `just --sh x` is an error, and runs nothing.
  just: ["--shell=", "--shell-arg=", "--command=", "-c", "--dotenv-command=", "--chooser=", "--cygpath="],
  // GNU sort's compressor, split's filter (a shell command line), man's pager and HTML browser.
  sort: ["--compress-program="],
  split: ["--filter="],
  man: ["-P", "--pager=", "-H", "--html="],
  // aria2's event hooks: a program run when a download starts, ends, fails, pauses or stops.
  aria2c: ["--on-download-complete=", "--on-download-start=", "--on-download-error=", "--on-download-pause=", "--on-download-stop=", "--on-bt-download-complete="],
  // wget's password program; Subversion's editor, diff and merge programs.
  wget: ["--use-askpass="],
  svn: ["--editor-cmd=", "--diff-cmd=", "--diff3-cmd="],
  // netcat's program or command line run with the connection as its input and output.
  nc: ["-e", "-c"],
  ncat: ["-e", "--exec=", "-c", "--sh-exec=", "--lua-exec="],
  // go's runner of test and run binaries, the program run in place of each tool, vet's tool.
  go: ["-exec=", "--exec=", "-toolexec=", "--toolexec=", "-vettool=", "--vettool="],
  // A compiler driver's wrapper of each subprocess, plugins (code loaded into the compiler), spec files (which name programs).
  ...Object.fromEntries(["gcc", "g++", "cc", "c++", "clang", "clang++"].map((c) => [c, ["-wrapper", "-fplugin=", "-specs=", "--specs="]])),
};
/** Mercurial settings that run nothing: any other `--config` may name a hook, an extension, an editor, a merge tool or a shell alias. */
const HG_QUIET_KEY = /^(?:ui\.(?:username|quiet|verbose|debug|interactive|paginate|color|traceback|formatted|report_untrusted|tweakdefaults|relative-paths)|color\.mode|commands\.status\.(?:relative|verbose|terse)|diff\.(?:git|nodates|showfunc|ignorews|ignorewsamount|ignoreblanklines|unified|noprefix|word-diff))$/i;
/** Keys of package.json that `npm pkg set` may write whose values are command lines or code run later: scripts, bins, hook runners' settings. */
const LATER_PACKAGE_SETTINGS = /^(?:scripts|bin|config|gypfile|husky|simple-git-hooks|lint-staged|nano-staged|ghooks|pre-commit|pre-push)(?:[.[=]|$)/;
/** The programs settingsRunCode reads. */
const SETTINGS_READERS: ReadonlySet<string> = new Set(["hg", "chg", "svn", "svnmucc", "svnsync", "svnrdump", "curl", "aria2c", "ansible", "ansible-pull", "salt", "salt-call", "salt-ssh", "salt-run"]);
/** ansible's short options that take a value: in a cluster, the first of them takes the rest of the word (`-ba CMD` is -b then -a). */
const ANSIBLE_VALUED = "amiuefltBPcMT";
/** Salt functions that only read; any other may run a command, write a file or apply states. */
const SALT_READS = /^(?:test\.(?:ping|version|versions|echo|true|false)|grains\.(?:items|item|get|ls)|pillar\.(?:items|item|get|ls|raw)|sys\.(?:doc|argspec|list_\w+)|status\.\w+|disk\.usage|network\.(?:interfaces|ip_addrs|ip_addrs6)|saltutil\.running|jobs\.(?:list_jobs|lookup_jid|active|print_job)|manage\.(?:status|up|down|present|not_present))$/;

/**
 * Settings and arguments through which a program runs code or command lines it is given in words other
 * than options of its own (`hg --config hooks.x=...`, `svn --config-option config:helpers:editor-cmd=...`,
 * `ansible all -a 'rm x'`, `salt-call cmd.run 'rm x'`), or a file of options plangate does not read
 * (`curl -K cfg`, `aria2c --conf-path=cfg`, `svn --config-dir d`), whose settings may name programs it runs or
 * files it writes. `file`: the finding is the unread file's.
 */
function settingsRunCode(name: string, args: readonly ShellWord[]): { option: string; file?: true } | undefined {
  if (!SETTINGS_READERS.has(name)) return undefined;
  // ansible-pull fetches a repository and runs a playbook from it on this machine: tasks plangate never sees.
  if (name === "ansible-pull") return args.some((w) => w.value === "--help" || w.value === "-h" || w.value === "--version") ? undefined : { option: "a playbook it fetches (-U)" };
  const value = (i: number, v: string): string | undefined => (v.includes("=") ? v.slice(v.indexOf("=") + 1) : args[i + 1]?.value);
  let targetSeen = false;
  let fnSeen = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === "--") break;
    if (v === undefined) {
      // A word decided at run time where Salt's function may be is read as one.
      if (name.startsWith("salt") && (targetSeen || name === "salt-call" || name === "salt-run") && !fnSeen) return { option: "a function decided at run time" };
      targetSeen = true;
      continue;
    }
    const o = v.startsWith("--") && v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    if (name === "hg" || name === "chg") {
      // Mercurial reads any unambiguous prefix of a long option (`--conf`).
      if (o.length >= 5 && "--config".startsWith(o)) {
        const kv = value(i, v);
        if (kv === undefined || !HG_QUIET_KEY.test(kv.split("=")[0]!)) return { option: `--config ${kv ?? ""}`.trim() };
      }
    } else if (name === "svn" || name === "svnmucc" || name === "svnsync" || name === "svnrdump") {
      if (o === "--config-option") {
        const kv = value(i, v);
        // FILE:SECTION:OPTION=VALUE; the helpers run the editor and diff programs, the tunnels the ssh-like ones.
        if (kv === undefined || /^[^:]*:(?:helpers|tunnels):/i.test(kv)) return { option: `--config-option ${kv ?? ""}`.trim() };
      }
      if (o === "--config-dir") return { option: o, file: true };
    } else if (name === "curl") {
      if (o.length >= 6 && "--config".startsWith(o)) return { option: "--config", file: true };
      // -K in a cluster, up to a letter that takes a value (`-sK cfg`; in `-dK` the K is -d's data).
      if (/^-[^-]/.test(v))
        for (let k = 1; k < v.length; k++) {
          if (v[k] === "K") return { option: "-K", file: true };
          if (SHORT_WITH_VALUE.curl!.includes(v[k]!)) break;
        }
    } else if (name === "aria2c") {
      // aria2 reads options by getopt_long: any unambiguous prefix of --conf-path (`--conf=x`) too.
      if (o.length >= 6 && "--conf-path".startsWith(o)) return { option: "--conf-path", file: true };
    } else if (name === "ansible") {
      // argparse reads `-aARGS`, `--args`, and any unambiguous prefix of a long option (`--arg`).
      // A cluster of flags may end in -a (`-ba CMD`, `-kKaCMD`): up to the first letter that takes a value.
      if (o.length >= 4 && "--args".startsWith(o)) return { option: "-a" };
      if (/^-[^-]/.test(v))
        for (let k = 1; k < v.length; k++) {
          if (v[k] === "a") return { option: "-a" };
          if (ANSIBLE_VALUED.includes(v[k]!)) break;
        }
    } else if (name === "salt" || name === "salt-call" || name === "salt-ssh" || name === "salt-run") {
      if (v.startsWith("-")) continue;
      // salt's and salt-ssh's first operand is the target (`web1.example.com`), which names minions, not a function.
      if ((name === "salt" || name === "salt-ssh") && !targetSeen) {
        targetSeen = true;
        continue;
      }
      // Functions may be given together, separated by commas (`test.ping,cmd.run`): each is one.
      const fns = v.split(",").filter((f) => /^[a-z_][\w]*\.[\w.]+$/i.test(f));
      if (fns.length > 0) fnSeen = true;
      const fn = fns.find((f) => !SALT_READS.test(f));
      if (fn !== undefined) return { option: fn };
    }
  }
  return undefined;
}

/**
 * Programs that read any unambiguous prefix of a long option as the option (GNU getopt_long, popt):
 * `tar --checkpoint-act=exec=...` and `tar --use-compress-prog=...` run their commands, and so do
 * `wget --use-ask=...` and `aria2c --on-download-comp=...`. The options
 * each has that are themselves a prefix of one above, spelt out, are not it (`tar --checkpoint=10`).
 */
const ABBREVIATED_OPTIONS: Readonly<Record<string, readonly string[]>> = { tar: ["--checkpoint"], gtar: ["--checkpoint"], rsync: [], sort: [], split: [], man: [], ncat: [], wget: [], aria2c: [] };
/**
 * npm's and pnpm's settings that name a program or code they run: the shell of scripts, `NODE_OPTIONS`
 * of scripts (`--require`), git, the editor, browser and viewer, `npm init`'s module, node-gyp. npm reads
 * every `--key=value` (or `--key value`) before `--` as a setting, an unambiguous abbreviation of the
 * key too (`--script-sh=x`); pnpm also `--config.key=value`. Yarn's own program, plugins and environment
 * files, and its rc file, are settings of that kind too (`yarn config set yarnPath`). The project's
 * .npmrc and .yarnrc.yml are the project's, read as package.json's scripts are; a setting on the line,
 * or one a command writes, is the plan's.
 */
const NPM_CODE_SETTINGS = ["script-shell", "node-options", "shell", "editor", "browser", "viewer", "git", "init-module", "node-gyp", "onload-script", "call"];
const YARN_CODE_SETTINGS = ["yarn-path", "plugins", "inject-environment-files", "rc-filename"];
/** A setting's key as npm and Yarn compare it: `scriptShell`, `script_shell` and `SCRIPT-SHELL` are `script-shell`. */
const settingKey = (key: string): string => key.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/_/g, "-").toLowerCase();
/**
 * cargo settings (`--config KEY=VALUE`) that name a program, code or flags it passes to rustc, or the
 * environment of what it runs: the compiler and its wrappers, a target's runner and linker (`target.*`,
 * `host.*`), `[env]`, aliases, credential providers, the documentation browser, git by command line,
 * replaced sources, included files, unstable options. A whole table given inline (`target={...}`) counts
 * as its keys would.
 */
function cargoSettingRuns(key: string): boolean {
  // TOML keys may be quoted either way; an escape in a quoted key (\u002d) may spell any key: refused.
  if (key.includes("\\")) return true;
  const parts = key.replace(/\s*\.\s*/g, ".").replace(/["']/g, "").trim().split(".");
  const [top, second] = [parts[0]!, parts[1]];
  if (["target", "host", "env", "alias", "registries", "source", "unstable", "paths", "include", "credential-provider"].includes(top)) return true;
  if (top === "build") return second === undefined || /^(?:rustc|rustc-wrapper|rustc-workspace-wrapper|rustdoc|rustflags|rustdocflags)$/.test(second);
  if (top === "registry") return second === undefined || second === "credential-provider" || second === "global-credential-providers";
  if (top === "doc") return second === undefined || second === "browser";
  if (top === "net") return second === undefined || second === "git-fetch-with-cli";
  if (top === "profile") return parts.length < 3 || parts[parts.length - 1] === "rustflags";
  return false;
}
/** Options naming the file of a build's rules or tasks: one read from standard input is code plangate does not see. */
const BUILD_FILE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  make: ["-f", "--file", "--makefile"],
  gmake: ["-f", "--file", "--makefile"],
  just: ["-f", "--justfile"],
  nox: ["-f", "--noxfile"],
  tox: ["-c", "--conf"],
  "pre-commit": ["-c", "--config"],
};
/**
 * Options and operands through which a tool runs a Python interpreter it is given, to query it and then to
 * run the project with it (`uv run -p ./py`, `uvx --python`, `pipx run --python`, `pipenv --python`,
 * `virtualenv -p`, `poetry env use ./py`, `pdm use ./py`, `uv python find ./py`): `long` and `short`
 * options, and the subcommands whose operand it is (`operandOf`). One named by its version
 * (PYTHON_VERSION) picks an installed Python; any other is a program named by its path or looked up by
 * name, and is checked as one (see Analysis.interpreters).
 */
const INTERPRETER_OPTIONS: Readonly<Record<string, { long?: readonly string[]; short?: string; operandOf?: readonly (readonly string[])[] }>> = {
  uv: { long: ["--python"], short: "p", operandOf: [["python", "find"], ["python", "pin"]] },
  uvx: { long: ["--python"], short: "p" },
  pipx: { long: ["--python"] },
  pipenv: { long: ["--python"] },
  virtualenv: { long: ["--python"], short: "p" },
  poetry: { operandOf: [["env", "use"]] },
  pdm: { long: ["--python"], operandOf: [["use"], ["venv", "create"]] },
};

/** The words of the line that what a wrapper or runner runs is made of. */
function innerWords(n: Inner): ShellWord[] {
  return n.kind === "argv" ? n.words : n.kind === "script" ? (Array.isArray(n.word) ? n.word : [n.word]) : [];
}

/**
 * ssh settings (`-o Key=value`) that run a command or load code on this machine (XAuthLocation: the
 * xauth program ssh runs for X11 forwarding), or read more settings.
 */
const SSH_COMMAND_KEYS = /^(?:ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|RemoteCommand|Match|Include|SecurityKeyProvider|PKCS11Provider|XAuthLocation)$/i;
/** ssh settings whose arguments are files it reads or writes (known_hosts is appended to, a control socket created). */
const SSH_FILE_KEYS = /^(?:IdentityFile|CertificateFile|UserKnownHostsFile|GlobalKnownHostsFile|ControlPath|IdentityAgent|RevokedHostKeys)$/i;
/** Locale variables, which ssh's own configuration sends (`SendEnv LANG LC_*`): a pattern within them names no variable that changes what runs. */
const SSH_LOCALE_PATTERN = /^(?:LC_[A-Z_*?]*|LANG(?:UAGE)?)$/;
/** Programs whose `+CMD` argument runs a command of theirs (vim's ex commands, less's commands). */
const PLUS_COMMANDS = new Set(["vim", "vi", "nvim", "view", "vimdiff", "ex", "gvim", "less", "more"]);
/** make's variables that name the shell its recipes run with, its flags, more makefiles, or make itself. */
const MAKE_CODE_VARIABLES = new Set(["SHELL", ".SHELLFLAGS", "MAKESHELL", "MAKEFILES", "MAKE"]);
/**
 * A variable definition on make's line that runs code (its name and operator), or undefined: `x!=cmd`
 * runs a command, a value with a function call (`$(shell cmd)`, `$(eval ...)`) runs it when expanded,
 * and SHELL, .SHELLFLAGS, MAKEFILES and MAKE choose what runs.
 */
function makeVariableRuns(word: string): string | undefined {
  const m = /^([^=]*?)(::?:?|[+?!])?=(.*)$/s.exec(word);
  if (!m || m[1]!.trim() === "" || word.startsWith("-")) return undefined;
  const name = m[1]!.trim().split(/\s+/).pop()!;
  const operator = `${m[2] ?? ""}=`;
  if (operator === "!=" || MAKE_CODE_VARIABLES.has(name) || /\$[({][^)}\s$]*[\s$]/.test(m[3]!)) return `${name}${operator}`;
  return undefined;
}

/** The option letters of ssh, scp and sftp that take a value (their getopt strings). */
const SSH_VALUED_LETTERS: Readonly<Record<string, string>> = { ssh: "bceilmopBDEFIJLOPQRSwW", scp: "cDFiJlMoPSX", sftp: "bBcDFiJlloPRsSX" };

/**
 * The values of -o that ssh, scp or sftp reads (undefined: one decided at run time or missing), option
 * clusters read as getopt reads them. ssh's options end at the remote command: the second word that is
 * no option (the first is the destination).
 */
function sshSettings(name: string, args: ShellWord[]): (string | undefined)[] {
  const valued = SSH_VALUED_LETTERS[name]!;
  const out: (string | undefined)[] = [];
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) continue;
    if (v === "--") break;
    if (!v.startsWith("-") || v === "-") {
      if (name === "ssh" && ++operands > 1) break;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      if (!valued.includes(v[k]!)) continue;
      const value = k < v.length - 1 ? v.slice(k + 1) : args[++i]?.value;
      if (v[k] === "o") out.push(value);
      break;
    }
  }
  return out;
}

/**
 * The keyword of an ssh setting as ssh reads it: leading spaces and a leading `=` skipped, quotes
 * dropped (`"ProxyCommand"=x`), up to a space or `=`.
 */
function sshSettingKey(text: string): string {
  const m = /^[\s=]*((?:"[^"]*"|[^\s="])*)/.exec(text)!;
  return m[1]!.replace(/"/g, "");
}

/**
 * The arguments of an ssh setting as ssh splits them (argv_split): after the keyword and its
 * separator (spaces, or one `=` with spaces around it), words split at spaces, with double or single
 * quotes and backslash escapes.
 */
function sshSettingArguments(text: string): string[] {
  const rest = /^[\s=]*(?:"[^"]*"|[^\s="])*\s*=?\s*/.exec(text)![0];
  const out: string[] = [];
  let word: string | undefined;
  let quote = "";
  for (let i = rest.length; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "" && /\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
      continue;
    }
    word ??= "";
    if (c === "\\" && quote !== "'" && i + 1 < text.length) word += text[++i];
    else if (quote === "" && (c === '"' || c === "'")) quote = c;
    else if (c === quote) quote = "";
    else word += c;
  }
  if (word !== undefined) out.push(word);
  return out;
}
/** socat's address types that run a program or a command line (`EXEC:cmd`, `SYSTEM:'cmd'`, `SHELL:cmd`). */
const SOCAT_RUNS = /^(?:EXEC|SYSTEM|SHELL)$/i;
/** socat's address types whose first parameter is a file it opens, creates or binds (`OPEN:f`, `CREATE:f`, `UNIX-LISTEN:sock`). */
const SOCAT_FILES = /^(?:OPEN|CREATE|CREAT|GOPEN|PIPE|UNIX|UNIX-LISTEN|UNIX-L|UNIX-CONNECT|UNIX-SENDTO|UNIX-RECVFROM|UNIX-RECV|UNIX-CLIENT|UNIX-DGRAM|UNIX-SEQPACKET)$/i;
/** socat's address options whose value is a file it writes or reads (`PTY,link=f` makes a symbolic link there). */
const SOCAT_FILE_OPTIONS = /^(?:link|lockfile|waitlock|history|history-file|symbolic-link|openssl-cert|cert|key|cafile|capath|dhparam|dhparams|egd)$/i;
/** The sections of GIT_CODE_KEY: renaming a section to one of them makes its keys settings git runs. */
const GIT_CODE_SECTION = /^(?:alias|core|sequence|diff|difftool|mergetool|merge|filter|credential|gpg|pager|interactive|uploadpack|remote|protocol|https?|include|includeif|sendemail|web|browser|man|init|ssh)(?:\.|$)/i;
/** `git config`'s options that take the next word as their value. */
const GIT_CONFIG_VALUED = new Set(["-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"]);
/** `git config` forms that only read or remove settings. */
const GIT_CONFIG_READS = new Set(["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list", "--unset", "--unset-all", "--remove-section", "--show-origin", "--show-scope", "--name-only", "get", "list", "unset", "remove-section"]);

/** `git config` calls that only read: get and list, in the old options' and the subcommands' spelling. */
const GIT_CONFIG_ONLY_READS = new Set(["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list", "get", "list"]);
/** `git config` options and subcommands that change the file without a value operand. */
const GIT_CONFIG_CHANGES = new Set(["--unset", "--unset-all", "--remove-section", "--rename-section", "-e", "--edit", "--add", "--replace-all", "set", "unset", "remove-section", "rename-section", "edit"]);

/**
 * The configuration file outside the workspace a `git config` call changes: `~/.gitconfig` for
 * `--global` (under HOME or XDG_CONFIG_HOME), `/etc/gitconfig` for `--system`; undefined for a read, or
 * for the repository's own file.
 */
function gitConfigWritesFile(words: ShellWord[]): string | undefined {
  let scope: string | undefined;
  let operands = 0;
  let changes = false;
  for (let k = 0; k < words.length; k++) {
    const v = words[k]!.value;
    if (v === undefined) {
      operands++;
      continue;
    }
    if (v === "--global") scope = "~/.gitconfig";
    else if (v === "--system") scope = "/etc/gitconfig";
    else if (GIT_CONFIG_ONLY_READS.has(v.split("=")[0]!)) return undefined;
    else if (GIT_CONFIG_CHANGES.has(v)) changes = true;
    else if (GIT_CONFIG_VALUED.has(v)) k++;
    else if (!v.startsWith("-") || v === "-") operands++;
  }
  return scope !== undefined && (changes || operands >= 2) ? scope : undefined;
}

/**
 * The setting a `git config …` call writes, when git would run what it names (`git config
 * core.hooksPath x`, `git config set alias.x '!rm y'`, a section renamed to `alias`), or the words
 * plangate cannot read as one ("…" for a word decided at run time).
 */
function gitConfigSets(words: ShellWord[]): string | undefined {
  const operands: (string | undefined)[] = [];
  let rename = false;
  let reads = false;
  for (let k = 0; k < words.length; k++) {
    const v = words[k]!.value;
    if (v === undefined) {
      operands.push(undefined);
      continue;
    }
    if (operands.length === 0 && (v === "set" || v === "rename-section")) {
      rename ||= v === "rename-section";
      continue;
    }
    if (operands.length === 0 && GIT_CONFIG_READS.has(v)) reads = true;
    else if (v === "--rename-section") rename = true;
    else if (GIT_CONFIG_READS.has(v.split("=")[0]!) && v.startsWith("-")) reads = true;
    else if (GIT_CONFIG_VALUED.has(v)) k++;
    else if (!v.startsWith("-") || v === "-") operands.push(v);
  }
  if (reads && !rename) return undefined;
  if (rename) {
    const to = operands[1];
    return operands.length < 2 ? undefined : to === undefined ? "…" : GIT_CODE_SECTION.test(to) ? to : undefined;
  }
  if (operands.length < 2) return undefined;
  const key = operands[0];
  return key === undefined ? "…" : GIT_CODE_KEY.test(key) ? key : undefined;
}
/**
 * git subcommands' options that name a program or command line git runs (`fetch --upload-pack='sh -c
 * ...' .` runs it through the shell for a local repository, `grep -O'cmd'` runs it as the pager,
 * `archive --exec`, `send-email --to-cmd`, `instaweb --httpd`, `daemon --access-hook`), or a folder of
 * hooks or another repository whose hooks and settings run later (`clone --template`,
 * `--separate-git-dir`): long ones (git reads any unambiguous prefix of them) and short ones (also in
 * a cluster, `-qu`).
 */
const GIT_SUBCOMMAND_RUNS: Readonly<Record<string, { long: readonly string[]; short?: string }>> = {
  fetch: { long: ["--upload-pack"] },
  pull: { long: ["--upload-pack"] },
  clone: { long: ["--upload-pack", "--template", "--separate-git-dir"], short: "u" },
  init: { long: ["--template", "--separate-git-dir"] },
  "ls-remote": { long: ["--upload-pack"], short: "u" },
  "fetch-pack": { long: ["--upload-pack", "--exec"] },
  push: { long: ["--receive-pack", "--exec"] },
  "send-pack": { long: ["--receive-pack", "--exec"] },
  archive: { long: ["--exec"] },
  grep: { long: ["--open-files-in-pager"], short: "O" },
  "send-email": { long: ["--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd"] },
  instaweb: { long: ["--httpd", "--browser", "--module-path"], short: "dbm" },
  "web--browse": { long: ["--browser", "--cmd", "--config"], short: "bc" },
  daemon: { long: ["--access-hook"] },
};
/** git's global options that take the next word as their value. */
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--list-cmds", "--attr-source"]);
/** Programs whose arguments are text, not files. */
/** The awks whose programs are read (src/commands/awk.ts). */
/**
 * Programs that read what to run from a manifest of the project, found by name (in the folder, one above
 * it, or one an option names): make's makefiles, just's justfile, the package managers' package.json
 * (with the scripts a subcommand runs, when it is known: `npm test` runs pretest, test and posttest).
 */
interface Manifest {
  files: readonly string[];
  options: readonly string[];
  scripts?: (args: ShellWord[]) => readonly string[] | undefined;
  /** The program reads the manifest for these lines only (`deno task`, not `deno run`). */
  only?: (args: ShellWord[]) => boolean;
}
const MAKEFILES: Manifest = { files: ["GNUmakefile", "makefile", "Makefile"], options: ["-f", "--file", "--makefile"] };
const JUSTFILES: Manifest = { files: ["justfile", ".justfile"], options: ["-f", "--justfile"] };
/** The lifecycle scripts of package.json an install runs. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"];
/** Subcommands of the package managers that run package.json's scripts, with the scripts they run. */
const PACKAGE_SUBCOMMANDS: ReadonlyMap<string, readonly string[] | "named"> = new Map<string, readonly string[] | "named">([
  ...["run", "run-script", "rum", "urn"].map((s) => [s, "named"] as const),
  ...["test", "t", "tst"].map((s) => [s, ["pretest", "test", "posttest"]] as const),
  ["start", ["prestart", "start", "poststart"]],
  ["stop", ["prestop", "stop", "poststop"]],
  ["restart", ["prerestart", "restart", "postrestart", "prestop", "stop", "poststop", "prestart", "start", "poststart"]],
  ...["install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isntal", "isntall", "ci", "clean-install", "install-clean", "add", "update", "up", "upgrade", "rebuild", "rb"].map((s) => [s, INSTALL_SCRIPTS] as const),
  // What runs the package's binaries, not its scripts.
  ...["exec", "x", "dlx", "ls", "list", "view", "info", "outdated", "audit", "why", "version", "--version", "-v", "help", "--help", "config", "whoami"].map((s) => [s, []] as const),
]);
/** package.json's scripts a package manager's line runs: undefined when it may be any of them. */
function packageScripts(args: ShellWord[]): readonly string[] | undefined {
  const i = args.findIndex((w) => w.value === undefined || !w.value.startsWith("-"));
  if (i < 0) return args.length === 0 ? INSTALL_SCRIPTS : undefined;
  const sub = args[i]!.value;
  if (sub === undefined) return undefined;
  // `npm version patch` runs the version scripts (`npm version` alone prints).
  if (bumpsVersion("npm", args)) return ["preversion", "version", "postversion"];
  const known = PACKAGE_SUBCOMMANDS.get(sub);
  if (known === "named") {
    const script = args.slice(i + 1).find((w) => w.value === undefined || !w.value.startsWith("-"))?.value;
    return script === undefined ? undefined : [`pre${script}`, script, `post${script}`];
  }
  return known;
}
const PACKAGE_JSON: Manifest = { files: ["package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "bunfig.toml", "pnpm-workspace.yaml"], options: [], scripts: packageScripts };
/** Programs that run a package's binary by its name (`npx vitest`). */
const PACKAGE_RUNNERS = new Set(["npx", "pnpx", "bunx"]);
/** Task runners whose files are lists of commands or code to run (go-task, rake, tox, nox, invoke, fabric, poethepoet, deno task). */
const TASKFILES: Manifest = { files: ["Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml"], options: ["-t", "--taskfile"] };
const RAKEFILES: Manifest = { files: ["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"], options: ["-f", "--rakefile"] };
const TOX: Manifest = { files: ["tox.ini"], options: ["-c", "--conf"] };
const NOX: Manifest = { files: ["noxfile.py"], options: ["-f", "--noxfile"] };
const INVOKE: Manifest = { files: ["tasks.py"], options: ["-c", "--collection"] };
const FABRIC: Manifest = { files: ["fabfile.py"], options: ["-f", "--fabfile"] };
const POE: Manifest = { files: ["pyproject.toml"], options: ["-C", "--root"] };
const DENO_TASKS: Manifest = { files: ["deno.json", "deno.jsonc", "package.json"], options: ["-c", "--config"], only: (args) => args.find((w) => w.value === undefined || !w.value.startsWith("-"))?.value === "task" };
const MANIFESTS: ReadonlyMap<string, Manifest> = new Map([
  ["make", MAKEFILES],
  ["gmake", MAKEFILES],
  ["just", JUSTFILES],
  ["task", TASKFILES],
  ["go-task", TASKFILES],
  ["rake", RAKEFILES],
  ["tox", TOX],
  ["nox", NOX],
  ["invoke", INVOKE],
  ["inv", INVOKE],
  ["fab", FABRIC],
  ["poe", POE],
  ["deno", DENO_TASKS],
  ["npm", PACKAGE_JSON],
  ["pnpm", PACKAGE_JSON],
  ["yarn", PACKAGE_JSON],
  ["bun", PACKAGE_JSON],
]);

/** Programs that run a script file of another language given as their first operand (a TypeScript runner: node's code). */
const SCRIPT_RUNNERS: ReadonlyMap<string, string> = new Map([
  ["tsx", "node"], ["ts-node", "node"], ["ts-node-esm", "node"], ["esno", "node"], ["esrun", "node"], ["babel-node", "node"], ["vite-node", "node"], ["jiti", "node"], ["zx", "node"],
]);
/**
 * Programs that run a script file of their language named among their operands (after a subcommand, when
 * they take one): found by its ending, and judged as that language's code (`java X.java` runs the file
 * as a program, `jupyter nbconvert --execute x.ipynb` runs the notebook's cells).
 */
const FILE_RUNNERS: ReadonlyMap<string, { ext: RegExp; interpreter: string; sub?: readonly string[]; firstOnly?: true }> = new Map([
  ["java", { ext: /\.java$/i, interpreter: "java", firstOnly: true }],
  ["jshell", { ext: /\.(?:jsh|java)$/i, interpreter: "java" }],
  ["kotlin", { ext: /\.kts$/i, interpreter: "kotlin" }],
  ["kotlinc", { ext: /\.kts$/i, interpreter: "kotlin" }],
  ["swift", { ext: /\.swift$/i, interpreter: "swift" }],
  ["dotnet", { ext: /\.csx?$/i, interpreter: "dotnet", sub: ["run", "script", "exec"] }],
  ["escript", { ext: /./, interpreter: "erlang", firstOnly: true }],
  ["runghc", { ext: /\.l?hs$/i, interpreter: "haskell" }],
  ["runhaskell", { ext: /\.l?hs$/i, interpreter: "haskell" }],
  ["stack", { ext: /\.l?hs$/i, interpreter: "haskell", sub: ["runghc", "runhaskell", "script", "exec"] }],
  ["cabal", { ext: /\.l?hs$/i, interpreter: "haskell", sub: ["run", "exec"] }],
  ["k6", { ext: /\.[cm]?[jt]s$/i, interpreter: "node", sub: ["run"] }],
  ["cscript", { ext: /\.(?:vbs|js|wsf)$/i, interpreter: "wscript" }],
  ["wscript", { ext: /\.(?:vbs|js|wsf)$/i, interpreter: "wscript" }],
  ["jupyter", { ext: /\.ipynb$/i, interpreter: "python", sub: ["nbconvert", "execute", "run"] }],
  ["papermill", { ext: /\.ipynb$/i, interpreter: "python" }],
  ["mix", { ext: /\.exs?$/i, interpreter: "elixir", sub: ["run"] }],
  ["pdm", { ext: /\.pyw?$/i, interpreter: "python", sub: ["run"] }],
  ["m4", { ext: /./, interpreter: "m4", firstOnly: true }],
  ["ansible-playbook", { ext: /\.ya?ml$/i, interpreter: "ansible" }],
]);
/** Options of `uv run` that take the next word as their value. */
const UV_RUN_VALUED = new Set(["--with", "-w", "--with-editable", "--with-requirements", "--python", "-p", "--project", "--directory", "--package", "--extra", "--group", "--only-group", "--no-group", "--index", "--default-index", "--index-url", "--extra-index-url", "--find-links", "-f", "--env-file", "--config-file", "--cache-dir", "--script", "-s", "--gui-script"]);

/**
 * The script file a runner is given that scriptFileOf does not read: `uv run x.py` (python), `tsx x.ts`
 * and the other TypeScript runners (node), `go run main.go` (go): the first operand, when it is a file
 * of that language.
 */
function scriptOfRunner(name: string, args: ShellWord[]): { word: ShellWord; interpreter: string } | undefined {
  const first = (from: number, valued: ReadonlySet<string>) => {
    for (let i = from; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) return undefined;
      if (v === "--") return args[i + 1];
      if (!v.startsWith("-")) return args[i];
      if (valued.has(v)) i++;
    }
    return undefined;
  };
  const runner = SCRIPT_RUNNERS.get(name);
  if (runner !== undefined) {
    // `tsx watch x.ts`: the script after the subcommand.
    const at = args[0]?.value === "watch" ? 1 : 0;
    const w = first(at, new Set(["-r", "--require", "--import", "--tsconfig", "-P", "--project", "-C", "--conditions"]));
    return w?.value !== undefined ? { word: w, interpreter: runner } : undefined;
  }
  const byFile = FILE_RUNNERS.get(name);
  if (byFile !== undefined) {
    // The first operand, after the subcommand a runner takes (`k6 run x.js`, `dotnet run x.cs`, `stack runghc x.hs`).
    let from = 0;
    if (byFile.sub !== undefined) {
      const at = args.findIndex((w) => w.value === undefined || !w.value.startsWith("-"));
      if (at < 0 || !byFile.sub.includes(args[at]!.value ?? "")) return undefined;
      from = at + 1;
    }
    for (let i = from; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) return undefined;
      if (byFile.ext.test(v)) return { word: args[i]!, interpreter: byFile.interpreter };
      if (!v.startsWith("-") && byFile.sub === undefined && byFile.firstOnly) return undefined;
    }
    return undefined;
  }
  const sub = args.findIndex((w) => w.value === undefined || !w.value.startsWith("-"));
  if (sub < 0 || args[sub]!.value !== "run") return undefined;
  if (name === "uv") {
    const w = first(sub + 1, UV_RUN_VALUED);
    return w?.value !== undefined && /\.pyw?$/i.test(w.value) ? { word: w, interpreter: "python" } : undefined;
  }
  if (name === "go") {
    const w = first(sub + 1, new Set(["-exec", "-o", "-C", "-tags", "-ldflags", "-gcflags", "-mod", "-modfile", "-overlay", "-pkgdir", "-toolexec"]));
    return w?.value !== undefined && /\.go$/i.test(w.value) ? { word: w, interpreter: "go" } : undefined;
  }
  return undefined;
}

const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "original-awk", "bwk-awk", "onetrue-awk", "goawk", "frawk"]);
const TEXT_ONLY = new Set(["echo", "printf", "true", "false", ":"]);
/**
 * Programs that only read the files they are given, whatever their options: none writes a file or runs a
 * program (GNU and BSD alike). Their operands are reads, which a protected path allows, as a read tool's
 * do; a redirection on the same line is a write all the same. (`sort -o`, `uniq in out`, `tee`, `xxd -r`,
 * `file -C`, `tree -o`, `find`, `rg --pre`, `less` and `git` write or run something, and are not here.)
 */
/** Programs that search files for a text: a marker word among their arguments is what they look for. */
const SEARCHERS = new Set(["grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ack-grep", "pt", "git"]);
/** A word that is only a marker, or an option whose value after `=` is one. */
const MARKER_WORD = /^(?:[^=]*=)?\s*(TODO|TBD|FIXME)\s*$/;
const READERS = new Set(["cat", "head", "tail", "wc", "ls", "grep", "egrep", "fgrep", "diff", "cmp", "stat", "du", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "realpath", "readlink", "basename", "dirname", "nl", "od"]);
/** Files that are no file: the standard streams and the null device. */
const DEVICES = /^\/dev\/(?:null|stdin|stdout|stderr|tty|fd\/\d+)$/;
const DECLARATIONS = new Set(["export", "declare", "typeset", "local", "readonly"]);
const ARITH_TESTS = /^-(?:eq|ne|lt|le|gt|ge)$/;
/** Builtins that evaluate an argument as arithmetic or as a variable name with a subscript. */
const SUBSCRIPT_EVALUATORS = new Set([...DECLARATIONS, "let", "unset", "read", "mapfile", "readarray", "getopts", "wait", "printf", "test", "[", "[[", "((", "shift", "return", "exit", "ulimit", "kill"]);

/**
 * Git hook installers, which write a repository's hooks or point git at a folder of hooks (its
 * core.hooksPath in .git/config): code git runs at later commits and pushes, which no word of the line
 * names. `git lfs install` is read in git's subcommands.
 */
const HOOK_INSTALLERS: Readonly<Record<string, { subcommands: readonly string[] | "any"; writes: string }>> = {
  "pre-commit": { subcommands: ["install", "init-templatedir", "uninstall"], writes: ".git/hooks/pre-commit" },
  lefthook: { subcommands: ["install", "add", "uninstall"], writes: ".git/hooks/pre-commit" },
  husky: { subcommands: "any", writes: ".git/config" },
  "simple-git-hooks": { subcommands: "any", writes: ".git/hooks/pre-commit" },
  overcommit: { subcommands: ["--install", "--uninstall", "-i", "--sign"], writes: ".git/hooks/pre-commit" },
  // git-lfs by its own name, as `git lfs` (its filters go to ~/.gitconfig too: see gitLfsUserSettings).
  "git-lfs": { subcommands: ["install", "update", "uninstall"], writes: ".git/hooks/pre-push" },
};

/** The files a hook installer writes that no word of its line names (`pre-commit install`, `husky`). */
function hookInstallerWrites(name: string, args: readonly ShellWord[]): string[] {
  // pre-commit run as Python's module (`python3 -m pre_commit install`): its words after the module.
  if (/^(?:python|py|pypy)[0-9.]*$/.test(name)) {
    const m = args.findIndex((w) => w.value === "-m" || w.value === "-mpre_commit");
    if (m < 0 || (args[m]!.value === "-m" && args[m + 1]?.value !== "pre_commit")) return [];
    return hookInstallerWrites("pre-commit", args.slice(args[m]!.value === "-m" ? m + 2 : m + 1));
  }
  if (!Object.hasOwn(HOOK_INSTALLERS, name)) return [];
  const { subcommands, writes } = HOOK_INSTALLERS[name]!;
  if (name === "git-lfs") {
    const sub = args.find((w) => w.value === undefined || !w.value.startsWith("-"));
    if (sub !== undefined && sub.value !== undefined && !subcommands.includes(sub.value)) return [];
    const out = args.some((w) => w.value === "--skip-repo") ? [] : [writes];
    if (sub?.value !== "update" && !args.some((w) => w.value === "--local" || w.value === "--worktree")) out.push("~/.gitconfig");
    return sub === undefined ? [] : out;
  }
  if (subcommands === "any") return args.some((w) => w.value === "--help" || w.value === "-h" || w.value === "--version" || w.value === "-v") ? [] : [writes];
  return args.some((w) => w.value === undefined || subcommands.includes(w.value)) ? [writes] : [];
}

/** A file a download writes: named by a URL (the word it is in), or a folder the server may write any file in. */
interface Downloaded {
  text: string;
  word?: ShellWord;
  tree?: true;
}

/** curl's and wget's long options that let the server or a list name what is written (a prefix of one too). */
const SERVER_NAMES: Record<string, readonly string[]> = {
  curl: ["--remote-header-name", "--config"],
  wget: ["--recursive", "--mirror", "--page-requisites", "--force-directories", "--protocol-directories", "--content-disposition", "--trust-server-names", "--input-file", "--execute", "--config", "--base"],
};
/** The short options of the same meaning, in a cluster too (`-LJO`, `-rnp`). */
const SERVER_NAMES_SHORT: Record<string, string> = { curl: "JK", wget: "rmpxieB" };
/** The short options that take a value (the rest of their cluster, or the next word). */
const SHORT_WITH_VALUE: Record<string, string> = { curl: "AbcCdDEeFHhKmoPQrtTuUwXxYyz", wget: "OoaiBtTwQPeUlARDIXn" };

/**
 * The files a download names by its URL, which no word of the line spells: `curl -O` (`--remote-name`,
 * `--remote-name-all`) writes each URL's last segment, and wget does unless `-O` names the file (wget's
 * `index.html` for none), in `--output-dir` or `-P`. Where
 * the server or a list may name the files (`curl -J`, `-K`; `wget -r`, `-m`, `-p`, `-x`, `-i`, `-e`,
 * `--content-disposition`), the folder is written whole. Options are recognised in clusters and by any
 * prefix of a long option, and a word that may be an option's value counts as a URL: a false name can
 * only refuse, never pass, a line.
 */
function downloadedFiles(name: "curl" | "wget", args: ShellWord[]): Downloaded[] {
  let named = name === "wget";
  let explicit = false;
  let server = false;
  let folder = "";
  const urls: ShellWord[] = [];
  const longs = (v: string, list: readonly string[]) => v.length > 3 && list.some((o) => o.startsWith(v));
  const dirOption = name === "curl" ? "--output-dir" : "--directory-prefix";
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) continue;
    if (v === "--") {
      urls.push(...args.slice(i + 1));
      break;
    }
    if (v.startsWith("--")) {
      const { name: o, attached } = optionName(v);
      if (longs(o, SERVER_NAMES[name]!)) server = true;
      if (name === "curl" && longs(o, ["--remote-name", "--remote-name-all"])) named = true;
      if (name === "wget" && longs(o, ["--output-document"])) explicit = true;
      if (longs(o, [dirOption])) folder = attached ?? args[++i]?.value ?? "";
      continue;
    }
    if (v.startsWith("-") && v.length > 1) {
      // A cluster: letters until one that takes a value, which is the rest of the word or the next word.
      for (let k = 1; k < v.length; k++) {
        const c = v[k]!;
        if (SERVER_NAMES_SHORT[name]!.includes(c)) server = true;
        if (c === "O") {
          if (name === "curl") named = true;
          else explicit = true;
        }
        if (!SHORT_WITH_VALUE[name]!.includes(c)) continue;
        const value = k + 1 < v.length ? v.slice(k + 1) : args[++i]?.value ?? "";
        if (name === "wget" && c === "P") folder = value;
        break;
      }
      continue;
    }
    urls.push(args[i]!);
  }
  const base = folder === "" ? "" : folder.endsWith("/") ? folder : `${folder}/`;
  if (server && (named || name === "wget")) return [{ text: folder === "" ? "." : folder, tree: true }];
  if (!named || explicit) return [];
  const out: Downloaded[] = [];
  for (const word of urls) {
    const url = word.value;
    if (url === undefined) continue;
    // The path of the URL: after the scheme and host (curl takes a word without a scheme for a host and a path).
    const path = url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/+/, "").replace(/[?#].*$/s, "");
    const slash = path.indexOf("/");
    const last = slash < 0 ? "" : path.slice(path.lastIndexOf("/") + 1);
    // Percent escapes are read by the path checks, as in any path (`.git%2fconfig` is `.git/config` to them).
    const file = last === "" ? (name === "wget" ? "index.html" : undefined) : last;
    if (file !== undefined) out.push({ text: base + file, word });
  }
  return out;
}

/** Programs that write every file under a folder operand with one of these options (`-R` in a cluster too). */
const RECURSIVE_WRITERS: Readonly<Record<string, { short: string; long: readonly string[] }>> = {
  rm: { short: "rR", long: ["--recursive"] },
  chmod: { short: "R", long: ["--recursive"] },
  chown: { short: "R", long: ["--recursive"] },
  chgrp: { short: "R", long: ["--recursive"] },
  chcon: { short: "R", long: ["--recursive"] },
  setfacl: { short: "R", long: ["--recursive"] },
  chattr: { short: "R", long: [] },
  cp: { short: "rRa", long: ["--recursive", "--archive"] },
  rsync: { short: "ra", long: ["--recursive", "--archive", "--delete", "--delete-before", "--delete-during", "--delete-after", "--delete-delay", "--delete-excluded", "--mirror"] },
};
/** Programs that delete every path they are given, folders with all they hold, whatever the options. */
const TREE_REMOVERS = new Set(["rimraf", "trash", "trash-put", "del-cli"]);
/**
 * Is `word` the long option `long`, or an abbreviation of it (`--recurs`, rsync's `--del`), with or
 * without a value? GNU programs accept any unambiguous prefix; an ambiguous one is an error, so
 * counting it too refuses nothing that would run.
 */
function isLongOption(word: string, long: string): boolean {
  const name = word.split("=")[0]!;
  return name.length >= 3 && long.startsWith(name);
}
/** cp's and mv's target folder given as an option: `--target-directory=dir` (or a prefix of it), `-tdir`, `-rtdir`. */
const TARGET_OPTION = /^(?:--t[a-z-]*=|-[A-Za-z]*t.)/;

/**
 * What some options' values are, by the program's grammar, where the general reading of words would
 * get them wrong: `text`, a value that names no file (setfacl's ACL, `-m u:x:rwx`, which would read as
 * a Windows drive path); `paths`, the files a word names besides what the general reading finds (cp's
 * target folder glued to `-t`, `-tconf`, which holds no `/`).
 */
type OptionValues = Map<ShellWord, { text?: true; paths?: string[] }>;

/** The short options of cp, mv, install and ln that take a value (the rest of their cluster, or the next word). */
const SHORT_VALUED: Readonly<Record<string, string>> = { cp: "St", mv: "St", ln: "St", install: "Sgmot" };
/** setfacl's options whose value is an ACL, and those whose value is a file. */
const SETFACL_ACL = new Set(["--modify", "--remove", "--set"]);
const SETFACL_FILE = new Set(["--modify-file", "--remove-file", "--set-file", "--restore"]);

/** The variable that names the backups GNU's cp, mv, ln, install and patch make when no option does. */
const BACKUP_SUFFIX_VARIABLE = "SIMPLE_BACKUP_SUFFIX";

/** `envSuffix`: the value SIMPLE_BACKUP_SUFFIX is set to for the program, when it is set and known. */
function optionValues(name: string, args: ShellWord[], envSuffix?: string): OptionValues | undefined {
  const base = name.startsWith("g") && Object.hasOwn(SHORT_VALUED, name.slice(1)) ? name.slice(1) : name;
  const out: OptionValues = new Map();
  if (Object.hasOwn(DESTINATION_OPTIONS, name)) {
    // The folder an archive or a patch is unpacked in: a value glued to its option (`-Cvendor`, `7z x -ovendor`),
    // and tar's later -C read from the folder before it (`-C a -C ../b` unpacks in a/../b), in place of the word's own reading.
    for (const { word, dir } of destinationWords(name, args)) out.set(word, { text: true, paths: [dir] });
    return out;
  }
  if (base === "setfacl") {
    // GNU getopt reads options anywhere before `--`: -m/-x ACL (--modify, --remove, --set), -M/-X FILE.
    for (let i = 0; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) continue;
      if (v === "--") break;
      if (v.startsWith("--")) {
        const { name: o, attached } = optionName(v);
        if (SETFACL_ACL.has(o)) {
          if (attached !== undefined) out.set(args[i]!, { text: true });
          else if (args[i + 1]) out.set(args[++i]!, { text: true });
        } else if (SETFACL_FILE.has(o) && attached === undefined) i++;
        continue;
      }
      if (!v.startsWith("-") || v === "-") continue;
      for (let k = 1; k < v.length; k++) {
        const c = v[k]!;
        if (c !== "m" && c !== "x" && c !== "M" && c !== "X") continue;
        const glued = k < v.length - 1;
        if (c === "m" || c === "x") {
          if (glued) out.set(args[i]!, { text: true });
          else if (args[i + 1]) out.set(args[i + 1]!, { text: true });
        }
        if (!glued) i++;
        break;
      }
    }
    return out;
  }
  if (base === "chown" || base === "chgrp" || base === "gchown" || base === "gchgrp") {
    // The first operand is the owner (`u:g`, which would read as a Windows drive path) or group, unless
    // --reference names a file to copy them from; --from's value is an owner too. getopt reads options
    // anywhere before `--`.
    const words = args.filter((w) => w.value !== undefined);
    let reference = false;
    for (const w of words) if (w.value === "--") break;
    else if (isLongOption(w.value!, "--reference")) reference = true;
    let ended = false;
    for (let i = 0; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) return out;
      if (!ended && v === "--") {
        ended = true;
        continue;
      }
      if (!ended && v.startsWith("--")) {
        const { name: o, attached } = optionName(v);
        if (o === "--from" || o === "--reference") {
          if (attached !== undefined) {
            if (o === "--from") out.set(args[i]!, { text: true });
          } else if (args[i + 1]) {
            if (o === "--from") out.set(args[i + 1]!, { text: true });
            i++;
          }
        }
        continue;
      }
      if (!ended && v.startsWith("-") && v !== "-") continue;
      if (!reference) out.set(args[i]!, { text: true });
      return out;
    }
    return out;
  }
  if (base === "git") {
    const checkout = gitCheckout(args);
    // The URL is read as before (a local repository is a path); the folder named after it is written whole.
    if (checkout !== undefined && checkout.word.value !== checkout.folder) out.set(checkout.word, { paths: [checkout.folder] });
    return out;
  }
  if (base === "go") {
    // A package pattern names the packages in a folder and below it (`./...`, `./cmd/...`): the folder is
    // the path (the word as a file name is `...`, which Windows reads as `.`).
    for (const w of args) {
      const m = w.value === undefined ? null : /^(?:(.*)\/)?\.\.\.$/s.exec(w.value);
      if (m) out.set(w, { text: true, paths: [m[1] === undefined || m[1] === "" ? "." : m[1]] });
    }
    return out;
  }
  if (base === "rsync") {
    // rsync's backups of the files it replaces take its --suffix (`-b --suffix=nv a/.e dir` writes dir/.env).
    const values = args.map((w) => w.value);
    const at = values.findIndex((v) => v !== undefined && isLongOption(v, "--suffix"));
    const suffix = at < 0 ? undefined : values[at]!.includes("=") ? values[at]!.slice(values[at]!.indexOf("=") + 1) : values[at + 1];
    const operands = args.filter((w, k) => w.value !== undefined && !w.value.startsWith("-") && !(k === at + 1 && !values[at]!.includes("=")));
    const dest = operands.at(-1);
    if (suffix !== undefined && suffix !== "" && dest !== undefined && operands.length > 1 && !/^[^/]*:/.test(dest.value!)) {
      const base = (w: ShellWord) => w.value!.replace(/\/+$/, "").split("/").at(-1)!;
      out.set(dest, { paths: [`${dest.value!.replace(/\/+$/, "")}${suffix}`, ...operands.slice(0, -1).map((w) => `${dest.value!.replace(/\/+$/, "")}/${base(w)}${suffix}`)] });
    }
    return out;
  }
  const valued = Object.hasOwn(SHORT_VALUED, base) ? SHORT_VALUED[base]! : undefined;
  if (valued === undefined) return undefined;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined || !v.startsWith("-") || v.startsWith("--")) {
      if (v === "--") break;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      if (!valued.includes(v[k]!)) continue;
      // A value glued to -t is the target folder (`-tconf`, `-rtconf`); a value in the next word is an operand already.
      if (k < v.length - 1 && v[k] === "t") out.set(args[i]!, { paths: [v.slice(k + 1)] });
      if (k === v.length - 1) i++;
      break;
    }
  }
  // A backup of the file replaced, named by the suffix given (`cp -b -S .py x tests/t` moves tests/t's text to tests/t.py),
  // or by SIMPLE_BACKUP_SUFFIX when backups are made without one (`SIMPLE_BACKUP_SUFFIX=.py cp -b x tests/t`).
  const suffix = backupSuffix(args) ?? (envSuffix !== undefined && envSuffix !== "" && makesBackups(args, valued) ? envSuffix : undefined);
  if (suffix !== undefined) {
    const operands = args.filter((w, k) => w.value !== undefined && !w.value.startsWith("-") && !/^-[A-Za-z]*[St]$|^--(?:s|su|suf|suff|suffi|suffix|t[a-z-]*)$/.test(args[k - 1]?.value ?? ""));
    const add = (w: ShellWord, paths: string[]) => out.set(w, { ...out.get(w), paths: [...(out.get(w)?.paths ?? []), ...paths] });
    const base = (w: ShellWord) => w.value!.replace(/\/+$/, "").split("/").at(-1)!;
    // The folder -t or --target-directory names: each source's backup is in it.
    // A cluster's letters up to the first that takes a value (`-Stx`: the suffix tx, no target).
    const letters = (v: string) => v.slice(1, [...v.slice(1)].findIndex((c) => valued.includes(c) && c !== "t") + 1 || undefined);
    const t = args.findIndex((w) => w.value !== undefined && (w.value.startsWith("--") ? /^--t[a-z-]*(?:=|$)/.test(w.value) : w.value.startsWith("-") && letters(w.value).includes("t")));
    const glued = t >= 0 && !/^--t[a-z-]*$|^-[A-Za-z]*t$/.test(args[t]!.value!);
    const target = t < 0 ? undefined : glued ? args[t] : args[t + 1];
    const folder = target?.value === undefined ? undefined : !glued ? target.value : target.value.startsWith("--") ? target.value.slice(target.value.indexOf("=") + 1) : target.value.slice(target.value.indexOf("t") + 1);
    if (target !== undefined && folder !== undefined) add(target, operands.filter((w) => w !== target).map((w) => `${folder}/${base(w)}${suffix}`));
    else {
      const dest = operands.at(-1);
      // The destination replaced, or, when it is a folder, the file of each source's name in it.
      if (dest !== undefined && operands.length > 1) add(dest, [`${dest.value!}${suffix}`, ...operands.slice(0, -1).map((w) => `${dest.value!}/${base(w)}${suffix}`)]);
    }
  }
  return out;
}

/** Do cp's, mv's, ln's or install's words ask for backups (`-b`, a cluster holding it, `--backup[=kind]`)? `valued`: the letters that take a value. */
function makesBackups(args: ShellWord[], valued: string): boolean {
  for (const w of args) {
    const v = w.value;
    if (v === undefined) return true;
    if (v === "--") return false;
    if (v.startsWith("--")) {
      if (isLongOption(v, "--backup")) return true;
      continue;
    }
    if (!v.startsWith("-")) continue;
    for (const c of v.slice(1)) {
      if (c === "b") return true;
      if (valued.includes(c)) break;
    }
  }
  return false;
}

/** The suffix cp, mv, ln and install give the backup of a file they replace, when the words name one (`-S .bak`, `--suffix=.bak`). */
function backupSuffix(args: ShellWord[]): string | undefined {
  let suffix: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined || v === "--") break;
    if (v.startsWith("--")) {
      if (isLongOption(v, "--suffix")) suffix = v.includes("=") ? v.slice(v.indexOf("=") + 1) : args[++i]?.value;
      continue;
    }
    const m = /^-[A-Za-z]*?S(.*)$/.exec(v);
    if (m !== null && !/^-[A-Za-z]*t/.test(v.slice(0, v.indexOf("S")))) suffix = m[1] !== "" ? m[1] : args[++i]?.value;
  }
  return suffix;
}

/** find's expression words that delete, or run a program on, every file found. */
const FIND_ACTS = /^-(?:delete|exec|execdir|ok|okdir)$/;

/**
 * The operands of an invocation that name folders it writes everything under, or "cwd" when it works on
 * the folder it runs in (`find -delete` or `git clean` without one): `rm -r`, `chmod -R` and the like,
 * `cp -r`, `rsync -a`, `mv` (it moves all a folder holds), `find`'s starting points when it deletes or
 * runs a program on what it finds, `git clean`'s paths.
 */
function treeOperands(name: string, args: ShellWord[]): Set<ShellWord> | "cwd" | undefined {
  const values = args.map((w) => w.value);
  const operands = () => new Set(args.filter((w) => w.value === undefined || !w.value.startsWith("-")));
  const base = name.startsWith("g") && (Object.hasOwn(RECURSIVE_WRITERS, name.slice(1)) || ["mv", "find"].includes(name.slice(1))) ? name.slice(1) : name;
  // The folder cp and mv write into may be an option's value (`cp -r --target-directory=. src`).
  const withTarget = () => {
    const all = operands();
    if (base === "cp" || base === "mv")
      for (const w of args)
        if (w.value !== undefined && TARGET_OPTION.test(w.value) && (!w.value.startsWith("--") || isLongOption(w.value, "--target-directory"))) all.add(w);
    return all;
  };
  if (base === "mv") return withTarget();
  if (TREE_REMOVERS.has(base)) return operands();
  // setfacl --restore sets the ACLs of whatever files its backup names, as an archive writes what it holds.
  if (base === "setfacl" && values.some((v) => v === undefined || isLongOption(v, "--restore"))) return "cwd";
  const spec = Object.hasOwn(RECURSIVE_WRITERS, base) ? RECURSIVE_WRITERS[base] : undefined;
  if (spec) {
    // A cluster's letters up to a glued value count (`setfacl -Rmu:x:rwx`: -R, then -m's value).
    const letters = (v: string) => (v.startsWith("--") ? "" : (/^-([A-Za-z]+)/.exec(v)?.[1] ?? ""));
    const recursive = values.some((v) => v !== undefined && (spec.long.some((l) => isLongOption(v, l)) || [...spec.short].some((c) => letters(v).includes(c))));
    return recursive ? withTarget() : undefined;
  }
  if (base === "find") {
    if (!values.some((v) => v === undefined || FIND_ACTS.test(v))) return undefined;
    let i = 0;
    while (i < args.length && /^-(?:[HLP]|O\d*|D)$/.test(values[i] ?? "")) i += values[i] === "-D" ? 2 : 1;
    const starts = new Set<ShellWord>();
    for (; i < args.length; i++) {
      const v = values[i];
      if (v !== undefined && /^(?:-.|[(!)])/.test(v)) break;
      starts.add(args[i]!);
    }
    return starts.size === 0 ? "cwd" : starts;
  }
  const extracts = archiveDestination(base, args, values);
  if (extracts !== undefined) return extracts;
  if (name === "git") {
    // git apply and git am write whatever files the patches name (a patch the plan wrote can name .git or the policy).
    let k = 0;
    while (k < args.length && values[k] !== undefined && values[k]!.startsWith("-")) k += GIT_OPTIONS_WITH_VALUE.has(values[k]!) || values[k] === "-c" ? 2 : 1;
    const sub = values[k];
    if (sub === "apply" || sub === "am") {
      const rest = values.slice(k + 1);
      const readOnly = sub === "apply" && !rest.includes("--apply") && rest.some((v) => v === "--check" || v === "--stat" || v === "--numstat" || v === "--summary" || v === "--cached");
      return readOnly ? undefined : "cwd";
    }
    const checkout = gitCheckout(args);
    if (checkout !== undefined) return new Set([checkout.word]);
    const c = values.indexOf("clean");
    if (c < 0 || values.slice(0, c).some((v, k) => v === undefined || (!v.startsWith("-") && !["-C", "--git-dir", "--work-tree"].includes(values[k - 1] ?? "")))) return undefined;
    const paths = new Set<ShellWord>();
    for (let i = c + 1; i < args.length; i++) {
      const v = values[i];
      if (v === "-e" || v === "--exclude") i++;
      else if (v === "--") continue;
      else if (v === undefined || !v.startsWith("-")) paths.add(args[i]!);
    }
    return paths.size === 0 ? "cwd" : paths;
  }
  return undefined;
}

/**
 * Where an archive extractor or a patch program writes the files its input names (`tar -x`, `unzip`,
 * `7z x`, `cpio -i`, `ar x`, `patch`): its destination option's word, or "cwd"; undefined when it
 * extracts nothing (`tar -t`, `unzip -l`, `patch --dry-run`) or is no extractor. The archive or patch
 * may name any file, `.git/hooks/…` or the policy among them, so its destination is written whole.
 */
function archiveDestination(program: string, args: ShellWord[], values: (string | undefined)[]): Set<ShellWord> | "cwd" | undefined {
  const valueOf = (): Set<ShellWord> | undefined => {
    const words = destinationWords(program, args).map((d) => d.word);
    return words.length > 0 ? new Set(words) : undefined;
  };
  if (program === "tar" || program === "bsdtar" || program === "gtar") {
    const first = values[0];
    const extract = values.some((v) => v === undefined || v === "--extract" || v === "--get" || (/^-[A-Za-z]+$/.test(v) && v.includes("x"))) || (first !== undefined && /^[A-Za-z]+$/.test(first) && first.includes("x"));
    return extract ? (valueOf() ?? "cwd") : undefined;
  }
  // unzip lists, tests or prints (-l, -t, -v, -p, -z, -Z) without writing; letters after -d are its folder (`-dtools`).
  if (program === "unzip") return values.some((v, k) => v !== undefined && values[k - 1] !== "-d" && /^-[A-Za-ce-z]*[lptvzZ]/.test(v)) ? undefined : (valueOf() ?? "cwd");
  if (program === "7z" || program === "7za" || program === "7zz" || program === "7zr") return values[0] === "x" || values[0] === "e" ? (valueOf() ?? "cwd") : undefined;
  if (program === "cpio") return values.some((v) => v === undefined || v === "--extract" || (/^-[A-Za-z]+$/.test(v) && v.includes("i"))) ? (valueOf() ?? "cwd") : undefined;
  if (program === "ar") return values[0] !== undefined && /^-?[A-Za-z]*x/.test(values[0]) ? "cwd" : undefined;
  if (program === "patch" || program === "gpatch") return values.some((v) => v === "--dry-run" || v === "-C" || v === "--check") ? undefined : (valueOf() ?? "cwd");
  return undefined;
}

/**
 * The options of a program that copies, archives or links files (see copySources): its short options
 * without a value and with one (the rest of the cluster, or the next word), its long options without a
 * separate value and with one. An option outside them may take a value plangate would read as an
 * operand, so the invocation's words are then all counted as written, as before.
 */
interface CopyGrammar {
  flags: string;
  valued: string;
  long: readonly string[];
  longValued: readonly string[];
  /** The short option, and the long one, that name the folder written into (`-t`, `--target-directory`): every operand is then a source. */
  target?: readonly [string, string];
  /** The options whose value is written, not read (tar's archive, `-f`). */
  writes?: string;
  longWrites?: readonly string[];
  /** Options that make the program change or remove what it reads (`rsync --remove-source-files`), or create folders (`install -d`). */
  changes?: readonly string[];
}
const GNU_COPY_LONG = ["backup", "force", "interactive", "verbose", "help", "version", "no-target-directory", "context"];
const COPY_GRAMMARS: Readonly<Record<string, CopyGrammar>> = {
  cp: {
    flags: "aAbdfFHilLnPpRrsTuvxZ",
    valued: "St",
    long: [...GNU_COPY_LONG, "archive", "attributes-only", "copy-contents", "debug", "dereference", "link", "no-clobber", "no-dereference", "one-file-system", "parents", "preserve", "recursive", "reflink", "remove-destination", "strip-trailing-slashes", "symbolic-link", "update", "keep-directory-symlink"],
    longValued: ["suffix", "target-directory", "no-preserve", "sparse"],
    target: ["t", "target-directory"],
  },
  install: {
    flags: "bcCDpsTvZ",
    valued: "Sgmot",
    long: [...GNU_COPY_LONG, "compare", "debug", "preserve-timestamps", "strip", "preserve-context"],
    longValued: ["group", "mode", "owner", "suffix", "target-directory", "strip-program"],
    target: ["t", "target-directory"],
    changes: ["-d", "directory"],
  },
  ln: {
    flags: "bdFfinLPrsTv",
    valued: "St",
    long: [...GNU_COPY_LONG, "directory", "logical", "no-dereference", "physical", "relative", "symbolic"],
    longValued: ["suffix", "target-directory"],
    target: ["t", "target-directory"],
  },
  rsync: {
    flags: "vqcarRbulLkKHpEAXogDtOJSnWxyzCFPhi8s460ImNU",
    valued: "efBTM@",
    long: ["archive", "recursive", "verbose", "quiet", "compress", "delete", "delete-before", "delete-during", "delete-after", "delete-delay", "delete-excluded", "checksum", "update", "links", "copy-links", "hard-links", "perms", "executability", "acls", "xattrs", "owner", "group", "devices", "specials", "times", "omit-dir-times", "omit-link-times", "sparse", "dry-run", "whole-file", "no-whole-file", "one-file-system", "existing", "ignore-existing", "progress", "partial", "human-readable", "itemize-changes", "stats", "mkpath", "relative", "no-relative", "inplace", "append", "append-verify", "prune-empty-dirs", "numeric-ids", "ignore-times", "size-only", "force", "safe-links", "copy-unsafe-links", "keep-dirlinks", "copy-dirlinks", "no-implied-dirs", "backup", "cvs-exclude", "help", "version", "list-only", "fuzzy", "no-motd", "8-bit-output", "protect-args", "secluded-args", "ipv4", "ipv6", "no-perms", "no-owner", "no-group", "no-times", "fake-super", "crtimes", "atimes", "open-noatime", "devices", "archive"],
    longValued: ["exclude", "include", "filter", "exclude-from", "include-from", "files-from", "rsh", "rsync-path", "temp-dir", "compare-dest", "copy-dest", "link-dest", "backup-dir", "suffix", "log-file", "log-file-format", "out-format", "password-file", "partial-dir", "chmod", "chown", "usermap", "groupmap", "timeout", "contimeout", "bwlimit", "max-size", "min-size", "max-delete", "modify-window", "port", "sockopts", "protocol", "iconv", "block-size", "checksum-choice", "compress-choice", "compress-level", "skip-compress", "info", "debug", "stop-after", "stop-at", "outbuf", "remote-option", "address", "checksum-seed", "max-alloc", "copy-as"],
    // What rsync writes besides its destination: its log, a batch, its backups and partial files.
    writes: "T",
    longWrites: ["log-file", "write-batch", "only-write-batch", "backup-dir", "partial-dir", "temp-dir"],
    changes: ["remove-source-files", "remove-sent-files", "write-batch", "only-write-batch"],
  },
  scp: { flags: "346ABCOpqRrTv", valued: "cDFiJlMoPSX", long: [], longValued: [] },
  ditto: {
    flags: "hVvXcxzjk",
    valued: "",
    long: ["keepParent", "rsrc", "norsrc", "extattr", "noextattr", "qtn", "noqtn", "acl", "noacl", "sequesterRsrc", "nocache", "hfsCompression", "nohfsCompression", "preserveHFSCompression", "nopreserveHFSCompression", "password"],
    longValued: ["arch", "bom", "zlibCompressionLevel"],
  },
  tar: {
    flags: "AcdrtuxjJzZavkmopPhlOwWBiMRsSUGn",
    valued: "bCfFgHIKLNTVX",
    long: ["create", "append", "update", "catenate", "concatenate", "extract", "get", "list", "diff", "compare", "delete", "gzip", "gunzip", "ungzip", "bzip2", "xz", "lzip", "lzma", "lzop", "zstd", "compress", "uncompress", "auto-compress", "verbose", "dereference", "hard-dereference", "absolute-names", "preserve-permissions", "same-permissions", "numeric-owner", "sparse", "one-file-system", "exclude-vcs", "exclude-vcs-ignores", "exclude-backups", "exclude-caches", "exclude-caches-all", "exclude-caches-under", "no-recursion", "recursion", "totals", "verify", "wildcards", "no-wildcards", "anchored", "no-anchored", "ignore-case", "no-ignore-case", "null", "no-null", "unquote", "no-unquote", "acls", "no-acls", "xattrs", "no-xattrs", "selinux", "no-selinux", "keep-old-files", "skip-old-files", "overwrite", "touch", "ignore-failed-read", "ignore-zeros", "seek", "no-seek", "full-time", "utc", "show-transformed-names", "show-stored-names", "check-links", "force-local", "multi-volume", "interactive", "confirmation", "read-full-records", "posix", "atime-preserve", "no-same-owner", "same-owner", "no-same-permissions", "delay-directory-restore", "unlink-first", "recursive-unlink", "checkpoint", "help", "version", "clamp-mtime"],
    longValued: ["file", "directory", "files-from", "exclude-from", "exclude", "listed-incremental", "index-file", "volno-file", "use-compress-program", "to-command", "info-script", "new-volume-script", "format", "label", "newer", "after-date", "newer-mtime", "blocking-factor", "record-size", "tape-length", "starting-file", "rsh-command", "owner", "group", "mode", "mtime", "transform", "xform", "suffix", "strip-components", "sort", "quoting-style", "hole-detection", "level", "pax-option", "warning", "checkpoint-action", "exclude-tag", "exclude-tag-under", "exclude-tag-all", "add-file", "owner-map", "group-map"],
    // The archive, and the snapshot and index files, are written; every other value is read.
    writes: "fgV",
    longWrites: ["file", "listed-incremental", "index-file", "volno-file"],
    changes: ["remove-files"],
  },
  zip: { flags: "rqvjDyXoufFlkgAwTRz0123456789", valued: "", long: [], longValued: [] },
};

/** Does a package runner run a package from a folder (`npx ./pkg`, `npm exec --package=./pkg p`), which is run as a file rather than fetched? */
function localPackage(args: ShellWord[]): boolean {
  const local = (v: string | undefined) => v !== undefined && /^(?:\.{1,2}(?:\/|$)|\/|~|file:)/.test(v);
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) continue;
    if (v.startsWith("--package=") && local(v.slice(10))) return true;
    if ((v === "--package" || v === "-p") && local(args[i + 1]?.value)) return true;
    if (!v.startsWith("-") && local(v)) return true;
  }
  return false;
}

/** find's tests whose value is a pattern or a file it only reads (`-name '*.pyc'`, `-newer ref`), not a file it writes. */
const FIND_READS = new Set(["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname", "-newer", "-anewer", "-cnewer", "-samefile"]);

/**
 * The words of find that it matches names against or only reads (FIND_READS's values), and its starting
 * points when all it does to what it finds is delete it (`find . -name '*.pyc' -delete`: no text comes in).
 */
function findPatterns(args: ShellWord[]): Set<ShellWord> | undefined {
  const out = new Set<ShellWord>();
  if (args.some((w) => w.value === undefined)) return undefined;
  for (let i = 0; i < args.length - 1; i++) if (FIND_READS.has(args[i]!.value!)) out.add(args[++i]!);
  const acts = args.filter((w) => FIND_ACTS.test(w.value!) || /^-f(?:print|print0|printf|ls)$/.test(w.value!));
  if (acts.length > 0 && acts.every((w) => w.value === "-delete")) {
    let i = 0;
    while (i < args.length && /^-(?:[HLP]|O\d*|D)$/.test(args[i]!.value!)) i += args[i]!.value === "-D" ? 2 : 1;
    for (; i < args.length && !/^(?:-.|[(!)])/.test(args[i]!.value!); i++) out.add(args[i]!);
  }
  return out.size > 0 ? out : undefined;
}

/**
 * The words of a copy, an archive's creation or a link that name what it reads (`cp`'s, `rsync`'s,
 * `install`'s, `ln`'s, `scp`'s and `ditto`'s sources; the files and folders `tar -c` or `zip` put in
 * the archive, with tar's `-C` folders): what the program writes is its destination alone (the last
 * operand, the folder `-t` names, the archive). Undefined when the words leave that open: a word known
 * only at run time, an option plangate does not know (it may take the next word as its value), an option
 * after the first operand (GNU programs read those as options, others as operands), an option that
 * changes or removes what is read (`rsync --remove-source-files`, `tar --remove-files`, `zip -m`), or a
 * single operand. `mv` is not among them: its sources are gone once it has run.
 */
function copySources(program: string, args: ShellWord[]): Set<ShellWord> | undefined {
  if (program === "find" || program === "gfind") return findPatterns(args);
  const name = program === "gcp" || program === "ginstall" || program === "gln" || program === "gtar" || program === "bsdtar" ? (program === "bsdtar" ? "tar" : program.slice(1)) : program;
  const g = Object.hasOwn(COPY_GRAMMARS, name) ? COPY_GRAMMARS[name]! : undefined;
  if (g === undefined || args.length === 0 || args.some((w) => w.value === undefined)) return undefined;
  const values = args.map((w) => w.value!);
  const operands: ShellWord[] = [];
  const read = new Set<ShellWord>();
  let target = false;
  let creates = name !== "tar";
  let i = 0;
  // tar's first word may be its options without a dash (`tar czf out.tgz src`): each letter that takes a value takes the next word.
  if (name === "tar" && /^[A-Za-z]+$/.test(values[0]!)) {
    const letters = values[i++]!;
    for (const c of letters) {
      if (g.valued.includes(c)) {
        const w = args[i++];
        if (w === undefined) return undefined;
        if (!g.writes!.includes(c)) read.add(w);
      } else if (!g.flags.includes(c)) return undefined;
      if ("cruA".includes(c)) creates = true;
    }
  }
  let ended = false;
  for (; i < args.length; i++) {
    const v = values[i]!;
    if (!ended && v === "--") {
      ended = true;
      continue;
    }
    if (ended || !v.startsWith("-") || v === "-") {
      operands.push(args[i]!);
      continue;
    }
    // Options after the first operand: GNU programs read them as options, the others as operands.
    if (operands.length > 0) return undefined;
    if (v.startsWith("--")) {
      const { name: o, attached } = optionName(v);
      const long = o.slice(2);
      if (g.changes?.includes(long)) return undefined;
      if (name === "tar" && /^(?:create|append|update|catenate|concatenate)$/.test(long)) creates = true;
      if (g.longValued.includes(long)) {
        if (g.target?.[1] === long) target = true;
        if (attached !== undefined) continue;
        const w = args[++i];
        if (w === undefined) return undefined;
        // A value read (tar's -C folder, a list of files, a mode, a pattern): no write; a value written (the archive, a log, -t's folder) stays one.
        if (!g.longWrites?.includes(long) && g.target?.[1] !== long) read.add(w);
        continue;
      }
      if (g.long.includes(long) || (attached !== undefined && g.longWrites === undefined && !g.target)) continue;
      return undefined;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (g.changes?.includes(`-${c}`)) return undefined;
      if (name === "tar" && "cruA".includes(c)) creates = true;
      if (g.valued.includes(c)) {
        if (g.target?.[0] === c) target = true;
        if (k < v.length - 1) break;
        const w = args[++i];
        if (w === undefined) return undefined;
        if (!(g.writes ?? "").includes(c) && g.target?.[0] !== c) read.add(w);
        break;
      }
      if (!g.flags.includes(c)) return undefined;
    }
  }
  if (!creates) return undefined;
  if (name === "zip") {
    // zip ARCHIVE FILE…: the first operand is written.
    if (operands.length < 2) return undefined;
    for (const w of operands.slice(1)) read.add(w);
    return read;
  }
  if (name === "tar") {
    for (const w of operands) read.add(w);
    return read;
  }
  if (target) {
    for (const w of operands) read.add(w);
    return read;
  }
  if (operands.length < 2) return undefined;
  for (const w of operands.slice(0, -1)) read.add(w);
  // A destination on another host (`host:dir`, `user@host:dir`, rsync's `host::module`) writes nothing here.
  const last = operands.at(-1)!;
  if ((name === "rsync" || name === "scp") && /^[^/]*:/.test(last.value!) && !/^[A-Za-z]:[\\/]/.test(last.value!)) read.add(last);
  return read;
}

/** The options naming the folder an archive or a patch is unpacked in: the short one (its value may be glued) and the long one. */
const DESTINATION_OPTIONS: Readonly<Record<string, readonly [string, string]>> = {
  tar: ["-C", "--directory"],
  bsdtar: ["-C", "--directory"],
  gtar: ["-C", "--directory"],
  unzip: ["-d", "--extract-dir"],
  "7z": ["-o", "-o"],
  "7za": ["-o", "-o"],
  "7zz": ["-o", "-o"],
  "7zr": ["-o", "-o"],
  cpio: ["-D", "--directory"],
  patch: ["-d", "--directory"],
  gpatch: ["-d", "--directory"],
};

/**
 * Each word of an archive or patch program naming the folder it unpacks in, with that folder: a glued
 * value (`-Cout`) is one; tar's -C options each apply from the folder before, as its directory changes
 * follow one another.
 */
function destinationWords(program: string, args: ShellWord[]): { word: ShellWord; dir: string }[] {
  const spec = Object.hasOwn(DESTINATION_OPTIONS, program) ? DESTINATION_OPTIONS[program]! : undefined;
  if (spec === undefined) return [];
  const [short, long] = spec;
  const composes = program === "tar" || program === "bsdtar" || program === "gtar";
  const out: { word: ShellWord; dir: string }[] = [];
  let at: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) continue;
    if (v === "--") break;
    let word: ShellWord | undefined;
    let dir: string | undefined;
    // unzip's -d may close a cluster of its flags (`-qd out`, `-qdout`).
    const cluster = program === "unzip" ? /^-[A-Za-ce-z]*d/.exec(v)?.[0] : undefined;
    if (v === short || v === long || v === cluster) {
      word = args[++i];
      dir = word?.value;
    } else if (v.startsWith(`${long}=`)) [word, dir] = [args[i]!, v.slice(long.length + 1)];
    else if (cluster !== undefined) [word, dir] = [args[i]!, v.slice(cluster.length)];
    else if (short.length === 2 && v.startsWith(short) && v.length > 2) [word, dir] = [args[i]!, v.slice(2)];
    if (word === undefined || dir === undefined) continue;
    at = !composes || at === undefined || /^[/~]/.test(dir) ? dir : `${at}/${dir}`;
    out.push({ word, dir: at });
  }
  return out;
}

/**
 * The folder a program works in after the options that name one: the last such word, the folder, and
 * each word with the folder its own value is read from and the folder the program is in after it.
 */
interface Chdir {
  after: ShellWord;
  cwd: string;
  steps: { word: ShellWord; from: string; cwd: string }[];
}

/**
 * Options that make a program, and what it runs, work in another folder (`git -C dir`, `env -C dir`,
 * `sudo -D dir`, `pnpm -C dir exec`, `uv --directory dir run`, `yarn --cwd dir`): the paths after them
 * are read from there. Read up to the program's first operand (git: its subcommand), and for make from
 * anywhere. git and make read each folder from the one before (`git -C a -C ..` works in a/.., so `..`
 * is read from a); the others keep the last one, read from where they started (`env -C a -C b` works in b).
 */
const CHDIR_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  env: ["-C", "--chdir"],
  sudo: ["-D", "--chdir"],
  git: ["-C"],
  pnpm: ["-C", "--dir"],
  uv: ["--directory"],
  poetry: ["-C", "--directory"],
  yarn: ["--cwd"],
  bun: ["--cwd"],
  conda: ["--cwd"],
  mamba: ["--cwd"],
  micromamba: ["--cwd"],
  mise: ["-C", "--cd"],
  nsenter: ["-w", "--wd"],
  unshare: ["-w", "--wd"],
  "systemd-run": ["--working-directory"],
  make: ["-C", "--directory"],
  gmake: ["-C", "--directory"],
  pkgx: ["-C", "--chdir", "--cd"],
  bwrap: ["--chdir"],
  "flatpak-spawn": ["--directory"],
};
/** Programs whose successive folder options each apply from the folder before. */
const COMPOSING_CHDIR = new Set(["git", "make", "gmake"]);

function chdirOf(name: string, args: ShellWord[], cwd: string, limit: number): Chdir | undefined {
  const options = Object.hasOwn(CHDIR_OPTIONS, name) ? CHDIR_OPTIONS[name]! : undefined;
  if (!options) return undefined;
  let found: Chdir | undefined;
  let at = cwd;
  const steps: Chdir["steps"] = [];
  for (let i = 0; i < Math.min(limit, args.length); i++) {
    const v = args[i]!.value;
    if (v === undefined) continue;
    if (v === "--") break;
    for (const o of options) {
      let dir: string | undefined;
      let word = args[i]!;
      if (v === o) {
        const next = args[i + 1];
        if (!next || next.value === undefined) break;
        word = next;
        dir = next.value;
      } else if (o.startsWith("--") ? v.startsWith(`${o}=`) : v.startsWith(o) && v.length > o.length) dir = v.slice(o.length + (o.startsWith("--") ? 1 : 0));
      if (dir === undefined) continue;
      const from = COMPOSING_CHDIR.has(name) ? at : cwd;
      at = /^[/~]/.test(dir) || from === "" ? dir : `${from}/${dir}`;
      steps.push({ word, from, cwd: at });
      found = { after: word, cwd: at, steps };
      if (word !== args[i]) i++;
      break;
    }
  }
  return found;
}

/**
 * The folders a runner's program may run in (see RunsIn): the current one, or the one it names, and with
 * `upward` each folder above that one up to the workspace root (or up to `/` or `~`).
 */
function foldersOf(cwd: string, runsIn: RunsIn | undefined): string[] {
  if (runsIn === undefined) return [cwd];
  const dir = runsIn.dir === undefined ? cwd : /^[/~]/.test(runsIn.dir) || cwd === "" ? runsIn.dir : `${cwd}/${runsIn.dir}`;
  if (!runsIn.upward) return [dir];
  const folders = [dir];
  const root = dir.startsWith("/") ? "/" : dir === "~" || dir.startsWith("~/") ? "~" : "";
  const segments: string[] = [];
  for (const s of dir.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === ".." && segments.length > 0 && segments[segments.length - 1] !== ".." && segments[segments.length - 1] !== "~") segments.pop();
    else segments.push(s);
  }
  const from = root === "~" ? 1 : 0;
  for (let n = segments.length - 1; n >= from; n--) {
    const up = root === "/" ? `/${segments.slice(0, n).join("/")}` : segments.slice(0, n).join("/");
    if (!folders.includes(up)) folders.push(up);
  }
  return folders;
}

/** Where git's own options end: the index of its subcommand. */
/** Options of git clone, git submodule add and git worktree add that take the next word as their value. */
const GIT_CHECKOUT_VALUED = new Set(["-b", "-B", "--branch", "-o", "--origin", "-c", "--config", "--depth", "--reference", "--reference-if-able", "--separate-git-dir", "--template", "-u", "--upload-pack", "-j", "--jobs", "--filter", "--shallow-since", "--shallow-exclude", "--server-option", "--bundle-uri", "--ref-format", "--revision", "--name", "--reason"]);

/**
 * The folder git clone, git submodule add or git worktree add fills with a repository's files (none of them
 * on disk yet): the word that names it, and the folder (for clone and submodule add without one, the
 * repository's name, as git derives it from the URL: `https://host/x/.claude.git` clones into `.claude`).
 */
function gitCheckout(args: ShellWord[]): { word: ShellWord; folder: string } | undefined {
  const at = gitSubcommandAt(args);
  const sub = args[at]?.value;
  let k = at + 1;
  if (sub === "submodule" || sub === "worktree") {
    while (k < args.length && args[k]!.value?.startsWith("-")) k++;
    if (args[k]?.value !== "add") return undefined;
    k++;
  } else if (sub !== "clone") return undefined;
  const operands: ShellWord[] = [];
  for (let ended = false; k < args.length; k++) {
    const v = args[k]!.value;
    if (!ended && v === "--") ended = true;
    else if (!ended && v !== undefined && v.startsWith("-") && v !== "-") {
      if (GIT_CHECKOUT_VALUED.has(v)) k++;
    } else operands.push(args[k]!);
  }
  if (sub === "worktree") return operands[0]?.value === undefined ? undefined : { word: operands[0]!, folder: operands[0]!.value! };
  const [url, dir] = operands;
  if (dir !== undefined) return dir.value === undefined ? undefined : { word: dir, folder: dir.value };
  if (url?.value === undefined) return undefined;
  const name = url.value.replace(/[/\\]+$/, "").replace(/\.git$/, "").replace(/[/\\]+$/, "").split(/[/\\:]/).pop();
  return name === undefined || name === "" ? undefined : { word: url, folder: name };
}

function gitSubcommandAt(args: ShellWord[]): number {
  let i = 0;
  while (i < args.length && args[i]!.value !== undefined && args[i]!.value!.startsWith("-")) i += GIT_OPTIONS_WITH_VALUE.has(args[i]!.value!) || args[i]!.value === "-c" ? 2 : 1;
  return i;
}

/** Checks one command line against the mode and the policy's commands. */
export function analyseCommand(reader: ShellReader, text: string, mode: CommandMode, policy: CommandPolicy): CommandReport {
  const a = new Analysis(reader, mode === "single" && !policy.allowCompound, policy);
  a.script(reader.parse(text), 0);
  return a.report;
}

const ANY_PROGRAM: CommandPolicy = { allow: [], deny: [], allowCompound: true };

/**
 * The source text of every simple command a line runs, in order: those joined by `;`, `&&`, `||`, `&`,
 * `|` and newlines, those inside command and process substitutions and compound commands, and those run
 * by wrappers (`sh -c '…'`, `xargs`, `env`, `sudo`, `find -exec`…), each with its assignments and
 * redirections (a here-document's operator included). Undefined when the line cannot be read to the end:
 * a parse problem, a command line or program decided at run time, a wrapper plangate cannot see into;
 * and when it runs anything in the background (`a &`, also inside `( … )`, `{ … }` or `sh -c`): a
 * background job outlives the call and runs beside the steps after it, which a host's own background
 * flag (Claude Code's `run_in_background`) would have made a call of its own.
 */
export function simpleCommandsWith(reader: ShellReader, line: string): string[] | undefined {
  const a = new Analysis(reader, false, ANY_PROGRAM);
  try {
    a.script(reader.parse(line), 0);
  } catch {
    return undefined;
  }
  if (a.unreadable || a.background) return undefined;
  return a.texts;
}

let loadedReader: ShellReader | undefined;

/** Makes `simpleCommandsOf` usable: loads the shell parser (once). */
export async function prepareSimpleCommands(): Promise<void> {
  const { loadShellReader } = await import("../syntax/shell/parse.js");
  loadedReader ??= await loadShellReader();
}

/** `simpleCommandsWith` on the loaded parser; undefined too when `prepareSimpleCommands` has not run. */
export function simpleCommandsOf(line: string): string[] | undefined {
  return loadedReader ? simpleCommandsWith(loadedReader, line) : undefined;
}

/**
 * A folder the shell may be in at a point of the line: the folder, pushd's stack, and the `cd`s
 * (pushd, popd) assumed to have failed on the way there.
 */
interface Where {
  cwd: string;
  dirs: readonly string[];
  failed: ReadonlySet<SimpleCommand>;
  /** `set -e` is in force: a command whose failure is fatal ends the shell. */
  errexit: boolean;
  /** The shell options that change what a pattern matches (`shopt -s dotglob`, `globstar`). */
  globs: Globs;
}
interface Globs {
  dotglob: boolean;
  globstar: boolean;
}
const NO_GLOBS: Globs = { dotglob: false, globstar: false };
/** Is `set -e` in force after `set ARGS` (`-e`, `-eu`, `-o errexit`, `+e`, `+o errexit`)? */
function errexitAfter(before: boolean, args: ShellWord[]): boolean {
  let on = before;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined || v === "--" || v === "-") break;
    if (!/^[-+]/.test(v)) break;
    const sign = v[0] === "-";
    for (const c of v.slice(1)) {
      if (c === "e") on = sign;
      else if (c === "o") {
        const option = args[++i]?.value;
        if (option === "errexit") on = sign;
      }
    }
  }
  return on;
}

/**
 * The pattern options in force after `shopt ARGS`: `-s` sets the options it names, `-u` unsets them
 * (`-o` names set's options instead). A name decided at run time may be either: it counts as set.
 */
function globsAfter(before: Globs, args: ShellWord[]): Globs {
  const values = args.map((w) => w.value);
  const flags = values.filter((v) => v !== undefined && /^-[a-z]+$/.test(v)).join("");
  if (flags.includes("o") || flags.includes("p") || flags.includes("q") && !flags.includes("s")) return before;
  const names = values.filter((v) => v === undefined || !v.startsWith("-"));
  const set = flags.includes("s");
  if (!set && !flags.includes("u")) return before;
  const after = { ...before };
  for (const n of names) {
    if (n === undefined) {
      if (set) [after.dotglob, after.globstar] = [true, true];
      continue;
    }
    if (n === "dotglob") after.dotglob = set;
    if (n === "globstar") after.globstar = set;
  }
  return after;
}

/**
 * The name a program is read as: on a file system that ignores case (macOS's, Windows') `SH`, `Sed` and
 * `SUDO` run sh, sed and sudo, and on Windows `sed.exe` (or `C:\Git\bin\sh.exe`) runs sed, as do `sed.com`
 * and `sed.` (Windows drops the dots and spaces a name ends in), and `npm.cmd` or `npm.bat` is what runs
 * for `npm`: each is read as the program it runs, lower case, without those endings and the folders
 * before a backslash. Builtins and keywords are the shell's only as spelt (`CD` is no builtin): what they
 * change in the shell itself is read from the name as spelt.
 */
function programReadAs(spelt: string): string {
  if (!/[A-Z\\]|\.(?:exe|com|bat|cmd)$|[. ]$/i.test(spelt)) return spelt;
  const name = spelt.slice(spelt.lastIndexOf("\\") + 1).toLowerCase();
  // `.` and `..` stay themselves (`.` is the shell's source builtin).
  const bare = name.replace(/[. ]+$/, "").replace(/\.(?:exe|com|bat|cmd)$/, "").replace(/[. ]+$/, "");
  return bare !== "" ? bare : name;
}

/** How many folders the shell may be in at once before the line is refused. */
const MAX_WHERES = 16;
/**
 * How many folders pushd's stack may hold before the line is refused: each folder the shell may be in
 * keeps its own stack, and a line of 1,200 `pushd a;` (10 KB) took 7.6 s to follow.
 */
const MAX_DIRS = 32;
/** The longest folder path, from the workspace, cd and pushd are followed to before the line is refused. */
const MAX_FOLDER = 1024;
/** Builtins that change the shell's folder. */
const FOLDER_BUILTINS = new Set(["cd", "pushd", "popd", "dirs"]);
/** Wrappers that run a builtin in the shell itself, so a folder it moves to outlives them. */
const IN_SHELL = new Set(["builtin", "command", "time"]);
/** No variables set. */
const NO_ENV: ReadonlyMap<string, string | undefined> = new Map();
/**
 * Wrappers that run their program with the environment they were given (`GOBIN=./bin nice go install`);
 * env and exec unless told to clear or unset some of it (see passesEnvironment). Any other wrapper's
 * program is read with only the variables the wrapper itself sets for it (`sudo` resets the environment).
 */
const KEEPS_ENVIRONMENT = new Set(["env", "exec", "nice", "nohup", "timeout", "stdbuf", "setsid", "time", "command", "builtin", "ionice", "taskset", "chrt", "xargs", "flock", "strace", "ltrace", "unbuffer", "eval", "coproc", ...SHELLS]);
/** Wrappers whose program runs as another user, or on another machine: that user's environment and PATH (the system's pip, not the plan's virtual environment). */
const OTHER_USER = new Set(["sudo", "doas", "su", "runuser", "pkexec", "run0", "gosu", "su-exec", "setuidgid", "ssh", "machinectl", "systemd-run"]);

/** Does a wrapper give its program the environment it was given? `env -i`, `env -u NAME`, `exec -c` clear some of it. */
function passesEnvironment(wrapper: string, args: ShellWord[], inner: Inner): boolean {
  if ("runner" in inner && inner.runner === true) return true;
  const program = unprefixed(wrapper);
  if (!KEEPS_ENVIRONMENT.has(program)) return false;
  if (program === "env") return !args.some((w) => w.value === undefined || w.value === "-" || /^--(?:ignore-environment|unset)|^-[A-Za-z0-9]*[iu]/.test(w.value));
  if (program === "exec") return !args.some((w) => w.value === undefined || /^-[A-Za-z]*c/.test(w.value));
  return true;
}

class Analysis {
  readonly report: CommandReport = { findings: [], paths: [], programs: [], markers: [] };
  /** The text of each simple command run (see simpleCommandsWith). */
  readonly texts: string[] = [];
  /** Something the line runs could not be made out. */
  unreadable = false;
  /** Something the line runs is run in the background (`&`), in the line or in a line it runs. */
  background = false;
  private readonly seen = new Set<string>();
  private cwd = "";
  /** pushd's stack of folders, the latest first. */
  private dirs: readonly string[] = [];
  /** `set -e` is in force. */
  private errexit = false;
  /** The shell options in force that change what a pattern matches. */
  private globs: Globs = NO_GLOBS;
  /** The command being read changed the folder (cd, pushd, popd). */
  private moved = false;
  /** The words being read are a search program's (see SEARCHERS). */
  private searching = false;
  /**
   * The command is being read again, from another folder the shell may be in: only the paths it names
   * are recorded again.
   */
  private again = false;
  /** The wrapper whose command line runs in the shell itself (eval, trap), while it is read. */
  private inShell: string | undefined;
  /** The simple command being read may run any number of times (it is in a loop). */
  private repeats = false;
  /** What is being read runs in package folders plangate does not know, through this wrapper and option. */
  private elsewhere: string | undefined;
  private readonly pathKeys = new Set<string>();
  /**
   * A number for each folder the shell may be in: the ways to a command are merged by their folders, and
   * a key made of the folders' text grew with every pushd (1,200 `pushd a;` took 7.6 s).
   */
  private readonly folderIds = new Map<string, number>();
  /** The part of the analysed line being read: the top-level command (or syntax) findings are about. */
  private span: CommandSpan | undefined;
  /**
   * The variables set for the program being read, with their values (undefined: decided at run time):
   * those before it (`GOBIN=./bin go install`), those a wrapper sets for it (`env GOBIN=./bin`), and those
   * the wrapper was given, when it passes its environment on. An `export` on an earlier command is not
   * followed: it may not hold when the program runs (a subshell's), and the default is read then.
   */
  private env: ReadonlyMap<string, string | undefined> = NO_ENV;
  /** The variables a shell reading a nested line (`GOBIN=./bin sh -c '...'`) was started with: each command of the line gets them. */
  private inherited: ReadonlyMap<string, string | undefined> = NO_ENV;
  /** The simple command being read has its standard input from a file (`python < x.py`): that file is its script. */
  private stdinFile = false;
  /** The file the command's standard input is redirected from (`python3 < x.py`). */
  private stdinTarget: ShellWord | undefined;
  /** The program being read runs as another user, or on another machine (`sudo pip install`). */
  private otherUser = false;
  /** The program whose words are being read as paths (CommandPath.program); undefined for a redirection. */
  private owner: string | undefined;
  private readonly runKeys = new Map<string, number>();

  constructor(
    private readonly reader: ShellReader,
    private readonly single: boolean,
    private readonly policy: CommandPolicy,
  ) {}

  /** Records a file the line runs (CommandRun), once per text, folder and reading; its index in report.runs. */
  private run(text: string, as: string, program: string, span: CommandSpan | undefined, extra?: Pick<CommandRun, "anywhere" | "scripts" | "load" | "project">): number {
    // A file a program loads by itself is another run than the same file it reads by its name (package.json's sections, its scripts).
    const key = `${text}\0${this.cwd}\0${as}\0${program}${extra?.load !== undefined ? "\0load" : ""}`;
    const known = this.runKeys.get(key);
    if (known !== undefined) return known;
    const runs = (this.report.runs ??= []);
    const r: CommandRun = { text, cwd: this.cwd, as, program, ...extra };
    if (this.owner !== undefined) r.owner = this.owner;
    const where = span ?? this.span;
    if (where !== undefined) r.span = where;
    runs.push(r);
    this.runKeys.set(key, runs.length - 1);
    return runs.length - 1;
  }

  private find(finding: CommandFinding): void {
    const key = `${finding.rule}\0${finding.messageId}\0${JSON.stringify(finding.data)}`;
    if (this.seen.has(key) || this.report.findings.length >= 50) return;
    this.seen.add(key);
    this.report.findings.push(this.span !== undefined && finding.span === undefined ? { ...finding, span: this.span } : finding);
  }

  /** A finding that leaves part of what the line runs unknown: the line cannot be read to the end. */
  private unreadableFind(finding: CommandFinding): void {
    this.unreadable = true;
    this.find(finding);
  }

  script(s: ShellScript, depth: number): void {
    // Offsets are the analysed line's only at the top: a nested script (`sh -c '…'`) keeps its command's.
    const top = depth === 0;
    if (s.problems.length > 0) {
      // The first problem is worded by the rule (a part of its message): its id and data travel with the finding.
      const { problem, data, start, end } = s.problems[0]!;
      const more = s.problems.length - 1;
      if (top) this.span = { start, end };
      this.unreadableFind({ rule: "parse-error", messageId: more === 0 ? "unreadableCommand" : more === 1 ? "unreadableCommandAndOne" : "unreadableCommandAndMore", data: more === 0 ? { ...data, problem } : { ...data, problem, more } });
      if (top) this.span = undefined;
      return;
    }
    if (s.constructs.some((c) => c.kind === "&")) this.background = true;
    if (this.single && s.constructs.length > 0) {
      const kinds = [...new Set(s.constructs.map((c) => c.kind))].map((k) => (/^[a-z]/.test(k) && !k.startsWith("a ") ? `"${k}"` : k.length <= 3 ? `"${k}"` : k));
      if (top) this.span = { start: s.constructs[0]!.start, end: s.constructs[0]!.end };
      this.find({ rule: "multiple-tools", messageId: "compoundCommand", data: { kinds: kinds.join(", ") } });
    }
    // Variables the syntax sets: a loop's variable, a `{NAME}>file` redirection's.
    for (const a of s.assigned ?? []) this.assignment(a.name);
    // The folders the shell may be in, in each subshell open at the command being read (the line's own first).
    const saved = { cwd: this.cwd, dirs: this.dirs, moved: this.moved, errexit: this.errexit, globs: this.globs };
    // A line a shell is given (`sh -c '...'`) starts without `set -e`, and with the pattern options of its shell (eval's, the same).
    const globs = this.inShell !== undefined ? this.globs : NO_GLOBS;
    const frames: { id: number; wheres: Where[] }[] = [{ id: -1, wheres: [{ cwd: this.cwd, dirs: this.dirs, failed: new Set(), errexit: false, globs }] }];
    // The commands some later one runs only if they succeeded: only their failures need remembering.
    const guarding = new Set<SimpleCommand>();
    for (const cmd of s.commands) for (const g of cmd.guards ?? []) guarding.add(g);
    for (const cmd of s.commands) {
      if (top) this.span = { start: cmd.start, end: cmd.end };
      const chain = cmd.scopes ?? [];
      let keep = 1;
      while (keep < frames.length && frames[keep]!.id === chain[keep - 1]) keep++;
      frames.length = keep;
      for (let k = keep - 1; k < chain.length; k++) {
        const id = chain[k]!;
        // bash clears `set -e` in the subshell of a command substitution.
        const wheres = frames[frames.length - 1]!.wheres;
        frames.push({ id, wheres: s.substitutions?.includes(id) ? wheres.map((w) => ({ ...w, errexit: false })) : wheres });
      }
      const frame = frames[frames.length - 1]!;
      frame.wheres = this.everywhere(frame.wheres, cmd, guarding, () => this.simple(cmd, depth, s.text));
    }
    [this.cwd, this.dirs, this.moved, this.errexit, this.globs] = [saved.cwd, saved.dirs, saved.moved, saved.errexit, saved.globs];
    // A word that mixes scripts reads as another name (`cp a .env` with a Cyrillic `e`): it is reported,
    // and the line is still read, so that a look-alike program name is also judged as a program.
    if (top) {
      const mixed = mixedScriptWord(s.text);
      if (mixed) {
        const start = s.text.indexOf(mixed.word);
        this.span = { start, end: start + mixed.word.length };
        this.find({ rule: "parse-error", messageId: "mixedScriptWord", data: mixed });
        this.span = undefined;
      }
    }
    if (top) this.span = undefined;
  }

  /**
   * Reads a command from each folder the shell may be in when it runs, and says where the shell may be
   * after it. A `cd` may fail (the folder is missing, or is a file), and the shell then goes on where it
   * was: what follows is read from both folders, unless it runs only if the `cd` succeeded (`cd x &&`,
   * `cd x || exit`, `if cd x; then`).
   */
  private everywhere(wheres: Where[], cmd: SimpleCommand, guarding: ReadonlySet<SimpleCommand>, read: () => void): Where[] {
    const guards = cmd.guards ?? [];
    const runs = wheres.filter((w) => !guards.some((g) => w.failed.has(g)));
    const next = wheres.filter((w) => !runs.includes(w));
    const again = this.again;
    try {
      for (const [i, w] of (runs.length > 0 ? runs : wheres.slice(0, 1)).entries()) {
        this.cwd = w.cwd;
        this.dirs = w.dirs;
        this.errexit = w.errexit;
        this.globs = w.globs;
        this.moved = false;
        this.again = again || i > 0;
        read();
        if (runs.length === 0) return wheres;
        next.push({ cwd: this.cwd, dirs: this.dirs, failed: w.failed, errexit: this.errexit, globs: this.globs });
        // A cd that fails leaves the shell where it was, unless `set -e` then ends it.
        if (this.moved && !(w.errexit && cmd.fatal)) next.push({ ...w, errexit: this.errexit, globs: this.globs, failed: guarding.has(cmd) ? new Set([...w.failed, cmd]) : w.failed });
      }
    } finally {
      this.again = again;
    }
    // One entry per folder and stack: the cds assumed failed are those assumed on every way there.
    const merged = new Map<string, Where>();
    for (const w of next) {
      const key = `${this.folderId(w.cwd)}:${w.dirs.map((d) => this.folderId(d)).join(",")}:${w.errexit}:${w.globs.dotglob}:${w.globs.globstar}`;
      const seen = merged.get(key);
      merged.set(key, seen === undefined ? w : { ...w, failed: new Set([...seen.failed].filter((c) => w.failed.has(c))) });
    }
    const out = [...merged.values()];
    if (out.length > MAX_WHERES) {
      this.find({ rule: "unresolved-argument", messageId: "folderNotFollowed", data: { how: "more folder changes than plangate follows" } });
      return out.slice(0, MAX_WHERES);
    }
    return out;
  }

  private simple(cmd: SimpleCommand, depth: number, text: string): void {
    let start = cmd.start;
    let end = cmd.end;
    for (const r of cmd.redirects) {
      start = Math.min(start, r.start);
      end = Math.max(end, r.end);
    }
    if (!this.again) this.texts.push(text.slice(start, end));
    this.repeats = cmd.repeats === true;
    for (const a of cmd.assignments) {
      this.assignment(a.name, a.value === undefined ? "" : a.value.value, cmd.words.length > 0);
      this.storedCode(a.name, a.value?.value);
      if (a.value?.value !== undefined) this.location(a.name, a.value.value, wordSpan(a.value, depth));
      // `TMPDIR=$HOME mktemp`: where the program writes is decided at run time.
      else if (a.value !== undefined && LOCATION_VARIABLES.test(a.name))
        this.find({ rule: "unresolved-argument", messageId: "valueAtRunTime", data: { source: text.slice(a.start, a.end) }, span: wordSpan(a.value, depth) });
    }
    const input = cmd.redirects.filter((r) => r.op === "<" && (r.fd === undefined || r.fd === "0") && r.target?.value !== undefined && !DEVICES.test(r.target.value)).at(-1);
    this.stdinFile = input !== undefined;
    this.stdinTarget = input?.target;
    this.env = cmd.assignments.length === 0 ? this.inherited : new Map([...this.inherited, ...cmd.assignments.map((a) => [a.name, a.value === undefined ? "" : a.value.value] as const)]);
    this.owner = undefined;
    for (const r of cmd.redirects) {
      if (!r.target || r.op === "<<" || r.op === "<<-" || r.op === "<<<") continue;
      const v = r.target.value;
      if ((r.op === ">&" || r.op === "<&") && v !== undefined && /^(?:\d+-?|-)$/.test(v)) continue;
      const at = wordSpan(r.target, depth);
      if (v === undefined) this.find({ rule: "unresolved-argument", messageId: "redirectAtRunTime", data: { source: r.target.source }, span: at });
      // `< file` only reads it; `<>` opens it for writing too.
      else this.path(v, r.target.glob, at, false, r.op === "<");
    }
    if (cmd.words.length > 0) this.invocation(cmd.words, depth);
  }

  /** A variable that says where a program writes (LOCATION_VARIABLES), set to a known value: a path written. */
  private location(name: string, value: string, span: CommandSpan | undefined): void {
    if (value !== "" && LOCATION_VARIABLES.test(name)) this.path(value, false, span);
  }

  /**
   * `value`: the value set, when it is known (an assignment word's, not a declaration's without one).
   * `forProgram`: set for the program of the command alone (`NAME=v cmd`, `env NAME=v cmd`), not for the
   * shell's later commands (`export`, `declare`, `NAME=v;`, `read NAME`), which plangate does not follow.
   */
  private assignment(name: string, value?: string, forProgram = false): void {
    if (name === "CDPATH") this.find({ rule: "unresolved-argument", messageId: "setsCdpath", data: {} });
    // The suffix of the backups cp, mv, ln, install and patch make: followed only where it is set for the program, as a known value without a `/`.
    if (name === BACKUP_SUFFIX_VARIABLE) {
      const how = !forProgram ? "for the commands after it" : value === undefined ? "to a value decided at run time" : value.includes("/") ? "to a value holding /" : undefined;
      if (how !== undefined) this.find({ rule: "unresolved-argument", messageId: "backupSuffixVariable", data: { how } });
    }
    const quiet =
      value !== undefined &&
      ((PAGER_OR_EDITOR.test(name) && QUIET_PROGRAM.test(value)) || (LESS_OPTIONS.test(name) && QUIET_LESS_OPTIONS.test(value)) || QUIET_VALUES.some(([n, q]) => n.test(name) && q(value)));
    if ((REWIRING_VARIABLES.test(name) || YARN_LIST.test(name)) && !quiet)
      this.find({ rule: "disallowed-tool", messageId: "rewiringVariable", data: { name } });
  }

  /**
   * `named`: an allow entry of the program that runs this one names it, which allows it. `fetchedBy`: the
   * package runner that fetches it (CommandGenerates). `asItself`: the package fetched is the tool of that
   * name (loaders.ts fetchedAsItself); when it is not, its words are also read as those of a program
   * plangate does not know, and only an allow entry naming it with its runner allows it.
   */
  private invocation(words: ShellWord[], depth: number, named = false, fetchedBy?: string, asItself = true): void {
    if (depth > MAX_NESTING) {
      this.unreadableFind({ rule: "parse-error", messageId: "nestedTooDeep", data: { depth: MAX_NESTING } });
      return;
    }
    const [argv0, ...args] = words;
    if (!argv0) return;
    if (argv0.value === undefined || argv0.glob || argv0.value === "") {
      this.unreadableFind({ rule: "disallowed-tool", messageId: "programAtRunTime", data: { source: argv0.source } });
      this.args(args, true, depth);
      return;
    }
    const spelt = programName(argv0.value);
    if (!this.again) this.report.programs.push(spelt);
    if (!this.again && MARKER_WORD.test(argv0.value) && !argv0.value.includes("=")) this.report.markers.push({ word: argv0.value.trim(), span: wordSpan(argv0, depth) });
    if (/[^\x21-\x7e]/.test(spelt)) this.find({ rule: "disallowed-tool", messageId: "nonAsciiProgram", data: { program: spelt } });
    this.owner = programReadAs(spelt);
    if (argv0.value.includes("/") && !argv0.value.startsWith("/")) this.path(argv0.value, false, wordSpan(argv0, depth));
    const values = [spelt, ...args.map((w) => w.value)];
    // The program as a file system that ignores case, or Windows, finds it: `SH -c`, `sed.exe`, `C:\bin\ssh.exe`.
    const name = programReadAs(spelt);
    // A program run by its path: a file of the workspace, which the plan may write first. One plangate does not know (`./scripts/ci.sh`, `./gradlew`) is the project's own, which may run any code the plan writes.
    if (argv0.value.includes("/")) this.run(argv0.value, "program", spelt, wordSpan(argv0, depth), interpreterOf(name) === undefined && loadsOf(name, args).length === 0 ? { project: true } : undefined);
    this.runsFiles(name, spelt, args, depth);
    // A package fetched under a program's name (`npx cat`, `npx go`) is not that program: what it runs is the package's.
    const fetchedOnly = fetchedBy !== undefined && !asItself ? `${fetchedBy} ${name}` : undefined;
    if (fetchedBy !== undefined || generatesFiles(name, args)) this.generates(name, fetchedBy);
    // Its words are read as a program plangate does not know is read: the files it is given, those a reader, a copy's source or text would name too, may be written.
    if (fetchedOnly !== undefined) this.generates(fetchedOnly, fetchedBy);
    const rewrites = rewritesFiles(name, args);
    if (rewrites !== undefined) this.rewrites(rewrites.files, rewrites.how, wordSpan(argv0, depth));
    const owner = fetchedOnly ?? (name === "git" ? `git ${args[gitSubcommandAt(args)]?.value ?? ""}` : name);
    this.owner = owner;
    const denied = deniedBy(this.policy, values) ?? (name === spelt ? undefined : deniedBy(this.policy, [name, ...values.slice(1)]));
    if (denied !== undefined) this.find({ rule: "disallowed-tool", messageId: "commandDenied", data: { command: values.map((v) => v ?? "…").join(" "), entry: denied } });
    else if (!named && fetchedOnly !== undefined && this.policy.allow.length > 0) this.find({ rule: "disallowed-tool", messageId: "fetchedNotAllowed", data: { program: spelt, runner: fetchedBy! } });
    else if (!named && !allowed(this.policy, values)) this.find({ rule: "disallowed-tool", messageId: "notAllowed", data: { program: spelt } });
    this.rewiring(name, args);
    this.evaluated(name, args);
    this.namedVariables(name, args);
    if (name === "git") this.git(args);
    this.commandOptions(name, args);
    if (name === "sed" || name === "gsed") this.sedScripts(name, args, depth);
    // Words that are code, not paths: an interpreter's inline code, awk's program (read by awkScripts).
    const code = this.inlineCode(name, spelt, args, depth);
    const programs = AWKS.has(name) ? this.awkScripts(name, args, depth) : [];
    if (code !== undefined) programs.push(code);
    this.toolSettings(name, args);
    this.buildFileFromInput(name, args);
    this.trusts(name, args);
    if (mayWriteOutside(name)) this.writesOutside(name, spelt, argv0, args, depth);

    const runner = isWrapper(name) ? undefined : runnerInner(name, args);
    const inners = isWrapper(name) ? innersOf(name, args) : runner ? runner.inners : [];
    // A wrapper's own options end where what it runs begins.
    // A runner may rename the program's word (`pnpm dlx pkg@1`, `pkgx node@20`): it is found by its place in the line.
    const indexOf = (w: ShellWord) => {
      const k = args.indexOf(w);
      return k >= 0 ? k : args.findIndex((a) => a.start === w.start && a.end === w.end && a.source === w.source);
    };
    const firstInner = Math.min(...inners.map((n) => (n.kind === "argv" ? indexOf(n.words[0]!) : n.kind === "script" ? indexOf(Array.isArray(n.word) ? n.word[0]! : n.word) : -1)).filter((k) => k >= 0), args.length);
    const chdir = chdirOf(name, args, this.cwd, name === "git" ? gitSubcommandAt(args) : firstInner);
    // The tool's own options end where any word of what it runs stands (`uv run -m pytest -p x`: at pytest).
    this.interpreters(name, args, Math.min(args.length, ...inners.flatMap(innerWords).map(indexOf).filter((k) => k >= 0)));
    if (isWrapper(name) || runner) {
      // The words what it runs is made of; a word a wrapper gives another value (a value glued to an option, entr's /_) is found by its place.
      const consumed = new Set<ShellWord>();
      const consumedAt = new Set<string>();
      const consume = (w: ShellWord) => {
        consumed.add(w);
        if (w.end > w.start) consumedAt.add(`${w.start}:${w.end}:${w.source}`);
      };
      const isConsumed = (w: ShellWord) => consumed.has(w) || consumedAt.has(`${w.start}:${w.end}:${w.source}`);
      const outer = this.cwd;
      const [outerDirs, outerMoved] = [this.dirs, this.moved];
      const wrapper = runner?.via ?? name;
      for (const inner of inners) {
        // Variables the wrapper sets for what it runs (`env A=1 prog`, `sudo A=1 prog`, `bwrap --setenv NAME VALUE`).
        if (inner.kind === "none" || inner.kind === "argv" || inner.kind === "script")
          for (const e of inner.env ?? []) {
            this.assignment(e.name, e.value, true);
            this.storedCode(e.name, e.value);
            // `nice TMPDIR=/etc mktemp`, `env -S 'GOBIN=/etc go install x'`: where the program writes, as set before it.
            if (e.value !== undefined) this.location(e.name, e.value, undefined);
          }
        if (inner.kind === "none") continue;
        if (inner.kind === "unknown" || inner.kind === "hidden") {
          // A script file a shell runs: the plan judges its text instead when it writes the file (CommandRun).
          const file = inner.kind === "hidden" ? inner.file?.value : undefined;
          const run = file === undefined || inner.kind !== "hidden" ? undefined : this.run(file, "shell", wrapper, wordSpan(inner.file!, depth));
          // The reason is worded by the rule (a part of its message): its id and data travel with the finding.
          this.unreadableFind({ rule: "disallowed-tool", messageId: inner.kind === "hidden" ? "hiddenCommands" : "wrapperUnknown", data: { ...inner.why.data, wrapper, why: inner.why.id }, ...(run !== undefined ? { run } : {}) });
          continue;
        }
        if (inner.kind === "argv") {
          for (const w of inner.words) consume(w);
          if (!this.again) this.texts.push(inner.words.map((w) => w.source).join(" "));
          if (this.single && !inner.runner) this.find({ rule: "multiple-tools", messageId: "runsThroughWrapper", data: { program: String(inner.words[0]?.value ?? inner.words[0]?.source), wrapper } });
          // An allow entry that names the program run through the wrapper (`npx vitest`, `sudo apt`) allows it.
          const at = args.indexOf(inner.words[0]!);
          // What the wrapper runs works in the folder its -C or --chdir names.
          if (chdir && (indexOf(inner.words[0]!) < 0 || indexOf(inner.words[0]!) > args.indexOf(chdir.after))) this.cwd = chdir.cwd;
          const [away, env, otherUser] = [this.elsewhere, this.env, this.otherUser];
          if (inner.runsIn?.elsewhere !== undefined) this.elsewhere = inner.runsIn.elsewhere.includes(" ") ? inner.runsIn.elsewhere : `${wrapper} ${inner.runsIn.elsewhere}`;
          this.env = this.environmentOf(name, args, inner);
          this.otherUser ||= OTHER_USER.has(name);
          try {
            for (const cwd of foldersOf(this.cwd, inner.runsIn)) {
              this.cwd = cwd;
              // The runner's words up to the package: the program's own operands (`npx degit x ./dir`) name no package.
              const fetched = inner.fetched === true && !localPackage(args.slice(0, indexOf(inner.words[0]!) + 1)) ? name : undefined;
              const itself = fetched === undefined || fetchedAsItself(name, String(inner.words[0]!.value), args.slice(0, Math.max(0, indexOf(inner.words[0]!))));
              this.invocation(inner.words, depth + 1, at >= 0 && allowedNaming(this.policy, values, at + 1), fetched, itself);
            }
          } finally {
            [this.elsewhere, this.env, this.otherUser] = [away, env, otherUser];
          }
          // `builtin cd x`, `command cd x`, `time cd x` move the shell itself; any other program runs apart from it.
          if (!(IN_SHELL.has(spelt) && this.moved)) [this.cwd, this.dirs, this.moved] = [outer, outerDirs, outerMoved];
          // xargs adds the words it reads (file names, most often) to what it runs: as `rm $(cat list)` does.
          if (inner.input && !TEXT_ONLY.has(String(inner.words[0]?.value))) this.find({ rule: "unresolved-argument", messageId: "inputWords", data: { program: String(inner.words[0]?.value ?? inner.words[0]?.source), wrapper } });
          continue;
        }
        const parts = Array.isArray(inner.word) ? inner.word : [inner.word];
        for (const w of parts) consume(w);
        if (this.single && !inner.runner) this.find({ rule: "multiple-tools", messageId: "handsCommandLine", data: { wrapper } });
        if (parts.some((w) => w.value === undefined)) {
          this.unreadableFind({ rule: "disallowed-tool", messageId: "commandLineAtRunTime", data: { wrapper } });
          continue;
        }
        if (chdir) this.cwd = chdir.cwd;
        const line = inner.text ?? parts.map((w) => w.value).join(" ");
        // eval and trap run their command line in the shell itself: a folder change there would outlive it.
        const [inShell, away, inherited, env, otherUser] = [this.inShell, this.elsewhere, this.inherited, this.env, this.otherUser];
        this.inShell = spelt === "eval" || spelt === "trap" ? spelt : undefined;
        if (inner.runsIn?.elsewhere !== undefined) this.elsewhere = inner.runsIn.elsewhere.includes(" ") ? inner.runsIn.elsewhere : `${wrapper} ${inner.runsIn.elsewhere}`;
        this.inherited = this.environmentOf(name, args, inner);
        this.otherUser ||= OTHER_USER.has(name);
        try {
          for (const cwd of foldersOf(this.cwd, inner.runsIn)) {
            this.cwd = cwd;
            this.script(this.reader.parse(line), depth + 1);
          }
        } finally {
          [this.inShell, this.elsewhere, this.inherited, this.env, this.otherUser] = [inShell, away, inherited, env, otherUser];
        }
        this.cwd = outer;
      }
      if (name === "env")
        for (const w of args)
          if (!isConsumed(w) && w.value && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value)) {
            const eq = w.value.indexOf("=");
            this.assignment(w.value.slice(0, eq), w.value.slice(eq + 1), true);
            this.storedCode(w.value.slice(0, eq), w.value.slice(eq + 1));
          }
      this.owner = owner;
      this.args(args.filter((w) => !isConsumed(w)), false, depth, treeOperands(name, args), chdir, undefined, false, fetchedOnly === undefined ? copySources(name, args) : undefined);
      return;
    }
    if (DECLARATIONS.has(name))
      for (const w of args)
        if (w.value && /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?(?:=|$)/.test(w.value)) {
          const eq = w.value.indexOf("=");
          this.assignment(w.value.split(/[=[]/)[0]!, eq >= 0 && !w.value.slice(0, eq).includes("[") ? w.value.slice(eq + 1) : undefined);
          if (eq >= 0) this.storedCode(w.value.split(/[=[]/)[0]!, w.value.slice(eq + 1));
          if (eq >= 0 && !w.value.slice(0, eq).includes("[")) this.location(w.value.slice(0, eq), w.value.slice(eq + 1), wordSpan(w, depth));
        }
    // A reader named by its name alone: `./cat` or `bin/cat` is a file of the workspace, which may be anything.
    const reads = READERS.has(name) && !/[/\\]/.test(argv0.value) && fetchedOnly === undefined;
    this.searching = SEARCHERS.has(name) && fetchedOnly === undefined;
    this.owner = owner;
    try {
      if (fetchedOnly !== undefined) this.args(args, false, depth, treeOperands(name, args), chdir);
      else this.args(args, TEXT_ONLY.has(name) || DECLARATIONS.has(name), depth, treeOperands(name, args), chdir, this.codeIsText(programs, optionValues(name, args, this.env.get(BACKUP_SUFFIX_VARIABLE))), reads, copySources(name, args));
    } finally {
      this.searching = false;
    }
    if (name === "curl" || name === "wget")
      for (const d of downloadedFiles(name, args)) this.path(d.text, false, d.word === undefined ? undefined : wordSpan(d.word, depth), d.tree === true);
    for (const file of hookInstallerWrites(name, args)) this.path(file, false, wordSpan(argv0, depth));
    if (spelt === "set") this.errexit = errexitAfter(this.errexit, args);
    if (spelt === "shopt") this.globs = globsAfter(this.globs, args);
    if (FOLDER_BUILTINS.has(spelt)) {
      if (this.inShell !== undefined) this.find({ rule: "unresolved-argument", messageId: "folderNotFollowed", data: { how: `${name} run by ${this.inShell}` } });
      // In a loop, a relative cd (or pushd, popd) moves again each time round: `for i in 1 2; do cd ..; done`.
      else if (this.repeats && !(name === "cd" && args.every((w) => w.value !== undefined && (w.value.startsWith("-") || w.value.startsWith("/")))))
        this.find({ rule: "unresolved-argument", messageId: "folderNotFollowed", data: { how: `${name} in a loop` } });
      else if (name === "cd") this.cd(args);
      else this.stack(name, args);
    }
  }

  /**
   * git runs programs and code its settings name (`-c alias.x='!rm y'`, `-c core.pager=…`, `--config-env`,
   * `--exec-path`) and command lines its subcommands are given (`rebase -x`, `bisect run`, `submodule
   * foreach`, `filter-branch`, `difftool -x`): plangate reads none of them, so they are refused.
   */
  private git(args: ShellWord[]): void {
    let i = 0;
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) return;
      if (!v.startsWith("-")) break;
      if (v === "-c" || v === "--config-env") {
        const kv = args[++i]?.value;
        if (kv === undefined || GIT_CODE_KEY.test(kv.split("=")[0]!)) this.find({ rule: "disallowed-tool", messageId: "gitRunsCode", data: { setting: kv ?? v } });
      } else if (v.startsWith("--config-env=")) {
        if (GIT_CODE_KEY.test(v.slice("--config-env=".length).split("=")[0]!)) this.find({ rule: "disallowed-tool", messageId: "gitRunsCode", data: { setting: v } });
      } else if (v === "--exec-path" || v.startsWith("--exec-path=")) {
        if (v.includes("=")) this.find({ rule: "disallowed-tool", messageId: "gitRunsCode", data: { setting: v } });
      } else if (v === "--git-dir" || v.startsWith("--git-dir=")) {
        // Another repository's settings and hooks run as a repository's own (core.fsmonitor, hooks), as GIT_DIR's do.
        this.find({ rule: "disallowed-tool", messageId: "gitRunsCode", data: { setting: "--git-dir" } });
        if (v === "--git-dir") i++;
      } else if (GIT_OPTIONS_WITH_VALUE.has(v)) i++;
    }
    const sub = args[i]?.value;
    const rest = args.slice(i + 1).map((w) => w.value);
    const runs =
      (sub === "rebase" && rest.some((r) => r === undefined || r === "-x" || r === "--exec" || /^--exec=|^-x./.test(r))) ||
      (sub === "bisect" && rest[0] === "run") ||
      (sub === "submodule" && rest.some((r) => r === "foreach")) ||
      sub === "filter-branch" ||
      (sub === "difftool" && rest.some((r) => r === undefined || r === "-x" || r === "--extcmd" || /^--extcmd=|^-x./.test(r)));
    if (runs) this.find({ rule: "disallowed-tool", messageId: "gitRunsCommandLine", data: { subcommand: String(sub) } });
    const spec = sub !== undefined && Object.hasOwn(GIT_SUBCOMMAND_RUNS, sub) ? GIT_SUBCOMMAND_RUNS[sub] : undefined;
    if (spec !== undefined)
      for (let k = 0; k < rest.length; k++) {
        const r = rest[k];
        if (r === "--") break;
        if (r === undefined || !r.startsWith("-")) continue;
        const name = r.split("=")[0]!;
        const long = r.startsWith("--") ? spec.long.find((o) => isLongOption(r, o)) : undefined;
        const short = !r.startsWith("--") && spec.short !== undefined ? [...r.slice(1)].find((c) => spec.short!.includes(c)) : undefined;
        if (long !== undefined || short !== undefined) {
          this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: `git ${sub}`, option: long ?? `-${short}` } });
          break;
        }
        // send-email's SMTP server given as a path is a program it runs in place of sendmail.
        if (sub === "send-email" && isLongOption(r, "--smtp-server")) {
          const server = r.includes("=") ? r.slice(r.indexOf("=") + 1) : rest[k + 1];
          if (server === undefined || server.includes("/")) {
            this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: `git ${sub}`, option: "--smtp-server" } });
            break;
          }
        }
        // clone's -c/--config writes settings into the new repository, which its checkout then runs.
        const c = r.startsWith("--") ? -1 : r.indexOf("c");
        if (sub === "clone" && (c > 0 || (name.length >= 4 && "--config".startsWith(name)))) {
          const joined = c > 0 ? r.slice(c + 1) : r.includes("=") ? r.slice(r.indexOf("=") + 1) : "";
          const kv = joined !== "" ? joined : rest[++k];
          if (kv === undefined || GIT_CODE_KEY.test(kv.split("=")[0]!)) this.find({ rule: "disallowed-tool", messageId: "gitRunsCode", data: { setting: kv ?? r } });
        }
      }
    // git-lfs installs its hooks into the repository and its filters into the user's settings (~/.gitconfig) unless --local or --worktree says the repository's.
    if (sub === "lfs" && (rest[0] === "install" || rest[0] === "update" || rest[0] === "uninstall" || rest[0] === undefined && args.length > i + 1)) {
      if (!rest.includes("--skip-repo")) this.path(".git/hooks/pre-push", false, undefined);
      if (rest[0] !== "update" && !rest.some((r) => r === "--local" || r === "--worktree")) this.path("~/.gitconfig", false, undefined);
    }
    if (sub === "config") {
      const set = gitConfigSets(args.slice(i + 1));
      if (set !== undefined) this.find({ rule: "disallowed-tool", messageId: "gitRunsCode", data: { setting: set } });
      // `--global` and `--system` change the user's and the machine's configuration file, outside the workspace.
      const file = gitConfigWritesFile(args.slice(i + 1));
      if (file !== undefined) this.path(file, false, undefined);
    }
  }

  /**
   * Options through which a program runs a program or command line it is given (`tar --to-command=sh`,
   * `rsync -e 'sh -c …'`, `ssh -o ProxyCommand=…`): plangate reads none of them, so they are refused.
   */
  private commandOptions(name: string, args: ShellWord[]): void {
    // socat's addresses (two, each `TYPE:params,options` or a pair joined by `!!`): a type that runs a command.
    if (name === "socat")
      for (const w of args) {
        const v = w.value;
        if (v === undefined || v.startsWith("-")) continue;
        const type = v
          .split("!!")
          .map((a) => /^[^:,]*/.exec(a)![0])
          .find((t) => SOCAT_RUNS.test(t));
        if (type !== undefined) {
          this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: name, option: `${type.toUpperCase()}:` } });
          return;
        }
        // The files an address opens, creates or binds, and those its options name: paths the workspace rules check.
        for (const address of v.split("!!")) {
          const [head = "", ...options] = address.split(",");
          const colon = head.indexOf(":");
          const file = colon >= 0 && SOCAT_FILES.test(head.slice(0, colon)) ? head.slice(colon + 1) : colon < 0 && head.includes("/") ? head : undefined;
          const named = [file, ...options.map((o) => (SOCAT_FILE_OPTIONS.test(o.split("=")[0]!) ? o.slice(o.indexOf("=") + 1) : undefined))];
          for (const f of named) {
            if (f === undefined || f === "") continue;
            // socat's own quoting and escapes (1.7.4 on) would name another file than the text.
            if (/["'\\([{]/.test(f)) this.find({ rule: "unresolved-argument", messageId: "valueAtRunTime", data: { source: f } });
            else this.path(f, false, undefined);
          }
        }
      }
    if (name === "make" || name === "gmake")
      for (const w of args) {
        const set = w.value === undefined ? undefined : makeVariableRuns(w.value);
        if (set !== undefined) {
          this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: name, option: set } });
          return;
        }
      }
    // vim's +CMD runs an ex command (+N and +/pattern move the cursor); less's +CMD runs less commands (! a shell, | a pipe, s saves).
    if (PLUS_COMMANDS.has(name))
      for (const w of args) {
        const v = w.value;
        if (v === "--") break;
        if (v === undefined || !v.startsWith("+") || (name === "less" || name === "more" ? /^\+\+?(?:\d*|[GgFf]|\/[^!|]*)$/ : /^\+(?:\d*|\/.*)$/s).test(v)) continue;
        this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: name, option: v.length > 12 ? `${v.slice(0, 12)}...` : v } });
        return;
      }
    // just -E/--dotenv-path and -F/--dotenv-filename load an environment file for the recipes, as dotenv does (also in a cluster, `-qE`).
    if (name === "just")
      for (const w of args) {
        const v = w.value;
        if (v === "--") break;
        const option = v === undefined ? undefined : /^--dotenv-(?:path|filename)(?==|$)/.exec(v)?.[0] ?? (/^-[A-Za-z]*[EF]/.test(v) ? `-${/[EF]/.exec(v)![0]}` : undefined);
        if (option === undefined) continue;
        this.unreadableFind({ rule: "disallowed-tool", messageId: "wrapperUnknown", data: { option, wrapper: name, why: "environmentFile" } });
        return;
      }
    // npm's scripts are command lines npm runs later (`npm test`), in a grammar plangate reads only where a step gives them.
    // Option values may stand before the subcommand and between its words (`npm --prefix . pkg set`,
    // `npm pkg -w a set`): `pkg` and `set` are found among the words, not at fixed places. pnpm hands
    // `pkg` to npm and Bun has `bun pm pkg set`. Besides scripts, the settings of hook runners that
    // package.json holds (husky, simple-git-hooks, lint-staged) are command lines run at later commits.
    if (name === "npm" || name === "pnpm" || name === "bun") {
      const ops = args.map((w) => w.value);
      const end = ops.indexOf("--");
      const words = end < 0 ? ops : ops.slice(0, end);
      const first = words.findIndex((v) => v === undefined || !v.startsWith("-"));
      const pkg = words.indexOf("pkg");
      const set = pkg < 0 ? -1 : words.indexOf("set", pkg + 1);
      const keys = set < 0 ? [] : words.slice(set + 1).filter((v) => v === undefined || !v.startsWith("-"));
      const script = name === "npm" && first >= 0 && words[first] === "set-script";
      if (script || (set >= 0 && keys.some((k) => k === undefined || LATER_PACKAGE_SETTINGS.test(k)))) {
        this.unreadableFind({ rule: "disallowed-tool", messageId: "wrapperUnknown", data: { command: script ? "npm set-script" : `${name}${name === "bun" ? " pm" : ""} pkg set`, wrapper: name, why: "laterSettings" } });
        return;
      }
    }
    const settings = settingsRunCode(name, args);
    if (settings !== undefined) {
      if (settings.file) this.unreadableFind({ rule: "disallowed-tool", messageId: "wrapperUnknown", data: { option: settings.option, wrapper: name, why: "configurationFile" } });
      else this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: name, option: settings.option } });
      return;
    }
    const spec = COMMAND_OPTIONS[name];
    if (spec === undefined || !Object.hasOwn(COMMAND_OPTIONS, name)) return;
    // ssh's, scp's and sftp's letters up to the first that takes a value (the rest of the word is its value), and up to ssh's remote command.
    const valued = Object.hasOwn(SSH_VALUED_LETTERS, name) ? SSH_VALUED_LETTERS[name]! : undefined;
    const cluster = (v: string): string => {
      if (valued !== undefined) for (let k = 1; k < v.length; k++) if (valued.includes(v[k]!)) return v.slice(0, k + 1);
      return v;
    };
    let operands = 0;
    for (let i = 0; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) continue;
      if (v === "--") break;
      if (valued !== undefined && (!v.startsWith("-") || v === "-")) {
        if (name === "ssh" && ++operands > 1) break;
        continue;
      }
      // A one-letter option also counts inside a cluster of them (rsync -avze ssh, tar -xIzstd).
      const exact = Object.hasOwn(ABBREVIATED_OPTIONS, name) ? ABBREVIATED_OPTIONS[name]! : undefined;
      const abbreviates = (o: string) => exact !== undefined && o.startsWith("--") && v.startsWith("--") && isLongOption(v, o.slice(0, -1)) && !exact.includes(v.split("=")[0]!);
      const hit = spec.find((o) => (o.endsWith("=") ? v.startsWith(o) || v === o.slice(0, -1) || abbreviates(o) : v === o || (o.length === 2 && /^-[A-Za-z0-9]/.test(v) && cluster(v).includes(o[1]!))));
      if (hit !== undefined) {
        this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: name, option: hit.replace(/=$/, "") } });
        return;
      }
      // A valued letter closing the cluster takes the next word (`ssh -i key -l user -F cfg host`).
      if (valued !== undefined && cluster(v) === v && valued.includes(v[v.length - 1]!) && v.length > 1) i++;
    }
    // ssh, scp and sftp: -o Key=value, read in clusters as their getopt reads them (`-vo`, `-4oKey=v`).
    if (name === "ssh" || name === "scp" || name === "sftp")
      for (const kv of sshSettings(name, args)) {
        const key = kv === undefined ? "" : sshSettingKey(kv);
        if (kv === undefined || SSH_COMMAND_KEYS.test(key)) {
          this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: name, option: `-o ${key}`.trim() } });
          return;
        }
        this.sshSetting(key, kv);
      }
  }

  /**
   * The environment ssh gives the remote command, and the files it reads and writes. `SetEnv NAME=value`
   * sets a variable for the remote command, checked as `env NAME=value` is; `SendEnv NAME` sends the
   * local one (a value plangate does not see: a variable that changes what runs is refused, and a
   * pattern is refused unless it names locale variables only). A file setting's arguments are paths; one
   * with a token ssh expands (`%d`, `${HOME}`) is decided at run time.
   */
  private sshSetting(key: string, kv: string): void {
    const k = key.toLowerCase();
    if (k !== "setenv" && k !== "sendenv" && !SSH_FILE_KEYS.test(key)) return;
    for (const a of sshSettingArguments(kv)) {
      if (k === "setenv") {
        const eq = a.indexOf("=");
        if (eq > 0) this.assignment(a.slice(0, eq), a.slice(eq + 1));
      } else if (k === "sendenv") {
        if (a.startsWith("-")) continue;
        if (/[*?[]/.test(a) ? !SSH_LOCALE_PATTERN.test(a) : false) this.find({ rule: "disallowed-tool", messageId: "rewiringVariable", data: { name: `${a} (SendEnv sends every local variable it matches)` } });
        else if (!/[*?[]/.test(a)) this.assignment(a);
      } else if (/%[^%]|\$\{/.test(a.replace(/%%/g, ""))) this.find({ rule: "unresolved-argument", messageId: "valueAtRunTime", data: { source: a } });
      else this.path(a, false, undefined);
    }
  }

  /**
   * The files a program runs or reads its commands from, beside its own name (CommandRun): an interpreter's
   * script, sed's and awk's script files, and the manifests make, just and the package managers read
   * what to run from.
   */
  private runsFiles(name: string, spelt: string, args: ShellWord[], depth: number): void {
    const script = scriptFileOf(name, args);
    if (script !== undefined) this.run(script.text, script.interpreter, spelt, script.word ? wordSpan(script.word, depth) : undefined);
    // psql's script files (`-f x.sql`, `--file=x.sql`): its commands, as on its line.
    if (name === "psql")
      for (let i = 0; i < args.length; i++) {
        const v = args[i]!.value;
        if (v === undefined) continue;
        const [value, word] = v === "-f" || v === "--file" ? [args[i + 1]?.value, args[i + 1]] : v.startsWith("--file=") ? [v.slice(7), args[i]] : /^-f./.test(v) ? [v.slice(2), args[i]] : [undefined, undefined];
        if (value !== undefined && value !== "-" && word !== undefined) this.run(value, "psql", spelt, wordSpan(word, depth));
      }
    // Code the interpreter loads by its name before or instead of a script (`python -m mod`, `node -r ./x.js`).
    for (const f of loadedFilesOf(name, args)) this.run(f.text, f.interpreter, spelt, f.word ? wordSpan(f.word, depth) : undefined);
    // A runner of another language's script file, or one that runs a script file it is given (`uv run x.py`, `tsx x.ts`, `go run main.go`).
    const other = scriptOfRunner(name, args);
    if (other !== undefined) this.run(other.word.value!, other.interpreter, name === "uv" ? `${spelt} run` : spelt, wordSpan(other.word, depth));
    if (name === "sed" || name === "gsed") for (const f of readSedLine(args).files) this.run(f, "sed", spelt, undefined);
    if (AWKS.has(name))
      for (const p of awkPrograms(args)) {
        if (p.file === undefined) continue;
        this.run(p.file, "awk", spelt, wordSpan(p.word, depth));
        if (p.include && !p.file.endsWith(".awk")) this.run(`${p.file}.awk`, "awk", spelt, wordSpan(p.word, depth));
      }
    // A package runner runs the package's binary from node_modules/.bin when the project has it.
    if (PACKAGE_RUNNERS.has(name) || (MANIFESTS.get(name) === PACKAGE_JSON && /^(?:exec|x|dlx)$/.test(args.find((w) => !w.value?.startsWith("-"))?.value ?? ""))) {
      const words = PACKAGE_RUNNERS.has(name) ? args : args.slice(args.findIndex((w) => !w.value?.startsWith("-")) + 1);
      const pkg = words.find((w) => w.value !== undefined && !w.value.startsWith("-"))?.value;
      // A package in a folder (`npx ./pkg`, `npm exec --package=./pkg`): what its files run is not read.
      const first = words.findIndex((w) => w.value === undefined || !w.value.startsWith("-"));
      for (let i = 0; i < words.length && (first < 0 || i <= first); i++) {
        const w = words[i]!;
        const given = i === first ? w : w.value?.startsWith("--package=") ? w : w.value === "--package" || w.value === "-p" ? words[i + 1] : undefined;
        const v = given?.value?.replace(/^--package=/, "");
        if (v !== undefined && /^(?:\.{1,2}(?:\/|$)|\/|file:)/.test(v)) this.run(v.replace(/^file:(?:\/\/)?/, ""), "package", spelt, wordSpan(given!, depth));
      }
      if (pkg !== undefined && /^[\w@.-][\w@./-]*$/.test(pkg)) this.run(`node_modules/.bin/${pkg.replace(/(?<=.)@[^/]*$/, "").replace(/^@[^/]+\//, "")}`, "program", spelt, undefined);
      // The package, whichever it is, may load node's code and settings of the project (`npx hardhat test`).
      if (PACKAGE_RUNNERS.has(name)) for (const load of packageRunnerLoads(pkg !== undefined && fetchedAsItself(name, pkg, args.slice(0, first < 0 ? args.length : first)) ? pkg.replace(/(?<=.)@[^/]*$/, "") : undefined, name)) this.run(load.files.join(" "), load.as, spelt, undefined, { anywhere: true, load });
    }
    // Environment files its options name (`node --env-file=app.env`): judged as their settings when the plan writes them.
    for (const f of envFilesOf(name, args)) {
      const at = wordSpan(f.word, depth);
      if (f.text === undefined) this.unreadableFind({ rule: "disallowed-tool", messageId: "wrapperUnknown", data: { option: f.option, wrapper: spelt, why: "environmentFile" } });
      else {
        // One outside the workspace is no file of the project's: a path the workspace checks read.
        if (/^[/~]/.test(f.text) || f.text.split("/").includes("..")) this.path(f.text, false, at, false, true);
        // Compose fills the Compose file's ${NAME} with its values: one the plan writes is refused as a manifest, by its name in any folder.
        if (/^(?:docker|podman)-compose$/.test(name.replace(/[0-9][0-9.]*$/, ""))) this.run(f.text, "manifest", spelt, at, { load: { ...COMPOSE_ENV, files: [f.text.replace(/\/+$/, "").split("/").pop() || f.text] } });
        else this.run(f.text, "dotenv", spelt, at);
      }
    }
    // Code the program finds by itself in the project (a test runner's tests, a build's own code).
    for (const load of loadsOf(name, args)) this.run(load.files.join(" "), load.as, spelt, undefined, { anywhere: true, load });
    const manifest = MANIFESTS.get(name);
    if (manifest !== undefined && (manifest.only === undefined || manifest.only(args))) {
      // An option that names the manifest (`make -f ci.mk`, `just --justfile x`): that file too.
      for (let i = 0; i < args.length; i++) {
        const v = args[i]!.value;
        if (v === undefined) continue;
        const named = manifest.options.find((o) => v === o || v.startsWith(`${o}=`) || (o.length === 2 && v.startsWith(o) && v.length > 2));
        if (named === undefined) continue;
        const value = v === named ? args[i + 1]?.value : v.slice(v.startsWith(`${named}=`) ? named.length + 1 : named.length);
        if (value !== undefined && value !== "") this.run(value, "manifest", spelt, undefined);
      }
      const scripts = manifest.scripts?.(args);
      for (const file of manifest.files) this.run(file, "manifest", spelt, undefined, { anywhere: true, ...(scripts !== undefined ? { scripts } : {}) });
    }
  }

  /**
   * sed's scripts (src/commands/sed.ts): the `e` command and the `e` flag of `s` run a command line
   * (refused, as other programs' options that run one are); the files of `w`, `W`, `s///w`, `r` and `R`
   * are paths the workspace rules check, as the words of the line are. A script sed may read another way
   * (BSD sed's `-i SUFFIX`, POSIXLY_CORRECT) is read that way too. A script file (`-f FILE`) is the
   * project's, read as awk's or python's is; one read from standard input is refused.
   */
  private sedScripts(name: string, args: ShellWord[], depth: number): void {
    const line = readSedLine(args);
    for (const f of line.files)
      if (f === "-" || /^\/dev\/(?:stdin|fd\/\d+|tty)$|^\/proc\/self\/fd\//.test(f))
        this.unreadableFind({ rule: "disallowed-tool", messageId: "hiddenCommands", data: { program: `${name} -f ${f}`, wrapper: name, why: "standardInput" } });
    const scripts = [...(line.script ? [{ ...line.script, main: true }] : []), ...line.others.map((o) => ({ text: o.text, words: [o.word], main: false }))];
    for (const { text, words, main } of scripts) {
      const read = readSedScript(text);
      // Another reading that sed would not compile is no script: that reading runs nothing.
      if (!main && read.unreadable !== undefined) continue;
      const span = words.length === 1 ? wordSpan(words[0]!, depth) : undefined;
      if (read.runs !== undefined) this.find({ rule: "disallowed-tool", messageId: "scriptRunsCommand", data: { program: name, how: read.runs.length > 40 ? `${read.runs.slice(0, 40)}...` : read.runs }, span });
      if (read.unreadable !== undefined) this.unreadableFind({ rule: "disallowed-tool", messageId: "unreadableScript", data: { program: name, why: read.unreadable }, span });
      for (const file of [...read.writes, ...read.reads]) this.path(file, false, span);
    }
  }

  /**
   * Code given to an interpreter on its line or its standard input (src/commands/inline-code.ts: `python -c`,
   * `node -e`, `perl -e`, `python3 - <<EOF`): plangate does not read it, and it may write any file or run
   * any program, so it is refused unless the policy's `commands.inlineCode` names the interpreter.
   */
  private inlineCode(name: string, spelt: string, args: ShellWord[], depth: number): ShellWord | undefined {
    const code = inlineCodeOf(name, args, this.stdinFile);
    // Code read from a file on standard input (`python3 < x.py`, `sqlite3 db < x.sql`): that file is its script (CommandRun).
    if (this.stdinTarget?.value !== undefined && code === undefined) {
      const fromInput = inlineCodeOf(name, args, false);
      if (fromInput?.how === "standard input") this.run(this.stdinTarget.value, fromInput.interpreter, spelt, wordSpan(this.stdinTarget, depth));
    }
    if (code === undefined || inlineCodeAllowed(this.policy, code.interpreter, spelt)) return code?.word;
    const span = code.word ? wordSpan(code.word, depth) : undefined;
    this.find({ rule: "disallowed-tool", messageId: "inlineCode", data: { program: spelt, interpreter: code.interpreter, how: code.how }, ...(span ? { span } : {}) });
    return code.word;
  }

  /**
   * awk's programs (src/commands/awk.ts): a command line given to `system()`, a pipe or `getline` as a
   * string literal is read as any other line (as `sh -c` runs it); one decided at run time is refused; the
   * files of `print >`, `print >>`, `getline <` and `@include` are paths the workspace rules check, and one
   * decided at run time (`print > $1`, a program that changes ARGV) is unresolved. A program file (`-f`) is
   * the project's, read as a script file is.
   */
  private awkScripts(name: string, args: ShellWord[], depth: number): ShellWord[] {
    const words: ShellWord[] = [];
    for (const { word, text, file } of awkPrograms(args)) {
      if (file !== undefined) {
        // A program read from standard input is the plan's text, not the project's file: as sed -f - is.
        if (file === "-" || /^\/dev\/(?:stdin|fd\/\d+|tty)$|^\/proc\/self\/fd\//.test(file))
          this.unreadableFind({ rule: "disallowed-tool", messageId: "hiddenCommands", data: { program: `${name} -f ${file}`, wrapper: name, why: "standardInput" } });
        continue;
      }
      words.push(word);
      const span = wordSpan(word, depth);
      if (text === undefined) {
        this.unreadableFind({ rule: "disallowed-tool", messageId: "unreadableAwk", data: { program: name, why: "a program decided at run time" }, ...(span ? { span } : {}) });
        continue;
      }
      const read = readAwkProgram(text);
      if (read.unreadable !== undefined) this.unreadableFind({ rule: "disallowed-tool", messageId: "unreadableAwk", data: { program: name, why: read.unreadable }, ...(span ? { span } : {}) });
      if (read.runsAtRunTime !== undefined) this.unreadableFind({ rule: "disallowed-tool", messageId: "commandLineAtRunTime", data: { wrapper: `${name} ${read.runsAtRunTime}` }, ...(span ? { span } : {}) });
      if (read.fileAtRunTime !== undefined) this.find({ rule: "unresolved-argument", messageId: "awkFileAtRunTime", data: { program: name, how: read.fileAtRunTime }, ...(span ? { span } : {}) });
      for (const f of read.writes) this.path(f, false, span);
      for (const f of read.reads) this.path(f, false, span, false, true);
      // An included source file is code awk runs: the plan judges it when it writes it (CommandRun).
      for (const f of read.includes ?? []) {
        this.run(f, "awk", name, span);
        if (!f.endsWith(".awk")) this.run(`${f}.awk`, "awk", name, span);
      }
      for (const line of read.runs) {
        if (this.single) this.find({ rule: "multiple-tools", messageId: "handsCommandLine", data: { wrapper: name } });
        const [outer, outerDirs, outerMoved, inShell] = [this.cwd, this.dirs, this.moved, this.inShell];
        this.inShell = undefined;
        try {
          this.script(this.reader.parse(line), depth + 1);
        } finally {
          [this.cwd, this.dirs, this.moved, this.inShell] = [outer, outerDirs, outerMoved, inShell];
        }
      }
    }
    return words;
  }

  /** The word of inline code the command gives its interpreter (see inlineCode) is code, not a path: its option's values with it. */
  private codeIsText(code: readonly ShellWord[], values: OptionValues | undefined): OptionValues | undefined {
    if (code.length === 0) return values;
    const out: OptionValues = values ?? new Map();
    // A value glued to its option (`-cCODE`, `--eval=CODE`): the option's word is code too.
    for (const w of code) if (w.value !== undefined) out.set(w, { text: true });
    return out;
  }

  /**
   * Settings on the line, or written by a command, through which npm, pnpm, Yarn and cargo run a program
   * or code they are given (NPM_CODE_SETTINGS, YARN_CODE_SETTINGS, cargoSettingRuns): plangate reads
   * none of them, so they are refused.
   */
  private toolSettings(name: string, args: ShellWord[]): void {
    const values = args.map((w) => w.value);
    const end = values.includes("--") ? values.indexOf("--") : values.length;
    const refuse = (option: string) => this.find({ rule: "disallowed-tool", messageId: "optionRunsCommand", data: { program: name, option } });
    const npm = name === "npm" || name === "pnpm";
    const keys = npm ? NPM_CODE_SETTINGS : name === "yarn" ? [...NPM_CODE_SETTINGS, ...YARN_CODE_SETTINGS] : undefined;
    if (keys !== undefined) {
      // `npm config set KEY VALUE` (`KEY=VALUE`, `npm set`, `yarn config set`) writes a setting later commands read.
      // `npm c set`: npm's alias of config (and a prefix of it, which older npm expands).
      const set = values.findIndex((v, k) => v === "set" && ((values[k - 1] !== undefined && values[k - 1] !== "" && "config".startsWith(values[k - 1]!)) || (k === 0 && npm)));
      const at = set < 0 ? -1 : values.findIndex((v, k) => k > set && (v === undefined || !v.startsWith("-")));
      if (at >= 0) {
        const key = values[at];
        if (key === undefined || keys.includes(settingKey(key.split("=")[0]!))) return refuse(`${set > 0 ? `${values[set - 1]!} ` : ""}set ${key === undefined ? "..." : key.split("=")[0]!}`);
      }
      if (!npm) return;
      for (const v of values.slice(0, end)) {
        if (v === undefined || !v.startsWith("--")) continue;
        const typed = settingKey(v.slice(2).split("=")[0]!.replace(/^config\./, ""));
        // An abbreviation npm would expand to one of the keys (an ambiguous one, which npm leaves alone, is refused too), but another key spelt out (`--ca`).
        const hit = typed === "ca" ? undefined : keys.find((k) => typed !== "" && k.startsWith(typed));
        if (hit !== undefined) return refuse(`--${hit}`);
      }
      return;
    }
    if (name === "cargo")
      for (let i = 0; i < end; i++) {
        const v = values[i];
        if (v !== "--config" && !v?.startsWith("--config=")) continue;
        const value = v === "--config" ? values[++i] : v.slice("--config=".length);
        // A value without `=` names a file of settings: a path, checked as one.
        if (value === undefined || (value.includes("=") && cargoSettingRuns(value.slice(0, value.indexOf("="))))) return refuse(`--config ${value === undefined ? "..." : value.slice(0, value.indexOf("=")).trim()}`);
      }
  }

  /**
   * A build's rules or tasks read from standard input (`make -f -`, `just --justfile /dev/stdin`): code
   * plangate does not see, as a shell reading standard input runs.
   */
  private buildFileFromInput(name: string, args: ShellWord[]): void {
    const options = Object.hasOwn(BUILD_FILE_OPTIONS, name) ? BUILD_FILE_OPTIONS[name]! : undefined;
    if (options === undefined) return;
    for (let i = 0; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) continue;
      if (v === "--") break;
      const o = options.find((x) => v === x || v.startsWith(`${x}=`) || (!x.startsWith("--") && v.startsWith(x) && v.length > x.length));
      if (o === undefined) continue;
      const file = v === o ? args[++i]?.value : v.slice(o.length).replace(/^=/, "");
      if (file === "-" || (file !== undefined && /^\/dev\/(?:stdin|fd\/\d+|tty)$|^\/proc\/self\/fd\//.test(file)))
        this.unreadableFind({ rule: "disallowed-tool", messageId: "hiddenCommands", data: { program: `${name} ${o} ${file}`, wrapper: name, why: "standardInput" } });
    }
  }

  /**
   * Commands that have an environment loader trust a file of the workspace: `direnv allow` (also
   * `permit`, `grant`, `edit`, which allows the file once edited), `mise trust`, and mise's
   * `trusted_config_paths` setting. The loader then runs the file's code by itself: when a shell with its
   * hook enters the folder, or as mise reads its configuration (through its shims too), outside any
   * command plangate checks. A plan can write the file in an earlier step: trusting it is the user's to do.
   */
  private trusts(name: string, args: ShellWord[]): void {
    const values = args.map((w) => w.value);
    const sub = (word: string) => values.findIndex((v, k) => v === word && values.slice(0, k).every((x, j) => x?.startsWith("-") || values[j - 1]?.startsWith("-")));
    let files: string | undefined;
    if (name === "direnv" && ["allow", "permit", "grant", "edit"].includes(values[0] ?? "")) files = ".envrc (or .env)";
    else if ((name === "mise" || name === "rtx") && sub("trust") >= 0 && !values.some((v) => v === "--untrust" || v === "--ignore" || v === "--show")) files = "mise.toml and the configuration files beside it";
    else if ((name === "mise" || name === "rtx") && values.some((v) => v !== undefined && /trusted[_-]config[_-]paths/i.test(v)) && !values.some((v) => v === "get" || v === "ls" || v === "list" || v === "unset"))
      files = "the configuration files under the paths it names";
    if (files !== undefined) this.find({ rule: "disallowed-tool", messageId: "trustsCode", data: { program: name, files } });
  }

  /** The variables the program a wrapper runs gets: the wrapper's own, when it passes them on, and those it sets. */
  private environmentOf(wrapper: string, args: ShellWord[], inner: Inner): ReadonlyMap<string, string | undefined> {
    const base = passesEnvironment(wrapper, args, inner) ? this.env : NO_ENV;
    const set = inner.kind === "argv" || inner.kind === "script" || inner.kind === "none" ? (inner.env ?? []) : [];
    return set.length === 0 ? base : new Map([...base, ...set.map((e) => [e.name, e.value] as const)]);
  }

  /**
   * A package manager's write outside the workspace that no word names (src/commands/installs.ts): a
   * global install, a toolchain, its user settings. Read only for the programs it knows, by name; one
   * that `commands.installOutside` names is allowed.
   */
  private writesOutside(name: string, spelt: string, argv0: ShellWord, args: ShellWord[], depth: number): void {
    if (this.again) return;
    const w = outsideWrite(name, args, { env: this.env, otherUser: this.otherUser, written: argv0.value ?? spelt, word: argv0 });
    if (w === undefined || installAllowed(this.policy, w.manager, spelt)) return;
    const span = wordSpan(w.word, depth) ?? this.span;
    const outside = (this.report.outside ??= []);
    if (w.condition !== undefined) {
      // One entry a manager and condition, with every folder it runs in (not bounded by the findings' cap:
      // each must be decided, and the line's length bounds them).
      const same = outside.find((o) => o.condition !== undefined && o.manager === w.manager && JSON.stringify(o.condition) === JSON.stringify(w.condition));
      if (same !== undefined) {
        if (!same.cwds!.includes(this.cwd)) same.cwds!.push(this.cwd);
        return;
      }
      const o: CommandOutside = { manager: w.manager, how: w.how, where: w.where, fix: w.fix, condition: w.condition, cwds: [this.cwd] };
      if (span !== undefined) o.span = span;
      outside.push(o);
      return;
    }
    if (outside.filter((o) => o.condition === undefined).length >= 50 || outside.some((o) => o.how === w.how && o.span?.start === span?.start)) return;
    outside.push(span === undefined ? { manager: w.manager, how: w.how, where: w.where, fix: w.fix } : { manager: w.manager, how: w.how, where: w.where, fix: w.fix, span });
  }

  /**
   * The interpreter a tool is given by an option or operand (INTERPRETER_OPTIONS), read up to `limit`
   * (where what a runner runs begins): one named by its version picks an installed Python; any other is
   * a program the tool runs, checked as one.
   */
  private interpreters(name: string, args: ShellWord[], limit: number): void {
    const spec = Object.hasOwn(INTERPRETER_OPTIONS, name) ? INTERPRETER_OPTIONS[name]! : undefined;
    if (spec === undefined) return;
    const values = args.map((w) => w.value);
    const end = Math.min(limit, values.includes("--") ? values.indexOf("--") : args.length);
    const chosen: ShellWord[] = [];
    for (let i = 0; i < end; i++) {
      const w = args[i]!;
      const v = w.value;
      if (v === undefined || !v.startsWith("-")) continue;
      if (v.startsWith("--")) {
        const { name: o, attached } = optionName(v);
        if (!spec.long?.includes(o)) continue;
        const value = attached !== undefined ? { ...w, value: attached } : args[++i];
        if (value) chosen.push(value);
        continue;
      }
      // A short option, alone or closing a cluster (`-qp 3.12`), or with its value joined (`-p./py`, `-p=3.12`).
      const k = spec.short === undefined ? -1 : v.indexOf(spec.short, 1);
      if (k < 0 || !/^-[A-Za-z]+/.test(v)) continue;
      const glued = v.slice(k + 1).replace(/^=/, "");
      const value = glued !== "" ? { ...w, value: glued } : args[++i];
      if (value) chosen.push(value);
    }
    // An operand after the subcommand (`poetry env use ./py`), which stands first, after the global options and their values.
    for (const sub of spec.operandOf ?? []) {
      const at = values.findIndex((_, k) => sub.every((p, n) => values[k + n] === p) && values.slice(0, k).every((x, j) => x?.startsWith("-") || values[j - 1]?.startsWith("-")));
      if (at < 0 || at >= end) continue;
      // Every word that is no option may be it: an option's value among them is checked too, which refuses at worst.
      // After `--`, every word is an operand (`poetry env use -- ./py`).
      let ended = false;
      for (let i = at + sub.length; i < Math.min(limit, args.length); i++) {
        if (!ended && values[i] === "--") ended = true;
        else if (ended || values[i] === undefined || !values[i]!.startsWith("-")) chosen.push(args[i]!);
      }
    }
    for (const w of chosen) if (w.value === undefined || !PYTHON_VERSION.test(w.value)) this.namedProgram(w);
  }

  /**
   * A program a tool runs by the name or path it is given, with arguments of the tool's own (an
   * interpreter: `uv run -p ./py`): checked by its name as a program word is (deny, allow, a name outside
   * printable ASCII). Its path is an argument of the tool's, checked as one.
   */
  private namedProgram(w: ShellWord): void {
    if (w.value === undefined || w.glob || w.value === "") {
      this.unreadableFind({ rule: "disallowed-tool", messageId: "programAtRunTime", data: { source: w.source } });
      return;
    }
    const name = programName(w.value);
    if (!this.again) this.report.programs.push(name);
    if (/[^\x21-\x7e]/.test(name)) this.find({ rule: "disallowed-tool", messageId: "nonAsciiProgram", data: { program: name } });
    const denied = deniedBy(this.policy, [name]);
    if (denied !== undefined) this.find({ rule: "disallowed-tool", messageId: "commandDenied", data: { command: name, entry: denied } });
    else if (!allowed(this.policy, [name])) this.find({ rule: "disallowed-tool", messageId: "notAllowed", data: { program: name } });
  }

  /**
   * Builtins that set a variable an argument names, to a value decided at run time: `read PATH`,
   * `mapfile`/`readarray`, `printf -v PATH`, `getopts o PATH`, `wait -p`, `compgen -V`; and a name
   * reference (`declare -n r=PATH`), through which an assignment to r sets PATH. Each is checked as a
   * setting of that variable.
   */
  private namedVariables(name: string, args: ShellWord[]): void {
    const values = args.map((w) => w.value);
    const set = (v: string | undefined) => {
      if (v !== undefined) this.assignment(v.replace(/\[[\s\S]*$/, ""));
    };
    // Bash's builtins read their options up to the first operand or `--`; a valued letter takes the rest of its cluster or the next word.
    const read = (valuedLetters: string, named: string): string[] => {
      let k = 0;
      for (; k < values.length; k++) {
        const v = values[k];
        if (v === undefined || v === "--" || !/^-[A-Za-z]/.test(v)) {
          if (v === "--") k++;
          break;
        }
        for (let c = 1; c < v.length; c++) {
          if (!valuedLetters.includes(v[c]!)) continue;
          const value = c < v.length - 1 ? v.slice(c + 1) : values[++k];
          if (named.includes(v[c]!)) set(value);
          break;
        }
      }
      return values.slice(k).filter((v): v is string => v !== undefined);
    };
    if (name === "read") for (const v of read("adinNptu", "a")) set(v);
    else if (name === "mapfile" || name === "readarray") set(read("dnOsuCc", "")[0]);
    else if (name === "printf") read("v", "v");
    else if (name === "getopts") set(read("", "")[1]);
    else if (name === "wait") read("p", "p");
    else if (name === "compgen") read("AGWFCXPSoV", "V");
    else if ((name === "declare" || name === "typeset" || name === "local") && values.some((v) => v !== undefined && /^-[A-Za-z]*n/.test(v)))
      for (const v of values) {
        if (v === undefined || v.startsWith("-") || v.startsWith("+")) continue;
        const eq = v.indexOf("=");
        // Without a target, the first assignment to the reference names one.
        if (eq < 0) this.find({ rule: "disallowed-tool", messageId: "rewiringVariable", data: { name: `${v} (a name reference to any variable)` } });
        else set(v.slice(eq + 1));
      }
  }

  /** Builtins that change what a later name runs: an alias, a hashed path, a loaded builtin. */
  private rewiring(name: string, args: ShellWord[]): void {
    const messageId =
      name === "alias" && args.some((w) => w.value === undefined || w.value.includes("="))
        ? "definesAlias"
        : name === "hash" && args.some((w) => w.value === undefined || /^-[a-z]*p/.test(w.value))
          ? "bindsName"
          : name === "enable" && args.length > 0
            ? "loadsBuiltins"
            : undefined;
    if (messageId) this.find({ rule: "disallowed-tool", messageId, data: {} });
  }

  /**
   * Builtins that evaluate their arguments: as arithmetic, whose array subscripts bash expands (so
   * `let 'a[$(rm x)]'`, `declare 'a[$(rm x)]=1'`, `printf -v 'a[$(rm x)]'`, `unset 'a[$(rm x)]'`,
   * `[[ 1 -eq 'a[$(rm x)]' ]]`, `test -v 'a[$(rm x)]'` run rm), or as a command (`mapfile -C`,
   * `compgen -C`, `fc`, `bind -x`).
   */
  private evaluated(name: string, args: ShellWord[]): void {
    if (SUBSCRIPT_EVALUATORS.has(name) && (name !== "printf" || args.some((w) => w.value === "-v"))) {
      // A `[` whose subscript (up to its `]`) holds `$` or `` ` ``. `[` is left out of the subscript's middle
      // as well, so that a run of `[` is scanned once (the nearest `[` before the `$` decides alike).
      const w = args.find((a) => a.value !== undefined && /\[[^\][$`]*[$`]/.test(a.value));
      if (w)
        this.find({ rule: "disallowed-tool", messageId: "subscriptExpansion", data: { program: name, source: w.source } });
    }
    const flags = args.map((w) => w.value ?? "").filter((v) => /^-[A-Za-z]/.test(v));
    // A variable named in arithmetic has its value evaluated as arithmetic too, subscripts and all:
    // what it holds is decided at run time.
    const arith =
      name === "let" || name === "(("
        ? args
        : name === "[["
          ? args.filter((_, i) => ARITH_TESTS.test(args[i - 1]?.value ?? "") || ARITH_TESTS.test(args[i + 1]?.value ?? ""))
          : DECLARATIONS.has(name) && flags.some((v) => v.includes("i"))
            ? args.filter((w) => w.value?.includes("=")).map((w) => ({ ...w, value: w.value!.slice(w.value!.indexOf("=") + 1) }))
            : [];
    const named = arith.find((w) => w.value !== undefined && /[A-Za-z_]/.test(w.value.replace(/^-[A-Za-z]+$/, "").replace(/0[xX][0-9A-Fa-f]+|(?<!\d)\d+#[0-9A-Za-z@_]+/g, "")));
    if (named) this.find({ rule: "unresolved-argument", messageId: "arithmeticVariable", data: { source: named.source } });
    const hidden =
      name === "fc" ||
      ((name === "mapfile" || name === "readarray") && flags.some((v) => v.includes("C"))) ||
      ((name === "compgen" || name === "complete") && flags.some((v) => /[CF]/.test(v))) ||
      (name === "bind" && flags.some((v) => v.includes("x")));
    if (hidden) this.unreadableFind({ rule: "disallowed-tool", messageId: "givenAsText", data: { program: name } });
  }

  /** An assignment whose literal value is code (`x='a[$(rm y)]'`): arithmetic on x, `${x@P}` or eval would run it. */
  private storedCode(name: string, value: string | undefined): void {
    if (value !== undefined && /\$\(|`/.test(value))
      this.find({ rule: "disallowed-tool", messageId: "storedCode", data: { name } });
  }

  private folderId(folder: string): number {
    let id = this.folderIds.get(folder);
    if (id === undefined) this.folderIds.set(folder, (id = this.folderIds.size));
    return id;
  }

  private cd(args: ShellWord[]): void {
    const target = args.find((w) => !(w.value ?? "x").startsWith("-") || w.value === "-");
    if (!target) {
      this.report.paths.push({ text: "~", cwd: this.cwd });
      return;
    }
    const v = target.value;
    if (v === undefined) return;
    if (v === "-") {
      this.report.paths.push({ text: "~", cwd: this.cwd });
      return;
    }
    this.cwd = this.folder(v);
    this.moved = true;
  }

  /** The folder a cd-like word names, from the current one. */
  private folder(v: string): string {
    const folder = v.startsWith("/") ? v : this.cwd === "" ? v : `${this.cwd}/${v}`;
    // Each folder the shell may be in is compared and joined to every path a command names: a line of
    // thousands of `cd a;` would make each of them thousands of characters long.
    if (folder.length <= MAX_FOLDER) return folder;
    this.find({ rule: "unresolved-argument", messageId: "folderNotFollowed", data: { how: `a folder path longer than ${MAX_FOLDER} characters` } });
    return this.cwd;
  }

  /**
   * pushd, popd and dirs, on the stack of folders: `pushd dir` moves there and keeps the folder it left,
   * `pushd` swaps the two latest, `popd` goes back, `-n` changes the stack only, `dirs -c` empties it.
   * A rotation (`pushd +1`, `popd -0`) is not followed.
   */
  private stack(name: string, args: ShellWord[]): void {
    const values = args.map((w) => w.value);
    if (values.some((v) => v === undefined)) return;
    const flags = values.filter((v) => /^-[a-zA-Z]+$/.test(v!)).join("");
    const operands = values.filter((v) => !/^-[a-zA-Z]+$/.test(v!) && v !== "--") as string[];
    if (name === "dirs") {
      if (flags.includes("c")) this.dirs = [];
      return;
    }
    if (operands.some((v) => /^[+-]\d+$/.test(v))) {
      this.find({ rule: "unresolved-argument", messageId: "folderNotFollowed", data: { how: `${name} ${operands.join(" ")}` } });
      return;
    }
    const stay = flags.includes("n");
    if (name === "pushd") {
      const target = operands[0];
      if (target === undefined) {
        if (this.dirs.length === 0 || stay) return;
        [this.cwd, this.dirs] = [this.dirs[0]!, [this.cwd, ...this.dirs.slice(1)]];
      } else if (stay) this.dirs = [this.folder(target), ...this.dirs];
      else [this.cwd, this.dirs] = [this.folder(target), [this.cwd, ...this.dirs]];
      if (this.dirs.length > MAX_DIRS) {
        this.find({ rule: "unresolved-argument", messageId: "folderNotFollowed", data: { how: `more than ${MAX_DIRS} folders on pushd's stack` } });
        this.dirs = this.dirs.slice(0, MAX_DIRS);
      }
      if (!stay) this.moved = true;
      return;
    }
    if (this.dirs.length === 0) return;
    if (stay) {
      this.dirs = this.dirs.slice(1);
      return;
    }
    [this.cwd, this.dirs] = [this.dirs[0]!, this.dirs.slice(1)];
    this.moved = true;
  }

  /**
   * Arguments: run-time values are unresolved; file-like words go to the workspace checks. `trees`: the
   * words that name folders the program writes everything under (see treeOperands). `chdir`: the folder
   * the program works in from the word after `chdir.after` on (`git -C dir clean lib` reads `dir/lib`).
   */
  private args(args: ShellWord[], textOnly: boolean, depth: number, trees?: Set<ShellWord> | "cwd", chdir?: Chdir, values?: OptionValues, reads = false, sources?: Set<ShellWord>): void {
    const before = this.cwd;
    try {
      // find and git clean without a folder work on the one they run in.
      if (trees === "cwd") {
        if (chdir) this.cwd = chdir.cwd;
        this.path(".", false, undefined, true);
        this.cwd = before;
      }
      this.argWords(args, textOnly, depth, trees, chdir, values, reads, sources);
    } finally {
      this.cwd = before;
    }
  }

  private argWords(args: ShellWord[], textOnly: boolean, depth: number, trees: Set<ShellWord> | "cwd" | undefined, chdir: Chdir | undefined, values: OptionValues | undefined, reads: boolean, sources?: Set<ShellWord>): void {
    let operands = false;
    let step: Chdir["steps"][number] | undefined;
    for (const w of args) {
      // After a folder option's value, the words are read from that folder; the value from the one before.
      if (step) this.cwd = step.cwd;
      step = chdir?.steps.find((s) => s.word === w);
      if (step) this.cwd = step.from;
      if (w.value === undefined) {
        this.find({ rule: "unresolved-argument", messageId: "valueAtRunTime", data: { source: w.source }, span: wordSpan(w, depth) });
        continue;
      }
      if (textOnly) continue;
      if (!this.searching && !this.again && w.value.length <= 64) {
        const marker = MARKER_WORD.exec(w.value);
        if (marker) this.report.markers.push({ word: marker[1]!, span: wordSpan(w, depth) });
      }
      // After `--` every word is an operand, one that starts with `-` too (`cp a -- -/../../x`).
      if (!operands && w.value === "--") {
        operands = true;
        continue;
      }
      const tree = trees instanceof Set && trees.has(w);
      const known = values?.get(w);
      // A word the program's grammar reads as text names no file, but for the paths it is known to name.
      // After `--`, a word shaped like an option is still one to the program a runner hands it to (`npm test -- --outputFile=.env`).
      const own = known?.text ? [] : operands ? [...operandPaths(w.value), ...(w.value.startsWith("-") ? pathsIn(w.value) : [])] : pathsIn(w.value);
      const source = sources?.has(w) === true;
      for (const v of [...own, ...(known?.paths ?? [])]) this.path(v, w.glob, wordSpan(w, depth), tree, reads, source);
    }
  }

  /**
   * Project files the program rewrites that no word names (CommandPath.rewritten): written after the
   * runs and loads of the line so far, its own among them. A later program of the line that reads the
   * same file is another run, not the one before the write.
   */
  private rewrites(files: readonly string[], how: string, span: CommandSpan | undefined): void {
    const after = this.report.runs?.length ?? 0;
    for (const name of files) {
      // A name ending in `/`: a folder written whole.
      const file = name.length > 1 ? name.replace(/\/+$/, "") : name;
      this.path(file, false, span, file !== name);
      const p = this.report.paths.at(-1);
      if (p !== undefined && p.text === file && p.cwd === this.cwd) p.rewritten = { how, after };
    }
    this.runKeys.clear();
  }

  /** A program that may write files no word of it names, in the folder it runs in (CommandReport.generates). */
  private generates(program: string, fetchedBy: string | undefined): void {
    const list = (this.report.generates ??= []);
    if (list.some((g) => g.program === program && g.cwd === this.cwd && g.runner === fetchedBy)) return;
    // Past the bound, one program that may write anywhere stands for the rest.
    if (list.length >= MAX_GENERATES) {
      if (!list.some((g) => g.program === "" && g.cwd === "/")) list.push({ program: "", cwd: "/" });
      return;
    }
    list.push({ program, cwd: this.cwd, ...(fetchedBy !== undefined ? { fetched: true as const, runner: fetchedBy } : {}) });
  }

  private path(text: string, glob: boolean, span: CommandSpan | undefined, tree = false, read = false, source = false): void {
    if (text === "" || text === "-" || DEVICES.test(text) || isRemoteUrl(text)) return;
    // In package folders plangate does not know, a relative path names a file it cannot find.
    if (this.elsewhere !== undefined && !/^[/~]/.test(text)) this.find({ rule: "unresolved-argument", messageId: "packageFolders", data: { how: this.elsewhere } });
    // `.*` matches `..` in many shells: a pattern that can match `..` is read as `..`.
    const t = glob ? text.split("/").map((seg) => (globMatchesDotDot(seg) ? ".." : seg)).join("/") : text;
    const p: CommandPath = t === text ? { text, cwd: this.cwd } : { text: t, written: text, cwd: this.cwd };
    if (glob && /[*?[]/.test(text)) {
      p.glob = true;
      if (this.globs.dotglob) p.dotglob = true;
      if (this.globs.globstar && text.split("/").includes("**")) p.globstar = true;
    }
    if (tree) p.tree = true;
    if (read) p.read = true;
    if (source) p.source = true;
    if (this.owner !== undefined) p.program = this.owner;
    const where = span ?? this.span;
    if (where !== undefined) p.span = where;
    const key = JSON.stringify([p.text, p.written, p.cwd, p.glob, p.tree, p.read, p.source, p.span?.start, p.span?.end]);
    if (this.again && this.pathKeys.has(key)) return;
    this.pathKeys.add(key);
    this.report.paths.push(p);
  }
}

/** A word's offsets in the analysed line: only a top-level word's offsets are the line's. */
function wordSpan(w: ShellWord, depth: number): CommandSpan | undefined {
  return depth === 0 ? { start: w.start, end: w.end } : undefined;
}

/** How many letters of a short-option cluster are tried as the option before a glued value. */
const MAX_CLUSTER = 4;

/**
 * The paths an argument may name. A plain word is one. A long option's value after `=` is one
 * (`--output=/x`). A short option may have its value glued on (`-o/x`, `-Dt/x`, `-C/tmp`): plangate
 * does not know each program's options, so every suffix after one to four option letters that looks
 * like a path (starts with `/`, `~` or `.`, or holds a `/`) is one. A `name=value` operand's value is
 * one too (`dd of=/x`, `make DESTDIR=/x`).
 */
function pathsIn(v: string): string[] {
  return compoundPaths(optionPaths(v));
}

function optionPaths(v: string): string[] {
  if (v.startsWith("--")) {
    const eq = v.indexOf("=");
    return eq < 0 ? [] : withKindPath([v.slice(eq + 1)]);
  }
  if (v.startsWith("-")) {
    const out: string[] = [];
    for (let k = 2; k <= Math.min(v.length - 1, MAX_CLUSTER + 1); k++) {
      if (!/^[A-Za-z0-9]$/.test(v[k - 1]!)) break;
      const rest = v.slice(k).replace(/^=/, "");
      if (/^[/~.]/.test(rest) || rest.includes("/")) out.push(rest);
    }
    // A long option spelt with one dash, its value after `=` (`go test -coverprofile=.env`, `-Dout=x`): the value, whatever its length.
    const eq = v.indexOf("=");
    if (eq > 2 && /^-[A-Za-z][\w.-]*$/.test(v.slice(0, eq)) && !out.includes(v.slice(eq + 1))) out.push(v.slice(eq + 1));
    return withKindPath(out);
  }
  return operandPaths(v);
}

/** Option values and the path a `kind:path` value names (`--cov-report=xml:.env`, `html:out/cov`); not a URL's (`https://…`). */
function withKindPath(values: string[]): string[] {
  const out = [...values];
  for (const x of values) {
    const m = /^[A-Za-z][\w+-]*:(.+)$/.exec(x);
    if (m !== null && !m[1]!.startsWith("//") && (/^[/~.]/.test(m[1]!) || m[1]!.includes("/"))) out.push(m[1]!);
  }
  return out;
}

/** The paths an operand may name: the word, and a `name=value` operand's value. */
function operandPaths(v: string): string[] {
  const m = /^[A-Za-z_][A-Za-z0-9_.-]*=(.+)$/.exec(v);
  return compoundPaths(m ? [v, m[1]!] : [v]);
}

/** Most `=` of one word whose values are tried as paths. */
const MAX_COMPOUND = 8;
/**
 * A package specifier's source after `name@` or alone: a local folder or archive (`file:`, `link:`,
 * `portal:`, `git+file:`, `./x`, `../x`, `/x`, `~/x`), a script Yarn runs to make the package (`exec:./x.js`),
 * or the patch file of Yarn's `patch:` (`patch:y@npm:1#../p.patch`).
 */
const LOCAL_SPEC = /^(?:(?:link|portal|exec):(.+)|patch:[^#]*#(?:~builtin<[^>]*>&?)*([^:&]+)(?:[:&].*)?|((?:[A-Za-z][\w.-]*\+)?file:.+|\.\.?(?:[/\\].*)?|~(?:[/\\].*)?|[/\\].*))$/is;

/**
 * The paths hidden in compound words, besides the word and its option or `name=value` value: the value
 * after every `=` of a word that is no remote URL (`go mod edit -replace example.com/x=../y`,
 * `--config=key=../x`, `-Dkey=a=/x`), unquoted when a TOML or shell-like string (`patch.crates-io.x.path="../y"`,
 * `x = { path = "../y" }`; in a word with spaces only such a string), and a package specifier's local source (`x@file:../y`, `x@link:../y`,
 * `@s/x@../y`, `link:../y`, `x @ file:///y`). A further value counts when it is shaped like a path
 * (starts with `/`, `~/` or `.`, or holds a slash), or is a local specifier.
 */
function compoundPaths(values: string[]): string[] {
  const out = [...values];
  const add = (x: string) => {
    if (x !== "" && !out.includes(x)) out.push(x);
  };
  const pathy = (x: string) => /^(?:[.\\/]|~(?:[/\\]|$))/.test(x) || /[/\\]/.test(x);
  const spec = (x: string, depth = 0) => {
    const at = /^@?[^@]*?\s*@\s*(.+)$/s.exec(x);
    for (const s of at ? [x, at[1]!] : [x]) {
      // Yarn's patch of a package from another source (`patch:y@file:../y#p.patch`, `y@file%3A../y`).
      const patched = /^patch:([^#]+)#/is.exec(s);
      if (patched !== null && depth < 2) spec(safeDecode(patched[1]!), depth + 1);
      const m = LOCAL_SPEC.exec(s);
      if (m === null || (s === x && m[1] === undefined && m[2] === undefined && !/^(?:[A-Za-z][\w.-]*\+)?file:/i.test(s))) continue;
      add(m[1] ?? m[2] ?? m[3]!);
    }
  };
  for (const v of values) {
    if (isRemoteUrl(v)) continue;
    spec(v);
    let from = 0;
    for (let n = 0; n < MAX_COMPOUND; n++) {
      const eq = v.indexOf("=", from);
      if (eq < 0) break;
      from = eq + 1;
      const rest = v.slice(from).trim();
      const quoted = /^(["'])(.*?)\1/s.exec(rest);
      // In a word with spaces (prose, `x = { path = "../y" }`), only a quoted value: `set x = /usr/bin` is a sentence.
      for (const x of quoted ? [quoted[2]!] : /\s/.test(v) ? [] : [rest]) {
        if (isRemoteUrl(x)) continue;
        if (pathy(x)) add(x);
        spec(x);
      }
    }
  }
  return out;
}

/** The text with its percent escapes decoded, or as it is when they are not valid. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function globMatchesDotDot(segment: string): boolean {
  // bash matches `.` and `..` only with a pattern that starts with a literal `.` (`.*`, `.?`), even under dotglob: `build/*` never names `build/..`.
  if (!/[*?[]/.test(segment) || !segment.startsWith(".")) return false;
  let re = "^";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        re += "[" + segment.slice(i + 1, end).replace(/^[!^]/, "^").replace(/\\/g, "\\\\") + "]";
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  try {
    return new RegExp(re + "$").test("..");
  } catch {
    return true;
  }
}
