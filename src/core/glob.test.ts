import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { globMatcher } from "./glob.js";
import { cpuBound } from "../../test/cpu-time.js";

/** The reading the matcher must keep: the anchored regular expression of the glob, on short names only. */
function reference(glob: string): RegExp {
  let re = "^";
  for (const ch of glob) re += ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`${re}$`, "su");
}

describe("tool-name globs", () => {
  it.each([
    ["git_*", "git_status", true],
    ["git_*", "git_", true],
    ["git_*", "gitstatus", false],
    ["*", "", true],
    ["?", "😀", true],
    ["??", "😀", false],
    ["mcp__*__read*", "mcp__files__read_file", true],
    ["mcp__*__read*", "mcp__files__write", false],
    ["a*b*c", "abcabc", true],
    ["a*b*c", "abcab", false],
    ["*.*", "a.b", true],
  ])("%s on %j: %s", (glob, name, want) => {
    expect(globMatcher(glob).test(name)).toBe(want);
  });

  it("answers a hostile name at once where a backtracking RegExp takes minutes", () => {
    for (const [glob, name] of [
      ["*a*a*a*b", "a".repeat(100_000)],
      ["*_*_*_*x", "_".repeat(100_000)],
      ["mcp__*__*__delete", `mcp__${"__".repeat(200_000)}`],
      // Going back to the last star at each place cost the run's length each time: 1,000 x a MiB.
      [`*${"a".repeat(1000)}b*`, "a".repeat(1 << 20)],
      [`*${"a".repeat(500)}b${"a".repeat(500)}*`, "a".repeat(1 << 20)],
      [`x*${"ab".repeat(300)}c*y`, `x${"ab".repeat(1 << 19)}y`],
    ] as const) {
      const start = process.cpuUsage();
      expect(globMatcher(glob).test(name)).toBe(false);
      const u = process.cpuUsage(start);
      expect((u.user + u.system) / 1000, glob).toBeLessThan(cpuBound(2000));
    }
  });

  it("agrees with the glob's regular expression (property)", () => {
    const chars = fc.constantFrom("a", "b", "_", ".", "😀", "é");
    fc.assert(
      fc.property(fc.array(fc.oneof(chars, fc.constantFrom("*", "?")), { maxLength: 6 }), fc.array(chars, { maxLength: 8 }), (g, n) => {
        const glob = g.join("");
        const name = n.join("");
        expect(globMatcher(glob).test(name), `${glob} on ${name}`).toBe(reference(glob).test(name));
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees with the glob's regular expression on runs that repeat themselves (property)", () => {
    // Two letters make runs with borders (`abab`), where the search for a run falls back within it.
    const chars = fc.constantFrom("a", "b");
    fc.assert(
      fc.property(fc.array(fc.oneof(chars, chars, chars, fc.constantFrom("*", "?")), { maxLength: 12 }), fc.array(chars, { maxLength: 24 }), (g, n) => {
        const glob = g.join("");
        const name = n.join("");
        expect(globMatcher(glob).test(name), `${glob} on ${name}`).toBe(reference(glob).test(name));
      }),
      { numRuns: 5000 },
    );
  });
});
