/**
 * YAML plan variants along every axis where a YAML 1.2 reader (plangate, the `yaml` package) and PyYAML's
 * safe loader (YAML 1.1) can disagree: plain scalars that 1.1 resolves to booleans, integers, floats,
 * nulls, timestamps or errors, in keys and values, block and flow, JSON-style flow text; explicit core
 * tags (also through %TAG and verbatim); %YAML directives; line breaks (CR, NEL, LS, PS) and tabs;
 * escapes; block scalars and their chomping at the end of the file; anchors and aliases; flow-context
 * punctuation; long keys. Deterministic: the same list on every run, so PyYAML's readings can be recorded.
 */

export const SCALARS: readonly string[] = [
  // booleans: YAML 1.1 only, YAML 1.2 and both
  "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N",
  "true", "True", "TRUE", "false", "False", "FALSE", "tRue", "yEs", "oN", "nO",
  // nulls
  "~", "null", "Null", "NULL", "nULL", "none", "None",
  // integers
  "0", "-0", "+0", "7", "+7", "-7", "42", "0755", "-0755", "+0755", "0o755", "0O755", "08", "09", "010", "00",
  "0_7", "1_000", "-1_000", "1__0", "_1", "1_", "0_", "0b101", "-0b101", "+0b1", "0b", "0b_", "0b2", "0B101",
  "0x1F", "-0x1F", "+0x1F", "0X1F", "0x1f", "0x_1F", "0xg", "0x", "1:30", "22:22", "-1:30", "+1:30", "190:20:30",
  "1:60", "1:5", "01:30", "9007199254740991", "9007199254740993", "12345678901234567890", "-9007199254740991",
  // floats
  "1.0", "1.", "-1.", ".5", "-.5", "+.5", "0.1", "-0.0", "+1.5", "1.5", "3.14159", "1e3", "1E3", "1e+3", "1e-3",
  "1.0e+3", "1.0e3", "1.5E-3", "1.5e-03", "1.0E-05", "1e-05", "-1e-05", "6.02e+23", "6.02e23", "1_000.5",
  "1.5_0", "1__.__", ".inf", "-.inf", "+.inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN", "1:30.5", "190:20:30.15",
  "0.", "00.5", "1e400", "1.0e+400", "5e-324", "2.5e+0",
  // numbers to Go's yaml.v2 only (strconv's prefixes in either case, underscores anywhere), and long ones
  "0O17", "0X1F", "0B101", "+0O17", "+_1", "-_1", "0_x1F", "1_e3", "1.5_e3", "0b-1", "1" + ":1".repeat(600), "0".repeat(1001) + "7",
  // timestamps and look-alikes
  "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-1-1 1:00:00", "2001-13-45",
  "2001-12-14T21:59:43Z", "20011214", "2001-12", "12-14",
  // value, merge and other punctuation
  "=", "<<", "==", "<", "<=", "~~", ".", "..", "a=b", "+", "-a", "0x", "e3", "E", "12e", "1e", "nan", "inf",
  "NaN", "Infinity", "-inf",
  // ordinary text both read the same
  "read_file", "a.txt", "src/main.py", "hello world", "x#y", "1.2.3", "1,000", "v1.0", "yes please", "Yes!",
  "ok", "é", "😀", "data/2001-12-14.csv",
];

/** Contexts a plain scalar can stand in. */
const CONTEXTS: readonly ((s: string) => string)[] = [
  (s) => `k: ${s}\n`,
  (s) => `${s}: v\n`,
  (s) => `- ${s}\n`,
  (s) => `k: [${s}, x]\n`,
  (s) => `k: {a: ${s}}\n`,
  (s) => `{"k": ${s}}`,
  (s) => `steps:\n  - tool: read_file\n    arguments:\n      path: a.txt\n      n: ${s}\n    intent: read\n`,
];

/** Texts that both readers must read as strings: they must still pass. */
export const QUOTED_CONTEXTS: readonly ((s: string) => string)[] = [(s) => `k: "${s}"\n`, (s) => `k: '${s}'\n`, (s) => `"${s}": v\n`];

