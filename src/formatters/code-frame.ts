import type { LineIndex } from "../core/source.js";

export interface FrameStyle {
  gutter(s: string): string;
  marker(s: string): string;
}

const PLAIN: FrameStyle = { gutter: (s) => s, marker: (s) => s };

/** Makes control characters visible and expands tabs so the caret lines up. */
function visible(line: string): string {
  let out = "";
  for (const ch of line) {
    const c = ch.codePointAt(0)!;
    if (ch === "\t") out += "  ";
    else if (c < 0x20 || c === 0x7f) out += "\u2423";
    else if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x200e || c === 0x200f || (c >= 0x200b && c <= 0x200d) || c === 0x2060 || c === 0xfeff)
      out += `<U+${c.toString(16).toUpperCase().padStart(4, "0")}>`;
    else out += ch;
  }
  return out;
}

function width(prefix: string): number {
  return visible(prefix).length;
}

/** A rustc-style excerpt: the line before, the line itself with a caret run under the span. */
export function codeFrame(
  lines: LineIndex,
  line: number,
  column: number,
  endLine: number | undefined,
  endColumn: number | undefined,
  style: FrameStyle = PLAIN,
  maxWidth = 160,
): string {
  if (line < 1 || line > lines.lineCount) return "";
  const first = Math.max(1, line - 1);
  const pad = String(line).length;
  const out: string[] = [];
  for (let n = first; n <= line; n++) {
    let text = lines.lineText(n);
    let col = column;
    let endCol = endLine === line && endColumn !== undefined ? endColumn : text.length + 1;
    // Long lines (minified JSON) are windowed around the column.
    let offset = 0;
    if (text.length > maxWidth) {
      offset = n === line ? Math.max(0, col - 1 - Math.floor(maxWidth / 3)) : 0;
      text = (offset > 0 ? "…" : "") + text.slice(offset, offset + maxWidth) + (offset + maxWidth < text.length ? "…" : "");
      if (offset > 0) {
        col = col - offset + 1;
        endCol = endCol - offset + 1;
      }
    }
    const mark = n === line ? ">" : " ";
    out.push(style.gutter(`${mark} ${String(n).padStart(pad)} | `) + visible(text));
    if (n === line) {
      const lead = width(text.slice(0, Math.max(0, col - 1)));
      const len = Math.max(1, Math.min(width(text.slice(col - 1, Math.max(col, endCol - 1))), 80));
      out.push(style.gutter(`  ${" ".repeat(pad)} | `) + " ".repeat(lead) + style.marker("^".repeat(len)));
    }
  }
  return out.join("\n");
}
