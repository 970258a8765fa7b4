// Loads the bundled CLI (dist/bundle/, CommonJS) with the V8 code caches made beside its files at build
// time (<file>.cache, or another suffix: a guard hook call reads <file>.hook.cache): V8 then skips parsing
// and compiling what start-up runs. The caches are only read, never written here; V8 rejects one that does
// not match its file, this Node or its flags, and the file is then compiled as usual (a file without a
// cache too).
//
// The bundle's files load one another by their plain names (`require("./engine-XXXX.cjs")`), so they are
// loaded here, each once, straight from the folder: Node's module resolution (a stat, a realpath and a
// package.json lookup per file) is skipped. Anything else (node: modules, packages, import.js) goes to
// Node's require from the folder.
"use strict";
const { readFileSync } = require("node:fs");
const Module = require("node:module");
const { sep } = require("node:path");
const vm = require("node:vm");

const { createRequire } = Module;

/** The CommonJS function wrapper: the same text at build time and at run time, or the cache is rejected. */
const wrap = (code) => `(function (exports, require, module, __filename, __dirname) {${code}\n})`;

/** A file of the bundle's own folder, as its files name one another. */
const BUNDLE_FILE = /^\.\/[^/\\]+\.cjs$/;

/**
 * A require() for the files under `dir` that compiles each with its code cache (`dir/<file><suffix>`);
 * `onScript` sees each compiled script (the build keeps them to write their caches, and no cache is read).
 */
function useCodeCache(dir, onScript, suffix = ".cache") {
  const folder = dir.endsWith(sep) ? dir.slice(0, -1) : dir;
  const nodeRequire = createRequire(folder + sep);
  // Node's own module cache: a file loaded here is the one Node's require() would return, and the reverse.
  const modules = Module._cache;
  const load = (filename) => {
    const known = modules[filename];
    if (known) return known.exports;
    const module = new Module(filename, null);
    module.filename = filename;
    // Registered before it runs, as Node does: a cycle between files sees the exports made so far.
    modules[filename] = module;
    let cachedData;
    if (!onScript)
      try {
        cachedData = readFileSync(filename + suffix);
      } catch {
        cachedData = undefined;
      }
    try {
      const script = new vm.Script(wrap(readFileSync(filename, "utf8")), { filename, cachedData });
      onScript?.(filename, script);
      script.runInThisContext()(module.exports, bundleRequire, module, filename, folder);
    } catch (err) {
      delete modules[filename];
      throw err;
    }
    module.loaded = true;
    return module.exports;
  };
  function bundleRequire(specifier) {
    return BUNDLE_FILE.test(specifier) ? load(folder + sep + specifier.slice(2)) : nodeRequire(specifier);
  }
  bundleRequire.resolve = nodeRequire.resolve;
  return bundleRequire;
}

module.exports = { useCodeCache, wrap };
