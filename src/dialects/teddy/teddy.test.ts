import { describe, expect, it } from "vitest";
import { ids } from "../../../test/helpers.js";
import { planMd, runMd, workspace } from "../../../test/teddy.js";
import { actionOf } from "../../core/step-extra.js";
import { occurrences } from "../../rules/teddy-facts.js";
import { cpuBound } from "../../../test/cpu-time.js";

const ws = workspace({ "src/a.py": "x = 1\n" });

describe("teddy dialect", () => {
  it("normalises each action into a step: type, root-relative path, intent, parameters, command", async () => {
    const md = planMd(
      "### `CREATE`\n- **File Path:** [src/new.py](/src/new.py)\n- **Description:** Add it.\n- **Overwrite:** true\n```python\nprint(1)\n```",
      "### EXECUTE\n- **Description:** Run it.\n- **Timeout:** 30\n```shell\npython src/new.py\n```",
      "### READ\n**Resource:** `docs\\spec.md`",
      "### READ\n- Resource: https://example.com/x",
    );
    const r = await runMd(md, ws);
    expect(r.dialect).toBe("teddy");
    expect(r.steps).toBe(4);
    const [create, exec, read, web] = r.plan!.steps;
    expect(create).toMatchObject({ tool: "CREATE", intent: "Add it.", args: { path: "src/new.py", overwrite: true } });
    expect(actionOf(create!)).toMatchObject({ content: "print(1)", overwrite: true });
    expect(exec).toMatchObject({ tool: "EXECUTE", args: { command: "python src/new.py", timeout: 30 } });
    expect(read!.args).toEqual({ path: "docs/spec.md" });
    expect(web!.args).toEqual({ url: "https://example.com/x" });
  });
  it("locates diagnostics at the action's metadata line", async () => {
    const md = planMd("### EDIT\n- **File Path:** [src/missing.py](/src/missing.py)\n#### FIND:\n```\nx\n```\n#### REPLACE:\n```\ny\n```");
    const d = (await runMd(md, ws)).diagnostics.find((x) => x.rule === "edit-target-missing")!;
    expect(d).toMatchObject({ step: 1, pointer: "/actions/0/params/File Path", line: 11 });
    expect(md.split("\n")[10]!.slice(d.column! - 1, d.endColumn! - 1)).toBe("/src/missing.py");
  });
  it("accepts a `## Message` turn with no actions, and a `#Title` without the space", async () => {
    const r = await runMd("#Hello\n\n## Rationale\nWhy.\n\n## Message\nDo you approve?\n", ws);
    expect(r.valid).toBe(true);
    expect(r.steps).toBe(0);
  });
  it("reports an `## Action Plan` without actions as empty-plan", async () => {
    expect(ids(await runMd("# T\n\n## Rationale\nx\n\n## Action Plan\n\n## Notes\n", ws))).toContain("empty-plan");
  });
  it("reports text after the code block of a CREATE or EXECUTE as unreadable", async () => {
    const r = await runMd(planMd("### EXECUTE\n```shell\nls\n```\nThis is stray."), ws);
    expect(r.diagnostics.map((d) => [d.rule, d.step])).toEqual([["parse-error", 1]]);
  });
  it("reports a metadata key given twice", async () => {
    const r = await runMd(planMd("### READ\n- Resource: [a](/src/a.py)\n- Resource: [b](/src/b.py)"), ws);
    expect(ids(r)).toContain("duplicate-key");
  });
  it("reads a CRLF plan like its LF spelling, with the same plan hash", async () => {
    const md = planMd("### READ\n- **Resource:** [src/a.py](/src/a.py)");
    const lf = await runMd(md, ws);
    const crlf = await runMd(md.replace(/\n/g, "\r\n"), ws);
    expect(crlf.valid).toBe(true);
    expect(crlf.planHash).toBe(lf.planHash);
    expect(crlf.plan!.steps[0]!.args).toEqual(lf.plan!.steps[0]!.args);
  });
  it("with --fail-fast keeps only the first failure in check order: structure, then steps in order", async () => {
    const md = `# T\n\n## Rationale\nx\n\n## Action Plan\n\n### READ\n- Resource: [nope.txt](/nope.txt)\n### CREATE\n- File Path: [src/a.py](/src/a.py)\n\`\`\`\nx\n\`\`\``;
    const all = await runMd(md, ws);
    expect(ids(all)).toEqual(["read-file-missing", "md-action-separator", "create-target-exists"]);
    expect(ids(await runMd(md, ws, { failFast: true }))).toEqual(["md-action-separator"]);
    expect(ids(await runMd(md, ws, { failFast: true, policyPatch: (p) => (p.markdown.requireSeparators = false) }))).toEqual(["read-file-missing"]);
  });
  it("counts overlapping occurrences", () => {
    expect(occurrences("aaa", "aa")).toEqual([0, 1]);
    expect(occurrences("abc", "")).toEqual([]);
  });
});

