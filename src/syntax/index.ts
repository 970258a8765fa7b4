import type { SourceDocument, SyntaxId } from "../core/document.js";
import { NO_LEXEMES } from "../core/document.js";
import { LineIndex } from "../core/source.js";
import type { Limits } from "../policy/types.js";
import { parseJson } from "./json.js";

/** Reads a text in the given syntax. YAML and Markdown machinery is loaded only when a document needs it. */
export async function readSyntax(syntax: SyntaxId, text: string, limits: Limits): Promise<SourceDocument> {
  switch (syntax) {
    case "json":
      return parseJson(text, { maxDepth: limits.maxDepth });
    case "yaml": {
      const { parseYaml } = await import("./yaml.js");
      return parseYaml(text, { maxDepth: limits.maxDepth });
    }
    case "markdown": {
      const { parseMarkdown } = await import("./markdown.js");
      return parseMarkdown(text);
    }
    default:
      return unreadable(syntax, text);
  }
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
        message: `${syntax} plans cannot be read by this build of plangate.`,
        start: 0,
        end: 0,
        hint: "convert the plan to JSON",
      },
    ],
    locate: () => undefined,
  };
}