const TAGS = ["str", "int", "float", "bool", "null"];
const TAG_TEXTS = ["0755", "-0o17", "+1e3", ".5e3", "1.e3", "1E-5", " 12", "0o755", "0x1F", "12", "1e3", "1.5", "1_000", "22:22", "no", "yes", "true", "off", "foo", "", "~", "null", "-0x1F", "1.0e+3", "2001-12-14"];

const LINE_BREAK_PIECES = ["\r", "\r\n", "\u0085", "\u2028", "\u2029", "\t", "  \n  ", "\n\n", " \\\n "];
const ESCAPES = ["\\uD83D\\uDE00", "\\ud83d\\ude00", "\\U0001F600", "\\u00e9", "\\x41", "\\N", "\\L", "\\P", "\\_", "\\/", "\\e", "\\0", "\\t", "\\\t", "\\a", "\\v", "\\\\u0041", "\\\"", "\\uDBFF\\uDFFF"];

const BLOCKS = ["|", "|-", "|+", ">", ">-", ">+", "|2", ">2", "|-2"];
const BLOCK_BODIES = ["  text", "  text\n", "  text\n\n", "  line one\n  line two", "  line one\n\n  line two\n", "  a\tb\n", "   indented\n  text\n", "  text\n  ", "  x\n\n\n", "   \n", "    \n", "  text\n   \n", "  text\n \n", "  text\n   ", "    ", "    \n\n", "  text\n  \t\n", "  text\n   \n   \n \n", "  text\n   \r\nj: 1\n", "  text\n\n   \nj: 1\n"];

