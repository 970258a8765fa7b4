import type { ShellWord } from "../syntax/shell/types.js";
import { interpreterOf } from "./inline-code.js";
import { NODE_LOCK_KINDS } from "./manifest-paths.js";

/*
 * Code a program loads by itself: the files it finds by their names in the project rather than is given
 * on its line. A test runner imports the tests and their helpers (`pytest` finds conftest.py and
 * test_*.py, `vitest` the *.test.ts files and the modules they import), a build tool runs the build's own
 * code (`cargo` build.rs, `gradle` build.gradle, `cmake` CMakeLists.txt), an interpreter imports the
 * modules beside its script, and a task runner or a script of the project runs whatever commands it
 * holds. A plan that writes such a file and then runs the program runs the file's code as surely as
 * `python3 x.py` does: src/commands/written.ts judges each such file the plan writes as it judges a
 * script it runs. The tables name the files by patterns of their names (`*.py`, `conftest.py`) or the
 * end of their paths (`.cargo/config.toml`, `.husky/*`); `**` stands for any folders.
 */

/** Files a program loads, and how their text is read: an interpreter's name (commands.writtenCode), `shell`, or `manifest`. */
export interface Load {
  files: readonly string[];
  as: string;
  /** For a manifest: what it is, in messages (`Gradle build file`). */
  kind?: string;
  /** Found at the root of the project only (git's hooks): the patterns are paths from the workspace. */
  root?: true;
  /**
   * Loaded only when its text matches (a project file that holds scripts, a linter's settings that hold
   * code): a written text that does not is data. A text the plan does not hold is loaded anyway.
   */
  holds?: RegExp;
  /** For package.json: the top-level keys that name code or commands a tool runs (refused as a manifest when present). */
  keys?: readonly string[];
  /** For package.json: its scripts are run too, each judged as a command line (a hook that runs `npm test`). */
  scripts?: true;
  /**
   * A language's compiled forms (`*.so`, `*.pyc`, `*.class`, `*.node`): what they are, in messages. No one
   * reads machine code or bytecode in a plan, so a written one is refused whatever language the policy trusts.
   */
  compiled?: string;
}

/** A language: its code files, by the interpreter name commands.writtenCode and commands.inlineCode give it, and its compiled forms. */
interface Language {
  as: string;
  files: readonly string[];
  compiled?: { kind: string; files: readonly string[] };
}

const LANGUAGES: readonly Language[] = [
  // Python imports sourceless and compiled modules as well as sources (`x.pyc`, `x.so` beside `x.py`'s place, a `__pycache__`'s bytecode).
  { as: "python", files: ["*.py", "*.pyw", "*.pth", "Snakefile", "*.smk"], compiled: { kind: "compiled Python (an extension module or bytecode)", files: ["*.pyc", "*.pyo", "*.pyd", "*.so", "__pycache__/**"] } },
  { as: "node", files: ["*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts", "*.jsx", "*.tsx", "*.vue", "*.svelte"], compiled: { kind: "a compiled module (a native addon or WebAssembly)", files: ["*.node", "*.wasm"] } },
  { as: "ruby", files: ["*.rb", "*.rake", "*.gemspec", "Gemfile", "gems.rb", "config.ru", "Guardfile", ".irbrc", "irb.rc", ".pryrc", "Podfile", "Fastfile", "Appfile", "Pluginfile", "Dangerfile", "Vagrantfile", "Brewfile", "Capfile", "Berksfile", "Puppetfile", "Steepfile", ".simplecov"], compiled: { kind: "a compiled Ruby extension", files: ["*.so", "*.bundle"] } },
  { as: "php", files: ["*.php"], compiled: { kind: "a PHP archive (phar)", files: ["*.phar"] } },
  { as: "perl", files: ["*.pl", "*.pm", "*.t", "cpanfile"] },
  // go builds the assembly, C and object files of a package's folder into it (`*.s`, cgo's `*.c`, `*.syso`).
  { as: "go", files: ["*.go", "*.s", "*.S", "*.c", "*.h", "*.cc", "*.cpp", "*.cxx", "*.hh", "*.hpp", "*.m"], compiled: { kind: "an object file go links in (syso)", files: ["*.syso"] } },
  { as: "rust", files: ["*.rs"] },
  { as: "elixir", files: ["*.ex", "*.exs"], compiled: { kind: "compiled BEAM code", files: ["*.beam", "*.ez"] } },
  { as: "java", files: ["*.java"], compiled: { kind: "compiled Java (a class file or an archive of them)", files: ["*.class", "*.jar", "*.war", "*.ear"] } },
  { as: "kotlin", files: ["*.kt", "*.kts"] },
  { as: "scala", files: ["*.scala", "*.sc"] },
  { as: "groovy", files: ["*.groovy"] },
  { as: "dotnet", files: ["*.cs", "*.csx", "*.fs", "*.fsx", "*.vb"], compiled: { kind: "a compiled .NET assembly", files: ["*.dll", "*.exe", "*.nupkg"] } },
  { as: "lua", files: ["*.lua"] },
  { as: "julia", files: ["*.jl"] },
  { as: "Rscript", files: ["*.R", "*.r"] },
  { as: "swift", files: ["*.swift"] },
  { as: "haskell", files: ["*.hs", "*.lhs"] },
  { as: "erlang", files: ["*.erl", "*.hrl", "rebar.config.script"], compiled: { kind: "compiled BEAM code", files: ["*.beam", "*.ez"] } },
  { as: "clojure", files: ["*.clj", "*.cljc", "*.cljs", "*.bb", "project.clj", "deps.edn", "bb.edn", "build.boot"] },
  { as: "ocaml", files: ["*.ml", "*.mli"] },
  { as: "dart", files: ["*.dart"] },
  { as: "zig", files: ["*.zig", "*.zon"] },
  { as: "nim", files: ["*.nim", "*.nims", "*.nimble"] },
  { as: "crystal", files: ["*.cr"] },
  { as: "shell", files: ["*.sh", "*.bash"] },
];
/** Each language's code files and, after them, its compiled forms (judged as that language's, but never trusted). */
const CODE: readonly Load[] = LANGUAGES.flatMap((l): Load[] => [{ as: l.as, files: l.files }, ...(l.compiled ? [{ as: l.as, files: l.compiled.files, compiled: l.compiled.kind }] : [])]);
/** A language's loads: its code files and its compiled forms. */
const code = (as: string): readonly Load[] => CODE.filter((l) => l.as === as);

