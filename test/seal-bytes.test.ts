/**
 * seal changes nothing but the checksum's value: a UTF-8 byte order mark, line endings, spacing and
 * member order stay byte for byte, on stdout, with --out and with --in-place.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migrateLegacy, sealEnvelope } from "../src/ops/seal.js";
import { cli } from "./cli-io.js";
import { NOW } from "./helpers.js";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const PLAN = [{ tool: "plot_qc", params: { ratio: 1.0 } }];

/** Envelope texts: LF, CRLF, one line, checksum absent, tabs, checksum last. */
const VARIANTS: [string, string][] = [
  ["LF", `{\n  "version": "1.0",\n  "created_at": "2026-11-20T10:00:00",\n  "checksum": "stale",\n  "plan": [{"tool": "plot_qc", "params": {"ratio": 1.0}}]\n}\n`],
  ["CRLF", `{\r\n  "version": "1.0",\r\n  "created_at": "2026-11-20T10:00:00",\r\n  "checksum": "stale",\r\n  "plan": [{"tool": "plot_qc", "params": {"ratio": 1.0}}]\r\n}\r\n`],
  ["one line, no final newline", `{"version": "1.0", "created_at": "2026-11-20T10:00:00", "checksum": "stale", "plan": [{"tool": "plot_qc", "params": {"ratio": 1.0}}]}`],
  ["tabs, checksum last", `{\n\t"version": "1.0",\n\t"created_at": "2026-11-20T10:00:00",\n\t"plan": [{"tool": "plot_qc", "params": {"ratio": 1.0}}],\n\t"checksum": "stale"\n}\n`],
];

function dir() {
  return mkdtempSync(join(tmpdir(), "plangate-seal-"));
}

describe("seal keeps every byte but the checksum", () => {
  for (const [name, text] of VARIANTS) {
    // The checksum of the plan as written ("ratio": 1.0 hashes as Python writes it, 1.0).
    const sum = (sealEnvelope(text) as { checksum: string }).checksum;
    const want = (bom: boolean) => Buffer.concat([bom ? BOM : Buffer.alloc(0), Buffer.from(text.replace('"stale"', JSON.stringify(sum)))]);
    for (const bom of [true, false]) {
      it(`${name}${bom ? ", with a UTF-8 BOM" : ""}: --in-place, --out and stdout give the same bytes`, async () => {
        const d = dir();
        const input = Buffer.concat([bom ? BOM : Buffer.alloc(0), Buffer.from(text)]);
        writeFileSync(join(d, "p.json"), input);
        const out = await cli(["seal", "p.json"], { cwd: d });
        expect(out.code).toBe(0);
        expect(Buffer.from(out.stdout)).toEqual(want(bom));
        expect((await cli(["seal", "p.json", "--out", "o.json"], { cwd: d })).code).toBe(0);
        expect(readFileSync(join(d, "o.json"))).toEqual(want(bom));
        expect((await cli(["seal", "p.json", "--in-place"], { cwd: d })).code).toBe(0);
        expect(readFileSync(join(d, "p.json"))).toEqual(want(bom));
        // Sealing again changes nothing; the sealed file validates.
        expect((await cli(["seal", "p.json", "--in-place"], { cwd: d })).code).toBe(0);
        expect(readFileSync(join(d, "p.json"))).toEqual(want(bom));
        expect((await cli(["validate", "p.json"], { cwd: d })).code).toBe(0);
      });
    }
  }

  it("keeps the BOM when the checksum is inserted, and for a string input", () => {
    const text = '\ufeff{\n  "version": "1.0",\n  "created_at": "2026-11-20T10:00:00",\n  "plan": []\n}\n';
    const r = sealEnvelope(text);
    expect(r.ok && r.text.startsWith('\ufeff{\n  "version"')).toBe(true);
    expect(r.ok && r.text.slice(1)).toBe(sealEnvelope(text.slice(1)).ok && (sealEnvelope(text.slice(1)) as { text: string }).text);
    const bytes = sealEnvelope(Buffer.from(text));
    expect(bytes.ok && bytes.text).toBe(r.ok && r.text);
  });

  it("refuses two byte order marks, as validate does", async () => {
    const d = dir();
    writeFileSync(join(d, "p.json"), Buffer.concat([BOM, BOM, Buffer.from(VARIANTS[0]![1])]));
    const r = await cli(["seal", "p.json", "--in-place"], { cwd: d });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/p\.json:1:1: error: The file starts with two byte order marks\. \[parse-error\]/);
    expect(sealEnvelope("\ufeff\ufeff" + VARIANTS[0]![1])).toMatchObject({ ok: false, diagnostics: [{ rule: "parse-error", line: 1, column: 1 }] });
  });

  it("migrate keeps the BOM of the legacy file", () => {
    const r = migrateLegacy(Buffer.concat([BOM, Buffer.from(JSON.stringify(PLAN))]), { now: NOW });
    expect(r.ok && r.text.startsWith('\ufeff{\n  "version": "1.0"')).toBe(true);
    expect(migrateLegacy(JSON.stringify(PLAN), { now: NOW })).toMatchObject({ ok: true });
    expect((migrateLegacy(JSON.stringify(PLAN), { now: NOW }) as { text: string }).text.charCodeAt(0)).toBe(0x7b);
  });

  it("for any envelope text, sealing changes only the bytes of the checksum's value", () => {
    const ws = fc.constantFrom("", " ", "  ", "\n", "\r\n", "\t", "\n    ");
    fc.assert(
      fc.property(fc.boolean(), ws, ws, ws, fc.string({ maxLength: 20 }), (bom, a, b, c, msg) => {
        const text = `{${a}"version": "1.0",${b}"message": ${JSON.stringify(msg)},${c}"checksum": "x",${a}"plan": [{"tool": "t"}]${b}}${c}`;
        const input = Buffer.concat([bom ? BOM : Buffer.alloc(0), Buffer.from(text)]);
        const r = sealEnvelope(input);
        if (!r.ok) return false;
        const out = Buffer.from(r.text);
        const at = input.indexOf('"checksum": "x"') + '"checksum": '.length;
        const sum = Buffer.from(JSON.stringify(r.checksum));
        return out.equals(Buffer.concat([input.subarray(0, at), sum, input.subarray(at + 3)]));
      }),
    );
  });
});

