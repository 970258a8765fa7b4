import { describe, expect, it } from "vitest";
import { parseMarkdown } from "./markdown.js";

const fences = (text: string) => parseMarkdown(text).blocks.filter((b) => b.kind === "fence");

describe("Markdown reader", () => {
  it("reads headings, thematic breaks, lists and fences with 1-based lines and offsets", () => {
    const doc = parseMarkdown("# T\n\n## Rationale\n---\n- **File Path:** [a.py](/a.py)\n```py\nx\n```\n");
    expect(doc.blocks.map((b) => b.kind)).toEqual(["heading", "heading", "hr", "list", "fence"]);
    const list = doc.blocks[3]!;
    expect(list).toMatchObject({ line: 5, kind: "list" });
    if (list.kind !== "list") throw new Error();
    expect(list.lines[0]).toMatchObject({ text: "File Path: a.py", bold: true, links: [{ text: "a.py", href: "/a.py" }] });
    expect(doc.text.slice(list.start, list.end)).toBe("- **File Path:** [a.py](/a.py)");
    expect(doc.issues).toEqual([]);
  });
  it("reads fences of any length, backticks or tildes, a fence inside a longer fence, and headings inside fences as text", () => {
    const f = fences("````md\n# Not a heading\n```js\ninner\n```\n````\n~~~~~~\ntilde\n~~~~~~\n");
    expect(f).toHaveLength(2);
    expect(f[0]).toMatchObject({ info: "md", content: "# Not a heading\n```js\ninner\n```\n", closed: true });
    expect(f[1]).toMatchObject({ content: "tilde\n", closed: true });
    expect(parseMarkdown("````md\n# Not a heading\n````\n").blocks.filter((b) => b.kind === "heading")).toHaveLength(0);
  });
  it("closes a fence whose closing line carries trailing text, as TeDDy repairs it", () => {
    const f = fences("~~~~~~\nHello, World!\n~~~~~~ trailing extra text\n");
    expect(f[0]).toMatchObject({ content: "Hello, World!\n", closed: true });
  });
  it("reports an unclosed fence as a parse error at its opening line", () => {
    const doc = parseMarkdown("# T\n\n```python\nx = 1\n\n### EDIT\n");
    expect(doc.issues).toHaveLength(1);
    expect(doc.issues[0]).toMatchObject({ rule: "parse-error" });
    expect(doc.lines.position(doc.issues[0]!.start).line).toBe(3);
  });
  it("keeps line numbers of CRLF documents and Unicode text", () => {
    const doc = parseMarkdown("# Café ☕\r\n\r\n```\r\nnaïve 🙂\r\n```\r\n");
    expect(doc.blocks[0]).toMatchObject({ kind: "heading", text: "Café ☕", line: 1 });
    expect(doc.blocks[1]).toMatchObject({ kind: "fence", content: "naïve 🙂\n", line: 3 });
  });
  it("keeps link destinations as written (backslashes, no percent-encoding)", () => {
    const doc = parseMarkdown("- File Path: [a\\b c.txt](</a\\b c.txt>)\n");
    const list = doc.blocks[0]!;
    if (list.kind !== "list") throw new Error();
    expect(list.lines[0]!.links[0]!.href).toBe("/a\\b c.txt");
  });
  it("reports an empty document", () => {
    expect(parseMarkdown("  \n").issues[0]).toMatchObject({ rule: "parse-error" });
  });
});

describe("Markdown reader: plain inline text", () => {
  it("reads plain words and one-word code spans as the inline parser does", async () => {
    const fc = await import("fast-check");
    const { markdownTokens } = await import("./markdown.js");
    /** The text of each inline token (of one line) as the inline parser's tokens give it. */
    const parsed = (md: string) =>
      markdownTokens(md)
        .tokens.filter((t) => t.type === "inline")
        .map((t) => (t.children ?? []).filter((c) => ["text", "code_inline", "html_inline", "image"].includes(c.type)).map((c) => c.content).join(""));
    const read = (md: string) =>
      parseMarkdown(md).blocks.flatMap((b) => (b.kind === "heading" ? [b.text] : b.kind === "list" || b.kind === "paragraph" ? b.lines.map((l) => l.text) : []));
    const piece = fc.constantFrom("a", "Z", "0", " ", "  ", "`", "_", ":", "FIND:", "EDIT", "*", "x_y", "\\", "&amp;", "[a](b)", "<b>");
    await fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const s = parts.join("");
        for (const md of [`### ${s}\n`, `#### ${s}\n`, `- ${s}\n`, `x ${s}\n`, `# T\n\n${s}\n`]) expect(read(md), JSON.stringify(md)).toEqual(parsed(md));
      }),
      { numRuns: 400 },
    );
    expect(parseMarkdown("#### `FIND:`\n").blocks[0]).toMatchObject({ kind: "heading", text: "FIND:" });
    expect(parseMarkdown("## Action Plan\n").blocks[0]).toMatchObject({ kind: "heading", text: "Action Plan" });
  });
});