/** Build files that name commands or code to run, which plangate does not read. */
const MANIFESTS: Readonly<Record<string, Load>> = {
  cargo: { as: "manifest", kind: "Cargo configuration", files: [".cargo/config.toml", ".cargo/config"] },
  // rustup runs the toolchain this file names (`path = "./tc"`) for every command it stands for, `cargo --version` too.
  toolchain: { as: "manifest", kind: "Rust toolchain file", files: ["rust-toolchain.toml", "rust-toolchain"] },
  maven: { as: "manifest", kind: "Maven build file", files: ["pom.xml", ".mvn/**"] },
  gradle: { as: "manifest", kind: "Gradle build file", files: ["*.gradle", "*.gradle.kts", "gradle.properties", "gradle-wrapper.properties", "buildSrc/**"] },
  sbt: { as: "manifest", kind: "sbt build file", files: ["*.sbt", "project/*.scala"] },
  msbuild: { as: "manifest", kind: "MSBuild project", files: ["*.csproj", "*.fsproj", "*.vbproj", "*.props", "*.targets", "*.proj"] },
  cmake: { as: "manifest", kind: "CMake project", files: ["CMakeLists.txt", "*.cmake", "CMakePresets.json", "CMakeUserPresets.json"] },
  meson: { as: "manifest", kind: "Meson project", files: ["meson.build", "meson.options", "meson_options.txt"] },
  ninja: { as: "manifest", kind: "Ninja build file", files: ["*.ninja"] },
  bazel: { as: "manifest", kind: "Bazel build file", files: ["BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", "*.bzl", ".bazelrc", "BUCK", ".buckconfig"] },
  scons: { as: "manifest", kind: "SCons build file", files: ["SConstruct", "SConscript", "wscript"] },
  terraform: { as: "manifest", kind: "Terraform configuration", files: ["*.tf", "*.tf.json", "*.tofu", "terragrunt.hcl", ".terraformrc", "terraform.rc"] },
  composer: { as: "manifest", kind: "Composer file", files: ["composer.json"] },
  ansible: { as: "manifest", kind: "Ansible configuration", files: ["ansible.cfg"] },
  procfile: { as: "manifest", kind: "Procfile", files: ["Procfile", "Procfile.*"] },
  compose: { as: "manifest", kind: "Compose file", files: ["compose.yaml", "compose.yml", "compose.*.yaml", "compose.*.yml", "docker-compose.yaml", "docker-compose.yml", "docker-compose.*.yaml", "docker-compose.*.yml"] },
  nix: { as: "manifest", kind: "Nix expression", files: ["*.nix", "flake.lock", "devenv.yaml", "devenv.lock", "devbox.json"] },
  mise: { as: "manifest", kind: "mise configuration", files: ["mise.toml", ".mise.toml", "mise.*.toml", ".mise.*.toml", ".rtx.toml", ".config/mise.toml", ".config/mise/**", ".mise/**", "mise/**", ".tool-versions"] },
  dvc: { as: "manifest", kind: "DVC pipeline", files: ["dvc.yaml", ".dvc/config", ".dvc/config.local"] },
  tilt: { as: "manifest", kind: "Tiltfile", files: ["Tiltfile", "*.tiltfile"] },
  earthly: { as: "manifest", kind: "Earthfile", files: ["Earthfile"] },
  workflows: { as: "manifest", kind: "CI workflow", files: [".github/workflows/**", ".github/actions/**", ".actrc"] },
  haskell: { as: "manifest", kind: "Haskell build file", files: ["*.cabal", "cabal.project", "cabal.project.*", "stack.yaml", "package.yaml"] },
  rebar: { as: "manifest", kind: "rebar3 configuration", files: ["rebar.config"] },
  dune: { as: "manifest", kind: "dune or opam file", files: ["dune", "dune-project", "dune-workspace", "*.opam"] },
  dart: { as: "manifest", kind: "Dart build file", files: ["build.yaml", "pubspec.yaml"] },
  shards: { as: "manifest", kind: "shard.yml", files: ["shard.yml"] },
  xcode: { as: "manifest", kind: "Xcode project", files: ["*.pbxproj", "*.xcconfig", "*.xcscheme"] },
  autotools: { as: "manifest", kind: "autotools input", files: ["configure.ac", "configure.in", "Makefile.am", "*.m4"] },
  qmake: { as: "manifest", kind: "qmake project", files: ["*.pro", "*.pri", ".qmake.conf"] },
  deploy: { as: "manifest", kind: "deployment configuration that names build commands", files: ["vercel.json", "netlify.toml", "firebase.json"] },
  npmrc: { as: "manifest", kind: "package manager's configuration", files: [".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", "bunfig.toml", "pnpm-workspace.yaml"] },
  // Bundler's settings of the application: where gems come from (mirrors), the Gemfile it loads, where it installs.
  bundler: { as: "manifest", kind: "Bundler configuration", files: [".bundle/config"] },
  // A Python project's runner reads its scripts and hooks there (`pdm run lint`, `hatch run test`, `pipenv run t`, poetry's file scripts).
  pyscripts: { as: "manifest", kind: "project file that names scripts", files: ["pyproject.toml", "hatch.toml", "pdm.toml", "Pipfile"], holds: /scripts|commands|tasks|hooks|\\/i },
  // Poetry's and PDM's project settings of where the environment lies (read on disk for installs: src/commands/paths.ts).
  pyenvs: { as: "manifest", kind: "project manager's settings of where it installs", files: ["poetry.toml", "pdm.toml"], holds: /venv|create|path|cache|python|\\/i },
  // The Python a tool runs, by version or by path (`./py`, `/tmp/x/python`): one named by a path is a program the plan chooses.
  pyversion: { as: "manifest", kind: "Python version file", files: [".python-version", ".python-versions", ".pdm-python"], holds: /[/\\~]/ },
  // A Prisma schema's generators are command lines Prisma runs (`provider = "node ./gen.js"`).
  prisma: { as: "manifest", kind: "Prisma schema", files: ["*.prisma", "prisma.config.*"] },
  hooks: {
    as: "manifest",
    root: true,
    kind: "git hook configuration",
    files: [".pre-commit-config.yaml", ".pre-commit-config.yml", "lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml", "lefthook-local.yml", ".lefthook-local.yml", ".lefthook/**", ".lintstagedrc", ".lintstagedrc.*", "lint-staged.config.*", "commitlint.config.*", ".commitlintrc", ".commitlintrc.*", ".overcommit.yml", ".huskyrc", ".huskyrc.*", ".simple-git-hooks.*", "simple-git-hooks.*", ".pre-commit-hooks.yaml"],
  },
};

/**
 * Dependency manifests whose text may name local folders a build or install makes part of the project
 * (go.mod's `replace x => ../y`, go.work's `use`, Cargo.toml's `path = "../y"`, pyproject.toml's
 * `[tool.uv.sources]`, a requirements file's `-e ../y`): src/commands/manifest-paths.ts reads each path,
 * which is then checked as a path the command names. package.json's are read with its other sections.
 */
/**
 * A manifest's names in any folder of the workspace, matched from its root so that a folder written
 * whole (a clone) is not taken to hold one: a build reads the manifest of its own folder and those its
 * manifests name, which the plan writes and are followed, not each one under a fetched folder.
 */
const inAnyFolder = (files: readonly string[]) => files.flatMap((f) => [f, `**/${f}`]);
const GO_DEPS: Load = { as: "deps", kind: "Go module file", root: true, files: inAnyFolder(["go.mod", "go.work"]) };
const CARGO_DEPS: Load = { as: "deps", kind: "Cargo manifest", root: true, files: inAnyFolder(["Cargo.toml"]) };
const PY_DEPS: Load = { as: "deps", kind: "Python project file", root: true, files: inAnyFolder(["pyproject.toml", "Pipfile", "uv.lock", "poetry.lock", "pdm.lock"]) };
const REQUIREMENTS = ["requirements*.txt", "requirements*.in", "requirements/*.txt", "requirements/*.in", "constraints*.txt", "*-requirements.txt", "*_requirements.txt", "*.requirements.txt"];
const REQ_DEPS: Load = { as: "deps", kind: "requirements file", root: true, files: inAnyFolder(REQUIREMENTS) };
const requirementLoads = new Map<string, Load>();
/** node's package managers' lock files, which an install follows (`npm ci`, `pnpm install --frozen-lockfile`, `yarn install --immutable`, `bun install`). */
const NODE_LOCKS: readonly Load[] = [
  { as: "deps", kind: NODE_LOCK_KINDS.npm, root: true, files: inAnyFolder(["package-lock.json", "npm-shrinkwrap.json"]) },
  { as: "deps", kind: NODE_LOCK_KINDS.pnpm, root: true, files: inAnyFolder(["pnpm-lock.yaml"]) },
  { as: "deps", kind: NODE_LOCK_KINDS.yarn, root: true, files: inAnyFolder(["yarn.lock"]) },
  { as: "deps", kind: NODE_LOCK_KINDS.bun, root: true, files: inAnyFolder(["bun.lock"]) },
  // bun's binary lock, which no one reads in a plan.
  { as: "manifest", kind: "bun's binary lock file", files: ["bun.lockb"] },
];
/** Bundler's lock (a Gemfile is Ruby's code), and Composer's (composer.json is refused as a manifest). */
const GEM_LOCK: Load = { as: "deps", kind: "Gemfile.lock", root: true, files: inAnyFolder(["Gemfile.lock", "gems.locked"]) };
const COMPOSER_LOCK: Load = { as: "deps", kind: "composer.lock", root: true, files: inAnyFolder(["composer.lock"]) };
/**
 * The requirements files an install reads: those by their usual names, and each named by `-r`, `-c`
 * (spelt apart, glued or after `=`) or, for `uv pip sync` and `pip-sync`, as an operand.
 */
function requirementsOf(args: readonly ShellWord[], operands: boolean): Load {
  const named: string[] = [];
  const values = args.map((w) => w.value);
  values.forEach((v, k) => {
    if (v === undefined) return;
    const glued = /^(?:--requirements?|--constraints?|--build-constraints?|--overrides?|-r|-c)(?:=|(?<=^-[rc]))(.+)$/.exec(v);
    if (glued !== null) named.push(glued[1]!);
    else if (/^(?:--requirements?|--constraints?|--build-constraints?|--overrides?|-r|-c)$/.test(v) && typeof values[k + 1] === "string") named.push(values[k + 1]!);
    else if (operands && !v.startsWith("-") && k > 0) named.push(v);
  });
  const names = [...new Set(named.map((f) => f.slice(f.lastIndexOf("/") + 1)).filter((f) => f !== "" && !f.includes("\0") && !/[*?[\]{}]/.test(f)))].filter((f) => !REQUIREMENTS.includes(f));
  if (names.length === 0) return REQ_DEPS;
  const key = names.join("\0");
  let load = requirementLoads.get(key);
  if (load === undefined) {
    load = { ...REQ_DEPS, files: inAnyFolder([...REQUIREMENTS, ...names]) };
    if (requirementLoads.size < 1024) requirementLoads.set(key, load);
  }
  return load;
}

/**
 * Settings of node's tools that name modules they load (`"require": "./x"` in .mocharc.json, a babel
 * plugin, a jest setup file): node loads a module of any name as code, so such a file is judged as
 * node's code. package.json's sections for those tools, and for git's hooks, name them there.
 */
