import type { SourceDocument, SyntaxId } from "../core/document.js";
import { NO_LEXEMES } from "../core/document.js";
import { LineIndex } from "../core/source.js";
import type { Limits, Policy } from "../core/policy.js";
import { parseJson } from "./json.js";

/** Reads a text in the given syntax. YAML and Markdown machinery is loaded only when a document needs it. */
export async function readSyntax(syntax: SyntaxId, text: string, limits: Limits, yaml?: Policy["yaml"]): Promise<SourceDocument> {
  switch (syntax) {
    case "json":
      return parseJson(text, { maxDepth: limits.maxDepth, maxStringLength: limits.maxStringLength, maxValues: limits.maxValues });
    case "yaml": {
      if (utf8Length(text, limits.maxYamlBytes) > limits.maxYamlBytes) return tooLarge(syntax, text, limits.maxYamlBytes);
      const { parseYaml } = await import("./yaml.js");
      return parseYaml(text, { maxDepth: limits.maxDepth, maxStringLength: limits.maxStringLength, maxValues: limits.maxValues, executor: yaml?.executor ?? "pyyaml" });
    }
    case "markdown": {
      const { parseMarkdown } = await import("./markdown.js");
      return parseMarkdown(text);
    }
    default:
      return unreadable(syntax, text);
  }
}

/** UTF-8 length of a text, counting no further than just past `stop`. */
export function utf8Length(text: string, stop = Number.POSITIVE_INFINITY): number {
  let n = 0;
  for (let i = 0; i < text.length && n <= stop; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

// The YAML reader needs ~100 bytes of heap and ~3 µs per byte of input: a bound keeps a large file from
// exhausting memory instead of being rejected.
function tooLarge(syntax: SyntaxId, text: string, max: number): SourceDocument {
  return {
    syntax,
    text,
    lines: new LineIndex(text),
    value: undefined,
    numbers: NO_LEXEMES,
    issues: [
      {
        rule: "limit-exceeded",
        messageId: "yamlTooLarge",
        data: { max },
        start: 0,
        end: 0,
      },
    ],
    locate: () => undefined,
  };
}

function unreadable(syntax: SyntaxId, text: string): SourceDocument {
  return {
    syntax,
    text,
    lines: new LineIndex(text),
    value: undefined,
    numbers: NO_LEXEMES,
    issues: [
      {
        rule: "parse-error",
        messageId: "syntaxUnsupported",
        data: { syntax },
        start: 0,
        end: 0,
      },
    ],
    locate: () => undefined,
  };
}
