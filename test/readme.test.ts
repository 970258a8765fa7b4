import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const DOCS = ["README.md", "CHANGELOG.md"].filter((f) => {
  try {
    readFileSync(join(root, f));
    return true;
  } catch {
    return false;
  }
});

/** Lines a reader would take for headings, found outside fenced code with CommonMark's fence rules. */
function headingLines(text: string): number[] {
  const lines = text.split("\n");
  const found: number[] = [];
  let fence: { char: string; len: number } | undefined;
  lines.forEach((line, i) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.len) fence = undefined;
      return;
    }
    if (open && !(open[1]![0] === "`" && line.slice(line.indexOf("`") + open[1]!.length).includes("`"))) {
      fence = { char: open[1]![0]!, len: open[1]!.length };
      return;
    }
    if (/^ {0,3}#{1,6}(?:[ \t]|$)/.test(line)) found.push(i);
  });
  if (fence) found.push(-1);
  return found;
}

describe.each(DOCS)("%s renders", (file) => {
  const text = readFileSync(join(root, file), "utf8");
  const tokens = new MarkdownIt().parse(text, {});

  it("closes every code fence", () => {
    expect(headingLines(text)).not.toContain(-1);
  });

  it("renders every heading written outside code as a heading", () => {
    const rendered = tokens.filter((t) => t.type === "heading_open").map((t) => t.map![0]);
    expect(rendered).toEqual(headingLines(text));
  });

  it("has no heading inside a code block that looks like a section of the document", () => {
    const fencedHeadings = tokens
      .filter((t) => t.type === "fence")
      .flatMap((t) => t.content.split("\n").filter((l) => /^#{2,3} [A-Z][a-z]+( [a-z]+)*$/.test(l) && !/^#{2,3} (Rationale|Action Plan|Message)$/.test(l)));
    expect(fencedHeadings).toEqual([]);
  });
});

describe("README claims", () => {
  const text = readFileSync(join(root, "README.md"), "utf8");
  it("names every published JSON Schema in its JSON Schemas section", () => {
    const section = text.slice(text.indexOf("## JSON Schemas"), text.indexOf("\n## ", text.indexOf("## JSON Schemas") + 3));
    const published = readdirSync(join(root, "schemas")).filter((f) => f.endsWith(".schema.json")).map((f) => f.replace(".schema.json", ""));
    expect(published.length).toBeGreaterThan(0);
    for (const name of published) expect(section, name).toContain(`\`${name}\``);
  });
});
