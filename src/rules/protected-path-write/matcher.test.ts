import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROTECTED_PATHS } from "../../policy/defaults.js";
import { globBacktracks, pathGlobSource } from "../../core/path-glob.js";
import { PROTECTED_GLOB_SOURCES } from "./glob-sources.js";
import { GLOB_OPTIONS } from "./glob-options.js";
import { globNeedles, matcherFor } from "./index.js";
import { cpuBound } from "../../../test/cpu-time.js";

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
        // A glob matched by RE2 (globBacktracks) may match more: "." and ".." names, a leading "/".
        const linear = globs.some(globBacktracks);
        for (const p of paths) if (!linear || slow(p)) expect(fast(p), `${JSON.stringify(globs)} ${p}`).toBe(slow(p));
      }),
      { numRuns: 1000 },
    );
  });
  it("has a literal for each default glob, and none where a glob's syntax allows matches without one", () => {
    expect(globNeedles(DEFAULT_PROTECTED_PATHS)).toContain(".git");
    expect(globNeedles(["**/*"])).toBeUndefined();
    expect(globNeedles(["src/{a,b}.py"])).toBeUndefined();
    // A leading "./" is nothing to picomatch: "./a/b" matches "a/b", which holds no ".".
    expect(globNeedles(["./a/b"])).toEqual(["a"]);
    expect(matcherFor(["./a/b"])("a/b")).toBe(true);
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

  it("matches globs with many runs of unknown length in linear time, never more narrowly than picomatch", () => {
    // picomatch's expression for each took from seconds to minutes on the path beside it.
    const a255 = "a".repeat(255);
    const a2000 = Array.from({ length: 2000 }, () => "a").join("/");
    const slow: [string, string, string][] = [
      ["**/*a*a*a*a*b", `x/${a255}`, "x/aaaab"],
      ["**/a/**/a/**/b", a2000, `${a2000}/b`],
      ["/w/**/a/**/a/**/b", `/w/${a2000}`, `/w/${a2000}/b`],
      ["**/*a*a*b", Array.from({ length: 15 }, () => a255).join("/"), "x/AAB"],
    ];
    for (const [g, p, yes] of slow) {
      expect(globBacktracks(g), g).toBe(true);
      const m = matcherFor([g, ...DEFAULT_PROTECTED_PATHS]);
      const t = process.cpuUsage();
      expect(m(p), g).toBe(false);
      expect(m(yes), g).toBe(true);
      const { user, system } = process.cpuUsage(t);
      expect(user + system, g).toBeLessThan(cpuBound(500) * 1000);
    }
    // The same answers as picomatch on normalised paths (no "." or ".." names), with and without case.
    const heavy = fc.array(fc.constantFrom("**/", "*", "/", ".git", "a", "b?", "{a,b}", "[ab]", "*a*", "σ", "?", "\u{1F600}"), { minLength: 3, maxLength: 7 }).map((p) => p.join(""));
    const name = fc.array(fc.constantFrom("a", "A", "b", ".git", ".GIT", "x", "ς", "Σ", "\u{1F600}", "b\u{1F600}"), { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
    const normal = fc.array(name, { minLength: 1, maxLength: 5 }).map((p) => p.join("/"));
    fc.assert(
      fc.property(heavy, fc.array(normal, { maxLength: 8 }), (g, paths) => {
        const fast = matcherFor([g]);
        const reference = plain([g]);
        for (const p of paths) if (reference(p)) expect(fast(p), `${g} ${p}`).toBe(true);
        // Equal where RE2 reads the glob (one it cannot read, such as "a//b", matches everything) and the
        // glob does not end in "/" (which RE2's reading makes optional).
        if (!g.includes("σ") && !g.endsWith("/") && !("error" in pathGlobSource(g))) for (const p of paths) if (!p.includes("ς") && !p.includes("Σ")) expect(fast(p), `${g} ${p}`).toBe(reference(p));
      }),
      { numRuns: 1000 },
    );
    // Where picomatch reads more than the plain forms: a final "/**" matching the folder itself, a leading
    // "./", a "**" that starts a name and goes on, repeated and trailing slashes in the path.
    for (const [g, p] of [
      ["**/a/**/b/**", "a/b"],
      ["a/**/b/**/c/**", "A/b/c"],
      ["./**/*a*a*b", "x/aab"],
      ["**{a,b}*c*", "d/e/ac"],
      ["x/**{a,b}/**/y/**/z", "x/d/e/b/y/z"],
      ["**/*a*a*b", "x//aab"],
      ["[A-Z]*a**a*", "ca-a/"],
      ["**/*a*[^a]", "A.b/"],
    ] as const) {
      expect(globBacktracks(g), g).toBe(true);
      expect(plain([g])(p), `${g} ${p}`).toBe(true);
      expect(matcherFor([g])(p), `${g} ${p}`).toBe(true);
    }
    for (const g of DEFAULT_PROTECTED_PATHS) expect(globBacktracks(g), g).toBe(false);
    // picomatch reads a character outside the Basic Multilingual Plane as two: "??" matches one emoji.
    expect(matcherFor(["**/*a*se??et"])("x/aase\u{1F600}et")).toBe(true);
    expect(matcherFor(["**/*a*se?et"])("x/aase\u{1F600}et")).toBe(plain(["**/*a*se?et"])("x/aase\u{1F600}et"));
    expect(matcherFor(["**/*a*\u{1F600}*b"])("x/a\u{1F600}b")).toBe(true);
    // A glob RE2 cannot be given matches every path (the policy file refuses it).
    expect(matcherFor(["**/a/**/b/**/c|**/*.pem"])("x/k.pem")).toBe(true);
    expect(matcherFor(["**/+(a|b)*c*"])("src/main.ts")).toBe(true);
  });
});


describe("the default globs' expressions made at build time", () => {
  it("are picomatch's own for every default protected glob (else run: npm run build && node scripts/gen-glob-sources.mjs)", () => {
    expect([...PROTECTED_GLOB_SOURCES.keys()].sort()).toEqual([...new Set(DEFAULT_PROTECTED_PATHS)].sort());
    for (const [glob, source] of PROTECTED_GLOB_SOURCES) expect(source, glob).toBe(picomatch.makeRe(glob, GLOB_OPTIONS).source);
  });
});
