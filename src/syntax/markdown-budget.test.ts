import fc from "fast-check";
import markdownItFactory from "markdown-it";
import { describe, expect, test } from "vitest";
import { countTokens, lineBeyond, parseBounded, TooBusy } from "./markdown-budget.js";
import { markdownTokens, parseMarkdown } from "./markdown.js";

describe("lineBeyond", () => {
  test("counts lines as CommonMark ends them (LF, CRLF, a lone CR), on any text", () => {
    const piece = fc.constantFrom("a", "\n", "\r", "\r\n", " ", "\n\r");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 12 }), (parts, max) => {
        const text = parts.join("");
        const lines = text.split(/\r\n?|\n/).length;
        expect(lineBeyond(text, max)).toBe(lines > max ? max : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("parseBounded", () => {
  const md = () => countTokens(markdownItFactory("commonmark"));

  test("gives markdown-it's own tokens within the bounds", () => {
    const text = "# T\n\n- a *b*\n- c\n\npara\n";
    const tokens = parseBounded(md(), text);
    expect(tokens).toEqual(markdownItFactory("commonmark").parse(text, {}));
  });

  test("stops where the block tokens pass the budget, at that line", () => {
    const r = parseBounded(md(), "a\n=\n".repeat(10), {}, { tokens: 7 });
    // Three tokens per setext heading: the eighth is the third heading's first, pushed when the reader has
    // reached line 6 (0-based, past the heading's two lines), the line the diagnostic names.
    expect(r).toEqual(new TooBusy("tokens", 6, 7));
  });

  test("counts inline tokens too: one line of emphasis is not a way around the budget", () => {
    const r = parseBounded(md(), "x\n\n" + "*a* ".repeat(50), {}, { tokens: 40 });
    expect(r).toBeInstanceOf(TooBusy);
    // parseMarkdown's inline rule tells the budget which line an inline parse belongs to.
    expect(parseMarkdown("x\n\n" + "*a* ".repeat(50), { bounds: { tokens: 40 } }).issues).toMatchObject([{ messageId: "markdownTooManyTokens", data: { line: 3 }, start: 3 }]);
  });

  test("counts the inline content the reader parses: one paragraph of brackets is not a way around the budget", () => {
    const text = "x\n\n" + "[a ".repeat(50) + "\n\nplain words\n";
    expect(parseMarkdown(text, { bounds: { inline: 149 } }).issues).toEqual([]);
    expect(parseMarkdown(text, { bounds: { inline: 148 } }).issues).toEqual([{ rule: "limit-exceeded", messageId: "markdownTooMuchInline", data: { max: 148, line: 3 }, start: 3, end: 153 }]);
    // The reader's shortcuts ("plain words") are not parsed, so they cost nothing; markdownTokens parses every one.
    expect(markdownTokens(text, { inline: 151 })).toEqual(new TooBusy("inline", 4, 151));
  });

  test("refuses a text with more lines before parsing it", () => {
    expect(parseBounded(md(), "\n".repeat(10), {}, { lines: 10 })).toEqual(new TooBusy("lines", 10, 10));
    expect(parseBounded(md(), "\n".repeat(9), {}, { lines: 10 })).toBeInstanceOf(Array);
  });

  test("a parse without a budget (markdown-it called directly) is not counted", () => {
    expect(md().parse("a\n=\n".repeat(10), {})).toHaveLength(30);
  });
});

describe("the readers keep to the bounds", () => {
  test("parseMarkdown reads nothing of a busy document: one limit-exceeded issue, no value", () => {
    const doc = parseMarkdown("# T\n\n" + "a\n=\n".repeat(10), { bounds: { tokens: 9 } });
    expect(doc.value).toBeUndefined();
    expect(doc.issues).toEqual([{ rule: "limit-exceeded", messageId: "markdownTooManyTokens", data: { max: 9, line: 9 }, start: 17, end: 18 }]);
  });

  test("markdownTokens gives the TooBusy instead of tokens", () => {
    expect(markdownTokens("a\nb\nc", { lines: 2 })).toEqual(new TooBusy("lines", 2, 2));
  });
});
