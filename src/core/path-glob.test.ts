import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { pathGlobMatcher } from "./path-glob.js";
import { cpuBound } from "../../test/cpu-time.js";

/** CPU time since a process.cpuUsage() reading, in ms: the clock counts whatever else the machine runs. */
const cpuMs = (t: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(t);
  return (user + system) / 1000;
};

const test = (glob: string, path: string) => {
  const m = pathGlobMatcher(glob);
  if ("error" in m) throw new Error(m.error);
  return m.test(path);
};

describe("path globs in linear time", () => {
  it("agrees with picomatch (dot files matched) on plain globs and relative paths", () => {
    const part = fc.constantFrom("a", "b", ".x", "src", "*", "?", "[ab]", "[^a]", "*.py", "a*", "{a,b}", "{src,lib}");
    const glob = fc.array(fc.oneof(part, fc.constant("**")), { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
    const path = fc.array(fc.constantFrom("a", "b", ".x", "src", "lib", "a.py", "ab", "c"), { minLength: 1, maxLength: 5 }).map((s) => s.join("/"));
    fc.assert(
      fc.property(glob, path, (g, p) => {
        expect(test(g, p), `${g} ${p}`).toBe(picomatch(g, { dot: true, strictSlashes: true })(p));
      }),
      { numRuns: 2000 },
    );
  });
  it("matches a hostile glob against a long name quickly", () => {
    const t = process.cpuUsage();
    expect(test("*a*a*a*a*a*a*b", "a".repeat(4000))).toBe(false);
    expect(test("**/*a*a*a*a*b", ("a".repeat(255) + "/").repeat(16) + "c")).toBe(false);
    expect(cpuMs(t)).toBeLessThan(cpuBound(2000));
  });
  it.each(["[!a]", "@(a|b)", "!(x)/*", "+(a)", "*(a)b", "?(a)", "{1..3}", "[[:alpha:]]", "a[", "a\\", "//x", "/x", "{a}", "{a,b}".repeat(7)])("refuses %s", (g) => {
    expect("error" in pathGlobMatcher(g)).toBe(true);
  });
  it("says a class cannot hold a slash, rather than calling [^/] unclosed", () => {
    for (const g of ["a/[^/]", "[/]x", "src/[a/b]/c"]) expect(pathGlobMatcher(g)).toEqual({ error: 'a class [...] cannot hold "/" (one character of a name: write ?)' });
    expect("error" in pathGlobMatcher("[ab]/c")).toBe(false);
  });
});
