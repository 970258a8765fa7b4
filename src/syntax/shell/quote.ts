/** Characters a word may hold unquoted and still mean itself in every position (no `=`, `~`, `#`, `%`, globs). */
const PLAIN = /^[A-Za-z0-9_./-]+$/;

/** Quotes one word so that a POSIX shell reads it back as exactly that word. */
export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Joins an argument vector (exec form) into one command line a shell reads as the same words. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

/** The value of an unquoted word's text: a backslash quotes the next character; backslash-newline is removed. */
export function unescapeUnquoted(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== "\\") out += c;
    else if (i + 1 < text.length) {
      const n = text[++i]!;
      if (n !== "\n") out += n;
    }
  }
  return out;
}

/** The value of the literal text inside double quotes: `\` escapes only `$`, backquote, `"`, `\` and a newline. */
export function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/**
 * The value of a `$'…'` string (without `$'` and `'`), as bash decodes it; undefined for escapes whose
 * meaning depends on the locale or that cut the string (`\c`, a NUL).
 */
export function decodeAnsiC(body: string): string | undefined {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const n = body[i + 1];
    if (n === undefined) return undefined;
    i++;
    if (n in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[n];
    else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(Number.parseInt(m, 8) & 0xff);
      i += m.length - 1;
    } else if (n === "x" || n === "u" || n === "U") {
      const max = n === "x" ? 2 : n === "u" ? 4 : 8;
      const m = new RegExp(`^[0-9A-Fa-f]{1,${max}}`).exec(body.slice(i + 1));
      if (!m) {
        out += "\\" + n;
        continue;
      }
      const code = Number.parseInt(m[0], 16);
      if (code > 0x10ffff || (n !== "x" && code >= 0xd800 && code <= 0xdfff)) return undefined;
      out += String.fromCodePoint(code);
      i += m[0].length;
    } else if (n === "c") return undefined;
    else out += "\\" + n;
    if (out.includes("\0")) return undefined;
  }
  return out;
}
