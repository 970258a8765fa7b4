import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_YAML_REFERENCES, parseYaml } from "../src/syntax/yaml.js";
import { canonicalJson } from "../src/core/canonical/jcs.js";
import { cpuBound, cpuTimed } from "./cpu-time.js";
import { run } from "./helpers.js";
import { readFactText } from "./read-text.js";

const rules = (text: string) => parseYaml(text).issues.map((i) => i.rule);

describe("YAML reader", () => {
  it("gives every value a span, keys included", () => {
    const doc = parseYaml("steps:\n  - tool: read_file\n    arguments:\n      path: a.txt\n");
    expect(doc.issues).toEqual([]);
    const loc = doc.locate("/steps/0/arguments/path")!;
    expect(doc.text.slice(loc.start, loc.end)).toBe("a.txt");
    expect(doc.text.slice(loc.keyStart, loc.keyEnd)).toBe("path");
    expect(doc.lines.position(loc.start)).toMatchObject({ line: 4, column: 13 });
  });
  it("reports a duplicate key at the second occurrence", () => {
    const doc = parseYaml("tool: a\ntool: b\n");
    expect(doc.issues).toHaveLength(1);
    expect(doc.issues[0]).toMatchObject({ rule: "duplicate-key", at: "/tool" });
    expect(doc.lines.position(doc.issues[0]!.start).line).toBe(2);
  });
  it("reports a syntax error at the fault", () => {
    const doc = parseYaml("steps:\n  - tool: a\n   bad: [1, 2\n");
    expect(doc.issues[0]!.rule).toBe("parse-error");
    expect(doc.lines.position(doc.issues[0]!.start).line).toBeGreaterThanOrEqual(2);
    expect(doc.value).toBeUndefined();
  });
  it("refuses custom and language tags instead of running anything", () => {
    for (const text of ["a: !!python/object/apply:os.system ['echo hi']\n", "a: !!js/function 'function(){}'\n", "a: !custom x\n"]) {
      expect(rules(text), text).toContain("unsafe-value");
    }
    expect(rules("a: !!str 1\nb: !!int '2'\n")).toEqual([]);
  });
  it("expands aliases within a bound: a billion-laughs file is limit-exceeded, not out of memory", () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    const doc = parseYaml(lines.join("\n") + "\n");
    // Every node built is counted, aliases' copies included, and the count stops the build at its bound.
    expect(doc.issues.map((i) => [i.rule, i.messageId])).toContainEqual(["limit-exceeded", "yamlExpansion"]);
    expect(doc.value).toBeUndefined();
  });
  it("resolves aliases in linear time: 40,000 aliases in 120 KB, and a 1 MiB file of aliases, get a verdict fast", () => {
    // Resolving each alias by searching the document took ~240 s for the first file.
    const small = "a: &a x\nl: [" + Array(40_000).fill("*a").join(",") + "]\n";
    const first = cpuTimed(() => parseYaml(small));
    expect(first.ms).toBeLessThan(cpuBound(3_000));
    expect(first.value.issues).toEqual([]);
    expect((first.value.value as { l: string[] }).l).toHaveLength(40_000);
    let big = "a: &a {tool: read_file}\nl:\n";
    while (big.length < 1024 * 1024 - 10) big += "- *a\n";
    // 200,000 aliases: refused before the yaml package parses them (which took seconds and hundreds of MB).
    const { value: doc, ms } = cpuTimed(() => parseYaml(big));
    expect(ms).toBeLessThan(cpuBound(5_000));
    expect(doc.issues.map((i) => [i.rule, i.messageId])).toEqual([["limit-exceeded", "yamlTooManyReferences"]]);
    expect(big.slice(0, doc.issues[0]!.start).split("*a").length - 1).toBe(MAX_YAML_REFERENCES - 1);
    expect(big.slice(doc.issues[0]!.start, doc.issues[0]!.start + 2)).toBe("*a");
  });
  it("counts aliases, anchors and tags as the yaml package tokenizes them, not every * & ! character", () => {
    const marks = "x: " + JSON.stringify("*&!".repeat(40_000)) + "\ny: a*b&c!d\n";
    expect(parseYaml(marks).issues).toEqual([]);
    const tags = "l:\n" + "- !!str a\n".repeat(MAX_YAML_REFERENCES + 1);
    expect(parseYaml(tags).issues.map((i) => i.messageId)).toEqual(["yamlTooManyReferences"]);
    expect(parseYaml("l:\n" + "- !!str a\n".repeat(MAX_YAML_REFERENCES)).issues.map((i) => i.messageId)).not.toContain("yamlTooManyReferences");
  });
  it("keeps the alias budget: aliases of a wide anchor stop at the node limit, reported at the alias", () => {
    const text = "a: &a [" + Array(2000).fill("x").join(",") + "]\nb: [" + Array(600).fill("*a").join(",") + "]\n";
    const doc = parseYaml(text);
    expect(doc.issues.map((i) => i.rule)).toEqual(["limit-exceeded"]);
    expect(text.slice(doc.issues[0]!.start, doc.issues[0]!.end)).toBe("*a");
    expect(doc.value).toBeUndefined();
  });
  it("keeps the text aliases expand to within a bound: a long string aliased many times is limit-exceeded", () => {
    // 1,500 aliases of a 400 KB string in a 500 KB file: 600 MB of text to hash and report (17 s, 2.4 GB,
    // then an internal error), though the node count stayed small.
    const long = "x".repeat(400_000);
    const text = `big: &x "${long}"\nsteps:\n${"  - {path: *x}\n".repeat(1500)}`;
    const { value: doc, ms } = cpuTimed(() => parseYaml(text));
    expect(doc.issues.map((i) => [i.rule, i.messageId])).toEqual([["limit-exceeded", "yamlExpansionText"]]);
    expect(text.slice(doc.issues[0]!.start, doc.issues[0]!.end)).toBe("*x");
    expect(doc.value).toBeUndefined();
    expect(ms).toBeLessThan(cpuBound(3000));
    // A few aliases of a long text, and many of short ones, stay within it.
    expect(parseYaml(`a: &x "${"y".repeat(100_000)}"\nb: [*x, *x, *x]\n`).issues).toEqual([]);
  });
  it("resolves each alias to the anchor defined before it, and refuses an alias inside its own anchor", () => {
    expect(parseYaml("a: &x 1\nb: &y [*x]\nc: &x 2\nd: *y\ne: *x\n", { executor: "yaml-1.2" }).value).toEqual({ a: 1, b: [1], c: 2, d: [1], e: 2 });
    expect(parseYaml("a: &x [1, *x]\n").issues.map((i) => i.rule)).toEqual(["unsafe-value"]);
    expect(parseYaml("a: *x\nb: &x 1\n").issues.map((i) => i.rule)).toEqual(["unsafe-value"]);
  });
  it("expands a few aliases to plain values", () => {
    const doc = parseYaml("base: &b {x: 1}\ncopy: *b\n");
    expect(doc.value).toEqual({ base: { x: 1 }, copy: { x: 1 } });
  });
  it("does not merge `<<` keys (YAML 1.2 core): the key stays a plain key", () => {
    const doc = parseYaml("base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n");
    expect(doc.value).toEqual({ base: { x: 1 }, derived: { "<<": { x: 1 }, y: 2 } });
  });
  it("reports 100,000-deep nesting as a limit, without throwing", () => {
    const deepFlow = "a: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n";
    expect(() => parseYaml(deepFlow)).not.toThrow();
    expect(rules(deepFlow)).toEqual(["limit-exceeded"]);
    let block = "";
    for (let i = 0; i < 2000; i++) block += " ".repeat(i) + "k:\n";
    expect(rules(block)).toEqual(["limit-exceeded"]);
  });
  it("reads 200 levels, refuses 300, and does not count brackets inside quotes", () => {
    const nest = (n: number) => "a: " + "[".repeat(n) + "]".repeat(n) + "\n";
    expect(rules(nest(200))).toEqual([]);
    expect(rules(nest(300))).toEqual(["limit-exceeded"]);
    expect(parseYaml(`a: "${"[".repeat(400)}"\nb: don't [x]\n`).value).toEqual({ a: "[".repeat(400), b: "don't [x]" });
  });
  it("refuses an explicit key after a byte order mark as anywhere else (PyYAML and the yaml package disagree on it)", () => {
    for (const text of ['\ufeff?   "a"?', '?   "a"?', "\ufeff? a\n"]) expect(parseYaml(text).issues.map((i) => i.messageId), JSON.stringify(text)).toContain("yamlExplicitKey");
  });
  it("rejects a file of several documents", () => {
    const doc = parseYaml("steps: []\n---\nsteps: [x]\n");
    expect(doc.issues[0]!.rule).toBe("parse-error");
    expect(readFactText(doc.issues[0]!).hint).toContain("one YAML document");
  });
  it("rejects tab indentation", () => {
    expect(rules("steps:\n\t- tool: a\n")).toContain("parse-error");
  });
  it("reads CRLF line endings and a BOM like LF", async () => {
    const lf = "steps:\n  - tool: a\n    arguments: {}\n    intent: x\n";
    const crlf = lf.replace(/\n/g, "\r\n");
    expect(parseYaml(crlf).value).toEqual(parseYaml(lf).value);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(crlf)]);
    const a = await run(withBom, { file: "p.yaml" });
    const b = await run(lf, { file: "p.yaml" });
    expect(a.planHash).toBe(b.planHash);
    const d = parseYaml(crlf);
    expect(d.lines.position(d.locate("/steps/0/intent")!.start).line).toBe(4);
  });
  it("treats non-string keys and huge numbers as unsafe", () => {
    expect(rules("1: a\n")).toContain("unsafe-value");
    expect(rules("n: 123456789012345678901234567890\n")).toContain("unsafe-value");
    expect(rules("n: .inf\n")).toContain("unsafe-value");
    expect(rules("__proto__: {}\n")).toContain("unsafe-value");
  });
  it("keeps YAML 1.2 core scalars: yes/no/on are strings, not booleans", () => {
    const text = "a: yes\nb: on\nc: true\nd: 0o17\n";
    expect(parseYaml(text).value).toEqual({ a: "yes", b: "on", c: true, d: 15 });
    expect(parseYaml(text, { executor: "yaml-1.2" }).issues).toEqual([]);
  });
  it("with Go's yaml.v2 as the executor, also refuses y, Y, n and N (booleans there), and keeps PyYAML's refusals", () => {
    const go = (text: string) => {
      const doc = parseYaml(text, { executor: "go-yaml-v2" });
      return doc.issues.map((i) => ({ rule: i.rule, messageId: i.messageId, pointer: i.at, ...doc.lines.position(i.start), text: text.slice(i.start, i.end), message: readFactText(i).message, hint: readFactText(i).hint }));
    };
    expect(go("point:\n  x: 1\n  y: 2\n")).toMatchObject([{ rule: "unsafe-value", messageId: "yamlGoReadsBoolean", pointer: "/point/y", line: 3, column: 3, text: "y", hint: 'quote it: "y"' }]);
    expect(go("confirm: n\n")[0]!.message).toBe("The value n is the text \"n\" to plangate (YAML 1.2) but the boolean false to Go's yaml.v2 (yaml.executor: go-yaml-v2): a Go executor would run a different plan.");
    expect(go("a: [Y, N]\n").map((i) => i.pointer)).toEqual(["/a/0", "/a/1"]);
    expect(go("k: v\non: push\n").map((i) => i.messageId)).toEqual(["yamlPyyamlReads"]);
    // Quoted, tagged as text, or longer: text to every reader.
    expect(go('a: "y"\nb: !!str n\nc: yy\nd: yes_no\n')).toEqual([]);
    // PyYAML and YAML 1.2 both read them as text: refused only for a Go executor.
    expect(parseYaml("y: 1\nn: Y\n").issues).toEqual([]);
    expect(parseYaml("y: 1\n", { executor: "yaml-1.2" }).issues).toEqual([]);
  });
  it("with Go's yaml.v2 as the executor, refuses the numbers Go's strconv reads in text both other readers keep as text", () => {
    // yaml.v2 removes every `_` and hands the rest to strconv.ParseInt(s, 0, 64), which takes prefixes in
    // either case; then to ParseFloat; then reads `0b` before a signed binary number (resolve.go).
    const go = (s: string) => {
      const doc = parseYaml(`k: ${s}\n`, { executor: "go-yaml-v2" });
      return { value: (doc.value as { k: unknown }).k, ids: doc.issues.map((i) => i.messageId), message: doc.issues[0] && readFactText(doc.issues[0]).message };
    };
    const table: [string, string][] = [
      ["0O17", "the integer 15"], ["0X1F", "the integer 31"], ["0B101", "the integer 5"], ["+0O17", "the integer 15"], ["-0B1", "the integer -1"],
      ["+_1", "the integer 1"], ["-_1", "the integer -1"], ["0_x1F", "the integer 31"], ["1_e3", "the float 1000"], ["1.5_e3", "the float 1500"],
      ["0b-1", "the integer -1"], ["0b+1", "the integer 1"],
    ];
    for (const [s, reading] of table) {
      expect(go(s), s).toMatchObject({ value: s, ids: ["yamlGoReads"] });
      expect(go(s).message).toBe(`The value ${s} is the string "${s}" to plangate (YAML 1.2) but ${reading} to Go's yaml.v2 (yaml.executor: go-yaml-v2): a Go executor would run a different plan.`);
      // PyYAML and YAML 1.2 read them as text: refused only for a Go executor.
      expect(parseYaml(`k: ${s}\n`).issues, s).toEqual([]);
    }
    expect(parseYaml("0X1F: v\n", { executor: "go-yaml-v2" }).issues.map((i) => [i.messageId, i.at])).toEqual([["yamlGoReads", "/0X1F"]]);
    // What Go reads as plangate does passes: numbers, text (timestamps stay text in an interface{}), and
    // numbers past Go's range, which it keeps as text.
    for (const s of ["42", "-7", "0", "1.5", ".5", "1.0e+3", "0x1F", "20011214", "2001-1-1", "v1.2", "a.txt", "_1", "1e999x", '"0O17"', "'0X1F'", "!!str 0B1"]) expect(go(s).ids, s).toEqual([]);
  });
  it("reads a long number-like plain scalar in bounded time: base 60 text of 1 MiB is refused at once", () => {
    // PyYAML's base 60 integer of 500,000 digits took minutes of BigInt arithmetic to compute.
    const text = "k: 1" + ":1".repeat(500_000) + "\n";
    for (const executor of ["pyyaml", "go-yaml-v2"] as const) {
      const { value: doc, ms } = cpuTimed(() => parseYaml(text, { executor }));
      expect(ms).toBeLessThan(cpuBound(1_500));
      expect(doc.issues.map((i) => i.messageId)).toEqual(["yamlPyyamlReads"]);
      expect(readFactText(doc.issues[0]!).message).toContain("an integer written in more than 1000 characters to PyYAML");
    }
    expect(parseYaml("k: " + "9".repeat(2000) + "\n").issues.map((i) => i.messageId)).toEqual(["yamlPyyamlReadsNumber", "yamlNonFinite"]);
  });
  it("refuses, at the scalar, every value PyYAML (YAML 1.1) reads differently, and says how to fix it", () => {
    const at = (text: string) => {
      const doc = parseYaml(text);
      return doc.issues.map((i) => ({ rule: i.rule, pointer: i.at, ...doc.lines.position(i.start), text: text.slice(i.start, i.end), hint: readFactText(i).hint }));
    };
    expect(at("k: v\non: push\n")).toMatchObject([{ rule: "unsafe-value", pointer: "/on", line: 2, column: 1, text: "on", hint: 'quote it: "on"' }]);
    expect(at("steps:\n  - mode: 0755\n")).toMatchObject([{ pointer: "/steps/0/mode", line: 2, column: 11, text: "0755" }]);
    expect(at("a: [x, 1e3]\n")[0]).toMatchObject({ pointer: "/a/1", line: 1, column: 8, text: "1e3" });
    expect(at("a: [x, 1e3]\n")[0]!.hint).toContain('quote it: "1e3"');
    expect(at("a: 2001-12-14\n")[0]).toMatchObject({ pointer: "/a", text: "2001-12-14" });
    expect(at("a: !!bool no\n").map((i) => i.text)).toContain("no");
    expect(at('a: "x\\uD83D\\uDE00"\n')[0]).toMatchObject({ pointer: "/a", column: 4 });
    expect(at("a: b\u2028\n")[0]).toMatchObject({ line: 1, column: 5, text: "\u2028" });
    expect(at("a: |\n  text")[0]).toMatchObject({ pointer: "/a", hint: "end the file with a line break" });
    expect(at("%YAML 1.1\n---\na: b\n")[0]).toMatchObject({ line: 1, column: 1, text: "%YAML" });
    expect(at("x: 1\na: |2\n   \n")[0]).toMatchObject({ rule: "unsafe-value", pointer: "/a", line: 2, column: 4, hint: expect.stringContaining("blank lines at the end") });
    expect(at("a: >-3\n    ")[0]).toMatchObject({ pointer: "/a", line: 1, column: 4 });
    expect(at("a: |\n  text\n   \nb: 1\n")[0]).toMatchObject({ pointer: "/a", line: 1 });
    // Where the readings agree nothing is reported: quoted text, ordinary numbers, CRLF line ends.
    for (const ok of ['a: "yes"\n', "a: 'on'\n", "a: 1.5\n", "a: 0x1F\n", "a: 1.0e+3\n", "a: 12\r\nb: x\r\n", "a: |-\n  x", "y: n\n", "a: |\n  x\n\n  y\n\nb: 1\n", "a: |2\n   x\n  \t y\n"])
      expect(at(ok), ok).toEqual([]);
  });
  it("refuses what the yaml package reads and PyYAML reads otherwise or refuses, at the fault", () => {
    const x = (n: number) => "x".repeat(n);
    // [text, messageId, text at the reported span (its start), PyYAML's reading]
    const rows: [string, string, string, string][] = [
      // An escaped line break before a blank line: "a\nb" to PyYAML and YAML 1.2, "a b" to the yaml package.
      ['k: "a\\\n\n  b"\n', "yamlEscapedBreakBlankLine", '"a', "a\nb"],
      ['k: "echo hi\\\n  \t\n  rm -rf ~"\n', "yamlEscapedBreakBlankLine", '"echo', "echo hi\nrm -rf ~"],
      ['k: "a \\\r\n\r\n\r\n b"\r\n', "yamlEscapedBreakBlankLine", '"a', "a \n\nb"],
      // Flow keys: on another line than their ':', or more than 1024 characters before it.
      ["{&x\n a: v}\n", "yamlFlowKeyLines", "&x", "error"],
      ["k: {a: b,\n  c\n  : d}\n", "yamlFlowKeyLines", "c", "error"],
      ['{"a\n b": v}\n', "yamlFlowKeyLines", '"a', "error"],
      ["[!!str\n a: v]\n", "yamlFlowKeyLines", "!!str", "error"],
      [`{${x(1025)}: v}\n`, "yamlFlowKeyLong", "xxx", "error"],
      [`{"a": 1, "${x(1023)}": 2}\n`, "yamlFlowKeyLong", '"xx', "error"],
      [`k: {${x(1022)}   : v}\n`, "yamlFlowKeyLong", "xxx", "error"],
      // An anchor or tag after a value in a flow collection: the yaml package drops it.
      ['{"x" &a}\n', "yamlFlowDanglingProperty", "&a", "error"],
      ["k: {'x' !!str }\n", "yamlFlowDanglingProperty", "!!str", "error"],
      // A block scalar led by a tab: the yaml package moved `j` to the root mapping.
      ["a:\n  k: |\n  \t\n  j: w\n", "yamlBlockTabLed", "|", "error"],
      ["k:\n  - >-\n  \t\n  j: w\n", "yamlBlockTabLed", ">-", "error"],
      // Directives PyYAML refuses.
      ["%YAML 1.2\n%YAML 1.2\n---\nk: v\n", "yamlDirectiveTwice", "%YAML 1.2", "error"],
      ["%TAG !e! tag:a.com,2000:\n%TAG !e! tag:yaml.org,2002:\n---\nk: !e!str v\n", "yamlDirectiveTwice", "%TAG !e! tag:yaml", "error"],
      ["k: v\n...\n%YAML 1.2\n", "yamlDirectiveAfterEnd", "%YAML 1.2", "error"],
      // A plain value going on at its mapping's indentation, after a comment line: {"k": "text foo"} to the yaml package.
      ["k:\n#c\n  text\nfoo\n", "yamlPlainUnderIndented", "foo", "error"],
      ["a:\n  k:\n  #c\n    text\n  - x\n", "yamlPlainUnderIndented", "- x", "error"],
      // A key and its ':' on different lines: {"k": "v", "x": "y"} to the yaml package.
      ["k: v\nx\n : y\n", "yamlValueLineStart", ":", "error"],
      [" - k: |\n   x\n    : c\n", "yamlValueLineStart", ":", "error"],
    ];
    for (const [text, messageId, at] of rows) {
      const doc = parseYaml(text);
      const issue = doc.issues.find((i) => i.messageId === messageId);
      expect(issue, `${JSON.stringify(text)}: ${JSON.stringify(doc.issues)}`).toMatchObject({ rule: "unsafe-value" });
      expect(text.slice(issue!.start, issue!.end).startsWith(at), JSON.stringify(text)).toBe(true);
      expect(readFactText(issue!).hint).not.toBe("");
    }
    // Nearby texts both read the same still pass.
    for (const ok of [
      'k: "a\\\n  b"\n', 'k: "a\n\n  b"\n', "k: {a: b,\n  c: d}\n", "k: [a,\n  b]\n", `{${x(1024)}: v}\n`, `{"${x(1022)}": v}\n`, "k: {a: &b c, &d e: f}\n",
      "k: |\n  a\n  \tb\n", "k: |\n  : a\n", 'k: "a\n  : b"\n', "k: a\n  b\n", "- a\n  b\n", "k:\n- a\n  b\n", "k:\n#c\n  text\n\n  foo\n",
      "%TAG !e! tag:yaml.org,2002:\n%TAG !f! tag:yaml.org,2002:\n---\nk: !e!str v\n", "k: v\n...\n# c\n", 'k: "50%"\n',
    ])
      expect(parseYaml(ok).issues, JSON.stringify(ok)).toEqual([]);
  });
  it("with a YAML 1.2 executor only the refusals that are not about YAML 1.1 remain", () => {
    const rules12 = (text: string) => parseYaml(text, { executor: "yaml-1.2" }).issues.map((i) => i.rule);
    for (const text of ["on: push\n", "a: 0755\n", "a: 1e3\n", "a: b\u0085\n", "a:\tb\n", "a: [x?y]\n", "a: &x 1\nb: &x 2\n"]) expect(rules12(text), text).toEqual([]);
    for (const text of ["%YAML 1.1\n---\na: b\n", "a: \"p\rq\"\n", 'a: "\\uD83D\\uDE00"\n', "a: |\n  text", "a: !!bool no\n", "a: &x [*x]\n"])
      expect(rules12(text), text).toContain("unsafe-value");
  });
  it("never throws, and any value it returns is plain JSON data", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const doc = parseYaml(text);
        if (doc.value !== undefined) expect(() => canonicalJson(doc.value)).not.toThrow();
      }),
      { numRuns: 300 },
    );
    const yamlish = fc.array(fc.constantFrom("a", ":", " ", "\n", "-", "[", "]", "{", "}", "&x", "*x", "!!", "<<", "'", '"', "#", "\t", "|", ">", "?", ","), { maxLength: 60 });
    fc.assert(
      fc.property(yamlish, (parts) => {
        expect(() => parseYaml(parts.join(""))).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });
  it("round-trips any JSON value through YAML with the same canonical form", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        const doc = parseYaml(text);
        if (doc.issues.length > 0) return; // e.g. -0 or a huge integer: reported, not silently changed
        expect(canonicalJson(doc.value)).toBe(canonicalJson(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });
});
