// Loads the bundled CLI (dist/bundle/, CommonJS) with the V8 code caches made beside its files at build
// time (<file>.cache): V8 then skips parsing and compiling what start-up runs. The caches are only read,
// never written here; V8 rejects one that does not match its file, this Node or its flags, and the file
// is then compiled as usual. Files of the bundle without a cache (chunks loaded lazily) compile as usual.
"use strict";
const { readFileSync } = require("node:fs");
const Module = require("node:module");
const { dirname, sep } = require("node:path");
const vm = require("node:vm");

const { createRequire } = Module;

/** The CommonJS function wrapper: the same text at build time and at run time, or the cache is rejected. */
const wrap = (code) => `(function (exports, require, module, __filename, __dirname) {${code}\n})`;

/**
 * Makes require() compile the files under `dir` with their code caches; `onScript` sees each compiled
 * script (the build keeps them to write their caches). Returns a require for `dir`.
 */
function useCodeCache(dir, onScript) {
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  const plain = Module._extensions[".js"];
  Module._extensions[".js"] = function (module, filename) {
    if (!filename.startsWith(prefix) || !filename.endsWith(".cjs")) return plain.call(this, module, filename);
    let cachedData;
    if (!onScript)
      try {
        cachedData = readFileSync(`${filename}.cache`);
      } catch {
        cachedData = undefined;
      }
    const script = new vm.Script(wrap(readFileSync(filename, "utf8")), {
      filename,
      cachedData,
    });
    onScript?.(filename, script);
    script.runInThisContext()(module.exports, createRequire(filename), module, filename, dirname(filename));
  };
  return createRequire(prefix);
}

module.exports = { useCodeCache, wrap };