describe("teddy dialect: reading the workspace", () => {
  it("reads each target file once, however many actions touch it", async () => {
    const { createFileProbe } = await import("../../node/file-probe.js");
    const ws2 = workspace({ "m.py": "a = 1\nb = 2\nc = 3\n" });
    const probe = createFileProbe();
    const reads = new Map<string, number>();
    const count = (p: string) => {
      reads.set(p, (reads.get(p) ?? 0) + 1);
      return p;
    };
    const files = { ...probe, readText: (p: string) => probe.readText(count(p)), readBytes: (p: string) => probe.readBytes!(count(p)) };
    const pair = (f: string, r: string) => `#### FIND:\n\`\`\`\n${f}\n\`\`\`\n#### REPLACE:\n\`\`\`\n${r}\n\`\`\`\n`;
    const edit = (body: string) => `### EDIT\n- File Path: [m.py](/m.py)\n${body}`;
    const md = planMd(edit(pair("a = 1", "a = 10") + pair("b = 2", "b = 20")), edit(pair("c = 3", "c = 30")), "### READ\n- Resource: [m.py](/m.py)");
    const r = await runMd(md, ws2, { files, context: ["m.py"] });
    expect(r.valid).toBe(true);
    expect([...reads.values()]).toEqual([1]);
  });
  it("keeps each file's edited text while a later action touches it, and searches each file's own text", async () => {
    const ws2 = workspace({ "a.py": "a = 1\nshared = 0\n", "b.py": "b = 2\nshared = 0\n", "c.py": "c = 3\n" });
    const pair = (f: string, r: string) => `#### FIND:\n\`\`\`\n${f}\n\`\`\`\n#### REPLACE:\n\`\`\`\n${r}\n\`\`\`\n`;
    const edit = (file: string, body: string) => `### EDIT\n- File Path: [${file}](/${file})\n${body}`;
    const md = planMd(
      edit("a.py", pair("a = 1", "a = 10")),
      edit("b.py", pair("b = 2", "b = 20")),
      edit("c.py", pair("a = 10", "c = 30") + pair("shared = 0", "s")),
      edit("a.py", pair("a = 10", "a = 100")),
      edit("b.py", pair("b = 2\\nshared", "b = 200")),
    );
    const r = await runMd(md, ws2, { context: ["a.py", "b.py", "c.py"] });
    expect(r.diagnostics.map((d) => [d.rule, d.step])).toEqual([
      ["find-no-match", 3],
      ["find-no-match", 3],
      ["find-no-match", 5],
    ]);
  });
  it("works with a file probe that only reads text", async () => {
    const { createFileProbe } = await import("../../node/file-probe.js");
    const probe = createFileProbe();
    const files = { ...probe, readBytes: undefined };
    const ws2 = workspace({ "t.txt": "ligne é\r\nligne é\r\n" });
    const md = planMd("### EDIT\n- File Path: [t.txt](/t.txt)\n#### FIND:\n```\nligne é\n```\n#### REPLACE:\n```\nx\n```");
    const d = (await runMd(md, ws2, { files })).diagnostics.filter((x) => x.rule === "find-ambiguous");
    expect(d[0]!.message).toContain("at lines 1 and 2");
  });
  it("reports bidi or zero-width characters in a path as unsafe-value", async () => {
    const r = await runMd(planMd("### READ\n- Resource: [a\u202Etxt.md](/a\u202Etxt.md)"), ws);
    expect(ids(r)).toContain("unsafe-value");
  });
  it("never throws on arbitrary Markdown-like input", async () => {
    const fc = await import("fast-check");
    const piece = fc.constantFrom("# T\n", "## Rationale\n", "## Action Plan\n", "### EDIT\n", "### `CREATE`\n", "#### FIND:\n", "#### REPLACE:\n", "```\n", "~~~~\n", "---\n", "- File Path: [a](/a)\n", "- Resource: [/x]\n", "**Match All:** true\n", "\r\n", "x = 1\n", "[a](</..\\b>)\n", "\u0000", "é🙂\n", "    ```\n");
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 40 }), async (parts) => {
        const r = await runMd(parts.join(""), ws);
        expect(r.dialect).toBe("teddy");
        expect(r.diagnostics.every((d) => !d.message.includes("check failed"))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe("teddy dialect: link paths", () => {
  it("reports a link whose text shows another path than its destination", async () => {
    const r = await runMd(planMd("### READ\n- Resource: [src/a.py](/src/b.py)"), ws);
    const d = r.diagnostics.filter((x) => x.rule === "unsafe-value");
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain('shows "src/a.py" but points to "/src/b.py"');
  });
  it("reports a link whose text shows another path among spaces or words", async () => {
    for (const text of ["src/a.py ", " src/a.py", "edit src/a.py", "src/a.py and tests", "the a.py module"]) {
      const r = await runMd(planMd(`### READ\n- Resource: [${text}](/src/b.py)`), ws);
      const d = r.diagnostics.filter((x) => x.rule === "unsafe-value");
      expect(d, text).toHaveLength(1);
      expect(d[0]!.message, text).toContain("but points to \"/src/b.py\"");
    }
  });
  it("accepts descriptive text that names the destination's path, or no path at all", async () => {
    const md = planMd("### READ\n- Resource: [edit src/a.py now](/src/a.py)", "### READ\n- Resource: [the main module, i.e. the greeter](/src/a.py)", "### READ\n- Resource: [ src/a.py ](/src/a.py)");
    expect((await runMd(md, ws)).diagnostics.filter((x) => x.rule === "unsafe-value")).toHaveLength(0);
  });
  it("accepts the spellings TeDDy writes: same path, leading slash, backslashes, or descriptive text", async () => {
    const md = planMd("### READ\n- Resource: [/src/a.py](/src/a.py)", "### READ\n- Resource: [src\\a.py](/src\\a.py)", "### READ\n- Resource: [the module](/src/a.py)");
    expect((await runMd(md, ws)).diagnostics.filter((x) => x.rule === "unsafe-value")).toHaveLength(0);
  });
});

describe("teddy dialect: web resources", () => {
  it("reads a Resource as a web page only where TeDDy does (http:// or https://, as spelt); any other scheme is a local path to it", async () => {
    const md = planMd("### READ\n- Resource: https://example.com/a", "### READ\n- **Resource:** [x](http://example.com/b)");
    const r = await runMd(md, ws);
    expect(r.plan!.steps.map((s) => s.args)).toEqual([{ url: "https://example.com/a" }, { url: "http://example.com/b" }]);
    for (const resource of ["HTTP://../../../etc/passwd", "[x](HTTPS://../../../etc/passwd)", "ftp://../../../etc/passwd", "[x](smb://../../../etc/passwd)"]) {
      const d = await runMd(planMd(`### READ\n- **Resource:** ${resource}`), ws);
      expect(ids(d), resource).toContain("path-outside-workspace");
    }
  });
});

describe("teddy dialect: unreadable input", () => {
  it("reports an empty plan.md once, as a parse error", async () => {
    expect(ids(await runMd(" \n\n", ws))).toEqual(["parse-error"]);
  });
});

describe("teddy dialect: metadata block", () => {
  it("reads metadata at the top of an action only; bold labels in a message stay prose", async () => {
    const md = planMd("### CHAT_WITH_USER\n- **Agent:** Pathfinder\n\nMy findings:\n\n**Note:** one\n\n**Note:** two\n\n- Target: Architect");
    const r = await runMd(md, ws);
    expect(r.valid).toBe(true);
    expect(r.plan!.steps[0]!.args).toEqual({ agent: "Pathfinder" });
  });
  it("still sees a second File Path further down an action", async () => {
    const md = planMd("### EDIT\n- File Path: [src/a.py](/src/a.py)\n#### FIND:\n```\nx = 1\n```\n#### REPLACE:\n```\nx = 2\n```\n- File Path: [src/b.py](/src/b.py)");
    expect(ids(await runMd(md, ws))).toContain("duplicate-key");
  });
});

describe("teddy dialect: bounded simulation of edits", () => {
  const grow = (pairs: number, find = "a", replace = "aa") =>
    planMd(`### EDIT\n- **File Path:** [g.txt](/g.txt)\n- **Match All:** true\n${`#### FIND:\n\`\`\`\n${find}\n\`\`\`\n#### REPLACE:\n\`\`\`\n${replace}\n\`\`\`\n`.repeat(pairs)}`);
  it("stops a file that Match All pairs grow geometrically, as limit-exceeded on the EDIT", async () => {
    const ws2 = workspace({ "g.txt": "ab\n".repeat(400) });
    const r = await runMd(grow(40), ws2, { context: ["g.txt"] });
    const d = r.diagnostics.filter((x) => x.rule === "limit-exceeded");
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, line: 10 });
    expect(r.valid).toBe(false);
  });
  it("stops a FIND block with too many occurrences, and a growth past the simulated size", async () => {
    const ws2 = workspace({ "g.txt": "ab\n".repeat(400) });
    const hits = (await runMd(grow(12, "ab", "abab"), ws2, { context: ["g.txt"] })).diagnostics.find((x) => x.rule === "limit-exceeded");
    expect(hits?.message).toMatch(/occurs more than 100000 times|over the 32 MiB/);
    const ws3 = workspace({ "g.txt": "q\n".repeat(1000) });
    const big = (await runMd(grow(2, "q", "Q" + "z".repeat(40_000)), ws3, { context: ["g.txt"] })).diagnostics.find((x) => x.rule === "limit-exceeded");
    expect(big?.message).toContain("over the 32 MiB");
  });
  it("words each limit from limit-exceeded's messages: growth, occurrences, total work", async () => {
    const limitOf = async (md: string, files: Record<string, string>) =>
      (await runMd(md, workspace(files), { context: ["g.txt"] })).diagnostics.filter((x) => x.rule === "limit-exceeded").map((d) => [d.messageId, d.message]);
    expect(await limitOf(grow(2, "q", "Q" + "z".repeat(40_000)), { "g.txt": "q\n".repeat(1000) })).toEqual([
      ["teddyFileGrowth", 'Step 1 (EDIT): pair 1 would make "g.txt" 38 MiB, over the 32 MiB the check simulates; the rest of the plan was not checked.'],
    ]);
    expect(await limitOf(grow(1, "a", "b"), { "g.txt": "a".repeat(100_001) })).toEqual([
      ["teddyFindHits", 'Step 1 (EDIT): the FIND block of pair 1 occurs more than 100000 times in "g.txt"; the rest of the plan was not checked.'],
    ]);
    // A 2 MiB file searched by 130 pairs that match nothing: more than 256 MiB of searching.
    expect(await limitOf(grow(130, "zz", "yy"), { "g.txt": "x\n".repeat(1024 * 1024) })).toEqual([
      ["teddySimulationWork", "Step 1 (EDIT): simulating the plan's edits takes more than 256 MiB of work; the rest of the plan was not checked."],
    ]);
  });
  it("counts each occurrence as work: EDITs of a letter a CREATE repeats on 100,000 lines stop in bounded time and memory", async () => {
    // Their line numbers, kept for every match, took 2.5 GB and over a minute for a plan of 1 MiB.
    const create = `### CREATE\n- **File Path:** [g.txt](/g.txt)\n- **Description:** d\n\`\`\`text\n${"a\n".repeat(99_990)}\`\`\`\n\n---\n\n`;
    const edit = "### EDIT\n- **File Path:** [g.txt](/g.txt)\n- **Description:** d\n#### FIND:\n```\na\n```\n#### REPLACE:\n```\nb\n```\n\n---\n\n";
    const started = process.cpuUsage();
    const r = await runMd(planMd(create + edit.repeat(400)), workspace({}));
    const used = process.cpuUsage(started);
    expect(r.diagnostics.filter((x) => x.rule === "limit-exceeded").map((d) => [d.messageId, d.step])).toEqual([["teddySimulationWork", 22]]);
    expect(r.diagnostics.find((x) => x.rule === "find-ambiguous")?.message).toBe('Step 2 (EDIT): the FIND block of pair 1 occurs 99990 times in "g.txt", at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 99970 more; it must occur exactly once.');
    expect((used.user + used.system) / 1000).toBeLessThan(cpuBound(3_000));
  });
  it("leaves ordinary Match All edits alone", async () => {
    const ws2 = workspace({ "g.txt": "ab\n".repeat(400) });
    const r = await runMd(grow(2, "ab", "ba"), ws2, { context: ["g.txt"] });
    expect(ids(r)).not.toContain("limit-exceeded");
  });
});
