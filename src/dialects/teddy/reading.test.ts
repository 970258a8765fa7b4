import { describe, expect, it } from "vitest";
import { teddyPlan } from "../../../test/teddy-variants.js";
import { runMd, workspace } from "../../../test/teddy.js";
import { parseMarkdown } from "../../syntax/markdown.js";
import { boldValue, readingIssues, teddyLinkTarget, teddyReading } from "./reading.js";

const ws = workspace({});
const F = "```";
const create = (meta: string, body = "hello") => `### \`CREATE\`\n${meta}\n${F}text\n${body}\n${F}`;
const path = "- **File Path:** [notes.txt](/notes.txt)";
/** The plan's action region starts at line 12 in teddyPlan (line 11 is the blank after `## Action Plan`). */
const A = 12;

/** Refusals of one reading rule: [name, plan, 1-based line of the diagnostic]. */
const REFUSED: [string, string, number][] = [
  ["U+2028 in a code block", teddyPlan([create(path, "a\u2028b")]), A + 3],
  ["vertical tab", teddyPlan([create(path, "a\u000bb")]), A + 3],
  ["NEL", teddyPlan([create(path, "a\u0085b")]), A + 3],
  ["lone CR", teddyPlan([create(path, "a\rb")]), A + 3],
  ["NUL", teddyPlan([create(path, "a\u0000b")]), A + 3],
  ["no-break space after ###", teddyPlan([create(path), "###\u00a0`EXECUTE`\n- **Description:** x\n```shell\nls\n```"]), A + 6],
  ["text before the title", `Decoy\n${teddyPlan([create(path)])}`, 1],
  ["an indented line", teddyPlan([`${create(path)}\n\n  indented`]), A + 6],
  ["a nested item", teddyPlan([create(`${path}\n  - [x](/x)`)]), A + 2],
  ["a lazy continuation", teddyPlan([create(`${path}\nlazy`)]), A + 2],
  ["a list right under a paragraph", teddyPlan([`${create(path)}\n\ntext\n- item`]), A + 7],
  ["--- right under an item", teddyPlan([`### \`READ\`\n- **Resource:** [a](/a)\n---`]), A + 2],
  ["a - bullet followed by a tab, with a lazy line TeDDy joins to it", teddyPlan([`### \`EXECUTE\`\n-\tFoo: x\ncwd: sub\n${F}shell\nls\n${F}`]), A + 1],
  ["a - bullet followed by a tab among items", teddyPlan([`### \`EXECUTE\`\n- **Description:** x\n-\tcwd: sub\n${F}shell\nls\n${F}`]), A + 2],
  ["a * bullet", teddyPlan([create("* **File Path:** [notes.txt](/notes.txt)")]), A + 1],
  ["a quote", teddyPlan([`${create(path)}\n\n> quoted`]), A + 6],
  ["a link definition", teddyPlan([`${create(path)}\n\n[x]: /y`]), A + 6],
  ["a table", teddyPlan([`${create(path)}\n\na | b\n--|--`]), A + 6],
  ["a heading with a closing #", teddyPlan([create(path), "### `READ` #\n- **Resource:** [a](/a)"]), A + 6],
  ["a heading with HTML", teddyPlan([create(path), "### <b>READ</b>\n- **Resource:** [a](/a)"]), A + 6],
  ["a fence mistletoe closes with an info string", teddyPlan([`### \`CREATE\`\n${path}\n${F}text\nhi\n${F}python\n${F}`]), A + 4],
  ["a fence line TeDDy shortens", teddyPlan([`### \`CREATE\`\n${path}\n\`\`\`\`\`\`\`\`\nhi\n\`\`\`\`\`\`js\n\`\`\`\`\`\`\`\``]), A + 4],
  ["an indented opening fence", teddyPlan([`### \`CREATE\`\n${path}\n  ${F}\n  x\n  ${F}`]), A + 2],
  ["a link in an HTML comment", teddyPlan([create("- **File Path:** notes.txt <!-- [x](/x) -->")]), A + 1],
  ["another item naming File Path", teddyPlan([create(`- **Note:** File Path: [x](/x)\n${path}`)]), A + 1],
  ["a key in the wrong case", teddyPlan([create("- **file path:** [notes.txt](/notes.txt)")]), A + 1],
  ["emphasis in a value", teddyPlan([create("- **File Path:** *notes*.txt")]), A + 1],
  ["an escape in a value", teddyPlan([create("- **File Path:** notes\\_a.txt")]), A + 1],
  ["an underscore at a word edge after a plain key", teddyPlan([create("- File Path: src/__init__.py")]), A + 1],
  ["strikethrough in a value", teddyPlan([create("- **File Path:** a~~b~~.txt")]), A + 1],
  ["strikethrough joining a key in another item", teddyPlan([create(`- **Note:** File~~ ~~Path: x.txt\n${path}`)]), A + 1],
  ["a double-backtick run in a code span", teddyPlan([create("- **File Path:** `notes``.txt`")]), A + 1],
  ["Arabic-Indic digits in Timeout", teddyPlan([`### \`EXECUTE\`\n- **Description:** x\n- **Timeout:** \u0663\u0660\n${F}shell\nls\n${F}`]), A + 2],
  ["five spaces after a - (indented code to plangate, TeDDy's cwd)", teddyPlan([`### \`EXECUTE\`\n- **Description:** x\n-     cwd: /etc\n${F}shell\ncat passwd\n${F}`]), A + 2],
  ["five spaces after a - before a second File Path", teddyPlan([create(`${path}\n-     **File Path:** [x](/etc/x)`)]), A + 2],
  ["a space and a tab after a -", teddyPlan([`### \`EXECUTE\`\n- **Description:** x\n- \t**Allow Failure:** true\n${F}shell\nls\n${F}`]), A + 2],
  ["fullwidth digits in Tail", teddyPlan([`### \`EXECUTE\`\n- **Description:** x\n- **Tail:** \uff15\n${F}shell\nls\n${F}`]), A + 2],
];

