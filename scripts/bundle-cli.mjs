// Bundles the CLI (dist/cli, after tsc) into dist/bundle/, CommonJS: cli.cjs is the entry bin/plangate.js
// requires, and the program's own dynamic imports become chunks loaded when asked for (each command; the
// YAML and Markdown readers with the yaml and markdown-it packages; the validators made with ajv; the
// stores; the service), so start-up reads a few files instead of some 140 ES modules. Optional peers and
// packages that find files beside themselves stay outside and load from node_modules when asked for.
// Then the V8 code caches are made (scripts/code-cache.mjs), which bin/load-bundle.js uses when they match.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";
import { makeCodeCache } from "./code-cache.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = resolve(root, "dist");
const out = resolve(dist, "bundle");

// Loaded only when asked for, from node_modules: optional peers (may be absent: the CLI says how to
// install them), web-tree-sitter (finds its .wasm beside itself), postgres (only with a PostgreSQL store).
const EXTERNAL = [/^gpt-tokenizer(\/|$)/, /^@modelcontextprotocol\/sdk(\/|$)/, /^web-tree-sitter(\/|$)/, /^postgres(\/|$)/];

/** `new URL("../../x", import.meta.url)` in dist/a/b.js names a file of the package: keep naming it from dist/bundle/. */
function packageFiles() {
  return {
    name: "package-files",
    transform(code, id) {
      if (!id.startsWith(dist) || !code.includes("import.meta.url")) return null;
      const next = code.replace(/new URL\((["'`])(\.\.?\/[^"'`$]*)/g, (m, q, rel) => {
        const target = resolve(dirname(id), rel);
        let moved = relative(out, target).replace(/\\/g, "/");
        if (!moved.startsWith(".")) moved = `./${moved}`;
        if (rel.endsWith("/") && !moved.endsWith("/")) moved += "/";
        return `new URL(${q}${moved}`;
      });
      return next === code ? null : { code: next, map: null };
    },
  };
}

/**
 * commander requires node:child_process when it loads, for subcommands run as separate programs, which
 * plangate has none of; loading it (with net, dgram and the stream stack) costs every command some 2 to 3 ms
 * of CPU. It is required on first use instead. A commander whose text differs fails the build, not the CLI.
 */
function lazyChildProcess() {
  const eager = "const childProcess = require('node:child_process');";
  return {
    name: "lazy-child-process",
    transform(code, id) {
      if (!id.replace(/\\/g, "/").endsWith("/commander/lib/command.js")) return null;
      if (!code.includes(eager)) throw new Error("commander/lib/command.js no longer requires node:child_process as expected: update scripts/bundle-cli.mjs");
      const lazy = "const childProcess = { get spawn() { return require('node:child_process').spawn; } };";
      return { code: code.replace(eager, lazy), map: null };
    },
  };
}

/**
 * The bundle's files are compiled with vm.Script (to use their code caches), where import() works only with
 * an experimental option; the packages loaded from node_modules (above) are imported by import.js instead,
 * a plain CommonJS file Node compiles itself.
 */
function importThroughHelper() {
  const call = /(?<![\w$.])import\(/g;
  return {
    name: "import-through-helper",
    renderChunk(code) {
      if (!call.test(code)) return null;
      const body = code.replace(call, "__plangate_import(");
      const strict = /^(["'])use strict\1;?\n/.exec(body)?.[0] ?? "";
      return { code: `${strict}const __plangate_import = require("./import.js");\n${body.slice(strict.length)}`, map: null };
    },
  };
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// What bin/plangate.js calls: main() and processIO().
const entry = resolve(out, "entry.mjs");
writeFileSync(entry, 'export { main } from "../cli/main.js";\nexport { processIO } from "../cli/io.js";\n');
const bundle = await rolldown({
  input: { cli: entry },
  platform: "node",
  external: EXTERNAL,
  plugins: [packageFiles(), lazyChildProcess(), importThroughHelper()],
  // A module both imported and dynamically imported is simply in the importer's chunk: not worth a warning.
  checks: { ineffectiveDynamicImport: false },
  logLevel: "warn",
  // Chunks may export more than their entry needs (the groups below take single modules out of the chunks).
  preserveEntrySignatures: "allow-extension",
});
await bundle.write({
  dir: out,
  format: "cjs",
  entryFileNames: "[name].cjs",
  chunkFileNames: "[name]-[hash].cjs",
  sourcemap: false,
  // ASCII only: V8 reads a one-byte source faster than a two-byte one, which a single non-ASCII character
  // anywhere in a chunk would make of the whole file.
  charset: "ascii",
  // Licence comments stay; JSDoc is for readers of the source, not of the bundle.
  comments: { legal: true, annotation: false, jsdoc: false },
  // Modules a guard hook call needs that would otherwise share a chunk with code it does not (the engine's
  // facts beside the engine; the approval record beside the CLI's approval printers and formatters).
  codeSplitting: {
    includeDependenciesRecursively: false,
    groups: [
      { name: "facts", test: /[\\/]dist[\\/]core[\\/]facts\.js$/ },
      { name: "record", test: /[\\/]dist[\\/]approval[\\/]record\.js$/ },
      { name: "run-state", test: /[\\/]dist[\\/]node[\\/](?:guard-state|lock-file|guard-error|private-place)\.js$/ },
      // The command analysis, which only a plan with a command or a hook call for a shell tool runs.
      { name: "shell", test: /[\\/]dist[\\/](?:commands[\\/](?:wrappers|launchers|analyse|installs|dotenv|sed|inline-code|loaders|manifest-paths|database-clients|awk|command-pattern)|syntax[\\/]shell[\\/](?:read-tree|parse))\.js$/ },
      // The path checks a hook call runs on a call's paths, out of the chunk of the other plan rules.
      {
        name: "paths",
        test: /[\\/](?:dist[\\/](?:core[\\/](?:paths|path-service|path-glob|writers|constraints|walk|dialect-groups)|rules[\\/](?:protected-path-write[\\/](?:index|glob-sources|glob-options)|path-outside-workspace[\\/]index|checked-at-call|command-paths)|commands[\\/](?:paths|project-config|constraint-check|report|plan|match))|node_modules[\\/]picomatch[\\/].*)\.js$/,
      },
      // The built-in policy, which the path checks and the readers both use: a chunk of its own, so that
      // neither chunk requires the other for it.
      { name: "defaults", test: /[\\/]dist[\\/]policy[\\/]defaults\.js$/ },
      // Small core modules every command uses, out of the chunks of the larger modules beside them.
      { name: "core", test: /[\\/]dist[\\/](?:core[\\/](?:compiled|glob|place|lookalike|text|pointer|regex|rule|work|canonical[\\/][^\\/]+)|syntax[\\/]shell[\\/]quote)\.js$/ },
    ],
  },
});
await bundle.close();
rmSync(entry);
// dist/ is "type": "module" by the package; the bundle's files say .cjs, so Node reads them as CommonJS.
writeFileSync(resolve(out, "package.json"), '{ "type": "commonjs" }\n');
writeFileSync(resolve(out, "import.js"), "// import() for the bundle's files (see scripts/bundle-cli.mjs).\nmodule.exports = (specifier) => import(specifier);\n");
makeCodeCache(out);
const files = readdirSync(out).filter((f) => f.endsWith(".cjs"));
const kb = (fs) => Math.round(fs.reduce((n, f) => n + statSync(resolve(out, f)).size, 0) / 1024);
console.log(`bundle: dist/bundle/, ${files.length} files (${kb(files)} KB), ${readdirSync(out).filter((f) => f.endsWith(".cache")).length} code caches (${kb(readdirSync(out).filter((f) => f.endsWith(".cache")))} KB)`);