const NODE_SETTINGS: Load = {
  as: "node",
  files: [".babelrc", ".babelrc.*", "babel.config.*", "jest.config.*", ".mocharc", ".mocharc.*", ".eslintrc", ".eslintrc.*", ".prettierrc", ".prettierrc.*", "prettier.config.*", ".stylelintrc", ".stylelintrc.*", "stylelint.config.*", ".swcrc", ".postcssrc", ".postcssrc.*", "postcss.config.*", ".nycrc", ".nycrc.*", ".c8rc", ".c8rc.*", ".parcelrc", "nodemon.json", ".releaserc", ".releaserc.*", "tsconfig.json", "tsconfig.*.json", "jsconfig.json", ".huskyrc", ".huskyrc.*", "ava.config.*", "vitest.config.*", "vite.config.*", ".ncurc.*", "typedoc.json", ".jsdoc.json", "jsdoc.json"],
};
const NODE_KEYS: Load = {
  as: "manifest",
  kind: "package.json section of a tool that loads the modules it names",
  files: ["package.json"],
  keys: ["jest", "mocha", "ava", "babel", "eslintConfig", "prettier", "stylelint", "nyc", "c8", "ts-node", "tsx", "xo", "standard", "tap", "postcss", "browserify", "nodemonConfig", "release", "typedocOptions", "husky", "gitHooks", "simple-git-hooks", "lint-staged", "pre-commit", "precommit", "commitlint", "config"],
};
/** git's hooks: the hook managers' sections of package.json name commands, and a hook may run the project's scripts (`npm test`). */
const HOOK_KEYS: Load = { ...NODE_KEYS, root: true, kind: "package.json section of a git hook manager", keys: ["husky", "gitHooks", "simple-git-hooks", "lint-staged", "pre-commit", "precommit", "commitlint", "config", "ghooks"], scripts: true };

/**
 * Environment files a program loads by itself before what it runs (src/commands/dotenv.ts): `.env` and
 * the variants tools read by mode (`.env.local`, `.env.development`, `.env.production.local`). Flask's
 * command line reads `.flaskenv` too, and overmind `.overmind.env`.
 */
const DOTENV: Load = { as: "dotenv", files: [".env", ".env.*"] };
const FLASKENV: Load = { as: "dotenv", files: [".env", ".env.*", ".flaskenv"] };
const PROCENV: Load = { as: "dotenv", files: [".env", ".env.*", ".overmind.env"] };
/**
 * Compose's environment file: `.env` of the project's folder (the Compose file's, `--project-directory`'s,
 * or a parent's Compose searches), or the files `--env-file` names. Compose fills the Compose file's
 * `${NAME}` with its values (an image, a command, an entrypoint, a mount's source) and reads its own
 * settings there (`COMPOSE_FILE`, `COMPOSE_PROFILES`): any value may change what runs, so a written one is
 * refused as a manifest, in any folder.
 */
export const COMPOSE_ENV: Load = { as: "manifest", kind: "Compose environment file (Compose fills the Compose file's ${NAME} with its values: images, commands, mounts)", files: [".env"] };
/** Azure Functions' local settings: `func start` sets their `Values` in the environment of the functions' host and workers. */
const FUNC_SETTINGS: Load = { as: "manifest", kind: "Azure Functions local settings file (its Values are the functions' environment)", files: ["local.settings.json"] };

/** Every language's code: what a task runner or a project's script may run (and the environment files it may load or source). */
const ANY: readonly Load[] = [...CODE, NODE_SETTINGS, NODE_KEYS, DOTENV];

/** pylint runs its settings' `init-hook` as Python. */
const PYLINT_HOOK: Load = { as: "python", files: [".pylintrc", "pylintrc", "pyproject.toml", "setup.cfg", "tox.ini"], holds: /init.?hook|\\/i };
const PYTHON = [...code("python")];
const NODE = [...code("node"), NODE_SETTINGS, NODE_KEYS];
/** Subcommands of a package manager that run none of the project's code. */
const NPM_QUIET = new Set(["ls", "list", "ll", "la", "view", "v", "info", "show", "outdated", "audit", "whoami", "search", "s", "find", "help", "config", "c", "get", "set", "root", "prefix", "bin", "docs", "home", "bugs", "repo", "ping", "cache", "login", "logout", "adduser", "token", "owner", "access", "team", "org", "profile", "star", "stars", "unstar", "fund", "explain", "why", "query", "completion", "-v", "--version", "-h", "--help", "outdated", "licenses", "dedupe"]);

/** The first word of the arguments that is not an option: a subcommand, when the program takes one. */
function subcommand(args: readonly ShellWord[]): string | undefined {
  for (const w of args) {
    if (w.value === undefined) return "";
    if (!w.value.startsWith("-")) return w.value;
  }
  return undefined;
}

/** Does the program run its subcommand `sub` among those listed (an unknown word, a run-time one: yes)? */
const among = (list: readonly string[]) => (args: readonly ShellWord[]) => {
  const sub = subcommand(args);
  return sub === "" || (sub !== undefined && list.includes(sub));
};
const except = (list: ReadonlySet<string> | readonly string[]) => (args: readonly ShellWord[]) => {
  const sub = subcommand(args);
  const quiet = list instanceof Set ? list : new Set(list);
  return sub === undefined || sub === "" || !quiet.has(sub);
};

/** A program's loads, and the subcommands that load them (none: every invocation); `quiet`: what it loads even when they do not. */
interface Loader {
  loads: readonly Load[];
  when?: (args: readonly ShellWord[]) => boolean;
  quiet?: readonly Load[];
}

const PY_LOCAL = /^(?:\.{1,2}(?:\/|$)|\/|file:|-e$|--editable)/;
/** pip builds and runs a local project's code (setup.py, an in-tree build backend) when it installs or builds a folder. */
const pipLocal = (args: readonly ShellWord[]) => {
  const sub = subcommand(args);
  if (sub === "") return true;
  if (sub !== "install" && sub !== "wheel" && sub !== "download") return false;
  return args.some((w) => w.value === undefined || PY_LOCAL.test(w.value) || (w.value.includes("/") && !w.value.includes("://") && !w.value.startsWith("-")));
};

/** Ruby's programs that run the project's code, Bundler's among them. */
const RUBY_TOOLS = ["rspec", "rackup", "puma", "unicorn", "thin", "jekyll", "cucumber", "minitest", "guard", "sidekiq", "rubocop", "fastlane", "pod", "danger", "vagrant", "cap", "hanami", "middleman", "bridgetown", "yard", "bundle", "bundler", "rails"];

/** The commands of Python's project managers that run the project's code, scripts or build. */
const PY_PROJECT_COMMANDS = ["install", "run", "build", "sync", "test", "shell", "lock", "add", "update", "publish", "env", "develop", "script", "fmt", "lint", "check"];

/** JavaScript's frameworks and tools that load the project's environment files into their own environment (and their workers'). */
const LOADS_DOTENV = new Set(["vite", "next", "nuxt", "nuxi", "astro", "remix", "gatsby", "react-scripts", "vue-cli-service", "expo", "wrangler", "serverless", "sls", "sst", "vitest", "vite-node", "vinxi", "qwik", "slidev", "vitepress", "docusaurus", "rsbuild", "nest", "playwright", "cypress", "hardhat", "electron-forge", "nx", "parcel", "storybook", "svelte-kit"]);
/** Languages whose programs commonly load the project's .env themselves (python-dotenv, dotenv, the dotenv gem, phpdotenv), for the processes they start. */
const DOTENV_LANGUAGES = new Set(["python", "node", "ruby", "php", "bun", "deno"]);

