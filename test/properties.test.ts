/**
 * Property tests: for any input, every reader and every library entry answers (no exception, no hang,
 * a report whose diagnostics are well formed), and small mutations of a valid plan are either still
 * valid or rejected with a positioned diagnostic. New readers and entries are one line in ENTRIES;
 * new dialects one generator in PLANS.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pythonChecksum } from "../src/core/canonical/python-json.js";
import type { SourceDocument } from "../src/core/document.js";
import { isCommandArgument } from "../src/commands/plan.js";
import { DIALECT_IDS } from "../src/core/plan.js";
import type { PlanReport } from "../src/core/plan-report.js";
import { validatePlan } from "../src/node/validate-plan.js";
import { PolicyError, parsePolicyText } from "../src/node/policy.js";
import { parseToolsText, ToolsFileError } from "../src/node/tools-file.js";
import { planHash } from "../src/ops/hash.js";
import { migrateLegacy, sealEnvelope } from "../src/ops/seal.js";
import { findRule } from "../src/rules/index.js";
import { decodeText } from "../src/syntax/decode.js";
import { parseJson } from "../src/syntax/json.js";
import { parseYaml } from "../src/syntax/yaml.js";
import { cli } from "./cli-io.js";
import { cpuBound, cpuMsSince } from "./cpu-time.js";
import { NOW, tools } from "./helpers.js";

/** Per-call bound on CPU time. Generous; a quadratic blow-up exceeds it by far (and a hang never returns). */
const CALL_MS = 2_000;
const RUNS = Number(process.env.PLANGATE_PROPERTY_RUNS ?? 120);

const TOOLS = ["plot_qc", "read_file", "compute_qc_metrics"];
const registry = tools(...TOOLS);

/** Pieces hostile plans are made of: structure, keys the dialects know, and characters that cause trouble. */
const PIECES = [
  "{", "}", "[", "]", ",", ":", '"', "'", "-", " ", "  ", "\n", "\r\n", "\t", "#", "---", "```", "~~~",
  '"tool"', '"plan"', '"steps"', '"params"', '"description"', '"checksum"', '"version"', '"1.0"', '"created_at"',
  "tool: ", "steps:", "  - ", "plan:", "arguments: {}", "<<: ", "&a ", "*a", "!!str ", "!!python/object ", "? ",
  '"__proto__"', '"constructor"', "__proto__: ", '"\\ud800"', '"\\u0000"', "\\", "\\u", "1e400", "-0", "1.0",
  "12345678901234567890", "null", "true", "NaN", '"plot_qc"', '"read_file"', "\u202e", "\u200b", "\u0000",
  "\ufeff", "\u0430", "é", "😀", "\ud800", "# Title\n", "## Rationale\n", "## Action Plan\n", "### EDIT\n",
  "#### FIND:\n", "- **File Path:** ", "%2e%2e/", "../", "~/", "/etc/passwd",
] as const;

const token = fc.constantFrom(...PIECES);
const planish = fc.array(token, { maxLength: 60 }).map((parts) => parts.join(""));
const unicode = fc.string({ unit: "binary", maxLength: 200 });
const bytes = fc.uint8Array({ maxLength: 400 });
const encode = (s: string) => new TextEncoder().encode(s);
/** Any input: raw bytes, bytes of plan-shaped text, or a JS string (which may hold lone surrogates). */
const anyInput: fc.Arbitrary<Uint8Array | string> = fc.oneof(bytes, planish.map(encode), planish, unicode, unicode.map(encode));
const asText = (input: Uint8Array | string) => (typeof input === "string" ? input : decodeText(input).text);

interface Entry {
  name: string;
  run(input: Uint8Array | string): unknown;
  /** Errors the entry is documented to throw (e.g. a usage error); anything else fails. */
  throws?: (err: unknown) => boolean;
}

