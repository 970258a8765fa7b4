import type { ShellWord } from "../syntax/shell/types.js";
import { interpreterOf } from "./inline-code.js";

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

/** Files a program loads, and how their text is read: an interpreter's name (commands.inlineCode), `shell`, or `manifest`. */
export interface Load {
  files: readonly string[];
  as: string;
  /** For a manifest: what it is, in messages (`Gradle build file`). */
  kind?: string;
  /** Found at the root of the project only (git's hooks): the patterns are paths from the workspace. */
  root?: true;
}

/** Each language's code files, by the interpreter name commands.inlineCode gives it. */
const CODE: readonly Load[] = [
  { as: "python", files: ["*.py", "*.pyw", "*.pth"] },
  { as: "node", files: ["*.js", "*.mjs", "*.cjs", "*.ts", "*.mts", "*.cts", "*.jsx", "*.tsx", "*.vue", "*.svelte"] },
  { as: "ruby", files: ["*.rb", "*.rake", "*.gemspec", "Gemfile", "gems.rb", "config.ru", "Guardfile"] },
  { as: "php", files: ["*.php"] },
  { as: "perl", files: ["*.pl", "*.pm", "*.t", "cpanfile"] },
  { as: "go", files: ["*.go"] },
  { as: "rust", files: ["*.rs"] },
  { as: "elixir", files: ["*.ex", "*.exs"] },
  { as: "java", files: ["*.java"] },
  { as: "kotlin", files: ["*.kt", "*.kts"] },
  { as: "scala", files: ["*.scala", "*.sc"] },
  { as: "groovy", files: ["*.groovy"] },
  { as: "dotnet", files: ["*.cs", "*.csx", "*.fs", "*.fsx", "*.vb"] },
  { as: "lua", files: ["*.lua"] },
  { as: "julia", files: ["*.jl"] },
  { as: "Rscript", files: ["*.R", "*.r"] },
  { as: "swift", files: ["*.swift"] },
  { as: "haskell", files: ["*.hs", "*.lhs"] },
  { as: "erlang", files: ["*.erl", "*.hrl"] },
  { as: "shell", files: ["*.sh", "*.bash"] },
];
const code = (as: string): Load => CODE.find((l) => l.as === as)!;

/** Build files that name commands or code to run, which plangate does not read. */
const MANIFESTS: Readonly<Record<string, Load>> = {
  cargo: { as: "manifest", kind: "Cargo configuration", files: [".cargo/config.toml", ".cargo/config", "rust-toolchain.toml", "rust-toolchain"] },
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
  hooks: {
    as: "manifest",
    root: true,
    kind: "git hook configuration",
    files: [".pre-commit-config.yaml", ".pre-commit-config.yml", "lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml", "lefthook-local.yml", ".lefthook-local.yml", ".lefthook/**", ".lintstagedrc", ".lintstagedrc.*", "lint-staged.config.*", "commitlint.config.*", ".commitlintrc", ".commitlintrc.*"],
  },
};

/** Every language's code: what a task runner or a project's script may run. */
const ANY: readonly Load[] = CODE;

const PYTHON = [code("python")];
const NODE = [code("node")];
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

/** A program's loads, and the subcommands that load them (none: every invocation). */
interface Loader {
  loads: readonly Load[];
  when?: (args: readonly ShellWord[]) => boolean;
}

const PY_LOCAL = /^(?:\.{1,2}(?:\/|$)|\/|file:|-e$|--editable)/;
/** pip builds and runs a local project's code (setup.py, an in-tree build backend) when it installs or builds a folder. */
const pipLocal = (args: readonly ShellWord[]) => {
  const sub = subcommand(args);
  if (sub === "") return true;
  if (sub !== "install" && sub !== "wheel" && sub !== "download") return false;
  return args.some((w) => w.value === undefined || PY_LOCAL.test(w.value) || (w.value.includes("/") && !w.value.includes("://") && !w.value.startsWith("-")));
};

