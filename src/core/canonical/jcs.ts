import { ShapeCache } from "./shape-cache.js";
import { createHash } from "node:crypto";

/*
 * RFC 8785 JSON Canonicalization Scheme, used for the plan hash: the same plan read from JSON or YAML must
 * hash the same, so only the parsed value matters, never its spelling.
 *
 * Deviations, so that hashing never throws on a value a reader produced: a non-finite number serialises as
 * `null` and a lone surrogate as its `\udxxx` escape (RFC 8785 rejects both; the readers report such plans
 * as unsafe-value, so they are refused anyway). Values JSON has no spelling for (undefined, functions,
 * symbols) become `null` in arrays and are left out of objects, as JSON.stringify does. Containers nested
 * past MAX_DEPTH, which only a circular value reaches, become `null`.
 */

const MAX_DEPTH = 100_000;

const NEEDS_ESCAPE = /["\\\x00-\x1f\ud800-\udfff]/;

/**
 * ECMAScript's JSON.stringify escapes a string exactly as RFC 8785 asks (short forms for \b \t \n \f \r,
 * lowercase `\u00xx` for other controls, `"` and `\`, everything else literal) and, since ES2019, lone
 * surrogates as `\udxxx`. Calling it costs more than a regex test, so strings that need no escape skip it.
 */
function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : '"' + s + '"';
}

/** Sorts by UTF-16 code units (RFC 8785's order), in place. */
export function sortUtf16(keys: string[]): string[] {
  const n = keys.length;
  // Plan objects have a handful of keys: insertion sort beats Array#sort's set-up cost there.
  if (n > 16) return keys.sort();
  for (let i = 1; i < n; i++) {
    const k = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > k; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = k;
  }
  return keys;
}

/** ECMAScript Number::toString, which is RFC 8785's number form; -0 prints as "0". */
function jcsNumber(v: number): string {
  return Number.isFinite(v) ? String(v) : "null";
}

interface Frame {
  node: object;
  /** Sorted keys of an object; undefined for an array. */
  keys: string[] | undefined;
  /** Each key's literal and colon, in the same order. */
  names: string[] | undefined;
  next: number;
  /** What goes before the next member: "" before the first, "," after. */
  sep: string;
}

const jcsShapes = new ShapeCache((keys) => {
  const sorted = sortUtf16(keys.slice());
  return { sorted, names: sorted.map((k) => jsonString(k) + ":") };
});

function objectFrame(node: object): Frame {
  const shape = jcsShapes.shapeOf(node);
  return { node, keys: shape.sorted, names: shape.names, next: 0, sep: "" };
}

/** The RFC 8785 canonical JSON of a value, iteratively so that nesting depth cannot overflow the stack. */
export function canonicalJson(value: unknown): string {
  return writeCanonical(value);
}

/**
 * SHA-256 (hex) of the canonical JSON of a value. The text is hashed in chunks as it is produced: built
 * whole, a large plan's text is a rope of millions of pieces costing several times its length in heap.
 */
export function canonicalSha256(value: unknown): string {
  const hash = createHash("sha256");
  hash.update(writeCanonical(value, (chunk) => hash.update(chunk, "utf8")), "utf8");
  return hash.digest("hex");
}

const CHUNK = 1 << 16;

function writeCanonical(value: unknown, flush?: (chunk: string) => void): string {
  let out = "";
  const stack: Frame[] = [];
  let v = value;
  for (;;) {
    if (flush !== undefined && out.length > CHUNK) {
      flush(out);
      out = "";
    }
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
        stack.push({ node: v, keys: undefined, names: undefined, next: 0, sep: "" });
      }
    } else {
      const frame = objectFrame(v);
      if (frame.keys!.length === 0) out += "{}";
      else {
        out += "{";
        stack.push(frame);
      }
    }

    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return out;
      const { node, keys, names } = top;
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
        out += top.sep + names![i];
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