const validateEntries: Entry[] = [
  { name: "validatePlan (detected)", run: (i) => validatePlan(i, { now: NOW, workspace: "/workspace", tools: registry }) },
  ...["plan.json", "plan.yaml", "plan.md", "plan.txt"].map((file) => ({
    name: `validatePlan ${file}`,
    run: (i: Uint8Array | string) => validatePlan(i, { file, now: NOW, workspace: "/workspace", tools: registry }),
  })),
  ...DIALECT_IDS.map((dialect) => ({
    name: `validatePlan --dialect ${dialect}`,
    run: (i: Uint8Array | string) => validatePlan(i, { dialect, now: NOW, workspace: "/workspace", failFast: dialect === "ikoma" }),
  })),
];

/** Every reader and library entry of the product. */
const ENTRIES: Entry[] = [
  { name: "decodeText", run: (i) => decodeText(typeof i === "string" ? encode(i) : i) },
  { name: "parseJson", run: (i) => parseJson(asText(i)) },
  { name: "parseJson (full reader)", run: (i) => parseJson(asText(i), { fast: false }) },
  { name: "parseYaml", run: (i) => parseYaml(asText(i)) },
  { name: "parseYaml (YAML 1.2 executor)", run: (i) => parseYaml(asText(i), { executor: "yaml-1.2" }) },
  ...validateEntries,
  { name: "sealEnvelope", run: (i) => sealEnvelope(i) },
  { name: "migrateLegacy", run: (i) => migrateLegacy(i, { now: NOW }) },
  { name: "planHash json", run: (i) => planHash(i, { file: "plan.json" }) },
  { name: "planHash yaml", run: (i) => planHash(i, { file: "plan.yaml" }) },
  { name: "parsePolicyText yaml", run: (i) => parsePolicyText(asText(i), "plangate.yaml"), throws: (e) => e instanceof PolicyError },
  { name: "parsePolicyText json", run: (i) => parsePolicyText(asText(i), "plangate.json"), throws: (e) => e instanceof PolicyError },
  { name: "parseToolsText", run: (i) => parseToolsText(asText(i), "tools.json"), throws: (e) => e instanceof ToolsFileError },
];

/** Commands through the CLI, input on standard input: exit 0 or 1, never a crash (exit 2 is for usage). */
const COMMANDS = [["validate", "-", "--output", "json"], ["hash", "-", "--output", "json"], ["seal", "-"], ["migrate", "-"]];

function isDoc(v: unknown): v is SourceDocument {
  return typeof v === "object" && v !== null && "issues" in v && "lines" in v;
}

function isReport(v: unknown): v is PlanReport {
  return typeof v === "object" && v !== null && "diagnostics" in v && "valid" in v;
}

/** Faults in a result, whatever the input was. */
function faults(result: unknown): string[] {
  const out: string[] = [];
  if (isDoc(result)) {
    for (const issue of result.issues) {
      if (!findRule(issue.rule)) out.push(`unknown rule ${issue.rule}`);
      if (!(issue.start >= 0 && issue.start <= issue.end && issue.end <= result.text.length)) out.push(`${issue.rule} span ${issue.start}-${issue.end} outside the text`);
    }
    if (result.value === undefined && !result.issues.some((i) => i.rule === "parse-error" || i.rule === "limit-exceeded")) out.push("no value and no error");
  }
  if (isReport(result)) {
    if (result.valid === result.diagnostics.some((d) => d.severity === "error")) out.push("valid disagrees with the diagnostics");
    for (const c of result.internalErrors ?? []) out.push(`the ${c.rule} check threw: ${c.message}`);
    for (const d of result.diagnostics) {
      if (!findRule(d.rule)) out.push(`unknown rule ${d.rule}`);
      if (d.pointer !== undefined && !(d.line! >= 1 && d.column! >= 1)) out.push(`${d.rule} at ${d.pointer} has no position`);
      // Reading faults always point into the text, even when it could not be decoded.
      if ((d.rule === "parse-error" || d.rule === "duplicate-key") && d.line === undefined) out.push(`${d.rule} without a position`);
    }
  }
  return out;
}

