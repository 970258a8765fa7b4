import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalJson, sha256Hex } from "./jcs.js";

const fromHex = (hex: string): number => {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt("0x" + hex));
  return view.getFloat64(0);
};

describe("canonicalJson: RFC 8785 examples", () => {
  test("the sample of section 3.2.2", () => {
    const text =
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
      '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}';
    expect(canonicalJson(JSON.parse(text))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  test("property sorting by UTF-16 code units (section 3.2.3)", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
    expect(canonicalJson(input)).toMatch(/^\{"\\r":"Carriage Return","1":"One","\u0080":"Control"/);
    // Read the order off the text: JSON.parse would put the index-like key "1" first.
    const textOrder = [...canonicalJson(input).matchAll(/:"([^"]+)"/g)].map((m) => m[1]);
    expect(textOrder).toEqual([
      "Carriage Return",
      "One",
      "Control",
      "Latin Small Letter O With Diaeresis",
      "Euro Sign",
      "Emoji: Grinning Face",
      "Hebrew Letter Dalet With Dagesh",
    ]);
  });

  test("number serialization vectors of appendix B", () => {
    const vectors: Array<[string, string]> = [
      ["0000000000000000", "0"],
      ["8000000000000000", "0"],
      ["0000000000000001", "5e-324"],
      ["8000000000000001", "-5e-324"],
      ["7fefffffffffffff", "1.7976931348623157e+308"],
      ["ffefffffffffffff", "-1.7976931348623157e+308"],
      ["4340000000000000", "9007199254740992"],
      ["c340000000000000", "-9007199254740992"],
      ["4430000000000000", "295147905179352830000"],
      ["44b52d02c7e14af5", "9.999999999999997e+22"],
      ["44b52d02c7e14af6", "1e+23"],
      ["44b52d02c7e14af7", "1.0000000000000001e+23"],
      ["444b1ae4d6e2ef4e", "999999999999999700000"],
      ["444b1ae4d6e2ef4f", "999999999999999900000"],
      ["444b1ae4d6e2ef50", "1e+21"],
      ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
      ["3eb0c6f7a0b5ed8d", "0.000001"],
      ["41b3de4355555553", "333333333.3333332"],
      ["41b3de4355555554", "333333333.33333325"],
      ["41b3de4355555555", "333333333.3333333"],
      ["41b3de4355555556", "333333333.3333334"],
      ["41b3de4355555557", "333333333.33333343"],
      ["becbf647612f3696", "-0.0000033333333333333333"],
      ["43143ff3c1cb0959", "1424953923781206.2"],
    ];
    for (const [hex, expected] of vectors)
      expect([hex, canonicalJson(fromHex(hex))]).toEqual([hex, expected]);
  });
});

describe("canonicalJson: details", () => {
  test("nested sorting, empty containers, literals", () => {
    expect(canonicalJson({ z: { z: 1, a: 2 }, a: 3, e: [], o: {} })).toBe(
      '{"a":3,"e":[],"o":{},"z":{"a":2,"z":1}}',
    );
    expect(canonicalJson([null, true, false, "s", -0])).toBe('[null,true,false,"s",0]');
  });

  test("strings: minimal escaping, everything else literal", () => {
    expect(canonicalJson('\u0000\u0008\t\n\u000b\f\r\u001f\u007f"\\/é\u2028\u{1F600}')).toBe(
      '"\\u0000\\b\\t\\n\\u000b\\f\\r\\u001f\u007f\\"\\\\/é\u2028\u{1F600}"',
    );
  });

  test("never throws: non-finite numbers and lone surrogates", () => {
    expect(canonicalJson([NaN, Infinity, -Infinity])).toBe("[null,null,null]");
    expect(canonicalJson({ "\ud800": "x\udfff" })).toBe('{"\\ud800":"x\\udfff"}');
    expect(canonicalJson([undefined, () => 1])).toBe("[null,null]");
    expect(canonicalJson({ a: undefined, b: 1, c: Symbol("s") })).toBe('{"b":1}');
    expect(canonicalJson({ at: new Date(Date.UTC(2024, 0, 2)) })).toBe('{"at":"2024-01-02T00:00:00.000Z"}');
    const loop: unknown[] = [];
    loop.push(loop);
    expect(canonicalJson(loop)).toMatch(/^\[+null\]+$/);
  });

  test("deep nesting is iterative", () => {
    const depth = 20_000;
    let v: unknown = 1;
    let expected = "1";
    for (let d = 0; d < depth; d++) {
      v = d % 2 ? [v] : { k: v };
      expected = d % 2 ? "[" + expected + "]" : '{"k":' + expected + "}";
    }
    expect(canonicalJson(v)).toBe(expected);
  });

  test("agrees with JSON.stringify of a key-sorted copy", () => {
    const sortDeep = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sortDeep)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
            )
          : v;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        // Integer-like keys are where JSON.stringify's own order (indices first) departs from sorted order.
        fc.pre(!JSON.stringify(v).match(/"\d+":/));
        expect(canonicalJson(v)).toBe(JSON.stringify(sortDeep(v)));
      }),
      { numRuns: 300 },
    );
  });

  test("idempotent through a parse", () => {
    fc.assert(
      fc.property(fc.jsonValue({ depthSize: "medium" }), (v) => {
        const c = canonicalJson(v);
        expect(canonicalJson(JSON.parse(c))).toBe(c);
      }),
      { numRuns: 300 },
    );
  });
});

describe("sha256Hex", () => {
  test("known digests, string as UTF-8", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("é")).toBe(sha256Hex(new Uint8Array([0xc3, 0xa9])));
  });
});
