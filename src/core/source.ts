/** A point in a source text: line and column 1-based, offset 0-based in UTF-16 code units. */
export interface Position {
  line: number;
  column: number;
  offset: number;
}

/** A half-open range [start, end) of a source text. */
export interface Span {
  start: Position;
  end: Position;
}

/** Converts offsets to line/column. Built once per text, on first use, so unprinted diagnostics cost nothing. */
export class LineIndex {
  readonly #text: string;
  #starts: number[] | undefined;

  constructor(text: string) {
    this.#text = text;
  }

  /** Offsets at which each line begins (a line ends at \n, \r\n or a lone \r). */
  get lineStarts(): readonly number[] {
    if (this.#starts === undefined) {
      const starts = [0];
      const t = this.#text;
      // Without a CR every line ends at a LF, which indexOf finds faster than a loop over every character.
      if (!t.includes("\r")) {
        for (let i = t.indexOf("\n"); i >= 0; i = t.indexOf("\n", i + 1)) starts.push(i + 1);
        this.#starts = starts;
        return starts;
      }
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        if (c === 10) starts.push(i + 1);
        else if (c === 13) {
          if (t.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        }
      }
      this.#starts = starts;
    }
    return this.#starts;
  }

  /** The position of an offset (clamped to the text). */
  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.#text.length));
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - starts[lo]! + 1, offset: o };
  }

  /** The span of [start, end). */
  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** The text of a 1-based line, without its line ending. */
  lineText(line: number): string {
    const starts = this.lineStarts;
    const s = starts[line - 1];
    if (s === undefined) return "";
    const next = starts[line];
    let e = next === undefined ? this.#text.length : next;
    while (e > s && (this.#text.charCodeAt(e - 1) === 10 || this.#text.charCodeAt(e - 1) === 13)) e--;
    return this.#text.slice(s, e);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }
}
