// Kept apart from markdown.ts so that the TeDDy dialect can use it without loading markdown-it,
// which only a Markdown plan needs.

import { hasTerminator } from "../core/text.js";

/**
 * TeDDy's fence repair: a line of 6+ backticks or tildes followed by text with neither loses the text.
 * `/^(\s*)(~{6,}|`{6,})(.*)$/.exec(line)` (TeDDy's expression) as one pass: the expression backtracks
 * through the whole run when a line terminator follows it, which makes a long run quadratic.
 */
function fenceLine(line: string): [indent: string, run: string, rest: string] | undefined {
  let i = 0;
  while (i < line.length && /\s/.test(line[i]!)) i++;
  const c = line[i];
  if (c !== "~" && c !== "`") return undefined;
  let j = i;
  while (j < line.length && line[j] === c) j++;
  if (j - i < 6) return undefined;
  const rest = line.slice(j);
  // `(.*)$` cannot cross a line terminator, and no shorter run helps then.
  return hasTerminator(rest) ? undefined : [line.slice(0, i), line.slice(i, j), rest];
}

/**
 * The text TeDDy's parser reads, line for line: before parsing, TeDDy cuts the trailing text off
 * every line of six or more backticks or tildes ("~~~~~~ trailing" becomes "~~~~~~"), wherever it is.
 * Line count and line starts do not change, so positions still point into the original text.
 */
export function teddyPreprocess(text: string): string {
  if (!text.includes("``````") && !text.includes("~~~~~~")) return text;
  return text
    .split("\n")
    .map((line) => {
      const cr = line.endsWith("\r") ? "\r" : "";
      const body = cr ? line.slice(0, -1) : line;
      const m = fenceLine(body);
      if (!m || m[2].trim() === "" || /[`~]/.test(m[2])) return line;
      return m[0] + m[1] + cr;
    })
    .join("\n");
}
