// Kept apart from markdown.ts so that the TeDDy dialect can use it without loading markdown-it,
// which only a Markdown plan needs.

/** TeDDy's fence repair: a line of 6+ backticks or tildes followed by text with neither loses the text. */
const TEDDY_FENCE_LINE = /^(\s*)(~{6,}|`{6,})(.*)$/;

/**
 * The text TeDDy's parser reads, line for line: before parsing, TeDDy cuts the trailing text off
 * every line of six or more backticks or tildes ("~~~~~~ trailing" becomes "~~~~~~"), wherever it is.
 * Line count and line starts do not change, so positions still point into the original text.
 */
export function teddyPreprocess(text: string): string {
  if (!/(?:~{6}|`{6})/.test(text)) return text;
  return text
    .split("\n")
    .map((line) => {
      const cr = line.endsWith("\r") ? "\r" : "";
      const body = cr ? line.slice(0, -1) : line;
      const m = TEDDY_FENCE_LINE.exec(body);
      if (!m || m[3]!.trim() === "" || /[`~]/.test(m[3]!)) return line;
      return m[1]! + m[2]! + cr;
    })
    .join("\n");
}
