/**
 * How PyYAML's safe loader (YAML 1.1, PyYAML 6.0) reads one scalar: its implicit resolvers
 * (yaml/resolver.py) and the SafeConstructor's conversions (yaml/constructor.py), written out so the
 * YAML reader can refuse every scalar that a Python executor would read differently from plangate's
 * YAML 1.2 reading. The regular expressions are PyYAML's own, in resolver order; Python's `$` also
 * matches before a final newline, hence the `\n?`.
 */

/** A Python value as PyYAML builds it from a scalar, or why it cannot (an error, a type JSON lacks). */
export type PyScalar =
  | { kind: "str"; value: string }
  | { kind: "bool"; value: boolean }
  | { kind: "int"; value: bigint }
  | { kind: "float"; value: number }
  | { kind: "null" }
  | { kind: "other"; what: string };

const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)\n?$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\n?$/;
const INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)\n?$/;
const MERGE = /^(?:<<)\n?$/;
const NULL = /^(?:~|null|Null|NULL|)\n?$/;
const TIMESTAMP =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)\n?$/;
const VALUE = /^(?:=)\n?$/;

const T = "tag:yaml.org,2002:";
type Resolver = [tag: string, re: RegExp];
const BY_FIRST = new Map<string, Resolver[]>();
// Registration order matters: PyYAML tries the resolvers for a first character in this order.
for (const [tag, re, first] of [
  ["bool", BOOL, "yYnNtTfFoO"],
  ["float", FLOAT, "-+0123456789."],
  ["int", INT, "-+0123456789"],
  ["merge", MERGE, "<"],
  ["null", NULL, "~nN"],
  ["timestamp", TIMESTAMP, "0123456789"],
  ["value", VALUE, "="],
] as const) {
  for (const c of first) {
    const list = BY_FIRST.get(c) ?? [];
    list.push([T + tag, re]);
    BY_FIRST.set(c, list);
  }
}

/**
 * The tag PyYAML's resolver gives a plain scalar. A mapping key resolved as the `=` value tag is read
 * as the string "=" (SafeConstructor.flatten_mapping).
 */
export function pyyamlPlainTag(text: string, key = false): string {
  if (text === "") return T + "null";
  const list = BY_FIRST.get(text[0]!);
  if (list) for (const [tag, re] of list) if (re.test(text)) return key && tag === T + "value" ? T + "str" : tag;
  return T + "str";
}

/** True when the first character could start anything but a string for PyYAML: most plain text is skipped at once. */
export function pyyamlMayResolve(text: string): boolean {
  return text === "" || BY_FIRST.has(text[0]!);
}

const BOOL_VALUES: Record<string, boolean> = { yes: true, no: false, true: true, false: false, on: true, off: false };

/**
 * What SafeConstructor makes of a scalar's text under a tag. Explicitly tagged text PyYAML would hand to
 * Python's int() or float() is only modelled where it matches the resolver's own pattern; anything else
 * comes back as `other`, which the reader refuses.
 */
export function pyyamlConstruct(tag: string, text: string): PyScalar {
  switch (tag) {
    case T + "str":
      return { kind: "str", value: text };
    case T + "null":
      return { kind: "null" };
    case T + "bool": {
      const v = BOOL_VALUES[text.toLowerCase()];
      return v === undefined ? { kind: "other", what: `an error (${JSON.stringify(text)} is not a YAML 1.1 boolean)` } : { kind: "bool", value: v };
    }
    case T + "int":
      if (OCTAL_0O.test(text)) return constructInt(text.replace(/0o/, "0"));
      return INT.test(text) ? constructInt(text) : { kind: "other", what: "an error or a number plangate cannot check" };
    case T + "float":
      return FLOAT.test(text) || DECIMAL.test(text) ? constructFloat(text) : { kind: "other", what: "an error or a number plangate cannot check" };
    case T + "timestamp":
      return { kind: "other", what: "a date or timestamp" };
    case T + "merge":
      return { kind: "other", what: "a merge key" };
    case T + "value":
      return { kind: "other", what: "an error (the `=` value key has no constructor)" };
    default:
      return { kind: "other", what: `an object of tag ${tag}` };
  }
}