async function timed(entry: Entry, input: Uint8Array | string): Promise<string[]> {
  const started = process.cpuUsage();
  let result: unknown;
  try {
    result = await entry.run(input);
  } catch (err) {
    if (entry.throws?.(err)) return [];
    return [`threw ${err instanceof Error ? err.stack : String(err)}`];
  }
  const ms = cpuMsSince(started);
  return [...faults(result), ...(ms > cpuBound(CALL_MS) ? [`took ${Math.round(ms)} ms of CPU time`] : [])];
}

describe("any input", () => {
  it.each(ENTRIES.map((e) => [e.name, e] as const))("%s answers without throwing, in bounded time, with well-formed diagnostics", async (_n, entry) => {
    await fc.assert(
      fc.asyncProperty(anyInput, async (input) => {
        expect(await timed(entry, input)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(COMMANDS.map((c) => [c.join(" "), c] as const))("plangate %s exits 0 or 1", async (_n, args) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(bytes, planish.map(encode)), async (stdin) => {
        const r = await cli(args, { stdin, cwd: "/" });
        expect([0, 1], r.stderr).toContain(r.code);
        if (args.includes("json")) expect(() => JSON.parse(r.stdout)).not.toThrow();
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });
});

// ---- valid plans and their small mutations ----

// Words that are neither branch keys (if, when…) nor placeholders (todo, tbd…) nor command arguments (sh,
// cmd…, read as command lines or argument vectors): those make a plan invalid by design.
const RESERVED = new Set(["if", "else", "elif", "when", "unless", "goto", "condition", "conditions", "then", "switch", "case", "todo", "tbd", "fixme", "xxx", "random", "now", "uuid", "loop", "while", "for", "foreach", "parallel", "retry", "and", "or"]);
const word = fc.stringMatching(/^[a-z][a-z_]{0,8}$/).filter((w) => !RESERVED.has(w) && !isCommandArgument(w));
const scalar = fc.oneof(fc.integer({ min: -1000, max: 1000 }), word, fc.boolean(), fc.constant(null), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
const params = fc.dictionary(word, fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(word, scalar, { maxKeys: 3 })), { maxKeys: 4 });
const scqcStep = fc.record({ tool: fc.constantFrom(...TOOLS), description: fc.string({ maxLength: 20 }), params }, { requiredKeys: ["tool"] });
const scqcSteps = fc.array(scqcStep, { minLength: 1, maxLength: 5 });

/** Generators of valid plans, one per dialect this build reads: [file name, text]. */
const PLANS: fc.Arbitrary<[string, string]>[] = [
  scqcSteps.chain((steps) => fc.constantFrom(0, 2).map((indent): [string, string] => ["plan.json", JSON.stringify(steps, null, indent)])),
  scqcSteps.map((steps): [string, string] => [
    "plan.json",
    JSON.stringify({ version: "1.0", created_at: "2026-11-20T10:00:00", message: "m", intent: "i", checksum: pythonChecksum(steps), plan: steps }, null, 2),
  ]),
];

type Mutation = (text: string, at: number) => string;
const MUTATIONS: Record<string, Mutation> = {
  "delete a character": (t, at) => t.slice(0, at) + t.slice(at + 1),
  "duplicate a character": (t, at) => t.slice(0, at + 1) + t.slice(at),
  "insert a quote": (t, at) => `${t.slice(0, at)}"${t.slice(at)}`,
  "duplicate a key": (t, at) => {
    const k = t.indexOf('"', t.indexOf("{", at) >= 0 ? t.indexOf("{", at) : t.indexOf("{"));
    const colon = t.indexOf(":", k);
    if (k < 0 || colon < 0) return t;
    const end = t.indexOf(",", colon) >= 0 ? t.indexOf(",", colon) : t.indexOf("}", colon);
    return end < 0 ? t : `${t.slice(0, k)}${t.slice(k, end)}, ${t.slice(k)}`;
  },
  "change a type": (t, at) => {
    const q = t.indexOf('"', at);
    const close = q < 0 ? -1 : t.indexOf('"', q + 1);
    if (close < 0 || t[close + 1] === ":" || t[close + 2] === ":") return t;
    return `${t.slice(0, q)}[1]${t.slice(close + 1)}`;
  },
  "bidi control": (t, at) => `${t.slice(0, at)}\u202e${t.slice(at)}`,
};

describe("small mutations of a valid plan", () => {
  it("the generated plans are valid", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(...PLANS), async ([file, text]) => {
        const r = await validatePlan(text, { file, now: NOW, workspace: "/workspace", tools: registry });
        expect(r.diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(Object.entries(MUTATIONS))("%s: still valid, or rejected with a position", async (_n, mutate) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(...PLANS), fc.nat(), async ([file, text], n) => {
        const mutated = mutate(text, n % text.length);
        const r = await validatePlan(mutated, { file, now: NOW, workspace: "/workspace", tools: registry });
        expect(faults(r)).toEqual([]);
        if (!r.valid) {
          const placed = r.diagnostics.filter((d) => d.severity === "error" && d.line !== undefined && d.column !== undefined);
          expect(placed.length, JSON.stringify(r.diagnostics)).toBeGreaterThan(0);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- the readers agree with each other and with the native parser ----

/** JSON-shaped text: real JSON values, their pieces shuffled, and the troublesome pieces above. */
const jsonish = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue().map((v) => JSON.stringify(v, null, 2)),
  fc.array(fc.oneof(token, fc.jsonValue().map((v) => JSON.stringify(v))), { maxLength: 12 }).map((p) => p.join("")),
);

describe("JSON and YAML readers", () => {
  it("accepts exactly what JSON.parse accepts", () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        let native = true;
        try {
          JSON.parse(text);
        } catch {
          native = false;
        }
        const doc = parseJson(text.charCodeAt(0) === 0xfeff ? ` ${text}` : text);
        expect(doc.issues.some((i) => i.rule === "parse-error"), text).toBe(!native);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it("finds every duplicate key, however the keys are spelt and nested", () => {
    const key = fc.constantFrom("a", "b", "\\u0061", "a\\u0062", "ab", "__x");
    const members = fc.array(fc.tuple(key, fc.oneof(fc.integer(), fc.constant("{}"))), { maxLength: 5 });
    fc.assert(
      fc.property(members, fc.boolean(), (ms, nest) => {
        const body = `{${ms.map(([k, v]) => `"${k}": ${v}`).join(", ")}}`;
        const text = nest ? `[{"tool": "t", "params": ${body}}]` : body;
        const names = ms.map(([k]) => JSON.parse(`"${k}"`) as string);
        const dup = new Set(names).size !== names.length;
        for (const fast of [true, false]) {
          const doc = parseJson(text, { fast });
          expect(doc.issues.some((i) => i.rule === "duplicate-key"), text).toBe(dup);
        }
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it("finds every duplicate key in YAML, block or flow, plain or quoted", () => {
    const spellings: Record<string, string> = { a: "a", '"a"': "a", "'a'": "a", '"\\x61"': "a", b: "b", '"b"': "b", "? a": "a" };
    const key = fc.constantFrom(...Object.keys(spellings));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 5 }), fc.boolean(), (keys, flow) => {
        const text = flow
          ? `{${keys.map((k, i) => `${k.replace("? ", "")}: ${i}`).join(", ")}}`
          : keys.map((k, i) => (k.startsWith("? ") ? `${k}\n: ${i}` : `${k}: ${i}`)).join("\n");
        const names = keys.map((k) => spellings[k]!);
        const doc = parseYaml(text || "{}");
        expect(doc.issues.some((i) => i.rule === "duplicate-key"), text).toBe(new Set(names).size !== names.length);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it("reads the same value and the same problems on its fast and its full path", () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        const fast = parseJson(text);
        const full = parseJson(text, { fast: false });
        expect(fast.issues.map((i) => [i.rule, i.start])).toEqual(full.issues.map((i) => [i.rule, i.start]));
        expect(fast.value).toEqual(full.value);
      }),
      { numRuns: RUNS * 4 },
    );
  });
});
