import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cpuBound, cpuTimed } from "../../test/cpu-time.js";
import { bodyStart, findTodoTask, findTodoTaskCommonMark, needsCommonMark, normaliseStatus } from "./todo.js";

const at = (text: string, offset: number | undefined) => (offset === undefined ? undefined : text.slice(offset, offset + 12));

describe("findTodoTask (markdown-it block structure)", () => {
  it("finds a task heading and its Status line, with offsets into the text", () => {
    const text = "# TODO\n\n### 3. Write the parser\n\n- **Status:** [PLANNED]\n- **Language:** ts\n";
    const { task } = findTodoTask(text, 3);
    expect(task?.title).toBe("Write the parser");
    expect(at(text, task?.headingOffset)).toBe("### 3. Write");
    expect(text.slice(task!.headingOffset, task!.headingEnd)).toBe("### 3. Write the parser");
    expect(task?.rawStatus).toBe("[PLANNED]");
    expect(at(text, task?.statusOffset)).toBe("[PLANNED]\n- ");
    expect(task?.language).toBe("ts");
  });

  it("skips front matter, and a task whose number is only a prefix (### 12.5)", () => {
    const text = "---\ntitle: x\n---\n### 12.5 Detail\nStatus: done\n### 12. Real\nStatus: [DONE]\n";
    const { task } = findTodoTask(text, 12);
    expect(task?.title).toBe("Real");
    expect(task?.rawStatus).toBe("[DONE]");
  });

  it.each([
    ["a backtick fence", "```md\n### 4. Example\nStatus: [DONE]\n```\n"],
    ["a longer fence holding a shorter one", "````\n```\n### 4. Example\nStatus: [DONE]\n```\n````\n"],
    ["a tilde fence", "~~~\n### 4. Example\nStatus: [DONE]\n~~~\n"],
    ["indented code", "para\n\n    ### 4. Example\n    Status: [DONE]\n"],
    ["an HTML block", "<div>\n### 4. Example\nStatus: [DONE]\n</div>\n"],
  ])("does not read a heading inside %s", (_name, text) => {
    const r = findTodoTask(text, 4);
    expect(r.task).toBeUndefined();
    expect(r.nonTasks).toEqual([]);
  });

  it("ignores a Status line inside code in the section, and stops at the next heading of level 1-3", () => {
    const text = "### 5. Five\n\n```\nStatus: [FAKE]\n```\n\n## Next\nStatus: [LATER]\n";
    const r = findTodoTask(text, 5);
    expect(r.task).toBeUndefined();
    expect(r.nonTasks).toEqual([{ offset: 0, title: "Five" }]);
  });

  it("reads on past a level-4 heading inside the section", () => {
    const text = "### 6. Six\n#### Notes\n- Status: [IN PROGRESS]\n";
    expect(findTodoTask(text, 6).task?.rawStatus).toBe("[IN PROGRESS]");
  });

  it("lists numbered headings without a Status line as section titles, not tasks", () => {
    const text = "### 1. Overview\ntext\n### 1. Setup\n**Status**: not started\n";
    const r = findTodoTask(text, 1);
    expect(r.nonTasks.map((t) => t.title)).toEqual(["Overview"]);
    expect(r.task?.title).toBe("Setup");
    expect(normaliseStatus(r.task!.rawStatus!)).toBe("not_started");
  });

  it.each(["===", "---", "  --"])("ends a section at a setext heading (underline %j)", (underline) => {
    const text = `### 1. One\ntext\n${underline}\nStatus: [DONE]\n`;
    expect(findTodoTask(text, 1)).toEqual({ nonTasks: [{ offset: 0, title: "One" }] });
  });

  it("reads many sections without a Status line in linear time", () => {
    // 4 MiB of headings for task 7 and none a task, then the task inside a fence, then the task: each
    // section's fence search ran to the end of the text (2 MiB took 6.7 s).
    const many = 450_000;
    const text = "### 7. T\n".repeat(many) + "```\n### 7. In code\nStatus: [DONE]\n```\n### 7. Real\nStatus: [DONE]\n";
    const { value: r, ms } = cpuTimed(() => findTodoTask(text, 7));
    expect(ms).toBeLessThan(cpuBound(3000));
    expect(r.nonTasks.length).toBe(many);
    expect(r.task?.title).toBe("Real");
    expect(r.task?.headingOffset).toBe(text.lastIndexOf("### 7. Real"));
  });

  it("handles CRLF line endings", () => {
    const text = "### 2. Two\r\nStatus: [DONE]\r\n";
    const { task } = findTodoTask(text, 2);
    expect(task?.rawStatus).toBe("[DONE]");
    expect(task?.title).toBe("Two");
  });
});

describe("findTodoTask reads as CommonMark does (property)", () => {
  // Lines a plain TODO.md is made of, and lines where a line-by-line reading could go wrong.
  const PLAIN = [
    "", "text", "# TODO", "## Section", "### 1. One", "### 2. Two", "### 1.5 Sub", "#### 1. Deep", "###",
    "- **Status**: [DONE]", "Status: [PLANNED]", "**Language**: lean4", "- item", "  - Status: [NESTED]",
    "```", "````", "~~~", "```md", "~~~ x ```", "---", "***",
  ];
  const RISKY = [
    "```x`y", "```\u00a0", "  ```", "    Status: [CODE]", "\tStatus: [TAB]", "<div>", "<!-- Status: [HTML] -->",
    "===", "> ### 1. Quoted", "- ### 1. Listed", " ### 1. Indented", "###\t1. Tab", "###  1. Two spaces",
    "### 1. Closed ###", "a\rStatus: [CR]", "x\0y", "### 1. N\0ul",
    "--- ", "  ---", "=== \t", "-\t-", "### 1. Closed #\t", "## #", "#\tTab", "- x -", "* x =",
  ];
  const line = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...PLAIN) }, { weight: 1, arbitrary: fc.constantFrom(...RISKY) });
  const doc = fc
    .tuple(
      fc.boolean(),
      fc.boolean(),
      fc.array(fc.tuple(fc.constantFrom("### 1. One", "### 2. Two", "## Section", "text"), fc.array(line, { maxLength: 5 })), {
        maxLength: 5,
      }),
    )
    .map(([front, crlf, sections]) => (front ? "---\nk: v\n---\n" : "") + sections.flat(2).join(crlf ? "\r\n" : "\n"));

  it("gives the markdown-it reading for every document, through either path", () => {
    let scanned = 0;
    fc.assert(
      fc.property(doc, fc.constantFrom(1, 2), (text, n) => {
        const start = bodyStart(text);
        if (!needsCommonMark(text.slice(start)) && findTodoTask(text, n).task) scanned++;
        expect(findTodoTask(text, n)).toEqual(findTodoTaskCommonMark(text, n));
      }),
      { numRuns: 3000 },
    );
    // The property says something about the scanner only if it found tasks in a fair share of them.
    expect(scanned).toBeGreaterThan(50);
  });
});
