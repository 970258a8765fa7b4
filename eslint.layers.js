// The layers of src/ (README.md, "Layers"), enforced by ESLint's own rules: `no-restricted-imports` for
// static imports and exports (type-only ones included), `no-restricted-syntax` for `import()` and
// `import("…").Type`, `no-restricted-globals` and `no-restricted-syntax` for the process and the clock.
//
// Specifiers inside src/ are relative and normalised (a rule below refuses `a/../b` and `./../b`), so the
// number of leading `../` says how far up a specifier goes: from a file N folders below src/, exactly N of
// them reach src/ itself, and the next segment names the layer. One config object per layer and depth
// carries that layer's whole list (ESLint does not merge a rule's options across config objects).
import { builtinModules } from "node:module";

/** Top-level entries of src/ and what each may import besides itself. */
const LOWER = {
  core: [],
  version: [],
  policy: ["core"],
  schemas: ["core", "policy"],
  generated: [],
  syntax: ["core"],
  commands: ["core", "policy", "syntax"],
  dialects: ["core", "policy", "syntax", "schemas", "generated"],
  // Rules read the Plan: what a dialect leaves for them is typed in core/step-extra.ts.
  rules: ["core", "policy", "syntax", "commands"],
  engine: ["core", "policy", "syntax", "commands", "dialects", "rules", "schemas", "generated"],
  formatters: ["core", "rules", "version"],
};
// The decision code (approvals, orchestrator checks, file operations, host profiles) sits above the engine
// and the formatters and may use one another; node/ and store/ do their I/O; cli/ and service/ are the
// front doors; index.ts is the public surface.
const DECISION = ["approval", "orchestration", "ops", "host"];
const BELOW_DECISION = ["core", "version", "policy", "schemas", "generated", "syntax", "commands", "dialects", "rules", "engine", "formatters"];
for (const d of DECISION) LOWER[d] = [...BELOW_DECISION, ...DECISION];
LOWER.node = [...BELOW_DECISION, ...DECISION];
LOWER.store = [...LOWER.node, "node"];
const TOP = ["cli", "service"];
for (const t of TOP) LOWER[t] = [...LOWER.store, "store", ...TOP];
LOWER.index = Object.keys(LOWER).filter((k) => k !== "index");

/** Entries that are a single file (src/<name>.ts) rather than a folder. */
const FILES = new Set(["engine", "version", "index"]);
const ALL = Object.keys(LOWER);

/** Layers that never touch the process: no file system, no environment, no clock. */
const PURE = [...BELOW_DECISION, ...DECISION];

/**
 * Files allowed to break a rule, each with its reason: `allow` names the layers they may import besides
 * their own list, Node modules they may use, `clock` (they read the time) and `process` (the global).
 * Each entry is a debt with a way out; the list only shrinks.
 */
export const EXCEPTIONS = [
  // re2js is loaded on first use, synchronously, so a registry's patterns are checked where it is read:
  // createRequire is module loading, not I/O.
  { layer: "core", files: ["src/core/regex.ts"], allow: ["module"] },
];

/** Node modules a pure layer may import: computation only. core keeps to hashing. */
const PURE_NODE = { core: ["crypto"], default: ["crypto", "path", "buffer", "url"] };

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
// esquery reads a regular expression up to the next "/", so inside selectors "/" is written \x2F.
const forSelector = (re) => re.replaceAll("\\/", "\\x2F").replaceAll("/", "\\x2F");

function layerRegex(names, depth) {
  const up = depth === 0 ? "\\./" : "(\\.\\./){" + depth + "}";
  const alts = names.map((n) => (FILES.has(n) ? `${esc(n)}\\.js$` : `${esc(n)}(/|$)`));
  return `^${up}(${alts.join("|")})`;
}

function nodeRegex(allowed) {
  const names = [...new Set(builtinModules.map((m) => m.replace(/^node:/, "")))].filter((m) => !allowed.includes(m));
  return `^(node:)?(${names.map(esc).join("|")})$`;
}

// `./../x`, `a/./b`, `a/../b`: a segment other than `.` or `..` followed by `..`.
const NON_NORMAL = "^\\./\\.\\./|/\\./|(^|/)(?!\\.\\.?/)[^/]+/\\.\\.(/|$)";

function globs(layer, depth) {
  if (FILES.has(layer)) return depth === 0 ? [`src/${layer}.ts`] : [];
  if (depth === 0) return [];
  return [`src/${layer}/${"*/".repeat(depth - 1)}*.ts`];
}

function objectFor(layer, depth, files, extra = []) {
  const allow = [...LOWER[layer], ...extra.filter((a) => ALL.includes(a))];
  const banned = ALL.filter((l) => l !== layer && !allow.includes(l));
  const patterns = [];
  const selectors = [];
  if (banned.length > 0) {
    const re = layerRegex(banned, depth);
    const message = `${layer} is below ${banned.join(", ")} and may not import them (README.md, "Layers")`;
    patterns.push({ regex: re, message });
    selectors.push({ selector: `ImportExpression[source.value=/${forSelector(re)}/]`, message });
    selectors.push({ selector: `TSImportType[source.value=/${forSelector(re)}/]`, message });
  }
  const pure = PURE.includes(layer);
  if (pure) {
    const nodeAllowed = [...(PURE_NODE[layer] ?? PURE_NODE.default), ...extra.filter((a) => !ALL.includes(a) && a !== "clock" && a !== "process")];
    const re = nodeRegex(nodeAllowed);
    const message = `${layer} does no I/O: only ${nodeAllowed.map((m) => `node:${m}`).join(", ")} among Node's modules; the file system comes in through a FileProbe, the clock through options (README.md, "Layers")`;
    patterns.push({ regex: re, message });
    selectors.push({ selector: `ImportExpression[source.value=/${forSelector(re)}/]`, message });
    if (!extra.includes("clock")) {
      const clock = `${layer} reads no clock: take the time from options or the rule context (README.md, "Layers")`;
      selectors.push(
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: clock },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: clock },
        { selector: "CallExpression[callee.name='Date']", message: clock },
        { selector: "CallExpression[callee.object.name='performance'][callee.property.name='now']", message: clock },
      );
    }
  }
  patterns.push({ regex: NON_NORMAL, message: "write relative imports normalised (no ./../ or a/../b), so the layer check can read them" });
  // Every object sets all three rules, so an exception's object replaces its layer's settings whole.
  const rules = {
    "no-restricted-imports": ["error", { patterns }],
    "no-restricted-syntax": selectors.length > 0 ? ["error", ...selectors] : "off",
    "no-restricted-globals":
      pure && !extra.includes("process")
        ? ["error", { name: "process", message: `${layer} does not touch the process: pass what it needs in (README.md, "Layers")` }]
        : "off",
  };
  return { files, ignores: ["**/*.test.ts"], rules };
}

/** The flat-config objects that enforce the layers. */
export function layerConfigs() {
  const out = [];
  for (const layer of ALL) {
    for (let depth = 0; depth <= 4; depth++) {
      const files = globs(layer, depth);
      if (files.length > 0) out.push(objectFor(layer, depth, files));
    }
  }
  for (const e of EXCEPTIONS) {
    for (const file of e.files) {
      const depth = file.split("/").length - 2;
      out.push(objectFor(e.layer, depth, [file], e.allow));
    }
  }
  return out;
}
