import { describe, expect, test } from "vitest";
import { compiledFor, compiledFrom } from "./compiled.js";

describe("compiled: what is derived from policies and registries, once", () => {
  test("compiledFrom: once per list content, whatever list object holds it", () => {
    let made = 0;
    const make = () => ({ n: ++made });
    const a = compiledFrom("test-list", ["x", "y"], make);
    expect(compiledFrom("test-list", ["x", "y"], make)).toBe(a);
    expect(compiledFrom("test-list", ["x", "z"], make)).not.toBe(a);
    expect(compiledFrom("other", ["x", "y"], make)).not.toBe(a);
    expect(made).toBe(3);
  });

  test("compiledFor: once per object and name, and per pair of objects with `within`", () => {
    let made = 0;
    const make = () => ({ n: ++made });
    const policy = {};
    const first = compiledFor("test-object", policy, make);
    expect(compiledFor("test-object", policy, make)).toBe(first);
    // An equal but different object is another policy: derived again.
    expect(compiledFor("test-object", {}, make)).not.toBe(first);
    expect(compiledFor("test-object-2", policy, make)).not.toBe(first);
    const s1 = {};
    const s2 = {};
    const x = compiledFor("test-pair", policy, make, s1);
    expect(compiledFor("test-pair", policy, make, s1)).toBe(x);
    expect(compiledFor("test-pair", policy, make, s2)).not.toBe(x);
    expect(made).toBe(5);
  });
});