const STRUCTURES: readonly string[] = [
  // directives and document markers
  "%YAML 1.1\n---\nk: v\n", "%YAML 1.2\n---\nk: v\n", "%YAML 1.3\n---\nk: v\n", "%YAML 1.1\n---\nk: yes\n",
  "--- \nk: v\n", "---\nk: v\n...\n", "--- k\n", "k: v\n---\n", "%TAG !e! tag:yaml.org,2002:\n---\nk: !e!str v\n",
  "%TAG ! tag:yaml.org,2002:\n---\nk: !int 0755\n", "%TAG ! tag:yaml.org,2002:\n---\nk: !str 0755\n",
  "k: !<tag:yaml.org,2002:bool> no\n", "k: !<tag:yaml.org,2002:str> no\n", "k: !<tag:yaml.org,2002:int> 0755\n",
  "k: ! 12\n", "k: !!str [1]\n", "k: !!map [1]\n", "k: !!seq {a: 1}\n", "k: !!map {a: 1}\n", "k: !!seq [1]\n",
  "k: !!binary aGVsbG8=\n", "k: !!timestamp 2001-12-14\n", "k: !!set {a, b}\n", "k: !!omap [a: 1]\n",
  // tabs
  "k:\tv\n", "k: v\t\n", "k: v\t# c\n", "k: v # c\td\n", "k: [1,\t2]\n", "k: {a:\t1}\n", "k: a\tb\n", "k:\n\t- a\n",
  "k: 'a\tb'\n", 'k: "a\tb"\n', "k: |\n  a\tb\n", "k: |\n\ta\n", "\tk: v\n", "k: v\n\t\n", "# \tc\nk: v\n", "k:  \t v\n",
  // line breaks in comments, plain scalars and keys
  "k: v # c\u2028d: e\n", "k: v # c\u0085d: e\n", "k: v # c\rd: e\n", "k: a\u2028b\n", "k: a\u0085b\n",
  "k\u2028: v\n", "k: v\r", "k: v\r\nj: w\r\n", "k: v\rj: w\r", "k: a\n  b\n", "k: a\n\n  b\n", "k: a\n  \n  b\n",
  // flow-context punctuation
  "k: {a:1}\n", "k: [a:1]\n", "k: [a?b]\n", "k: {a?b: 1}\n", "k: {a: b:c}\n", "k: [a:b, c]\n", "k: {? a}\n",
  "k: [? a : b]\n", '{"a":1}', "{'a':1}", "k: [a, b,]\n", "k: {a, b}\n", "k: {a: 1,}\n", "k: [a , b]\n",
  "k: [a:]\n", "k: {a:}\n", "k: [a:,b]\n", "k: [?a]\n", "k: [a, ?b]\n", "k: {a: ?b}\n", "k: {a: b?}\n", "k: [a?]\n", "k: a?b\n",
  "k: [a: b]\n", "k: {a: :b}\n", "k: [a, :b]\n", "k: [a\n  ?b]\n", "k: [a?\n  b]\n", "k: {a: b,\n  c: d?}\n", "k: [a#b]\n", "k: [a #b\n  ]\n", "k: {a: [b]}\n", "k: [[1], {a: 2}]\n", "k: [-a]\n", "k: [- a]\n", "k: [:a]\n",
  '{"a": [1, 2.5, true, null, "x"]}', '{"a": 1e3}', '{"a": 1E-5}', '{"a": -0.0}', '{"a": 0}', '{"a": "yes"}',
  // keys
  "? a\n: b\n", "? [a]\n: b\n", "'k': v\n\"j\": w\n", "k : v\n", "k:v\n", `${"x".repeat(1023)}: v\n`,
  `${"x".repeat(1025)}: v\n`, `k: ${"y".repeat(2000)}\n`, "yes: 1\ntrue: 2\n", "on: 1\n'on': 2\n", "1: a\n'1': b\n",
  "null: a\n", "~: a\n", ": a\n", "k:\n", "k: \n", "k: ''\n", "k: \"\"\n", "k: -\n", "- \n- a\n",
  // anchors and aliases
  "a: &x 1\nb: *x\n", "a: &x yes\nb: *x\n", "a: &x 'yes'\nb: *x\n", "a: &x [1, 2]\nb: *x\n", "a: &x 1\nb: &y [*x]\nc: &x 2\nd: *y\n",
  "a: &x {p: 1}\nb: *x\n", "&k a: 1\nb: *k\n", "a: &x\n  - 1\nb: *x\n", "a: *x\n", "a: &x [*x]\n", "base: &b {x: 1}\nd:\n  <<: *b\n",
  "a: &x\"y 1\nb: 2\n", "a: &x#y 1\n", "a: &é 1\nb: *é\n", "a: &x.y 1\nb: *x.y\n", "a: &x\u00a0y\n", "a: &a-b_1 1\nb: *a-b_1\n", "a: &x",
  "a: &x 0755\nb: *x\n", "a: &x 1\nb: &x 1\n", "a: &x 1\nb: &y 2\nc: *y\n", "a: &x [&x 1]\n", "a: &anchor_ 1\nb: *anchor_\n",
  // indentation and layout
  "k:\n- a\n- b\n", "k:\n  - a\n  - b\n", "- - a\n  - b\n", "- k: v\n  j: w\n", "k: >\n  folded\n  text\n", "k: 'a\n\n  b'\n",
  'k: "a\n  b"\n', 'k: "a\\\n  b"\n', 'k: "  a  "\n', "k: ' a '\n", "k: 'it''s'\n", "k: \"\\x85\"\n", "k: \"\\u2028\"\n",
  "|-\ncontent\n", "|\n  content\n", ">\n  folded\n", "...\n", "# c\n...\nk: v\n", "k: v\n...\n", "\n\ufeff\n- a\n", "k: \ufeffv\n",
  "k: '\ufeff'\n", "\r\n\ufeff1\n", "? a\n- b\n", "? a\n: b\n", "? &x a\n: b\n", "{? a : b}\n", "k: [? a : b]\n", "? !\n", "! : 0\n",
  "!!str k: v\n", "!foo k: v\n", "&a k: *a\n", "k: is it ? yes\n", "k: a ? b\n", "k: ? a\n",
  "k: 'a''", "'a''", "k: \"a\\\"", "k: \"a\\\\\"\n", "k: |-\t# c\n  x\n", "k: |\t\n  x\n", "\ufeff  - a\n- b\n", "? # c\n  a\n- b\n",
  "# only a comment\nk: v\n", "k: v # comment\n", "k: v#not comment\n", "k: 'v'#c\n",
  // escaped line breaks before blank lines, flow keys across lines or past 1024 characters, dangling properties
  'k: "a\\\n\n  b"\n', 'k: "a\\\n  \t\n  b"\n', 'k: "a \\\n\n\n b"\n', 'k: "a\\\n  \n  "\n', 'k: "a\\\n  b"\n',
  "{&x\n a: v}\n", "{a: b,\n c\n : d}\n", '{"a\n b": v}\n', "[&x\n a: v]\n", "{a #c\n : v}\n", "k: {a: b,\n  c: d}\n",
  `{${"x".repeat(1024)}: v}\n`, `{${"x".repeat(1025)}: v}\n`, `{"${"x".repeat(1022)}": v}\n`, `{"${"x".repeat(1023)}": v}\n`, `{&a ${"x".repeat(1022)}: v}\n`,
  '{"x" &a}\n', "{'x' !!str }\n", "{a: &b c, &d e: f}\n",
  // tab-led block scalars, directives given twice or after the end, plain values under their mapping, ':' opening a line
  "a:\n  k: |\n  \t\n  j: w\n", "k:\n  - >-\n  \t\n  j: w\n", "k: |2\n  \ta\n", "k: |\n  a\n  \tb\n",
  "%YAML 1.2\n%YAML 1.2\n---\nk: v\n", "%TAG ! tag:a.com,2000:\n%TAG ! tag:yaml.org,2002:\n---\nk: v\n", "k: v\n...\n%YAML 1.2\n", "k: v\n...\n# c\n",
  "k:\n#c\n  text\nfoo\n", "a:\n  k:\n  #c\n    text\n  foo\n", "k:\n#c\n  text\n\n  foo\n", "k: v\nx\n : y\n", " - k: |\n   x\n    : c\n", "k: |\n  : a\n",
];

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every variant, in a fixed order, without repeats. */
export function yamlVariants(): string[] {
  const out = new Set<string>();
  SCALARS.forEach((s, i) => {
    // Each scalar in two block contexts, one flow or plan context (rotating), and quoted.
    out.add(CONTEXTS[0]!(s));
    out.add(CONTEXTS[1]!(s));
    out.add(CONTEXTS[2 + (i % (CONTEXTS.length - 2))]!(s));
    out.add(QUOTED_CONTEXTS[i % QUOTED_CONTEXTS.length]!(s));
  });
  for (const tag of TAGS) for (const t of TAG_TEXTS) {
    out.add(`k: !!${tag} ${t}\n`);
    out.add(`k: !!${tag} "${t}"\n`);
  }
  for (const p of LINE_BREAK_PIECES) {
    out.add(`k: "a${p}b"\n`);
    out.add(`k: 'a${p}b'\n`);
    out.add(`k: |\n  a${p}b\n`);
  }
  for (const e of ESCAPES) out.add(`k: "a${e}b"\n`);
  for (const b of BLOCKS) for (const body of BLOCK_BODIES) out.add(`k: ${b}\n${body}`);
  for (const b of BLOCKS) out.add(`- ${b}\n  last`);
  for (const s of STRUCTURES) out.add(s);
  // Random plans mixing the axes: several members, each a scalar in some context, some quoted, some tagged.
  const r = rng(20261124);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  for (let n = 0; n < 260; n++) {
    const lines: string[] = ["steps:", "  - tool: read_file", "    arguments:"];
    const members = 1 + Math.floor(r() * 4);
    for (let m = 0; m < members; m++) {
      const s = pick(SCALARS);
      const roll = r();
      const value =
        roll < 0.5 ? s : roll < 0.6 ? `"${s}"` : roll < 0.7 ? `[${s}, ${pick(SCALARS)}]` : roll < 0.8 ? `{x: ${s}}` : roll < 0.9 ? `!!${pick(TAGS)} ${s}` : `'${s}'`;
      const key = r() < 0.15 ? pick(SCALARS) : `a${m}`;
      lines.push(`      ${key}: ${value}${r() < 0.1 ? " # note" : ""}`);
    }
    lines.push(`    intent: ${r() < 0.2 ? pick(SCALARS) : "read the file"}`);
    out.add(lines.join("\n") + (r() < 0.1 ? "" : "\n"));
  }
  return [...out];
}