/** Text Python's float() reads as JSON would (an explicit !!float): digits, an optional fraction and exponent. */
const DECIMAL = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** `0o17` under an explicit !!int: PyYAML calls int(text, 8), which accepts the 0o prefix. */
const OCTAL_0O = /^[-+]?0o[0-7]+$/;

/**
 * Longest integer text whose value is computed. Past it PyYAML's integer is refused unread: no such text
 * is a safe integer, and base 60 text of a MiB (`1:1:1:...`) cost minutes of BigInt arithmetic.
 */
const MAX_INT_TEXT = 1000;

function constructInt(raw: string): PyScalar {
  if (raw.length > MAX_INT_TEXT) return { kind: "other", what: `an integer written in more than ${MAX_INT_TEXT} characters` };
  let v = raw.replace(/_/g, "").replace(/\n$/, "");
  let sign = 1n;
  if (v[0] === "-") sign = -1n;
  if (v[0] === "+" || v[0] === "-") v = v.slice(1);
  const parse = (digits: string, base: number): PyScalar => {
    if (digits === "") return { kind: "other", what: "an error (no digits)" };
    const prefix = base === 2 ? "0b" : base === 8 ? "0o" : base === 16 ? "0x" : "";
    return { kind: "int", value: sign * BigInt(prefix + digits) };
  };
  if (v === "0") return { kind: "int", value: 0n };
  if (v.startsWith("0b")) return parse(v.slice(2), 2);
  if (v.startsWith("0x")) return parse(v.slice(2), 16);
  if (v[0] === "0") return parse(v, 8);
  if (v.includes(":")) {
    let value = 0n;
    for (const part of v.split(":")) value = value * 60n + BigInt(part);
    return { kind: "int", value: sign * value };
  }
  return parse(v, 10);
}

function constructFloat(raw: string): PyScalar {
  let v = raw.replace(/_/g, "").replace(/\n$/, "").toLowerCase();
  let sign = 1;
  if (v[0] === "-") sign = -1;
  if (v[0] === "+" || v[0] === "-") v = v.slice(1);
  if (v === ".inf") return { kind: "float", value: sign * Infinity };
  if (v === ".nan") return { kind: "float", value: NaN };
  if (v.includes(":")) {
    let value = 0;
    let base = 1;
    for (const part of v.split(":").reverse()) {
      value += Number(part) * base;
      base *= 60;
    }
    return { kind: "float", value: sign * value };
  }
  // Python's float() and JavaScript's Number() round decimal text the same way; "1." is 1 in both.
  return { kind: "float", value: sign * Number(v.endsWith(".") ? v.slice(0, -1) : v) };
}

/** True when PyYAML's value is the value plangate read: same type (int and float are both numbers) and same value. */
export function sameReading(py: PyScalar, value: unknown): boolean {
  switch (py.kind) {
    case "str":
      return typeof value === "string" && value === py.value;
    case "bool":
      return value === py.value;
    case "null":
      return value === null;
    case "int":
      return typeof value === "number" && Number.isSafeInteger(value) && BigInt(value) === py.value;
    case "float":
      return typeof value === "number" && Object.is(value, py.value);
    default:
      return false;
  }
}

/** PyYAML's value in words, for messages. */
export function describePy(py: PyScalar): string {
  switch (py.kind) {
    case "str":
      return `the string ${JSON.stringify(py.value)}`;
    case "bool":
      return `the boolean ${py.value ? "True" : "False"}`;
    case "null":
      return "None (null)";
    case "int":
      return `the integer ${py.value}`;
    case "float":
      return `the float ${py.value}`;
    default:
      return py.what;
  }
}

/** Go's yaml.v2 resolve map: the plain scalars it reads by their whole text (resolve.go, v2.4). */
const GO_MAP: Record<string, PyScalar> = {};
for (const [texts, value] of [
  ["y Y yes Yes YES true True TRUE on On ON", { kind: "bool", value: true }],
  ["n N no No NO false False FALSE off Off OFF", { kind: "bool", value: false }],
  ["~ null Null NULL", { kind: "null" }],
  [".nan .NaN .NAN", { kind: "float", value: NaN }],
  [".inf .Inf .INF +.inf +.Inf +.INF", { kind: "float", value: Infinity }],
  ["-.inf -.Inf -.INF", { kind: "float", value: -Infinity }],
] as const) {
  for (const text of texts.split(" ")) GO_MAP[text] = value;
}
GO_MAP[""] = { kind: "null" };

