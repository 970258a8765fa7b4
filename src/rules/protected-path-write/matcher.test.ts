import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROTECTED_PATHS } from "../../policy/defaults.js";
import { globNeedles, matcherFor } from "./index.js";

const plain = (globs: readonly string[]) => {
  const re = new RegExp(globs.map((g) => `(?:${picomatch.makeRe(g, { dot: true, nocase: true }).source})`).join("|") || "(?!)", "i");
  return (p: string) => re.test(p);
};
const PARTS = [".git", ".GIT", ".env", "id_rsa", "a", "B", ".pem", "plangate.yaml", "x.key", "\u212Aey", "é", "/", "\\", "."];
const path = fc.array(fc.constantFrom(...PARTS), { maxLength: 6 }).map((p) => p.join(""));
const glob = fc.array(fc.constantFrom("**/", "*", "/", ".git", ".env", "id_", "rsa", ".pem", "a", "b?", "{a,b}", "[ab]"), { minLength: 1, maxLength: 4 }).map((p) => p.join(""));

describe("protected globs' pre-check", () => {
  it("never rules out a path the globs match", () => {
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 3 }), fc.array(path, { maxLength: 10 }), (globs, paths) => {
        const fast = matcherFor(globs);
        const slow = plain(globs);
        for (const p of paths) expect(fast(p), `${JSON.stringify(globs)} ${p}`).toBe(slow(p));
      }),
      { numRuns: 1000 },
    );
  });
  it("has a literal for each default glob, and none where a glob's syntax allows matches without one", () => {
    expect(globNeedles(DEFAULT_PROTECTED_PATHS)).toContain(".git");
    expect(globNeedles(["**/*"])).toBeUndefined();
    expect(globNeedles(["src/{a,b}.py"])).toBeUndefined();
    // Outside ASCII, lower case and the regex's folding disagree: no pre-check.
    expect(globNeedles(["**/σίγμα*"])).toBeUndefined();
    for (const [g, p] of [["**/σίγμα*", "ςίγμα"], ["**/*.ς", "a.σ"], ["**/µ-secret", "Μ-SECRET"]] as const) expect(matcherFor([g])(p), `${g} ${p}`).toBe(plain([g])(p));
    const m = matcherFor(DEFAULT_PROTECTED_PATHS);
    for (const p of DEFAULT_PROTECTED_PATHS.map((g) => g.replace(/\*\*\/|\/\*\*/g, "").replace(/\*/g, "x"))) expect(m(p), p).toBe(plain(DEFAULT_PROTECTED_PATHS)(p));
  });

  it("matches with ten thousand globs: their expression was over the engine's size limit", () => {
    const globs = Array.from({ length: 10_000 }, (_, i) => `d${i}/**/*.k${i}`);
    const m = matcherFor(globs);
    expect(m("d9999/x/y.k9999")).toBe(true);
    expect(m("D17/é/Y.K17")).toBe(true);
    expect(m("d17/x/y.k18")).toBe(false);
    expect(m("src/a.ts")).toBe(false);
  });
});
