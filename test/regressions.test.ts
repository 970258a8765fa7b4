/** Regression tests for faults the adversarial corpus and the property tests found. */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { canonicalJson, canonicalSha256 } from "../src/core/canonical/jcs.js";
import { collectPointers } from "./pointers.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import { parseJson } from "../src/syntax/json.js";
import { parseYaml } from "../src/syntax/yaml.js";
import { run } from "./helpers.js";

const probes = vi.hoisted(() => ({ created: 0 }));
vi.mock("../src/node/file-probe.js", async (importActual) => {
  const actual = await importActual<typeof import("../src/node/file-probe.js")>();
  return {
    createFileProbe: () => {
      probes.created++;
      return actual.createFileProbe();
    },
  };
});

describe("regressions", () => {
  it("gives a whole-document diagnostic on a text no dialect reads a position", async () => {
    for (const text of ["# Title\n", "just words\n", "42\n"]) {
      const report = await run(text, { file: "plan.txt" });
      expect(report.diagnostics.length, text).toBeGreaterThan(0);
      for (const d of report.diagnostics) expect(d, text).toMatchObject({ line: 1, column: 1 });
    }
  });

  it("keeps a YAML end-of-input error inside the text", () => {
    const doc = parseYaml("{");
    expect(doc.issues[0]!.end).toBeLessThanOrEqual(1);
  });

  it("reads a control character in YAML as a parse error, not as part of a tool name", () => {
    expect(parseYaml("tool: read_file\u0000\n").issues.map((i) => [i.rule, i.start])).toEqual([["parse-error", 15]]);
    expect(parseYaml('tool: "read_file\\0"\n').issues).toEqual([]); // an escape is a value; the rules judge it
  });

  it("reports deep YAML nesting as a limit, before the yaml package reads it", () => {
    // The yaml package recurses once per level: scans of the text refuse it first, at the token limit for
    // 200,000 brackets and at the depth limit for 1,000.
    for (const [n, why] of [[200_000, "yamlTooManyTokens"], [1_000, "yamlTooDeepToParse"]] as const) {
      const doc = parseYaml(`a: ${"[".repeat(n)}`);
      expect(doc.issues.map((i) => [i.rule, i.messageId])).toEqual([["limit-exceeded", why]]);
    }
  });

  it("rejects two byte order marks", async () => {
    const r = await run(new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x5b, 0x5d]));
    expect(r.diagnostics.map((d) => [d.rule, d.line, d.column])).toEqual([["parse-error", 1, 1]]);
  });

  it("places an encoding fault in the text", async () => {
    const r = await run(new Uint8Array([0x5b, 0x0a, 0x22, 0xc3, 0x28, 0x22, 0x5d]));
    expect(r.diagnostics.map((d) => [d.rule, d.line, d.column])).toEqual([["parse-error", 2, 2]]);
  });

  it("hashes a plan in chunks to the same digest as the whole canonical text", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(canonicalSha256(v)).toBe(createHash("sha256").update(canonicalJson(v), "utf8").digest("hex"));
      }),
    );
    const big = Array.from({ length: 20_000 }, (_, i) => ({ tool: "t", n: i, s: "é".repeat(i % 7) }));
    expect(canonicalSha256(big)).toBe(createHash("sha256").update(canonicalJson(big), "utf8").digest("hex"));
  });

  it("locates every value of a large JSON text as a small one does", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const text = JSON.stringify(v, null, 1);
        const small = parseJson(text);
        const large = parseJson(text + " ".repeat(1024 * 1024 + 1)); // past the full-index threshold
        for (const p of collectPointers(small.value)) expect(large.locate(p), p).toEqual(small.locate(p));
      }),
      { numRuns: 60 },
    );
  });

  it("lists at most 1000 reading problems, then says there are more", async () => {
    const json = `[{"tool": "plot_qc", "params": [${Array.from({ length: 20_000 }, () => '{"__proto__": 1}').join(",")}]}]`;
    const yaml = `steps:\n${"  - !x a\n".repeat(20_000)}`;
    for (const [file, text] of [["p.json", json], ["p.yaml", yaml]] as const) {
      const r = await run(text, { file });
      // The reader's own problems (the plan-level cap of 10,000 diagnostics is a separate notice).
      const reading = r.diagnostics.filter((d) => (d.rule === "unsafe-value" || d.rule === "limit-exceeded") && !d.message.startsWith("The plan has more than"));
      expect(reading.length).toBeLessThanOrEqual(1001);
      expect(r.diagnostics.some((d) => d.rule === "limit-exceeded" && d.message.includes("more than 1000 problems"))).toBe(true);
    }
  });

  it("caps a report at 10,000 diagnostics and rejects the plan for the rest", async () => {
    const policy = defaultPolicy("/workspace");
    policy.rules["unknown-key"] = "warning"; // even when every listed problem is only a warning
    const text = `[${Array.from({ length: 2_600 }, () => '{"tool": "plot_qc", "a": 1, "b": 2, "c": 3, "d": 4}').join(",")}]`;
    const r = await run(text, { policy });
    expect(r.diagnostics).toHaveLength(10_001);
    expect(r.diagnostics.filter((d) => d.rule === "limit-exceeded").map((d) => d.severity)).toEqual(["error"]);
    expect(r.valid).toBe(false);
    policy.rules["unknown-key"] = "off"; // rules that are off do not fill the report
    expect((await run(text, { policy })).diagnostics.filter((d) => d.rule === "limit-exceeded")).toEqual([]);
  });

  it("uses a fresh file probe for each validation, so a changed file is seen", async () => {
    const before = probes.created;
    await run('[{"tool": "plot_qc"}]');
    await run('[{"tool": "plot_qc"}]');
    expect(probes.created - before).toBe(2);
  });
});