describe("one reading of a plan.md: refusals", () => {
  it.each(REFUSED)("%s", async (_name, md, line) => {
    const r = await runMd(md, ws, { policyPatch: (p) => (p.markdown.requireSeparators = false) });
    const d = r.diagnostics.filter((x) => x.rule === "unsafe-value");
    expect(d.map((x) => x.line), d.map((x) => x.message).join("\n")).toContain(line);
    expect(r.valid).toBe(false);
  });

  it("refuses an action whose path TeDDy reads otherwise (last File Path wins), at the action", async () => {
    const md = teddyPlan([create(`${path}\n- **File Path:** [b.txt](/b.txt)`)]);
    const r = await runMd(md, ws);
    const d = r.diagnostics.find((x) => x.rule === "unsafe-value" && x.message.includes("TeDDy's parser reads the path"));
    expect(d).toMatchObject({ step: 1, line: A });
  });

  it("refuses parameters TeDDy reads as false", async () => {
    const r = await runMd(teddyPlan([create(`${path}\n- **Overwrite:** yes`)]), ws);
    expect(r.diagnostics.find((x) => x.rule === "unsafe-value")?.message).toContain('{"overwrite":"false"}');
  });
});

describe("one reading of a plan.md: accepted forms", () => {
  const ACCEPTED: [string, string][] = [
    ["plain plan", teddyPlan([create(path)])],
    ["tildes and a repaired closing line", teddyPlan([`### \`CREATE\`\n${path}\n~~~~~~\nhi\n~~~~~~ trailing extra text`])],
    ["a longer fence around a shorter one", teddyPlan([`### \`CREATE\`\n${path}\n\`\`\`\`md\n${F}js\nx\n${F}\n\`\`\`\``])],
    ["a #Title first line", teddyPlan([create(path)], { title: "#Title" })],
    ["a bold path with underscores", teddyPlan([create("- **File Path:** src/__init__.py")])],
    ["a Windows path link", teddyPlan([create("- **File Path:** [a\\b.txt](/a\\b.txt)")])],
    ["CRLF", teddyPlan([create(path)]).replace(/\n/g, "\r\n")],
    ["a description with any inline syntax", teddyPlan([create(`${path}\n- **Description:** Edit \`a.py\` *now* <b>x</b>`)])],
    ["a message with free text after it", "# Hi\n- **Agent:** x\n\n## Rationale\n```\nx\n```\n\n## Message\n  indented\n> quote\n* star\n"],
  ];
  it.each(ACCEPTED)("%s", async (_name, md) => {
    const r = await runMd(md, ws);
    expect(r.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.rule}: ${d.message}`)).toEqual([]);
  });
});

describe("TeDDy's reading, emulated", () => {
  it("strips leading slashes unless TeDDy takes the path for a true absolute one", () => {
    expect(teddyLinkTarget("/a/b")).toBe("a/b");
    expect(teddyLinkTarget("//a")).toBe("a");
    expect(teddyLinkTarget("/etc/passwd")).toBe("/etc/passwd");
    expect(teddyLinkTarget("/tmpx/a")).toBe("/tmpx/a");
    expect(teddyLinkTarget("https://x/y")).toBe("https://x/y");
    expect(teddyLinkTarget("/a\\b")).toBe("a/b");
  });
  it("takes a bold key's value as written, code-span backticks removed", () => {
    expect(boldValue("**File Path:** src/__init__.py")).toBe("src/__init__.py");
    expect(boldValue("**File Path**: `a.py`")).toBe("a.py");
    expect(boldValue("File Path: a.py")).toBeUndefined();
  });
  it("reads the positional structure TeDDy requires, and refuses what it refuses", () => {
    const ok = teddyReading(parseMarkdown(teddyPlan([create(path), "### `READ`\n- **Resource:** [a.py](/a.py)"])));
    expect(ok).toMatchObject({ ok: true, message: false, actions: [{ type: "CREATE", params: { path: "notes.txt" }, content: "hello" }, { type: "READ", params: { resource: "a.py" } }] });
    expect(teddyReading(parseMarkdown(`# T\n\n## Rationale\n${F}\nx\n${F}\n\n## Action Plan\n\n${create(path)}\n`))).toMatchObject({ ok: false });
    expect(teddyReading(parseMarkdown(teddyPlan(["### `PRUNE`\n- **File Path:** [a](/a)"])))).toMatchObject({ ok: false });
  });
  it("never throws and bounds its list, whatever the input", async () => {
    const fc = await import("fast-check");
    const piece = fc.constantFrom("# T\n", "#T\n", "- **File Path:** [a](/a)\n", "- x\n", "  - y\n", "## Rationale\n", "## Action Plan\n", "## Message\n", "### `CREATE`\n", "#### FIND:\n", "```\n", "```py\n", "~~~~~~ x\n", "``````js\n", "---\n", "> q\n", "<!--\n", "| a |\n", "|---|\n", "text\n", "\u2028", "\u00a0", "\r", "\u0000", "\n");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (parts) => {
        const doc = parseMarkdown(parts.join(""));
        expect(readingIssues(doc).length).toBeLessThanOrEqual(50);
        teddyReading(doc);
      }),
      { numRuns: 300 },
    );
  });
});
