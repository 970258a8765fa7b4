import { createHash } from "node:crypto";

/*
 * RFC 8785 JSON Canonicalization Scheme, used for the plan hash: the same plan read from JSON or YAML must
 * hash the same, so only the parsed value matters, never its spelling.
 *
 * Deviations, so that hashing never throws on a value a reader produced: a non-finite number serialises as
 * `null` and a lone surrogate as its `\udxxx` escape (RFC 8785 rejects both; the readers report such plans
 * as unsafe-value, so they are refused anyway). Values JSON has no spelling for (undefined, functions,
 * symbols) become `null` in arrays and are left out of objects, as JSON.stringify does; so do containers nested past MAX_DEPTH, which only a circular value reaches.
 */

const MAX_DEPTH = 100_000;

/**
 * ECMAScript's JSON.stringify escapes a string exactly as RFC 8785 asks (short forms for \b \t \n \f \r,
 * lowercase `\u00xx` for other controls, `"` and `\`, everything else literal) and, since ES2019, lone
 * surrogates as `\udxxx`. It is also far faster than any loop written here.
 */
const jsonString: (s: string) => string = JSON.stringify;

/** ECMAScript Number::toString, which is RFC 8785's number form; -0 prints as "0". */
function jcsNumber(v: number): string {
  return Number.isFinite(v) ? String(v) : "null";
}

interface Frame {
  node: object;
  /** Sorted keys of an object; undefined for an array. */
  keys: string[] | undefined;
  next: number;
  /** What goes before the next member: "" before the first, "," after. */
  sep: string;
}

/** The RFC 8785 canonical JSON of a value, iteratively so that nesting depth cannot overflow the stack. */
export function canonicalJson(value: unknown): string {
  let out = "";
  const stack: Frame[] = [];
  let v = value;
  for (;;) {
    // A value with toJSON (a YAML timestamp read as a Date) hashes as JSON.stringify would print it.
    if (typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function") {
      v = (v as { toJSON(): unknown }).toJSON();
    }
    if (typeof v === "string") out += jsonString(v);
    else if (typeof v === "number") out += jcsNumber(v);
    else if (typeof v === "boolean") out += v ? "true" : "false";
    else if (typeof v === "bigint") out += v.toString();
    else if (typeof v !== "object" || v === null || stack.length >= MAX_DEPTH) out += "null";
    else if (Array.isArray(v)) {
      if (v.length === 0) out += "[]";
      else {
        out += "[";
        stack.push({ node: v, keys: undefined, next: 0, sep: "" });
      }
    } else {
      // Default sort compares UTF-16 code units, the order RFC 8785 prescribes.
      const keys = Object.keys(v).sort();
      if (keys.length === 0) out += "{}";
      else {
        out += "{";
        stack.push({ node: v, keys, next: 0, sep: "" });
      }
    }

    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return out;
      const { node, keys } = top;
      const i = top.next++;
      if (keys === undefined) {
        const arr = node as unknown[];
        if (i === arr.length) {
          out += "]";
          stack.pop();
          continue;
        }
        v = arr[i];
        out += top.sep;
      } else {
        if (i === keys.length) {
          out += "}";
          stack.pop();
          continue;
        }
        const key = keys[i]!;
        v = (node as Record<string, unknown>)[key];
        const t = typeof v;
        if (t === "undefined" || t === "function" || t === "symbol") continue;
        out += top.sep + jsonString(key) + ":";
      }
      top.sep = ",";
      break;
    }
  }
}

/** Lowercase hex SHA-256; a string is hashed as its UTF-8 bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  const hash = createHash("sha256");
  if (typeof data === "string") hash.update(data, "utf8");
  else hash.update(data);
  return hash.digest("hex");
}