const LOADERS: ReadonlyMap<string, Loader> = new Map<string, Loader>([
  // Python's test runners, servers, notebooks and tools that import the project's modules or plugins.
  ...["nose2", "nosetests", "ward", "behave", "coverage", "uvicorn", "gunicorn", "hypercorn", "daphne", "django-admin", "celery", "streamlit", "locust", "scrapy", "sphinx-build", "sphinx-autobuild", "mkdocs", "alembic", "airflow", "dagster", "prefect", "hug", "fastapi",
    "mypy", "dmypy", "flake8", "pytype", "jupyter", "jupyter-lab", "jupyter-notebook", "jupyter-server", "jupyter-nbconvert", "jupyter-execute", "voila", "marimo", "panel", "bokeh", "gradio", "textual", "sanic", "litestar", "granian", "waitress-serve", "pserve", "twistd", "rq", "dramatiq", "luigi", "kedro", "snakemake", "pelican", "nikola", "lektor", "pdoc", "pdoc3", "pydoc", "pydoc3", "robot", "pyinstaller", "conan", "pyinfra", "pytest-watch", "ptw"].map((n): [string, Loader] => [n, { loads: PYTHON }]),
  // Flask's command line loads .flaskenv and .env (python-dotenv) into the environment of the server and its reloader.
  ["flask", { loads: [...PYTHON, FLASKENV] }],
  // pytest-dotenv loads .env (or the files pytest's settings name) before the tests.
  ...["pytest", "py.test"].map((n): [string, Loader] => [n, { loads: [...PYTHON, DOTENV] }]),
  ["pylint", { loads: [...PYTHON, PYLINT_HOOK] }],
  ["maturin", { loads: [...PYTHON, ...code("rust"), MANIFESTS.cargo!, MANIFESTS.toolchain!, CARGO_DEPS] }],
  ...["pip", "pip3", "pipx"].map((n): [string, Loader] => [n, { loads: PYTHON, when: pipLocal }]),
  // uv runs the Python that .python-version names, which may be a path (`./py`), whatever it is asked.
  ["uv", { loads: [...PYTHON, MANIFESTS.pyversion!], quiet: [MANIFESTS.pyversion!], when: (args) => (subcommand(args) === "pip" ? pipLocal(args.slice(args.findIndex((w) => w.value === "pip") + 1)) : among(["run", "sync", "build", "lock", "add", "publish"])(args)) }],
  // pipenv loads .env for `run` and `shell`, pdm and rye the env_file their scripts name, Poetry and Hatch through plugins; Poetry's and PDM's own settings say where they install.
  ...["poetry", "pdm", "hatch", "pipenv", "rye", "flit"].map((n): [string, Loader] => [n, { loads: [...PYTHON, MANIFESTS.pyscripts!, ...(n === "poetry" || n === "pdm" ? [MANIFESTS.pyenvs!] : []), ...(n === "flit" ? [] : [DOTENV]), ...(n === "pdm" || n === "rye" ? [MANIFESTS.pyversion!] : [])], when: among(PY_PROJECT_COMMANDS) }]),
  // JavaScript's test runners, bundlers, frameworks and tools that load their configuration as code.
  ...["jest", "vitest", "mocha", "ava", "tap", "jasmine", "karma", "playwright", "cypress", "c8", "nyc", "webpack", "webpack-cli", "vite", "rollup", "parcel", "next", "nuxt", "nuxi", "astro", "remix", "gatsby", "svelte-kit", "ng", "eslint", "prettier", "stylelint", "babel", "turbo", "nx", "lerna", "gulp", "grunt", "storybook", "tsx", "ts-node", "ts-node-esm", "esno", "esrun", "babel-node", "vite-node", "jiti", "zx", "nodemon", "pm2", "electron", "wrangler", "serverless", "sls", "cdk", "expo", "react-scripts", "vue-cli-service", "ember", "docusaurus", "eleventy", "hexo", "tsup", "unbuild",
    "hardhat", "truffle", "tailwindcss", "postcss", "commitlint", "semantic-release", "plop", "hygen", "typedoc", "jsdoc", "vuepress", "vitepress", "slidev", "rspack", "rsbuild", "qwik", "vinxi", "wdio", "testcafe", "nightwatch", "detox", "uvu", "tape", "qunit", "cucumber-js", "sst", "knip", "size-limit", "stencil", "quasar", "node-dev", "forever", "svgo", "biome", "oxlint", "ts-jest", "nest", "svelte-check", "vue-tsc", "tsc-watch", "electron-builder", "electron-forge", "drizzle-kit"].map((n): [string, Loader] => [n, { loads: LOADS_DOTENV.has(n) ? [...NODE, DOTENV] : NODE }]),
  // Prisma loads .env, then runs the generators its schema names (each a command line) with that environment.
  ["prisma", { loads: [...NODE, MANIFESTS.prisma!, DOTENV], when: except(["--version", "-v", "version", "--help", "-h", "help"]) }],
  ...["npm", "pnpm", "yarn", "yarnpkg"].map((n): [string, Loader] => [n, { loads: ANY, when: except(NPM_QUIET) }]),
  // bun loads .env, .env.local and .env.<NODE_ENV> whatever it is asked to do.
  ["bun", { loads: [...ANY.filter((l) => l.as !== "node"), ...code("node").map((l) => ({ ...l, as: "bun" }))], when: except(NPM_QUIET), quiet: [DOTENV] }],
  ["deno", { loads: [...ANY.filter((l) => l.as !== "node"), ...code("node").map((l) => ({ ...l, as: "deno" }))], when: except(["fmt", "lint", "info", "doc", "upgrade", "completions", "types", "help", "--version", "-V", "-h", "--help", "eval", "repl"]) }],
  // Ruby, PHP, Perl, Elixir.
  // Rails loads .env through dotenv-rails, Laravel's artisan through phpdotenv (and passes it to the server it starts).
  ["rails", { loads: [...code("ruby"), DOTENV] }],
  ["artisan", { loads: [...code("php"), DOTENV] }],
  // The Symfony CLI runs the application's bin/console and server, which load .env through symfony/dotenv.
  ["symfony", { loads: [...code("php"), DOTENV], when: except(["version", "-V", "--version", "help", "-h", "--help", "login", "logout", "projects", "check:requirements"]) }],
  ...RUBY_TOOLS.filter((n) => n !== "rails").map((n): [string, Loader] => [n, { loads: n.startsWith("bundle") ? [...code("ruby"), MANIFESTS.bundler!] : [...code("ruby")], when: n.startsWith("bundle") ? except(["version", "-v", "--version", "help", "-h", "--help", "config", "list", "info", "show", "outdated", "platform", "doctor"]) : undefined }]),
  ...["phpunit", "pest", "phpstan", "psalm", "php-cs-fixer", "phpcs", "phpcbf", "rector", "infection", "codecept", "behat", "drush", "wp", "phpmd"].map((n): [string, Loader] => [n, { loads: [...code("php")] }]),
  ["composer", { loads: [...code("php"), MANIFESTS.composer!], when: except(["show", "info", "search", "outdated", "licenses", "validate", "diagnose", "help", "--version", "-V", "-h", "--help", "depends", "why", "prohibits", "why-not", "suggests", "fund", "audit", "config", "home", "browse"]) }],
  ...["prove", "cpanm", "cpan", "carton"].map((n): [string, Loader] => [n, { loads: [...code("perl")] }]),
  ["mix", { loads: [...code("elixir")] }],
  ...["lein", "boot"].map((n): [string, Loader] => [n, { loads: [...code("clojure"), ...code("java")] }]),
  ...["cabal", "stack"].map((n): [string, Loader] => [n, { loads: [...code("haskell"), MANIFESTS.haskell!], when: except(["--version", "--numeric-version", "-h", "--help", "help", "update", "list", "info", "path", "ls"]) }]),
  ["rebar3", { loads: [...code("erlang"), MANIFESTS.rebar!], when: except(["version", "help", "-h", "--help", "-v", "--version"]) }],
  ...["dune", "opam"].map((n): [string, Loader] => [n, { loads: [...code("ocaml"), MANIFESTS.dune!], when: except(["--version", "--help", "help", "list", "show", "search", "switch", "config", "var", "info"]) }]),
  ...["dart", "flutter"].map((n): [string, Loader] => [n, { loads: [...code("dart"), MANIFESTS.dart!], when: except(["--version", "--help", "-h", "help", "format", "doctor", "devices", "config", "channel", "upgrade", "downgrade"]) }]),
  ["zig", { loads: [...code("zig")], when: except(["version", "help", "-h", "--help", "fmt", "env", "targets", "init", "zen"]) }],
  ...["nim", "nimble"].map((n): [string, Loader] => [n, { loads: [...code("nim")], when: except(["--version", "-v", "--help", "-h", "help", "search", "list", "dump"]) }]),
  ["shards", { loads: [...code("crystal"), MANIFESTS.shards!], when: except(["--version", "--help", "-h", "version", "list"]) }],
  ["swift", { loads: [...code("swift")], when: among(["build", "test", "run", "package"]) }],
  ["xcodebuild", { loads: [...code("swift"), MANIFESTS.xcode!], when: except(["-version", "-help", "-list", "-showsdks", "-showBuildSettings"]) }],
  ...["autoreconf", "autoconf", "automake", "aclocal", "autoheader", "autogen"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.autotools!], when: except(["--version", "--help", "-h", "-V"]) }]),
  ...["qmake", "qmake6", "qmake-qt5"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.qmake!], when: except(["-v", "--version", "-help", "-h", "--help"]) }]),
  ...["premake5", "premake4", "xmake"].map((n): [string, Loader] => [n, { loads: [...code("lua")], when: except(["--version", "--help", "-h"]) }]),
  // Go and Rust: `go test` and `go run` run the package's code, `go generate` its //go:generate lines; cargo runs build.rs, proc macros and tests.
  ["go", { loads: [...code("go")], when: among(["test", "run", "generate", "tool", "vet"]) }],
  ...["cargo", "cross"].map((n): [string, Loader] => [n, { loads: [...code("rust"), MANIFESTS.cargo!, MANIFESTS.toolchain!, CARGO_DEPS], quiet: [MANIFESTS.toolchain!], when: except(["--version", "-V", "version", "help", "-h", "--help", "search", "login", "logout", "owner", "yank", "new", "init", "metadata", "tree", "locate-project", "pkgid", "fmt", "verify-project", "read-manifest", "fetch", "update", "generate-lockfile", "vendor"]) }]),
  ["rustup", { loads: [MANIFESTS.cargo!, MANIFESTS.toolchain!], when: among(["run", "which", "show", "toolchain"]) }],
  // rustup's proxies run the toolchain the project names, whatever they are asked.
  ...["rustc", "rustdoc", "rustfmt", "cargo-fmt", "cargo-clippy", "clippy-driver", "rust-analyzer", "rust-gdb", "rust-lldb", "rls", "cargo-miri"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.toolchain!] }]),
  // The JVM's, .NET's and native build tools: their build files are code or name commands.
  ...["mvn", "mvnw", "mvnd"].map((n): [string, Loader] => [n, { loads: [...code("java"), ...code("kotlin"), ...code("scala"), ...code("groovy"), MANIFESTS.maven!] }]),
  ...["gradle", "gradlew"].map((n): [string, Loader] => [n, { loads: [...code("java"), ...code("kotlin"), ...code("scala"), ...code("groovy"), MANIFESTS.gradle!] }]),
  ...["sbt", "mill"].map((n): [string, Loader] => [n, { loads: [...code("scala"), ...code("java"), MANIFESTS.sbt!] }]),
  ["dotnet", { loads: [...code("dotnet"), MANIFESTS.msbuild!], when: except(["--version", "--info", "--list-sdks", "--list-runtimes", "-h", "--help", "help", "sdk", "nuget"]) }],
  ...["msbuild", "xbuild"].map((n): [string, Loader] => [n, { loads: [...code("dotnet"), MANIFESTS.msbuild!] }]),
  ...["cmake", "ctest", "cpack"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.cmake!], when: except(["--version", "--help", "-h", "-E"]) }]),
  ["meson", { loads: [MANIFESTS.meson!, ...code("python")], when: except(["--version", "-v", "--help", "-h", "help"]) }],
  ...["ninja", "samu"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.ninja!], when: except(["--version", "-h", "--help"]) }]),
  ...["bazel", "bazelisk", "buck", "buck2"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.bazel!, ...ANY], when: except(["version", "help", "--version", "info", "shutdown", "clean"]) }]),
  ...["scons", "waf"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.scons!, ...code("python")] }]),
  ...["terraform", "tofu", "terragrunt"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.terraform!], when: except(["fmt", "version", "-version", "--version", "-help", "--help", "-h", "help"]) }]),
  ["pulumi", { loads: [...code("python"), ...code("node"), ...code("go"), ...code("dotnet"), ...code("java")], when: among(["up", "preview", "refresh", "destroy", "update", "import", "watch", "stack", "convert"]) }],
  ...["ansible-playbook", "ansible", "ansible-pull", "molecule"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.ansible!, { as: "ansible", files: ["roles/**", "*_plugins/**", "library/**", "module_utils/**", "group_vars/**", "host_vars/**", "collections/**", "tasks/**", "handlers/**", "vars/**", "templates/**", "*.yml", "*.yaml"] }] }]),
  // Task runners and hook runners run any of the project's commands.
  ...["make", "gmake", "bmake", "just", "task", "go-task", "rake", "tox", "nox", "invoke", "inv", "fab", "poe", "doit", "mage", "pre-commit", "prek", "lefthook", "husky", "lint-staged"].map((n): [string, Loader] => [n, { loads: [...ANY, MANIFESTS.hooks!] }]),
  ...["overmind", "foreman", "honcho", "hivemind", "forego"].map((n): [string, Loader] => [n, { loads: [...ANY, MANIFESTS.procfile!, PROCENV] }]),
  // Compose reads .env for the values of the Compose file's ${...} and its own settings (COMPOSE_FILE).
  ...["docker-compose", "podman-compose"].map((n): [string, Loader] => [n, { loads: [...ANY, MANIFESTS.compose!, COMPOSE_ENV], when: except(["version", "--version", "-v", "-h", "--help", "ls", "ps", "images", "top", "logs"]) }]),
  ["earthly", { loads: [...ANY, MANIFESTS.earthly!] }],
  // Azure Functions' `func start` (`func host start`) runs the project's functions, in any language, with local.settings.json's Values as their environment.
  ["func", { loads: [...ANY, FUNC_SETTINGS], when: among(["start", "host"]) }],
  ...["nix", "nix-shell", "nix-build", "nix-instantiate", "devenv", "devbox", "flox"].map((n): [string, Loader] => [n, { loads: [...ANY, MANIFESTS.nix!], when: except(["--version", "--help", "-h", "version", "help", "search", "hash", "store", "registry"]) }]),
  ...["mise", "rtx"].map((n): [string, Loader] => [n, { loads: [...ANY, MANIFESTS.mise!], when: except(["--version", "-V", "version", "--help", "-h", "help", "ls-remote", "doctor", "completion", "trust"]) }]),
  ["dvc", { loads: [...ANY, MANIFESTS.dvc!], when: except(["--version", "version", "--help", "-h", "doctor", "status", "diff", "init", "add", "remote", "config"]) }],
  ...["tilt", "skaffold"].map((n): [string, Loader] => [n, { loads: [...ANY, MANIFESTS.tilt!], when: except(["version", "--version", "--help", "-h"]) }]),
  ["act", { loads: [...ANY, MANIFESTS.workflows!], when: except(["--version", "--help", "-h", "--list", "-l"]) }],
  ...["vercel", "netlify", "firebase"].map((n): [string, Loader] => [n, { loads: [...NODE, MANIFESTS.deploy!, DOTENV], when: except(["--version", "-v", "--help", "-h", "help", "login", "logout", "whoami", "ls", "list"]) }]),
  // A shell that enters the folder loads its .envrc through direnv.
  ["direnv", { loads: [{ as: "shell", files: [".envrc", ".env"] }], when: among(["allow", "exec", "reload", "permit", "grant"]) }],
]);

