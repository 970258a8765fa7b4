import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { globMatcher } from "../core/glob.js";
import { allowed, allowedNaming, type CommandPolicy, deniedBy, withMatchMeter } from "./match.js";

/** The lists read entry by entry, in order, as the policy's words say: what looking entries up by program must keep. */
const words = (e: string) => e.trim().split(/\s+/).filter((w) => w !== "");
function referenceDenied(deny: readonly string[], invocation: readonly (string | undefined)[]): string | undefined {
  const [program, ...args] = invocation;
  if (program === undefined) return undefined;
  const name = (program.split("/").pop() ?? program).toLowerCase();
  for (const e of deny) {
    const w = words(e).map((x) => globMatcher(x.toLowerCase()));
    if (w.length === 0 || !w[0]!.test(name)) continue;
    let k = 1;
    for (const a of args) {
      if (k >= w.length) break;
      if (a === undefined || w[k]!.test(a.toLowerCase())) k++;
    }
    if (k >= w.length) return e;
  }
  return undefined;
}
function referenceAllowed(allow: readonly string[], invocation: readonly (string | undefined)[], index = 0): boolean {
  const entries = allow.map(words).filter((w) => w.length > 0);
  if (index === 0 && entries.length === 0) return true;
  const [program, ...args] = invocation;
  if (program === undefined) return false;
  const name = program.split("/").pop() ?? program;
  return entries.some((w) => w.length > index && globMatcher(w[0]!).test(name) && w.slice(1).every((x, i) => args[i] !== undefined && globMatcher(x).test(args[i]!)));
}

const policy = (allow: string[], deny: string[]): CommandPolicy => ({ allow, deny, allowCompound: false });

describe("commands.allow and commands.deny entries, looked up by program", () => {
  it("names the first deny entry of the list that matches, a glob before a name or after it", () => {
    expect(deniedBy(policy([], ["g* push", "git push"]), ["git", "push"])).toBe("g* push");
    expect(deniedBy(policy([], ["git push", "g* push"]), ["git", "push"])).toBe("git push");
    expect(deniedBy(policy([], ["GIT push", "git"]), ["/usr/bin/Git", "-C", "x", "push"])).toBe("GIT push");
    expect(deniedBy(policy([], ["git push", "*"]), ["ls"])).toBe("*");
    expect(deniedBy(policy([], ["git push"]), ["git", "status"])).toBeUndefined();
  });

  it("allows by a name or a glob, exactly and with case", () => {
    const p = policy(["git status", "np? test", "make"], []);
    expect(allowed(p, ["git", "status", "-s"])).toBe(true);
    expect(allowed(p, ["Git", "status"])).toBe(false);
    expect(allowed(p, ["npm", "test"])).toBe(true);
    expect(allowed(p, ["npx", "test"])).toBe(true);
    expect(allowed(p, ["npm", "install"])).toBe(false);
    expect(allowed(p, ["./make"])).toBe(true);
    expect(allowedNaming(p, ["npm", "test"], 1)).toBe(true);
    expect(allowedNaming(p, ["make"], 1)).toBe(false);
  });

  it("agrees with reading every entry in turn (property)", () => {
    const word = fc.constantFrom("git", "Git", "g*", "*", "push", "p?sh", "status", "-C", "x", "rm", "r?");
    const entry = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(" "));
    const arg = fc.oneof(fc.constantFrom("git", "GIT", "push", "PUSH", "status", "-C", "x", "rm", "/bin/rm", "rf"), fc.constant(undefined));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.array(entry, { maxLength: 6 }), fc.array(arg, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 2 }), (allow, deny, invocation, index) => {
        const p = policy(allow, deny);
        expect(deniedBy(p, invocation)).toBe(referenceDenied(deny, invocation));
        expect(allowed(p, invocation)).toBe(referenceAllowed(allow, invocation));
        expect(allowedNaming(p, invocation, index)).toBe(referenceAllowed(allow, invocation, index));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("comparisons with commands.allow and commands.deny are metered", () => {
  const policy: CommandPolicy = { allow: ["a b c", "a b d", "a* b e"], deny: ["a x y", "a* z"], allowCompound: false };

  it("takes one for each entry compared and each word tested, and one more for each 256 characters of a word", () => {
    const m = { left: 1000 };
    expect(withMatchMeter(m, () => allowed(policy, ["a", "b", "d"]))).toBe(true);
    const afterAllow = m.left;
    expect(afterAllow).toBeLessThan(1000);
    expect(withMatchMeter(m, () => deniedBy(policy, ["a", "q", "x", "y"]))).toBe("a x y");
    const long = "q".repeat(1024);
    const before = m.left;
    withMatchMeter(m, () => deniedBy(policy, ["a", long]));
    expect(before - m.left).toBeGreaterThanOrEqual(2 * 5);
  });

  it("past the meter allows no program and finds none denied, leaving the meter below zero for its owner to report", () => {
    const m = { left: 2 };
    expect(withMatchMeter(m, () => allowed(policy, ["a", "b", "c"]))).toBe(false);
    expect(m.left).toBeLessThan(0);
    expect(withMatchMeter(m, () => allowed(policy, ["a", "b", "d"]))).toBe(false);
    expect(withMatchMeter(m, () => allowedNaming(policy, ["a", "b", "c"], 1))).toBe(false);
    expect(withMatchMeter(m, () => deniedBy(policy, ["a", "x", "y"]))).toBeUndefined();
    // Without a meter (a policy check outside a validation) nothing is counted.
    expect(deniedBy(policy, ["a", "x", "y"])).toBe("a x y");
    expect(allowed(policy, ["a", "b", "c"])).toBe(true);
  });
});
