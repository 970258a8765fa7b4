import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { cpuBound, cpuTimed } from "../../test/cpu-time.js";
import { LineIndex } from "./source.js";

/** The reference: every line start, by a regular expression. */
function starts(text: string): number[] {
  const out = [0];
  for (const m of text.matchAll(/\r\n|\r|\n/g)) out.push(m.index + m[0].length);
  return out;
}

describe("LineIndex", () => {
  test("positions, line texts and line starts agree with a plain list of line starts, on any text", () => {
    // Up to 300 lines: past the index's checkpoints (one per 64 lines) and between them.
    const piece = fc.constantFrom("a", "bc", "\n", "\r", "\r\n", "\n\n", "é", "\u2028");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.array(fc.nat(), { maxLength: 20 }), (parts, picks) => {
        const text = parts.join("");
        const ref = starts(text);
        // One index answers from its checkpoints (one with checkpoints every few characters, inside
        // lines too); the other has built the full list first.
        const sparse = new LineIndex(text);
        const chunked = new LineIndex(text, 1 + (picks[0] ?? 0) % 7);
        const full = new LineIndex(text);
        expect(Array.from(full.lineStarts)).toEqual(ref);
        for (const index of [sparse, chunked, full]) check(text, ref, index, picks);
      }),
      { numRuns: 1500 },
    );
  });

  function check(text: string, ref: number[], index: LineIndex, picks: number[]): void {
        expect(index.lineCount).toBe(ref.length);
        for (const p of picks) {
          const o = p % (text.length + 1);
          let line = 0;
          while (line + 1 < ref.length && ref[line + 1]! <= o) line++;
          expect(index.position(o)).toEqual({ line: line + 1, column: o - ref[line]! + 1, offset: o });
          const l = (p % (ref.length + 1)) + 1;
          expect(index.lineStart(l)).toBe(ref[l - 1]);
          const end = l < ref.length ? ref[l]! : text.length;
          expect(index.lineText(l)).toBe(l <= ref.length ? text.slice(ref[l - 1], end).replace(/[\r\n]+$/, "") : "");
        }
        expect(index.position(-5).offset).toBe(0);
        expect(index.position(text.length + 5).offset).toBe(text.length);
  }

  test("a position on a long line reads a bounded part of it", () => {
    // 8 MiB on one line, and then on two, with 20,000 positions near the end: a position scanned its
    // whole line (20,000 scans of 8 MiB), now at most 4096 characters from a checkpoint.
    for (const text of ["[" + "1,".repeat(4 << 20) + "1]", "x\r\n" + "y".repeat(8 << 20)]) {
      const index = new LineIndex(text);
      const { ms } = cpuTimed(() => {
        for (let k = 0; k < 20_000; k++) {
          const o = text.length - 1 - k * 7;
          const p = index.position(o);
          if (p.line !== (text.startsWith("x") ? 2 : 1)) throw new Error(`line ${p.line} at ${o}`);
        }
      });
      expect(ms).toBeLessThan(cpuBound(2000));
      expect(index.position(text.length - 1).column).toBe(text.startsWith("x") ? text.length - 3 : text.length);
    }
  });

  test("the excerpts of many diagnostics on one long line find its end once", () => {
    // Each diagnostic's excerpt asks for its line and the one before: a scan of 8 MiB each before (a
    // text with a CR is scanned character by character).
    const text = "x\r\n" + "1,".repeat(4 << 20);
    const index = new LineIndex(text);
    const { ms } = cpuTimed(() => {
      for (let k = 0; k < 2_000; k++) {
        expect(index.lineText(1)).toBe("x");
        expect(index.lineText(2).length).toBe(8 << 20);
      }
    });
    expect(ms).toBeLessThan(cpuBound(1000));
  });

  test("60 million empty lines are indexed in bounded memory", () => {
    const text = "\n".repeat(60_000_000);
    expect(text.includes("x")).toBe(false); // flattens the repeated string before measuring
    const before = process.memoryUsage().heapUsed;
    const index = new LineIndex(text);
    expect(index.position(text.length - 1)).toEqual({ line: 60_000_000, column: 1, offset: 59_999_999 });
    expect(index.lineCount).toBe(60_000_001);
    // One start per 64 lines: about 4 MB. A start per line was a number[] of 60 million (over 500 MB).
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });
});
