import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseYaml } from "../src/syntax/yaml.js";
import { QUOTED_CONTEXTS, yamlVariants } from "./yaml-variants.js";
import { cpuBound } from "./cpu-time.js";

/*
 * Differential test against PyYAML's safe loader (YAML 1.1), the parser of a Python executor: every
 * variant plangate accepts must be read by PyYAML as the same value (same types, same numbers, same
 * strings, no error). PyYAML's readings are recorded in a fixture so the property also runs where Python
 * is absent; where python3 with PyYAML is present the readings are also taken live and must equal the
 * recorded ones. After changing the variants, rewrite the fixture:
 *
 *     PLANGATE_WRITE_PYYAML_READINGS=1 npx vitest run test/yaml-pyyaml.differential.test.ts
 */

const FIXTURE = join(import.meta.dirname, "fixtures/yaml-pyyaml-readings.json");
const TOOL = join(import.meta.dirname, "tools/pyyaml-readings.py");
const PYYAML_VERSION = "6.0.3";
const hasPyyaml = spawnSync("python3", ["-c", "import yaml"], { stdio: "ignore" }).status === 0;

interface Recorded {
  pyyaml: string;
  variants: { text: string; reading: unknown }[];
}

function pyyamlReadings(texts: string[]): { pyyaml: string; readings: unknown[] } {
  const run = spawnSync("python3", [TOOL], {
    input: JSON.stringify(texts),
    encoding: "utf8",
    env: { ...process.env, PYTHONIOENCODING: "utf-8" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`pyyaml-readings.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { pyyaml: string; readings: unknown[] };
}

/** Why plangate's value differs from PyYAML's typed reading, or undefined when they are the same. */
function difference(py: unknown, js: unknown, at = ""): string | undefined {
  const here = at || "/";
  if (py === null || typeof py === "boolean" || typeof py === "string")
    return py === js ? undefined : `${here}: PyYAML ${JSON.stringify(py)}, plangate ${JSON.stringify(js)}`;
  if (Array.isArray(py)) {
    if (!Array.isArray(js) || js.length !== py.length) return `${here}: PyYAML a list of ${py.length}, plangate ${JSON.stringify(js)}`;
    for (let i = 0; i < py.length; i++) {
      const d = difference(py[i], js[i], `${at}/${i}`);
      if (d) return d;
    }
    return undefined;
  }
  const o = py as { int?: string; float?: string; map?: [unknown, unknown][]; other?: string; error?: string };
  if (o.int !== undefined)
    return typeof js === "number" && Number.isSafeInteger(js) && BigInt(js) === BigInt(o.int) ? undefined : `${here}: PyYAML int ${o.int}, plangate ${JSON.stringify(js)}`;
  if (o.float !== undefined) {
    const f = o.float === "inf" ? Infinity : o.float === "-inf" ? -Infinity : Number(o.float);
    return typeof js === "number" && Object.is(js, f) ? undefined : `${here}: PyYAML float ${o.float}, plangate ${JSON.stringify(js)}`;
  }
  if (o.map !== undefined) {
    if (js === null || typeof js !== "object" || Array.isArray(js)) return `${here}: PyYAML a mapping, plangate ${JSON.stringify(js)}`;
    const keys = Object.keys(js);
    if (keys.length !== o.map.length) return `${here}: PyYAML ${o.map.length} keys, plangate ${keys.length}`;
    for (const [k, v] of o.map) {
      if (typeof k !== "string") return `${here}: PyYAML key ${JSON.stringify(k)} is not a string`;
      if (!Object.hasOwn(js, k)) return `${here}: PyYAML key ${JSON.stringify(k)} missing from plangate's reading`;
      const d = difference(v, (js as Record<string, unknown>)[k], `${at}/${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return `${here}: PyYAML ${o.error !== undefined ? `raised ${o.error}` : `read ${o.other}`}, plangate ${JSON.stringify(js)}`;
}

const variants = yamlVariants();

/**
 * The property on random texts, in batches read by one Python process each: every text plangate
 * accepts reads as PyYAML reads it. Shrinking would rerun Python per step, and the failing text is in
 * the diff, so a failure ends the run.
 */
function agreeInBatches(text: fc.Arbitrary<string>, batch: number): void {
  fc.assert(
    fc.property(fc.array(text, { minLength: batch, maxLength: batch }), (texts) => {
      const { readings } = pyyamlReadings(texts);
      texts.forEach((t, i) => {
        const doc = parseYaml(t);
        if (doc.issues.length === 0) expect({ t, d: difference(readings[i], doc.value) }).toEqual({ t, d: undefined });
      });
    }),
    { numRuns: Number(process.env.PLANGATE_PYYAML_RUNS ?? 3), endOnFailure: true },
  );
}

describe("YAML plans against PyYAML (YAML 1.1, safe loader)", () => {
  if (process.env.PLANGATE_WRITE_PYYAML_READINGS) {
    it("writes the recorded readings", () => {
      const live = pyyamlReadings(variants);
      const recorded: Recorded = { pyyaml: live.pyyaml, variants: variants.map((text, i) => ({ text, reading: live.readings[i] })) };
      writeFileSync(FIXTURE, JSON.stringify(recorded, null, 1) + "\n");
    });
    return;
  }
  const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as Recorded;

  it("the recorded fixture holds exactly the generated variants (several hundred)", () => {
    expect(variants.length).toBeGreaterThan(800);
    expect(recorded.pyyaml).toBe(PYYAML_VERSION);
    expect(recorded.variants.map((v) => v.text)).toEqual(variants);
  });

  it("every variant plangate accepts is read the same by PyYAML (recorded readings)", () => {
    const differences: string[] = [];
    let accepted = 0;
    for (const { text, reading } of recorded.variants) {
      const doc = parseYaml(text);
      if (doc.issues.length > 0) continue;
      accepted++;
      const d = difference(reading, doc.value);
      if (d) differences.push(`${JSON.stringify(text)}: ${d}`);
    }
    expect(differences).toEqual([]);
    // Not vacuous: a good share of the variants are plans both read the same, and they pass.
    expect(accepted).toBeGreaterThan(300);
  });

  it("what both read the same still passes: quoted strings, ordinary numbers, JSON-style flow text", () => {
    const same = [
      "k: 1\n", "k: -7\n", "k: 0\n", "k: 1.5\n", "k: 1.0\n", "k: 0.1\n", "k: 1.0e+3\n", "k: 1.5E-3\n", "k: 0x1F\n", "k: true\n",
      "k: false\n", "k: null\n", "k: ~\n", "k:\n", "k: read_file\n", "k: y\n", "k: n\n", '{"k": [1, 2.5, true, null, "x"]}',
      "k: \"a\\u00e9b\"\n", "k: \"\\U0001F600\"\n", "k: |\n  text\n", "k: |-\n  text", "k: v\r\nj: w\r\n", "k: 'a\tb'\n",
      ...["yes", "on", "0755", "1e3", "2001-12-14", "22:22", "=", "1_000"].flatMap((s) => QUOTED_CONTEXTS.map((c) => c(s))),
    ];
    for (const text of same) expect(parseYaml(text).issues, JSON.stringify(text)).toEqual([]);
  });

  it.skipIf(!hasPyyaml)("live: PyYAML reads the variants as recorded (python3 with PyYAML)", () => {
    const live = pyyamlReadings(variants);
    expect(live.pyyaml, "the fixture was recorded with another PyYAML").toBe(recorded.pyyaml);
    const stale = variants.filter((_, i) => JSON.stringify(live.readings[i]) !== JSON.stringify(recorded.variants[i]?.reading));
    expect(stale, "rewrite the fixture: PLANGATE_WRITE_PYYAML_READINGS=1 npx vitest run test/yaml-pyyaml.differential.test.ts").toEqual([]);
  });

  it.skipIf(!hasPyyaml)("live, random: plain scalars spelt from number, boolean and date characters, in keys, values and flow", () => {
    const scalar = fc
      .array(fc.constantFrom(..."0123456789+-._:eExXoObB~=<yYnNtTfF", "0", "1", "7", "8", "9", "e+", "e-", ".5", "0x", "0o", "0b", "1:", "inf", "nan", "yes", "on", "off", "null", "true", "2001-12-14", " 1"), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.join(""));
    const text = fc.tuple(scalar, fc.integer({ min: 0, max: 4 })).map(([s, c]) => [`k: ${s}\n`, `${s}: v\n`, `k: [${s}, x]\n`, `{"k": ${s}}`, `k: {${s}: 1}\n`][c]!);
    agreeInBatches(text, 200);
  }, 600_000);

  it.skipIf(!hasPyyaml)("live, random: YAML assembled from structure, quotes, comments, tags, anchors and odd characters", () => {
    const piece = fc.constantFrom(
      "k", "a", "1", "x y", ":", ": ", " ", "  ", "\n", "\n  ", "\n- ", "- ", "  - ", "\n    ", "[", "]", "{", "}", ", ", ",", "'", '"',
      "'a'", '"a"', '"\\u00e9"', '"a\\\n b"', "#", " #", " # c", "\t", "|", ">", "|-", ">+", "|\n  ", ">-\n  ", "?", "? ", "&a ", "&a",
      "*a", "!!str ", "!!int ", "!!map ", "!!seq ", "!int ", "!", "---", "...", "%YAML 1.2\n---\n", "%TAG ! tag:yaml.org,2002:\n---\n", "\r\n",
      "\\", "%", "@", "`", "=", "-1", "-0", ".5", "0", "1.0", "1e3", "0755", "0x1F", "1_0", "12:30", "yes", "on", "~", "k: ", "  k: ", "- k: ",
      "[a, b]", "{a: 1}", "\u00e9", "\u00a0", "\ufeff", "\u0085", "\u2028", "\n\n",
    );
    const text = fc.array(piece, { minLength: 1, maxLength: 14 }).map((p) => p.join(""));
    agreeInBatches(text, 400);
  }, 600_000);

  it.skipIf(!hasPyyaml)("live, random: directives, %TAG handles, core and other tags, merge keys, value keys and anchors on keys", () => {
    const piece = fc.constantFrom(
      "%TAG ! tag:yaml.org,2002:\n", "%TAG !! tag:yaml.org,2002:\n", "%TAG !e! tag:yaml.org,2002:\n", "%TAG !! tag:x.org,2000:\n", "%TAG !e! !\n",
      "%TAG !e! tag:yaml.org,2002:s\n", "%YAML 1.2\n", "%YAML 1.1\n", "%FOO x\n", "---\n", "--- ", "...\n", "k: ", "- ", "\n", " ", "!!str ", "!!int ",
      "!!bool ", "!!null ", "!!float ", "!e!str ", "!e!int ", "!!merge ", "! ", "!<tag:yaml.org,2002:str> ", "!<tag:yaml.org,2002:int> ", "!%21 ", "!!%73tr ",
      "!e!%73tr ", "!e!tr ", "!<!> ", "!e! ", "0755", "yes", "1e3", "12", "x", "<<", "<<: ", "=", "~", "''", '""', "[", "]", "{", "}", ", ", ": ", "&a ", "*a",
      "&k k: v\n", "*k : w\n", "? ",
    );
    const text = fc.array(piece, { minLength: 1, maxLength: 14 }).map((p) => p.join(""));
    agreeInBatches(text, 400);
  }, 600_000);

  it("every variant gets a verdict quickly and never throws", () => {
    for (const text of variants) {
      const started = process.cpuUsage();
      expect(() => parseYaml(text)).not.toThrow();
      const used = process.cpuUsage(started);
      expect((used.user + used.system) / 1000, JSON.stringify(text)).toBeLessThan(cpuBound(500));
    }
  });
});
