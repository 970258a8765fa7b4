import { Buffer } from "node:buffer";

/** Pieces an edited text keeps apart at most before it copies them into one buffer. */
const MAX_PIECES = 32;

/**
 * Longest needle searched with the native search (Buffer#indexOf). Its Boyer-Moore tables cover the last
 * 250 bytes of a needle only: past that a search can take time in the product of the two lengths, and
 * a FIND block of 128 KiB of `a` with one `b` in the middle took 15 s against a MiB of `a` (a plan of
 * 1.2 MB, the file made by its own CREATE); a longer needle is searched by KMP, in linear time.
 */
const NATIVE_NEEDLE = 250;

/**
 * Searches one needle in byte buffers in time linear in their lengths, whatever the bytes: the native
 * search for a short needle (whose worst case is linear), Knuth-Morris-Pratt for a longer one.
 */
export class Finder {
  readonly #needle: Buffer;
  /** KMP's failure function (the longest proper border of each prefix), for a long needle only. */
  readonly #fail: Int32Array | undefined;

  constructor(needle: Buffer, nativeUpTo = NATIVE_NEEDLE) {
    this.#needle = needle;
    if (needle.length > nativeUpTo) {
      const fail = new Int32Array(needle.length);
      for (let i = 1, k = 0; i < needle.length; i++) {
        while (k > 0 && needle[i] !== needle[k]) k = fail[k - 1]!;
        if (needle[i] === needle[k]) k++;
        fail[i] = k;
      }
      this.#fail = fail;
    }
  }

  get length(): number {
    return this.#needle.length;
  }

  /**
   * The start offsets of the needle in `hay` below `until`, in order: every one (overlapping ones
   * included) or, with `overlap` false, each one that starts past the end of the last one taken; at most
   * `max + 1` of them. None for an empty needle.
   */
  find(hay: Uint8Array, max = Infinity, until = Infinity, overlap = true): number[] {
    const out: number[] = [];
    const needle = this.#needle;
    const m = needle.length;
    if (m === 0 || m > hay.length) return out;
    const fail = this.#fail;
    if (fail === undefined) {
      const buffer = Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength);
      for (let i = buffer.indexOf(needle); i >= 0 && i < until; i = buffer.indexOf(needle, overlap ? i + 1 : i + m)) {
        if (out.length > max) return out;
        out.push(i);
      }
      return out;
    }
    const end = Math.min(hay.length, until + m - 1);
    for (let i = 0, k = 0; i < end; i++) {
      const c = hay[i];
      while (k > 0 && c !== needle[k]) k = fail[k - 1]!;
      if (c === needle[k]) k++;
      if (k === m) {
        if (out.length > max) return out;
        out.push(i - m + 1);
        k = overlap ? fail[m - 1]! : 0;
      }
    }
    return out;
  }
}

/**
 * A file's bytes as a plan's edits leave them: the untouched stretches of the original and the
 * replacement texts, kept as pieces in order instead of being copied into a new buffer at each edit.
 * Searching gives what searching the joined bytes would give: every piece is searched in place, and
 * a short window of bytes around each join catches the matches that span it.
 */
export class EditedText {
  #pieces: Buffer[];
  #length: number;

  constructor(bytes: Buffer) {
    this.#pieces = bytes.length > 0 ? [bytes] : [];
    this.#length = bytes.length;
  }

  get length(): number {
    return this.#length;
  }

  /** The text as one buffer (joined once, then kept so). */
  bytes(): Buffer {
    if (this.#pieces.length === 1) return this.#pieces[0]!;
    const joined = Buffer.concat(this.#pieces, this.#length);
    this.#pieces = joined.length > 0 ? [joined] : [];
    return joined;
  }

  /**
   * Every start offset of `needle`, overlapping occurrences included ("aa" occurs twice in "aaa"), in
   * order; at most `max + 1` of them (the caller tells "more than max" from that). None for an empty needle.
   */
  occurrences(needle: Buffer | Finder, max = Infinity): number[] {
    const out: number[] = [];
    const finder = needle instanceof Finder ? needle : new Finder(needle);
    const n = finder.length;
    if (n === 0 || n > this.#length) return out;
    // The windows at the joins hold up to 2n - 2 bytes each: past the text's own size, one copy is cheaper.
    if (this.#pieces.length > 1 && (this.#pieces.length - 1) * 2 * n > this.#length) this.bytes();
    const pieces = this.#pieces;
    let start = 0;
    for (let k = 0; k < pieces.length; k++) {
      const piece = pieces[k]!;
      const end = start + piece.length;
      // Matches inside the piece start at end - n at the latest; those spanning its end, later.
      for (const i of finder.find(piece, max - out.length)) {
        if (out.length > max) return out;
        out.push(start + i);
      }
      if (k < pieces.length - 1 && n > 1) {
        const from = Math.max(start, end - n + 1);
        const to = Math.min(this.#length, end + n - 1);
        if (to - from >= n) {
          const window = this.#slice(k, start, from, to);
          for (const i of finder.find(window, max - out.length, end - from)) {
            if (out.length > max) return out;
            out.push(from + i);
          }
        }
      }
      start = end;
    }
    return out;
  }

  /** Does `needle` occur (an empty needle does not)? */
  includes(needle: Buffer | Finder): boolean {
    return this.occurrences(needle, 0).length > 0;
  }

  /** Replaces the `length` bytes at `index` with `replacement`. */
  replace(index: number, length: number, replacement: Buffer): void {
    const before = this.#range(0, index);
    const after = this.#range(index + length, this.#length);
    const pieces = [...before, ...(replacement.length > 0 ? [replacement] : []), ...after];
    this.#pieces = pieces;
    this.#length = this.#length - length + replacement.length;
    if (pieces.length > MAX_PIECES) this.bytes();
  }

  /** Takes `bytes` as the whole text. */
  set(bytes: Buffer): void {
    this.#pieces = bytes.length > 0 ? [bytes] : [];
    this.#length = bytes.length;
  }

  /** The bytes [from, to) of the text, starting in piece k (which starts at `start`), copied. */
  #slice(k: number, start: number, from: number, to: number): Buffer {
    const parts: Buffer[] = [];
    let s = start;
    for (let j = k; j < this.#pieces.length && s < to; j++) {
      const piece = this.#pieces[j]!;
      const e = s + piece.length;
      if (e > from) parts.push(piece.subarray(Math.max(0, from - s), Math.min(piece.length, to - s)));
      s = e;
    }
    return Buffer.concat(parts, to - from);
  }

  /** The pieces covering [from, to), cut to it (views, not copies). */
  #range(from: number, to: number): Buffer[] {
    const out: Buffer[] = [];
    if (to <= from) return out;
    let s = 0;
    for (const piece of this.#pieces) {
      const e = s + piece.length;
      if (e > from && s < to) out.push(piece.subarray(Math.max(0, from - s), Math.min(piece.length, to - s)));
      if (e >= to) break;
      s = e;
    }
    return out;
  }
}
