import type { ReadIssue } from "../core/document.js";

/**
 * Decodes a plan file. Plans must be UTF-8: a file in any other encoding is still turned into
 * best-effort text so a report can quote it, but comes with a `parse-error` issue.
 * Never throws.
 */
export function decodeText(bytes: Uint8Array): { text: string; issue?: ReadIssue } {
  try {
    const b0 = bytes[0];
    const b1 = bytes[1];
    // UTF-32 LE starts like UTF-16 LE (FF FE), so it is tested first.
    if (b0 === 0xff && b1 === 0xfe && bytes[2] === 0 && bytes[3] === 0) {
      return foreign(decodeUtf32(bytes.subarray(4), true), "UTF-32 LE");
    }
    if (b0 === 0 && b1 === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) {
      return foreign(decodeUtf32(bytes.subarray(4), false), "UTF-32 BE");
    }
    if (b0 === 0xff && b1 === 0xfe) {
      return foreign(new TextDecoder("utf-16le", { ignoreBOM: true }).decode(bytes.subarray(2)), "UTF-16 LE");
    }
    if (b0 === 0xfe && b1 === 0xff) {
      return foreign(new TextDecoder("utf-16be", { ignoreBOM: true }).decode(bytes.subarray(2)), "UTF-16 BE");
    }
    const body = b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    try {
      return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body) };
    } catch {
      return invalidUtf8(body);
    }
  } catch (e) {
    // Only reachable on allocation failure for enormous inputs; report rather than crash.
    return {
      text: "",
      issue: { rule: "parse-error", messageId: "undecodable", data: { reason: e instanceof Error ? e.message : String(e) }, start: 0, end: 0 },
    };
  }
}

function foreign(text: string, encoding: string): { text: string; issue: ReadIssue } {
  return {
    text,
    issue: { rule: "parse-error", messageId: "foreignEncoding", data: { encoding }, start: 0, end: 0 },
  };
}

function invalidUtf8(body: Uint8Array): { text: string; issue: ReadIssue } {
  const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
  const bad = firstInvalidByte(body);
  // The valid prefix decodes the same either way, so its length is the offset of the first U+FFFD.
  const offset = lenient.decode(body.subarray(0, bad)).length;
  const byte = body[bad];
  return {
    text: lenient.decode(body),
    issue:
      byte === undefined
        ? { rule: "parse-error", messageId: "notUtf8AtEnd", data: { offset: bad }, start: offset, end: offset + 1 }
        : { rule: "parse-error", messageId: "notUtf8", data: { byte: `0x${byte.toString(16).padStart(2, "0")}`, offset: bad }, start: offset, end: offset + 1 },
  };
}

/** Index of the first byte that starts an ill-formed UTF-8 sequence (WHATWG decoder rules). */
function firstInvalidByte(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || d < lo || d > hi) return i;
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return b.length;
}

function decodeUtf32(b: Uint8Array, little: boolean): string {
  const parts: string[] = [];
  let chunk: number[] = [];
  for (let i = 0; i + 3 < b.length; i += 4) {
    const cp = little
      ? (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0
      : ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
    chunk.push(cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0xfffd : cp);
    // fromCodePoint takes its arguments on the stack, so feed it bounded chunks.
    if (chunk.length === 8192) {
      parts.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  parts.push(String.fromCodePoint(...chunk));
  return parts.join("");
}