/**
 * Does a package manager's line set a new version (`npm version patch`, `yarn version --minor`)? It runs
 * the version scripts and commits with git, whose hooks run (unless told not to, which is not read:
 * the hooks count either way). `npm version` alone prints the versions.
 */
export function bumpsVersion(name: string, args: readonly ShellWord[]): boolean {
  if (name !== "npm" && name !== "pnpm" && name !== "yarn" && name !== "yarnpkg") return false;
  const at = args.findIndex((w) => w.value === undefined || !w.value.startsWith("-"));
  if (at < 0 || args[at]!.value !== "version") return false;
  const rest = args.slice(at + 1).map((w) => w.value);
  return rest.some((v) => v === undefined || !v.startsWith("-") || /^--(?:major|minor|patch|premajor|preminor|prepatch|prerelease|new-version)\b/.test(v));
}

/** Does an install's line name requirements files (`-r`, `-c`, `--requirement=`, `-rreq.txt`)? */
const namesRequirements = (args: readonly ShellWord[]) => args.some((w) => w.value === undefined || /^(?:--requirements?|--constraints?|--build-constraints?|--overrides?|-[rc])(?:=|$)|^-[rc]./.test(w.value));
const GO_QUIET = ["version", "env", "help", "doc", "fmt", "clean", "bug", "telemetry", "-h", "--help"];
/** The dependency manifests a program reads (see GO_DEPS), besides what LOADERS says it loads. */
function depsOf(name: string, args: readonly ShellWord[]): readonly Load[] {
  switch (name) {
    case "go":
      return except(GO_QUIET)(args) ? [GO_DEPS] : [];
    case "pip":
    case "pip3":
    case "pipx": {
      const sub = subcommand(args);
      if (sub !== "" && sub !== "install" && sub !== "wheel" && sub !== "download") return [];
      return [...(namesRequirements(args) ? [requirementsOf(args, false)] : []), ...(pipLocal(args) ? [PY_DEPS] : [])];
    }
    case "pip-sync":
    case "pip-compile":
      return [requirementsOf(args, true), PY_DEPS];
    case "uv": {
      const sub = subcommand(args);
      if (sub === "pip") {
        const rest = args.slice(args.findIndex((w) => w.value === "pip") + 1);
        const verb = subcommand(rest);
        if (verb !== "" && verb !== "install" && verb !== "sync" && verb !== "compile") return [];
        return [requirementsOf(rest, verb === "sync" || verb === "compile" || verb === ""), ...(verb !== "sync" && pipLocal([{ ...rest[0]!, value: "install" }, ...rest.slice(1)]) ? [PY_DEPS] : [])];
      }
      return among(["run", "sync", "build", "lock", "add", "export", "tree", "publish", "remove", "version", "tool"])(args) ? [...(namesRequirements(args) ? [requirementsOf(args, false)] : []), PY_DEPS] : [];
    }
    case "poetry":
    case "pdm":
    case "hatch":
    case "pipenv":
    case "rye":
    case "flit":
      return among(PY_PROJECT_COMMANDS)(args) ? [...(namesRequirements(args) ? [requirementsOf(args, false)] : []), PY_DEPS] : [];
    case "npm":
    case "pnpm":
    case "yarn":
    case "yarnpkg":
    case "bun":
      return except(NPM_QUIET)(args) ? NODE_LOCKS : [];
    case "composer":
      return LOADERS.get("composer")!.when!(args) ? [COMPOSER_LOCK] : [];
    default:
      // Bundler's programs, and those an application runs through it (`rails`, `rspec`, `puma`: bundler/setup), read the lock.
      return RUBY_TOOLS.includes(name) && (LOADERS.get(name)?.when?.(args) ?? true) ? [GEM_LOCK] : [];
  }
}

/** git subcommands that run the repository's hooks, and the files the common hook managers run them from. */
const GIT_HOOKED = new Set(["commit", "merge", "push", "rebase", "am", "cherry-pick", "revert", "pull", "checkout", "switch", "gc", "commit-tree"]);
const GIT_HOOKS: readonly Load[] = [{ as: "shell", root: true, files: [".git/hooks/*", ".husky/*", ".husky/_/*", ".githooks/*", ".git-hooks/*", ".hooks/*", "git-hooks/*", "scripts/git-hooks/*", "tools/git-hooks/*", ".config/husky/*", ".config/git-hooks/*"] }, MANIFESTS.hooks!, HOOK_KEYS];
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);