/** Go's yamlStyleFloat. */
const GO_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** What Go's strconv.ParseFloat reads of a text that starts with `.` (decimal digits only: no underscores). */
const GO_DOT_FLOAT = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's strconv.ParseInt(text, base 0, 64), or undefined where it fails (syntax or range). */
function goParseInt(text: string, signed: boolean): bigint | undefined {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
  if (m === null || (!signed && m[1] !== "")) return undefined;
  const body = m[2]!;
  // A prefix in either case; a leading 0 alone is octal (Go's integer literals).
  const digits = /^0[xXbBoO]/.test(body) ? `0${body[1]!.toLowerCase()}${body.slice(2)}` : body.length > 1 && body[0] === "0" ? `0o${body.slice(1)}` : body;
  const value = (m[1] === "-" ? -1n : 1n) * BigInt(digits);
  return signed ? (value >= INT64_MIN && value <= INT64_MAX ? value : undefined) : value <= UINT64_MAX ? value : undefined;
}

/** Go's strconv.ParseInt(text, base 2, 64), or undefined. */
function goParseBinary(text: string): bigint | undefined {
  const m = /^([-+]?)([01]+)$/.exec(text);
  if (m === null) return undefined;
  const value = (m[1] === "-" ? -1n : 1n) * BigInt(`0b${m[2]!}`);
  return value >= INT64_MIN && value <= UINT64_MAX ? value : undefined;
}

/**
 * How Go's gopkg.in/yaml.v2 (resolve.go) reads a plain, untagged scalar into an interface{}: its resolve
 * map (1.1 booleans with y and n, nulls, .inf and .nan), then, for a text that starts with a digit or a
 * sign, strconv's integer syntax with every `_` removed first (so `0O17`, `0X1F`, `+_1` and `1_e3` are
 * numbers there, though text to PyYAML and to YAML 1.2), its float syntax, and `0b` followed by a signed
 * binary number. A timestamp stays text in an interface{}. Base 60 is not read.
 */
export function goYamlV2Plain(text: string): PyScalar {
  const first = text[0];
  const hint = first === undefined || "yYnNtTfFoO~".includes(first) ? "M" : first === "." ? "." : "+-0123456789".includes(first) ? "D" : "";
  if (hint === "") return { kind: "str", value: text };
  const known = GO_MAP[text];
  if (known !== undefined) return known;
  // Only digits, signs, points, underscores and the letters of prefixes, hex digits and exponents make a number.
  if (!/^[-+._0-9a-fA-FxXoO]*$/.test(text)) return { kind: "str", value: text };
  if (text.length > MAX_INT_TEXT) return { kind: "other", what: `a number written in more than ${MAX_INT_TEXT} characters` };
  if (hint === "." && GO_DOT_FLOAT.test(text)) {
    const v = Number(text);
    if (Number.isFinite(v)) return { kind: "float", value: v };
  }
  if (hint !== "D") return { kind: "str", value: text };
  const plain = text.replace(/_/g, "");
  const int = goParseInt(plain, true) ?? goParseInt(plain, false);
  if (int !== undefined) return { kind: "int", value: int };
  if (GO_FLOAT.test(plain)) {
    const v = Number(plain);
    if (Number.isFinite(v)) return { kind: "float", value: v };
  }
  const binary = plain.startsWith("0b") ? goParseBinary(plain.slice(2)) : plain.startsWith("-0b") ? goParseBinary(`-${plain.slice(3)}`) : undefined;
  if (binary !== undefined) return { kind: "int", value: binary };
  return { kind: "str", value: text };
}

/** Go's value in words, for messages. */
export function describeGo(go: PyScalar): string {
  switch (go.kind) {
    case "str":
      return `the string ${JSON.stringify(go.value)}`;
    case "bool":
      return `the boolean ${go.value}`;
    case "null":
      return "nil (null)";
    case "int":
      return `the integer ${go.value}`;
    case "float":
      return `the float ${go.value}`;
    default:
      return go.what;
  }
}