describe("seal and migrate refuse what they cannot edit, in their rules' words", () => {
  const SEAL_HINT = "run `plangate seal FILE` to recompute its checksum";
  it.each([
    ["seal", "[1]", { rule: "unknown-format", message: "This is a legacy plan (a bare list): it has no envelope to seal.", hint: "run `plangate migrate FILE` to wrap it in a sealed v1.0 envelope" }],
    ["seal", "{}", { rule: "unknown-format", message: "This is not a scQC v1.0 envelope.", hint: 'seal works on {"version": "1.0", …, "plan": [...]} envelopes' }],
    ["migrate", '{"version": "1.0", "plan": []}', { rule: "unknown-format", message: "This plan is already a v1.0 envelope.", hint: SEAL_HINT }],
    ["migrate", "{}", { rule: "unknown-format", message: "This is not a legacy scQC plan (a JSON array of steps).", hint: SEAL_HINT }],
    ["migrate", '"x"', { rule: "unknown-format", message: "This is not a legacy scQC plan (a JSON array of steps).", hint: 'migrate takes a JSON array of {"tool", …} steps' }],
    ["seal", "\ufeff\ufeff{}", { rule: "parse-error", message: "The file starts with two byte order marks.", hint: "save the file as UTF-8 with at most one byte order mark", line: 1, column: 1 }],
    ["seal", "{", { rule: "parse-error", message: "unexpected end of input: the document is incomplete", hint: "close the '{' opened at line 1, column 1", line: 1, column: 2 }],
    ["migrate", '[{"a": 1, "a": 2}]', { rule: "duplicate-key", line: 1, column: 11 }],
    ["seal", new Uint8Array([0x7b, 0xff, 0x7d]), { rule: "parse-error", message: expect.stringMatching(/^the file is not valid UTF-8: bad byte 0xff at byte offset 1/) }],
  ] as const)("%s %j", (op, input, diagnostic) => {
    const r = op === "seal" ? sealEnvelope(input) : migrateLegacy(input, { now: NOW });
    expect(r).toEqual({ ok: false, diagnostics: [expect.objectContaining({ severity: "error", ...diagnostic })] });
  });
});