/**
 * What a program loads by itself (see the top of this file): none for a program that loads nothing of
 * the project's. `interpreter`: the program is an interpreter (python, node, ruby...): it imports its
 * language's modules beside its script or from the folder it runs in.
 */
export function loadsOf(name: string, args: readonly ShellWord[]): readonly Load[] {
  // `npm version patch` commits and tags the new version: git's hooks run, as at a `git commit`.
  if (bumpsVersion(name, args)) return [...ANY, ...GIT_HOOKS];
  const loader = LOADERS.get(name) ?? LOADERS.get(name.replace(/(?:[0-9][0-9.]*)$/, ""));
  const deps = depsOf(name, args);
  if (loader !== undefined) {
    const loads = loader.when === undefined || loader.when(args) ? loader.loads : (loader.quiet ?? []);
    return deps.length === 0 ? loads : [...loads, ...deps.filter((d) => !loads.includes(d))];
  }
  if (deps.length > 0) return deps;
  // `docker compose up` is Compose's (`docker-compose up`), with its Compose file and environment file.
  if (name === "docker" || name === "podman" || name === "nerdctl") {
    const sub = subcommand(args);
    if (sub !== "compose" && sub !== "") return [];
    const compose = LOADERS.get("docker-compose")!;
    const rest = args.slice(args.findIndex((w) => w.value === undefined || w.value === "compose") + 1);
    return compose.when!(rest) ? [...compose.loads, MANIFESTS.hooks!] : [];
  }
  if (name === "git") {
    let i = 0;
    while (i < args.length && args[i]!.value?.startsWith("-")) i += GIT_OPTIONS_WITH_VALUE.has(args[i]!.value!) ? 2 : 1;
    const sub = args[i]?.value;
    return sub === undefined ? (i < args.length ? GIT_HOOKS : []) : GIT_HOOKED.has(sub) ? GIT_HOOKS : [];
  }
  const interpreter = interpreterOf(name, args);
  if (interpreter === undefined) return [];
  const language = LANGUAGE_OF.get(interpreter) ?? interpreter;
  const loads = [...code(language)];
  // A script that loads the project's .env itself (`load_dotenv()`, `require("dotenv").config()`) gives its settings to what it starts.
  if (DOTENV_LANGUAGES.has(language)) loads.push(DOTENV);
  // A Ruby script may set up Bundler (`-rbundler/setup`, `require "bundler/setup"`), which loads the gems Gemfile.lock places.
  if (language === "ruby") loads.push(GEM_LOCK);
  // `python -m maturin develop`, `python3 -m mypy src`: the module is the tool, with its own loads.
  if (language === "python") {
    const module = pythonModule(args);
    const tool = module === undefined ? undefined : LOADERS.get(module.name);
    if (tool !== undefined && (tool.when === undefined || tool.when(module!.rest))) return [...loads, ...tool.loads.filter((l) => !loads.includes(l))];
  }
  return loads;
}

/** The module `python -m mod` runs (`-m mod`, `-mmod`, after other options), and the words after it. */
function pythonModule(args: readonly ShellWord[]): { name: string; rest: readonly ShellWord[] } | undefined {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined || !v.startsWith("-") || v === "-" || v === "--") return undefined;
    if (v === "-m") return args[i + 1]?.value === undefined ? undefined : { name: args[i + 1]!.value!.replace(/\..*$/, ""), rest: args.slice(i + 2) };
    if (/^-[A-Za-z]*m./.test(v) && !/^-[A-Za-z]*[cWXQ]/.test(v.slice(0, v.indexOf("m")))) return { name: v.slice(v.indexOf("m") + 1).replace(/\..*$/, ""), rest: args.slice(i + 1) };
    if (/^-[A-Za-z]*[cWXQ]$/.test(v)) i++;
  }
  return undefined;
}

/** Interpreters whose name is not their language's (`irb` loads .irbrc and the Ruby beside it). */
const LANGUAGE_OF: ReadonlyMap<string, string> = new Map([
  ["irb", "ruby"], ["pry", "ruby"], ["clj", "clojure"], ["bb", "clojure"], ["runghc", "haskell"], ["runhaskell", "haskell"], ["ghc", "haskell"], ["erl", "erlang"], ["jshell", "java"], ["ocaml", "ocaml"], ["utop", "ocaml"], ["R", "Rscript"],
]);

/**
 * What a package runner loads (`npx hardhat test`): the package manager's settings, and, for a package
 * plangate does not know (a known one's loads are its own), node's code and settings; bunx, bun's environment files.
 */
export function packageRunnerLoads(pkg: string | undefined, runner?: string): readonly Load[] {
  const own = pkg !== undefined && LOADERS.has(pkg) ? [MANIFESTS.npmrc!] : [MANIFESTS.npmrc!, ...NODE];
  // bunx is bun, which loads the project's environment files first.
  return runner === "bunx" ? [...own, DOTENV] : own;
}

