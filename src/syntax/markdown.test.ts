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

describe("Markdown reader: inline shortcuts", () => {
  it("read plain text, one-word code spans and bold keys with a plain value or link as the inline parser does", async () => {
    const fc = await import("fast-check");
    const same = (md: string) => expect(parseMarkdown(md).blocks, JSON.stringify(md)).toEqual(parseMarkdown(md, { inlineShortcuts: false }).blocks);
    const piece = fc.constantFrom("a", "Z", "0", " ", "  ", "`", "_", ":", "FIND:", "EDIT", "*", "**", "x_y", "\\", "&amp;", "[a](b)", "<b>", "[", "]", "(", ")", "/", ".", "-", "~", "!", "#");
    const text = fc.array(piece, { maxLength: 8 }).map((p) => p.join(""));
    // Bold keys and values built of pieces near the shortcut's forms, and of characters that leave them.
    const near = (...extra: string[]) => fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom("File", "Path", " ", "a", "Z", "9", ".", "/", "-") }, fc.constantFrom(...extra)), { minLength: 1, maxLength: 6 }).map((p) => p.join(""));
    const odd = ["_", "*", "`", ":", "[", "]", "(", ")", "&amp;", "\\", "<b>", "~", "!", "  "];
    const item = fc.tuple(near(...odd), fc.constantFrom(":** ", ":** ", ":** [", "**: ", ":**", "** "), near(...odd), fc.constantFrom("", "", "](", "](/", ")", "]"), near(...odd), fc.constantFrom("", ")", ")", ")x")).map(
      ([k, sep, v, mid, h, end]) => `**${k}${sep}${v}${mid}${h}${end}`,
    );
    await fc.assert(
      fc.property(fc.oneof(text, item), (s) => {
        for (const md of [`### ${s}\n`, `#### ${s}\n`, `- ${s}\n`, `x ${s}\n`, `# T\n\n${s}\n`, `- ${s}\n- ${s}\n`]) same(md);
      }),
      { numRuns: 1500 },
    );
    const nearMisses = ["Key:** _a_", "Key:** a_b", "Key:** __init__.py", "Key:** [__a__](/b)", "Key:** [a](/__b__)", "Key:** *a*", "Key:** a  b", "Key:** [a b](/c)", "Key:** [a](/b c)", "Key:** [a](<b>)", "K_y:** a", "Key :** a"];
    for (const s of ["File Path:** [src/a.py](/src/a.py)", "Description:** rename x", "Resource:** [a-b/c.d](/a-b/c.d)", "A:** 1/2.3-4", ...nearMisses]) same(`- **${s}\n`);
    expect(parseMarkdown("- **File Path:** [src/a.py](/src/a.py)\n").blocks[0]).toMatchObject({ kind: "list", lines: [{ text: "File Path: src/a.py", bold: true, links: [{ text: "src/a.py", href: "/src/a.py" }] }] });
    expect(parseMarkdown("#### `FIND:`\n").blocks[0]).toMatchObject({ kind: "heading", text: "FIND:" });
    expect(parseMarkdown("## Action Plan\n").blocks[0]).toMatchObject({ kind: "heading", text: "Action Plan" });
  });
});