const LOADERS: ReadonlyMap<string, Loader> = new Map<string, Loader>([
  // Python's test runners, servers and tools that import the project's modules.
  ...["pytest", "py.test", "nose2", "nosetests", "ward", "behave", "coverage", "uvicorn", "gunicorn", "hypercorn", "daphne", "flask", "django-admin", "celery", "streamlit", "locust", "scrapy", "sphinx-build", "mkdocs", "alembic", "airflow", "dagster", "prefect", "hug", "fastapi"].map((n): [string, Loader] => [n, { loads: PYTHON }]),
  ...["pip", "pip3", "pipx"].map((n): [string, Loader] => [n, { loads: PYTHON, when: pipLocal }]),
  ["uv", { loads: PYTHON, when: (args) => (subcommand(args) === "pip" ? pipLocal(args.slice(args.findIndex((w) => w.value === "pip") + 1)) : among(["run", "sync", "build", "lock", "add", "publish"])(args)) }],
  ...["poetry", "pdm", "hatch", "pipenv", "rye", "flit"].map((n): [string, Loader] => [n, { loads: PYTHON, when: among(["install", "run", "build", "sync", "test", "shell", "lock", "add", "update", "publish", "env", "develop", "script"]) }]),
  // JavaScript's test runners, bundlers, frameworks and tools that load their configuration as code.
  ...["jest", "vitest", "mocha", "ava", "tap", "jasmine", "karma", "playwright", "cypress", "c8", "nyc", "webpack", "webpack-cli", "vite", "rollup", "parcel", "next", "nuxt", "nuxi", "astro", "remix", "gatsby", "svelte-kit", "ng", "eslint", "prettier", "stylelint", "babel", "turbo", "nx", "lerna", "gulp", "grunt", "storybook", "tsx", "ts-node", "ts-node-esm", "esno", "esrun", "babel-node", "vite-node", "jiti", "zx", "nodemon", "pm2", "electron", "wrangler", "serverless", "sls", "cdk", "expo", "react-scripts", "vue-cli-service", "ember", "docusaurus", "eleventy", "hexo", "tsup", "unbuild"].map((n): [string, Loader] => [n, { loads: NODE }]),
  ...["npm", "pnpm", "yarn", "yarnpkg"].map((n): [string, Loader] => [n, { loads: ANY, when: except(NPM_QUIET) }]),
  ["bun", { loads: [...ANY.filter((l) => l.as !== "node"), { as: "bun", files: code("node").files }], when: except(NPM_QUIET) }],
  ["deno", { loads: [...ANY.filter((l) => l.as !== "node"), { as: "deno", files: code("node").files }], when: except(["fmt", "lint", "info", "doc", "upgrade", "completions", "types", "help", "--version", "-V", "-h", "--help", "eval", "repl"]) }],
  // Ruby, PHP, Perl, Elixir.
  ...["rspec", "rails", "rackup", "puma", "unicorn", "thin", "jekyll", "cucumber", "minitest", "guard", "sidekiq", "bundle", "bundler"].map((n): [string, Loader] => [n, { loads: [code("ruby")], when: n.startsWith("bundle") ? except(["version", "-v", "--version", "help", "-h", "--help", "config", "list", "info", "show", "outdated", "platform", "doctor"]) : undefined }]),
  ...["phpunit", "pest", "phpstan", "psalm", "artisan"].map((n): [string, Loader] => [n, { loads: [code("php")] }]),
  ["composer", { loads: [code("php"), MANIFESTS.composer!], when: except(["show", "info", "search", "outdated", "licenses", "validate", "diagnose", "help", "--version", "-V", "-h", "--help", "depends", "why", "prohibits", "why-not", "suggests", "fund", "audit", "config", "home", "browse"]) }],
  ...["prove", "cpanm", "cpan", "carton"].map((n): [string, Loader] => [n, { loads: [code("perl")] }]),
  ["mix", { loads: [code("elixir")] }],
  // Go and Rust: `go test` and `go run` run the package's code, `go generate` its //go:generate lines; cargo runs build.rs, proc macros and tests.
  ["go", { loads: [code("go")], when: among(["test", "run", "generate", "tool", "vet"]) }],
  ...["cargo", "cross"].map((n): [string, Loader] => [n, { loads: [code("rust"), MANIFESTS.cargo!], when: except(["--version", "-V", "version", "help", "-h", "--help", "search", "login", "logout", "owner", "yank", "new", "init", "metadata", "tree", "locate-project", "pkgid", "fmt", "verify-project", "read-manifest", "fetch", "update", "generate-lockfile", "vendor"]) }]),
  ["rustup", { loads: [MANIFESTS.cargo!], when: among(["run", "which", "show", "toolchain"]) }],
  // The JVM's, .NET's and native build tools: their build files are code or name commands.
  ...["mvn", "mvnw", "mvnd"].map((n): [string, Loader] => [n, { loads: [code("java"), code("kotlin"), code("scala"), code("groovy"), MANIFESTS.maven!] }]),
  ...["gradle", "gradlew"].map((n): [string, Loader] => [n, { loads: [code("java"), code("kotlin"), code("scala"), code("groovy"), MANIFESTS.gradle!] }]),
  ...["sbt", "mill"].map((n): [string, Loader] => [n, { loads: [code("scala"), code("java"), MANIFESTS.sbt!] }]),
  ["dotnet", { loads: [code("dotnet"), MANIFESTS.msbuild!], when: except(["--version", "--info", "--list-sdks", "--list-runtimes", "-h", "--help", "help", "sdk", "nuget"]) }],
  ...["msbuild", "xbuild"].map((n): [string, Loader] => [n, { loads: [code("dotnet"), MANIFESTS.msbuild!] }]),
  ...["cmake", "ctest", "cpack"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.cmake!], when: except(["--version", "--help", "-h", "-E"]) }]),
  ["meson", { loads: [MANIFESTS.meson!, code("python")], when: except(["--version", "-v", "--help", "-h", "help"]) }],
  ...["ninja", "samu"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.ninja!], when: except(["--version", "-h", "--help"]) }]),
  ...["bazel", "bazelisk", "buck", "buck2"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.bazel!, ...ANY], when: except(["version", "help", "--version", "info", "shutdown", "clean"]) }]),
  ...["scons", "waf"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.scons!, code("python")] }]),
  ...["terraform", "tofu", "terragrunt"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.terraform!], when: except(["fmt", "version", "-version", "--version", "-help", "--help", "-h", "help"]) }]),
  ["pulumi", { loads: [code("python"), code("node"), code("go"), code("dotnet"), code("java")], when: among(["up", "preview", "refresh", "destroy", "update", "import", "watch", "stack", "convert"]) }],
  ...["ansible-playbook", "ansible", "ansible-pull", "molecule"].map((n): [string, Loader] => [n, { loads: [MANIFESTS.ansible!, { as: "ansible", files: ["roles/**", "*_plugins/**", "library/**", "module_utils/**", "group_vars/**", "host_vars/**", "collections/**", "tasks/**", "handlers/**", "vars/**", "templates/**", "*.yml", "*.yaml"] }] }]),
  // Task runners and hook runners run any of the project's commands.
  ...["make", "gmake", "bmake", "just", "task", "go-task", "rake", "tox", "nox", "invoke", "inv", "fab", "poe", "doit", "earthly", "mage", "pre-commit", "prek", "lefthook", "husky", "lint-staged", "overmind", "foreman", "honcho", "docker-compose"].map((n): [string, Loader] => [n, { loads: [...ANY, MANIFESTS.hooks!] }]),
  // A shell that enters the folder loads its .envrc through direnv.
  ["direnv", { loads: [{ as: "shell", files: [".envrc", ".env"] }], when: among(["allow", "exec", "reload", "permit", "grant"]) }],
]);