/** Runners that fetch packages from npm's registry, and those that fetch them from PyPI (see fetchedAsItself). */
const NPM_FETCHERS = new Set(["npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "yarnpkg", "bun"]);
const PYPI_FETCHERS = new Set(["uvx", "uv", "pipx"]);
/** Tools published on npm, and on PyPI, under the names they run by, besides the loaders of node and of Python. */
const NPM_TOOLS = new Set(["prettier", "eslint", "dprint", "stylelint", "standard", "tsc", "pyright", "rimraf", "del-cli", "trash", "npm", "pnpm", "yarn", "corepack"]);
const PYPI_TOOLS = new Set(["black", "ruff", "isort", "autopep8", "autoflake", "yapf", "pyupgrade", "mypy", "pyright", "flake8", "pylint", "pip", "poetry", "pdm", "hatch", "pipenv", "tox", "nox", "pre-commit", "cookiecutter", "copier", "cruft"]);
/** Options of a runner that choose the package its program comes from (`npx -p pkg cat`, `uvx --from pkg ruff`, `uvx --with pkg ruff`). */
const PACKAGE_OPTION = /^(?:-p|--package|--from|--spec|-s|--with|--with-editable|--with-requirements)(?:=|$)|^-p./;

/**
 * Is the program a package runner fetches the tool of that name, so that plangate's reading of the name
 * holds (`npx prettier`, `uvx ruff`, `npx vitest`)? What runs is the package's own program: a package
 * of npm's or PyPI's named like a program of the system (`npx cat`, `npx go`, `uvx git`), a package of
 * another registry's, one under a scope or from elsewhere (`npx @x/prettier`, `npx github:x/y`), or one
 * whose package an option chooses (`npx -p pkg prettier`) is none of those: it is read as a program
 * plangate does not know. `before`: the runner's words before the program.
 */
export function fetchedAsItself(runner: string, program: string, before: readonly ShellWord[] = []): boolean {
  if (before.some((w) => w.value === undefined || PACKAGE_OPTION.test(w.value))) return false;
  const name = program.replace(/^([^@=<>~![]+)[@=<>~![].*$/s, "$1");
  const as = LOADERS.get(name)?.loads.map((l) => l.as) ?? [];
  if (NPM_FETCHERS.has(runner)) return NPM_TOOLS.has(name) || (as.includes("node") && !as.includes("python"));
  if (PYPI_FETCHERS.has(runner)) return PYPI_TOOLS.has(name) || (as.includes("python") && !as.includes("node"));
  return false;
}

/** What a script of the project runs may load: code of any language (its commands are the project's). */
export const PROJECT_SCRIPT_LOADS: readonly Load[] = ANY;

/** Is the program one whose loads plangate knows (a test runner, a build tool, a package manager...)? */
export function isLoader(name: string): boolean {
  return LOADERS.has(name) || LOADERS.has(name.replace(/(?:[0-9][0-9.]*)$/, ""));
}

/**
 * Programs that write a project's files from a template or a repository elsewhere, without naming the
 * files: a generator (`cookiecutter`, `copier`, `degit`, `yo`, any `create-*`), a package manager's
 * `create` (which fetches and runs `create-<name>`), a clone by another tool than git (`gh repo clone`,
 * `svn checkout`, `hg clone`). What they write is followed as a folder written whole (src/commands/written.ts).
 */
const GENERATORS = new Set(["cookiecutter", "cruft", "copier", "degit", "tiged", "giget", "yo", "yeoman", "emigrate", "sao", "hygen-create", "projen", "scaffold", "boilr", "kickstart", "cargo-generate", "ng-new"]);
const GENERATING: Readonly<Record<string, readonly string[]>> = {
  npm: ["create", "innit", "init"],
  pnpm: ["create", "init"],
  yarn: ["create"],
  yarnpkg: ["create"],
  bun: ["create", "init"],
  deno: ["init"],
  cargo: ["generate"],
  composer: ["create-project"],
  gh: ["repo clone", "repo fork", "gist clone", "release download", "run download", "extension create"],
  hub: ["clone", "fork"],
  svn: ["checkout", "co", "export"],
  hg: ["clone"],
  chg: ["clone"],
  bzr: ["branch", "checkout", "co", "export"],
  brz: ["branch", "checkout", "co", "export"],
  fossil: ["clone", "open"],
  pijul: ["clone"],
  darcs: ["clone", "get"],
  dvc: ["get", "import", "pull", "fetch", "checkout"],
  "huggingface-cli": ["download"],
  oras: ["pull"],
  helm: ["pull", "fetch"],
  docker: ["cp"],
  podman: ["cp"],
  kubectl: ["cp"],
};

/** Does the invocation write files from elsewhere that no word of it names (see GENERATORS)? */
export function generatesFiles(name: string, args: readonly ShellWord[]): boolean {
  if (GENERATORS.has(name) || /^create-[a-z0-9]/.test(name)) return true;
  const subs = Object.hasOwn(GENERATING, name) ? GENERATING[name]! : undefined;
  if (subs === undefined) return false;
  // The subcommand's words (a run-time one may be any): options before them are the program's own.
  const words = args.filter((w) => w.value === undefined || !w.value.startsWith("-")).map((w) => w.value);
  if (words.length === 0) return false;
  // `npm init` alone writes package.json, which it names; `npm init vite` runs create-vite.
  if ((name === "npm" || name === "pnpm" || name === "bun") && words[0] === "init") return words.length > 1;
  return subs.some((s) => s.split(" ").every((p, k) => k < words.length && (words[k] === undefined || words[k] === p)));
}

/**
 * Project files a program rewrites that no word of its line names, holding what its words set: a
 * setting or file that a program run later reads as commands or code to run, or as where it fetches
 * them from. Yarn's release and plugins (`yarn set version URL`, `yarn plugin import URL`: .yarnrc.yml's
 * yarnPath and plugins), Yarn 1's (`yarn policies set-version`: .yarnrc), Composer's settings and
 * scripts (`composer config scripts.test CMD`: composer.json), DVC's stages (`dvc stage add -n x -- CMD`,
 * `dvc run`: dvc.yaml), mise's tasks and environment (`mise tasks add`, `mise set NAME=v`, `mise config
 * set`: mise.toml), a Python version file given an interpreter by its path (`uv python pin ./py`, `pdm
 * use ./py`, `rye pin`, `pyenv local`, `asdf set python path:./py`), and a virtual environment made
 * from one (`uv venv -p ./py`, `virtualenv -p ./py`); the package managers' project settings, which
 * say where packages come from (`npm config set registry URL --location project`, `pnpm config set`,
 * Yarn 2's `yarn config set npmRegistryServer URL`, `poetry config --local`, `poetry source add`, `pdm
 * config --local`, `bundle config set`), a package.json key other than its description (`npm pkg set
 * jest.setupFiles=...`, `overrides`, `main`, `packageManager`), a build wrapper and the distribution it
 * downloads (`gradle wrapper --distribution-url URL`, `mvn wrapper:wrapper`: gradlew and mvnw and
 * their properties), and pre-commit's hook revisions (`pre-commit autoupdate`, `pre-commit
 * migrate-config`): each file is written, its text not in the plan (src/commands/written.ts); a name
 * ending in `/` is a folder written whole. Listing and reading subcommands write nothing, and neither
 * do the user's own settings (`mise set -g`: outside the workspace, which src/commands/installs.ts
 * reads). Dependency lists (`npm install x`, `cargo add`, `uv add`, `poetry add`) are not among them:
 * what they add is a package fetched, which no later program runs from the manifest.
 */
type Words = readonly (string | undefined)[];
interface Rewrite {
  words: readonly string[];
  files: readonly string[] | ((rest: Words, args: Words) => readonly string[]);
  when?: (rest: Words, args: Words) => boolean;
  /** The words that say what it does, for messages, when `words` does not. */
  label?: readonly string[];
}
const REWRITES: Readonly<Record<string, readonly Rewrite[]>> = {
  yarn: [
    { words: ["set", "version"], files: [".yarnrc.yml", ".yarnrc"] },
    { words: ["policies", "set-version"], files: [".yarnrc", ".yarnrc.yml"] },
    { words: ["plugin", "import"], files: [".yarnrc.yml"] },
    { words: ["plugin", "remove"], files: [".yarnrc.yml"] },
    // Yarn 2 and later write the project's .yarnrc.yml unless -H (Yarn 1 the user's .yarnrc, read by src/commands/installs.ts).
    { words: ["config", "set"], files: [".yarnrc.yml"], when: (_, args) => !args.some((a) => a === "-H" || a === "--home") },
  ],
  npm: npmSettings("npm"),
  pnpm: npmSettings("pnpm"),
  // `bun pm pkg set`: package.json, as npm's.
  bun: [{ words: [], label: ["pm", "pkg", "set"], files: packageJsonOf, when: (rest) => setsPackageKey(rest, rest.indexOf("pkg")) }],
  // `composer config KEY` alone prints it; with a value, or --unset, it writes composer.json (the user's with -g/--global).
  composer: [{ words: ["config"], files: ["composer.json"], when: (rest, args) => !args.some((a) => a === "-g" || a === "--global" || a === "-l" || a === "--list") && (rest.length >= 2 || args.includes("--unset") || rest.includes(undefined)) }],
  dvc: [
    { words: ["stage", "add"], files: ["dvc.yaml"] },
    { words: ["run"], files: ["dvc.yaml"] },
  ],
  mise: [
    { words: ["tasks", "add"], files: ["mise.toml", ".mise.toml"] },
    { words: ["task", "add"], files: ["mise.toml", ".mise.toml"] },
    { words: ["set"], files: ["mise.toml", ".mise.toml"], when: (rest, args) => !global(args) && rest.some((r) => r === undefined || r.includes("=")) },
    { words: ["config", "set"], files: ["mise.toml", ".mise.toml"], when: (_, args) => !global(args) },
    { words: ["use"], files: ["mise.toml", ".mise.toml"], when: (_, args) => !global(args) },
    { words: ["u"], files: ["mise.toml", ".mise.toml"], when: (_, args) => !global(args) },
  ],
  // asdf's versions may be a folder (`path:./py`), which mise runs too; -u/--home: the user's.
  asdf: ["set", "local"].map((sub) => ({ words: [sub], files: [".tool-versions"], when: (rest: Words, args: Words) => !args.some((a) => a === "-u" || a === "--home" || a === "-p" || a === "--parent") && rest.some((r) => r === undefined || namesPath(r) || /^(?:path|ref):/.test(r)) })),
  uv: [
    { words: ["python", "pin"], files: [".python-version"], when: (rest, args) => !global(args) && rest.some(namesPath) },
    { words: ["venv"], files: venvOf, when: (_, args) => pythonByPath(args) },
  ],
  virtualenv: [{ words: [], files: venvOf, when: (_, args) => pythonByPath(args) }],
  pdm: [
    { words: ["use"], files: [".pdm-python"], when: (rest) => rest.some(namesPath) },
    { words: ["venv", "create"], files: venvOf, when: (rest, args) => rest.some(namesPath) || pythonByPath(args) },
    { words: ["config"], files: ["pdm.toml"], when: (rest, args) => args.some((a) => a === "-l" || a === "--local") && (rest.length >= 2 || args.some((a) => a === "-d" || a === "--delete") || rest.includes(undefined)) },
  ],
  // `poetry config --local KEY VALUE`: poetry.toml; `poetry source add NAME URL`: pyproject.toml's sources.
  poetry: [
    { words: ["config"], files: ["poetry.toml"], when: (rest, args) => args.includes("--local") && (rest.length >= 2 || args.includes("--unset") || rest.includes(undefined)) },
    { words: ["source", "add"], files: ["pyproject.toml"] },
  ],
  rye: [{ words: ["pin"], files: [".python-version"], when: (rest) => rest.some(namesPath) }],
  pyenv: [{ words: ["local"], files: [".python-version"], when: (rest) => rest.some(namesPath) }],
  // Bundler writes the application's settings when run in one, unless told --global (`bundle config NAME VALUE`, the older form, too).
  bundle: [{ words: ["config"], files: [".bundle/config"], when: (rest, args) => !args.includes("--global") && (rest[0] === "set" || rest[0] === "unset" || rest[0] === undefined || (rest.length >= 2 && rest[0] !== "get")) }],
  // Gradle runs a task by any prefix of its name, in any case (`gradle wra`, `gradle W`); the wrapper task rewrites the wrapper and the distribution it downloads.
  gradle: [{ words: [], label: ["wrapper"], files: ["gradle/wrapper/gradle-wrapper.properties", "gradle/wrapper/gradle-wrapper.jar", "gradlew", "gradlew.bat"], when: (rest) => rest.some((w) => w === undefined || (w.replace(/^:/, "") !== "" && "wrapper".startsWith(w.replace(/^:/, "").toLowerCase()))) }],
  // Maven's wrapper plugin, by any of its goal's spellings (`wrapper:wrapper`, `io.takari:maven:wrapper`, `org.apache.maven.plugins:maven-wrapper-plugin:3.3.2:wrapper`).
  mvn: [{ words: [], label: ["wrapper:wrapper"], files: [".mvn/wrapper/maven-wrapper.properties", ".mvn/wrapper/maven-wrapper.jar", ".mvn/wrapper/MavenWrapperDownloader.java", "mvnw", "mvnw.cmd"], when: (rest) => rest.some((w) => w === undefined || /wrapper/i.test(w)) }],
  // pre-commit's revisions of the hooks it fetches and runs; -c/--config: that file.
  "pre-commit": ["autoupdate", "migrate-config"].map((sub) => ({ words: [sub], files: (_: Words, args: Words) => [".pre-commit-config.yaml", ...valuesOf(args, ["-c", "--config"])] })),
};
const ALIASES: Readonly<Record<string, string>> = { yarnpkg: "yarn", rtx: "mise", gradlew: "gradle", mvnw: "mvn", mvnd: "mvn", prek: "pre-commit", bundler: "bundle" };
const global = (args: Words) => args.some((a) => a === "-g" || a === "--global");
/** A word that names an interpreter by a path (or is known at run time only). */
const namesPath = (w: string | undefined) => w === undefined || /[/\\~]/.test(w);
/** The values of an option, spelt apart or after `=` (a run-time one: none to name). */
function valuesOf(args: Words, options: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((a, k) => {
    if (a === undefined) return;
    const eq = options.find((o) => a.startsWith(`${o}=`));
    if (eq !== undefined) out.push(a.slice(eq.length + 1));
    else if (options.includes(a) && typeof args[k + 1] === "string") out.push(args[k + 1]!);
  });
  return out.filter((v) => v !== "");
}

/** Is the interpreter of a virtual environment named by a path (`-p ./py`, `--python=./py`, `-p./py`), or at run time? */
function pythonByPath(args: Words): boolean {
  return args.some((a, k) => {
    if (a === undefined) return false;
    if (a === "-p" || a === "--python") return k + 1 < args.length && namesPath(args[k + 1]);
    const glued = /^(?:--python=|-p=?)(.+)$/.exec(a);
    return glued !== null && namesPath(glued[1]);
  });
}
/** A virtual environment's settings and folder: `.venv` and the folders its line names (the interpreter's among them: written, not read). */
function venvOf(rest: Words, args: Words): readonly string[] {
  const python = new Set(args.flatMap((a, k) => (a === "-p" || a === "--python" ? [args[k + 1]] : a !== undefined && /^(?:--python=|-p=?)./.test(a) ? [a.replace(/^(?:--python=|-p=?)/, "")] : [])));
  const named = rest.filter((r): r is string => r !== undefined && r !== "venv" && r !== "create" && !python.has(r));
  return [".venv/pyvenv.cfg", ".venv/", ...named.flatMap((d) => [`${d.replace(/\/+$/, "")}/pyvenv.cfg`, `${d.replace(/\/+$/, "")}/`])];
}

/** Do the words hold `seq` in a row (a run-time word may be any)? */
function follows(words: Words, seq: readonly string[]): boolean {
  for (let k = 0; k + seq.length <= words.length; k++) if (seq.every((p, j) => words[k + j] === undefined || words[k + j] === p)) return true;
  return false;
}

/** package.json's keys that describe the package and name no code, command, package or place any program loads. */
const DESCRIPTIVE_KEYS = new Set(["name", "version", "description", "keywords", "homepage", "bugs", "license", "licenses", "author", "contributors", "maintainers", "funding", "repository", "private", "files", "os", "cpu", "libc", "engines", "types", "typings"]);
/** Does `pkg set` (at `pkg` among the words) set a key other than a descriptive one? */
function setsPackageKey(words: Words, pkg: number): boolean {
  if (pkg < 0) return false;
  const set = words.indexOf("set", pkg + 1);
  if (set < 0) return words.slice(pkg + 1).includes(undefined);
  return words.slice(set + 1).some((w) => w === undefined || !DESCRIPTIVE_KEYS.has(w.replace(/[.[=].*$/s, "")));
}
/** package.json, and the one of the folder --prefix names. */
function packageJsonOf(_: Words, args: Words): readonly string[] {
  return ["package.json", ...valuesOf(args, ["--prefix", "-C", "--dir", "-w", "--workspace"]).map((d) => `${d.replace(/\/+$/, "")}/package.json`)];
}
/**
 * npm's and pnpm's project settings (`npm config set KEY VALUE --location project`, `-L project`,
 * `npm config edit --location=project`; pnpm's in pnpm-workspace.yaml too), a settings file named by
 * --userconfig, and package.json's keys (`npm pkg set`). Without them, `config set` writes the user's.
 */
function npmSettings(program: "npm" | "pnpm"): readonly Rewrite[] {
  const project = (args: Words) => valuesOf(args, ["--location", "-L"]).includes("project") || args.some((a) => a === "-Lproject");
  const files = (_: Words, args: Words) => [...(project(args) ? [".npmrc", ...(program === "pnpm" ? ["pnpm-workspace.yaml"] : [])] : []), ...valuesOf(args, ["--userconfig"])];
  const writes = (_: Words, args: Words) => files(_, args).length > 0;
  return [
    // Options with values may stand before the subcommand (`npm --location project config set`): its words are found among the line's.
    ...["set", "edit"].map((sub) => ({ words: [], label: ["config", sub], files, when: (rest: Words, args: Words) => writes(rest, args) && (follows(rest, ["config", sub]) || follows(rest, ["c", sub]) || (sub === "set" && rest.includes("set") && !rest.includes("pkg"))) })),
    { words: [], label: ["pkg", "set"], files: packageJsonOf, when: (rest) => setsPackageKey(rest, rest.indexOf("pkg")) },
  ];
}

/** The project files an invocation rewrites without a word naming them (see REWRITES), with how, for messages. */
export function rewritesFiles(name: string, args: readonly ShellWord[]): { files: readonly string[]; how: string } | undefined {
  let key = Object.hasOwn(REWRITES, name) ? name : Object.hasOwn(ALIASES, name) ? ALIASES[name]! : undefined;
  let shown = name;
  // The same programs run as Python modules (`python -m pre_commit autoupdate`, `python3 -m virtualenv -p ./py`).
  if (key === undefined && interpreterOf(name, args) === "python") {
    const module = pythonModule(args);
    const program = module?.name.replace(/_/g, "-");
    if (program === undefined || !(Object.hasOwn(REWRITES, program) || Object.hasOwn(ALIASES, program))) return undefined;
    key = Object.hasOwn(REWRITES, program) ? program : ALIASES[program]!;
    shown = `${name} -m ${module!.name}`;
    args = module!.rest;
  }
  if (key === undefined) return undefined;
  const table = REWRITES[key]!;
  const values = args.map((w) => w.value);
  const end = values.indexOf("--");
  const all = end < 0 ? values : values.slice(0, end);
  // The subcommand's words (a run-time one may be any): options before them are the program's own.
  const words: Words = all.filter((v) => v === undefined || !v.startsWith("-"));
  // A word right after an option spelt without `=` may be its value (`uv --directory sub venv`,
  // `mise -C . tasks add`, `pre-commit --color never autoupdate`): the subcommand may start after it.
  const mayBeValue = all.flatMap((v, k) => (v === undefined || !v.startsWith("-") ? [k > 0 && /^-[^=]+$/.test(all[k - 1] ?? "")] : []));
  let starts = 1;
  while (starts <= words.length && mayBeValue[starts - 1] === true) starts++;
  for (const entry of table) {
    for (let at = 0; at < starts; at++) {
      if (!entry.words.every((p, k) => at + k < words.length && (words[at + k] === undefined || words[at + k] === p))) continue;
      const rest = words.slice(at + entry.words.length);
      if (entry.when !== undefined && !entry.when(rest, all)) continue;
      const files = typeof entry.files === "function" ? entry.files(rest, all) : entry.files;
      return { files, how: `written by ${[shown, ...(entry.label ?? entry.words)].join(" ")}, which rewrites it without a word of the line naming it` };
    }
  }
  return undefined;
}

/** Compiled forms an interpreter runs when it is given one as its script (`python3 x.pyc`, a zip application), beside those it loads. */
const RUN_COMPILED: Readonly<Record<string, readonly string[]>> = { python: ["*.pyz", "*.zip", "*.egg", "*.whl"] };
const compiledRegexes = new Map<string, RegExp | null>();

/**
 * What a file a language's interpreter is given to run is, when its name is one of the language's
 * compiled forms (`python3 x.pyc`, `python3 app.pyz`): machine code or bytecode no one reads in a plan.
 */
export function compiledFormOf(as: string, path: string): string | undefined {
  let re = compiledRegexes.get(as);
  if (re === undefined) {
    const language = LANGUAGES.find((l) => l.as === as);
    const names = [...(language?.compiled?.files ?? []), ...(RUN_COMPILED[as] ?? [])].filter((f) => !f.includes("/"));
    re = names.length === 0 ? null : new RegExp(`(?:^|/)(?:${names.map((n) => n.replace(/[\\^$.+?()[\]{}|]/g, "\\$&").replace(/\*/g, "[^/]*")).join("|")})$`, "i");
    compiledRegexes.set(as, re);
  }
  if (re === null || !re.test(path)) return undefined;
  return LANGUAGES.find((l) => l.as === as)?.compiled?.kind ?? `a compiled ${as} file`;
}