/** git subcommands that run the repository's hooks, and the files the common hook managers run them from. */
const GIT_HOOKED = new Set(["commit", "merge", "push", "rebase", "am", "cherry-pick", "revert", "pull", "checkout", "switch", "gc", "commit-tree"]);
const GIT_HOOKS: readonly Load[] = [{ as: "shell", root: true, files: [".husky/*", ".githooks/*", ".git-hooks/*"] }, MANIFESTS.hooks!];
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);

/**
 * What a program loads by itself (see the top of this file): none for a program that loads nothing of
 * the project's. `interpreter`: the program is an interpreter (python, node, ruby...): it imports its
 * language's modules beside its script or from the folder it runs in.
 */
export function loadsOf(name: string, args: readonly ShellWord[]): readonly Load[] {
  const loader = LOADERS.get(name) ?? LOADERS.get(name.replace(/(?:[0-9][0-9.]*)$/, ""));
  if (loader !== undefined) return loader.when === undefined || loader.when(args) ? loader.loads : [];
  if (name === "docker" || name === "podman") return subcommand(args) === "compose" ? [...ANY, MANIFESTS.hooks!] : [];
  if (name === "git") {
    let i = 0;
    while (i < args.length && args[i]!.value?.startsWith("-")) i += GIT_OPTIONS_WITH_VALUE.has(args[i]!.value!) ? 2 : 1;
    const sub = args[i]?.value;
    return sub === undefined ? (i < args.length ? GIT_HOOKS : []) : GIT_HOOKED.has(sub) ? GIT_HOOKS : [];
  }
  const interpreter = interpreterOf(name, args);
  if (interpreter === undefined) return [];
  const own = CODE.find((l) => l.as === interpreter);
  return own !== undefined ? [own] : [];
}

/** What a script of the project runs may load: code of any language (its commands are the project's). */
export const PROJECT_SCRIPT_LOADS: readonly Load[] = ANY;
