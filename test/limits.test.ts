import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseHookInput } from "../src/node/hook.js";
import { parsePolicyText } from "../src/node/policy.js";
import { validateFile } from "../src/node/validate-file.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import { parseJson } from "../src/syntax/json.js";
import { Lexer, parseDocument } from "yaml";
import fc from "fast-check";
import { MAX_YAML_ERRORS, MAX_YAML_LEXEMES, MAX_YAML_TOKENS, parseYaml, yamlTokenEstimate } from "../src/syntax/yaml.js";
import { cli } from "./cli-io.js";
import { cpuBound, cpuMsSince, cpuTimed } from "./cpu-time.js";
import { diagnosticsOf, run, tools } from "./helpers.js";


const dir = mkdtempSync(join(tmpdir(), "plangate-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function policyWith(limits: Partial<ReturnType<typeof defaultPolicy>["limits"]>) {
  const policy = defaultPolicy("/workspace");
  Object.assign(policy.limits, limits);
  return policy;
}

describe("limits.maxStringLength", () => {
  const plan = (s: string) => JSON.stringify([{ tool: "plot_qc", params: { note: s } }]);

  it("reports a JSON string over the limit, at the string", async () => {
    const found = await diagnosticsOf("limit-exceeded", plan("x".repeat(101)), { policy: policyWith({ maxStringLength: 100 }) });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ pointer: "/0/params/note", line: 1 });
  });

  it("reports a key over the limit on the reader's slow path too", () => {
    const text = `{"${"k".repeat(50)}": 1, "a\\u0041": "${"y".repeat(60)}"}`;
    for (const fast of [true, false]) {
      const doc = parseJson(text, { maxStringLength: 40, fast });
      expect(doc.issues.map((i) => i.rule)).toEqual(["limit-exceeded", "limit-exceeded"]);
    }
  });

  it("accepts a string at the limit", async () => {
    expect(await diagnosticsOf("limit-exceeded", plan("x".repeat(100)), { policy: policyWith({ maxStringLength: 100 }) })).toEqual([]);
  });

  it("reports a YAML string and key over the limit", () => {
    const doc = parseYaml(`${"k".repeat(30)}: ${"v".repeat(30)}\nok: fine\n`, { maxStringLength: 20 });
    expect(doc.issues.map((i) => [i.rule, i.at])).toEqual([
      ["limit-exceeded", `/${"k".repeat(30)}`],
      ["limit-exceeded", `/${"k".repeat(30)}`],
    ]);
  });

  it("has a safe default of 1 MiB", () => {
    expect(defaultPolicy("/").limits.maxStringLength).toBe(1024 * 1024);
    expect(defaultPolicy("/").limits.maxYamlBytes).toBe(1024 * 1024);
    expect(parseJson(`["${"x".repeat(1024 * 1024 + 1)}"]`).issues.map((i) => i.rule)).toEqual(["limit-exceeded"]);
  });
});

describe("limits.maxYamlBytes", () => {
  it("refuses a YAML document over the limit before parsing it", async () => {
    const text = `steps:\n${"  - tool: read_file\n    arguments: {path: a}\n    intent: read\n".repeat(200)}`;
    const report = await run(text, { file: "plan.yaml", policy: policyWith({ maxYamlBytes: 1000 }) });
    expect(report.diagnostics.map((d) => d.rule)).toEqual(["limit-exceeded"]);
    expect(report.diagnostics[0]!.message).toContain("maxYamlBytes");
  });

  it("counts bytes, not characters", async () => {
    const text = `- tool: "${"é".repeat(300)}"\n`; // 600 bytes of é in 300 characters
    const over = await diagnosticsOf("limit-exceeded", text, { file: "plan.yaml", policy: policyWith({ maxYamlBytes: 500 }) });
    expect(over).toHaveLength(1);
    const under = await diagnosticsOf("limit-exceeded", text, { file: "plan.yaml", policy: policyWith({ maxYamlBytes: 700 }) });
    expect(under).toEqual([]);
  });

  it("can be set in the policy file, and rejects nonsense values", async () => {
    const policy = await parsePolicyText("limits:\n  maxYamlBytes: 10\n  maxStringLength: 5\n", "plangate.yaml");
    expect(policy.limits).toEqual({ maxYamlBytes: 10, maxStringLength: 5 });
    await expect(parsePolicyText("limits:\n  maxStringLength: 0\n", "plangate.yaml")).rejects.toThrow(/maxStringLength/);
  });
});

describe("input size on the command line", () => {
  it("refuses to seal a file over the size limit without reading it", async () => {
    const big = join(dir, "sparse.json");
    writeFileSync(big, "");
    truncateSync(big, 64 * 1024 * 1024 + 1); // sparse: costs no disk and would cost 64 MiB of memory if read
    const r = await cli(["seal", big, "--output", "json"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).results[0].diagnostics[0].rule).toBe("limit-exceeded");
  });

  it("rejects standard input over the policy's size limit", async () => {
    writeFileSync(join(dir, "plangate.yaml"), "limits:\n  maxFileBytes: 50\n");
    const r = await cli(["validate", "-", "--output", "json"], { cwd: dir, stdin: JSON.stringify([{ tool: "plot_qc", description: "x".repeat(60) }]) });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).results[0].diagnostics[0].rule).toBe("limit-exceeded");
  });
});

describe("files that are not plain files", () => {
  it.skipIf(!existsSync("/dev/zero"))("refuses a device that never ends instead of reading it", async () => {
    const report = await validateFile("/dev/zero");
    expect(report.diagnostics.map((d) => [d.rule, d.message])).toEqual([["file-not-found", "Plan file not found: /dev/zero is a device, pipe or socket, not a plan file."]]);
    const r = await cli(["seal", "/dev/zero"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("file-not-found");
  });

  it("refuses a FIFO without waiting for a writer", async () => {
    const fifo = join(dir, "plan.fifo");
    const made = spawnSync("mkfifo", [fifo]);
    if (made.status !== 0) return; // no mkfifo on this system
    const report = await validateFile(fifo);
    expect(report.diagnostics.map((d) => d.rule)).toEqual(["file-not-found"]);
  });

  it("refuses a directory", async () => {
    const report = await validateFile(dir);
    expect(report.diagnostics[0]!.message).toContain("is a directory");
  });
});

describe("memory", () => {
  it("refuses a 50 MB plan of 490,000 steps within a 512 MB heap, reading none of its steps", () => {
    // A folder of its own: validateFile finds a policy from the file's folder, and other tests here write one.
    const own = mkdtempSync(join(tmpdir(), "plangate-big-"));
    const file = join(own, "big.json");
    const step = JSON.stringify({ tool: "plot_qc", description: "plot the quality-control metrics", params: { n: 1, path: "data/x.h5ad" } });
    const count = Math.ceil((50 * 1024 * 1024) / (step.length + 2));
    writeFileSync(file, `[${Array.from({ length: count }, () => step).join(",\n")}]`);
    const script = `
      const { validateFile } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
      const before = process.memoryUsage().heapUsed;
      const r = await validateFile(${JSON.stringify(file)}, { now: new Date(0), workspace: ${JSON.stringify(own)} });
      const grown = process.memoryUsage().heapUsed - before;
      const rules = r.diagnostics.map((d) => d.rule);
      console.log(JSON.stringify({ steps: r.steps, valid: r.valid, grown, rules }));`;
    const out = spawnSync(process.execPath, ["--max-old-space-size=512", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout) as { steps: number; valid: boolean; grown: number; rules: string[] };
    // Over limits.maxSteps (100,000) the list is not read as steps: no step is built only to be counted.
    expect(count).toBeGreaterThan(100_000);
    expect(result).toMatchObject({ steps: 0, valid: false, rules: ["limit-exceeded"] });
    expect(result.grown).toBeLessThan(400 * 1024 * 1024);
  });
});

describe("resource bombs in YAML", () => {
  it("a fault on each of 190,000 lines is one parse error, without a stack trace for each fault", () => {
    // (Each line is a value to the lexer: 500,000 of them, in 1 MiB, are now refused before parsing.)
    const text = `k: "${"\\\n".repeat(190_000)}"\n`;
    const limit = Error.stackTraceLimit;
    const { value: doc, ms } = cpuTimed(() => parseYaml(text));
    expect(doc.issues.map((i) => i.rule)).toEqual(["parse-error"]);
    // The parser's 500,000 error objects each took a stack trace: 6 s of CPU, now under half of it.
    expect(ms).toBeLessThan(cpuBound(10_000));
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("x").stack).toContain("limits.test");
  });
});

describe("resource bombs in YAML: values and indicators", () => {
  const fill = (head: string, unit: string, tail: string) => head + unit.repeat(Math.floor((1024 * 1024 - 100 - head.length - tail.length) / unit.length)) + tail;

  it("1 MiB of short values or empty pairs is limit-exceeded before the yaml package parses it", () => {
    // Each took 1.6 to 5.4 s of CPU and 300 to 560 MB: the yaml package spends microseconds on every value.
    for (const text of [fill("steps: [", "a, ", "]\n"), fill("steps: [", ": ,", "]\n"), fill("steps: {", ":,", "}\n"), fill("steps:\n", ":\n", ""), fill("steps: [", ",", "]\n"), fill("steps:\n", "- a\n", "")]) {
      const { value: doc, ms } = cpuTimed(() => parseYaml(text));
      expect(doc.issues.map((i) => [i.rule, i.messageId]), text.slice(0, 20)).toEqual([["limit-exceeded", "yamlTooManyTokens"]]);
      expect(ms, text.slice(0, 20)).toBeLessThan(cpuBound(1500));
    }
  });

  it("counts the tokens as the yaml package's lexer reads them: text and comments do not count, and the limit is where it says", () => {
    const words = "steps: []\nnote: " + "a, b: c - d [e] ".repeat(60_000) + "\n# " + "x, ".repeat(100_000) + "\n";
    expect(parseYaml(words).issues.map((i) => i.messageId)).not.toContain("yamlTooManyTokens");
    // Two tokens an item ("-" and the value): the limit is exact.
    const items = (n: number) => "- a\n".repeat(n);
    expect(parseYaml(items(MAX_YAML_TOKENS / 2)).issues.map((i) => i.messageId)).not.toContain("yamlTooManyTokens");
    const over = parseYaml(items(MAX_YAML_TOKENS / 2 + 1));
    expect(over.issues.map((i) => i.messageId)).toEqual(["yamlTooManyTokens"]);
    expect(over.issues[0]!.start).toBe(4 * (MAX_YAML_TOKENS / 2));
  });

  it("1 MiB of blank lines, comment lines or closing brackets is limit-exceeded before the yaml package parses it", () => {
    // Few values, but a token each: blank lines took 1.5 s, `]` lines 2.9 s and 390 MB, `]]]]` 3.4 s.
    for (const text of [fill("steps: []\n", "\n", ""), fill("steps: []\n", "#\n", ""), fill("steps: []\n", "]\n", ""), fill("steps: []\n", "]]]]", "\n"), fill("steps: []\n", " \t\n", ""), fill("steps: []\n", "a # b\n", "")]) {
      const { value: doc, ms } = cpuTimed(() => parseYaml(text));
      expect(doc.issues.map((i) => [i.rule, i.messageId]), JSON.stringify(text.slice(10, 20))).toEqual([["limit-exceeded", "yamlTooManyLexemes"]]);
      expect(ms, JSON.stringify(text.slice(10, 20))).toBeLessThan(cpuBound(1500));
    }
    // The limit is exact: two tokens a blank line after the first one's four ("k", ":", " ", "v").
    const blank = (n: number) => "k: v" + "\n".repeat(n);
    expect(parseYaml(blank(MAX_YAML_LEXEMES - 4)).issues).toEqual([]);
    const over = parseYaml(blank(MAX_YAML_LEXEMES - 3));
    expect(over.issues.map((i) => i.messageId)).toEqual(["yamlTooManyLexemes"]);
    expect(over.issues[0]!.start).toBe(4 + MAX_YAML_LEXEMES - 4);
  });

  it("stops composing a document past 100 syntax errors, and reports the same first error as the yaml package", () => {
    // Each line a syntax error: 1 MiB took 2 s and 250 MB, composing nodes and errors no one reads.
    const faults = ["a\n  b\n", "]\n", "[]\n", "a # b\n", "- a\nb\n", "'a'\n"];
    for (const unit of faults) {
      const text = "k: v\n" + unit.repeat(Math.floor(300_000 / unit.length));
      const { value: doc, ms } = cpuTimed(() => parseYaml(text));
      const theirs = parseDocument(text, { uniqueKeys: false, merge: false, schema: "core", strict: true, prettyErrors: false });
      expect(theirs.errors.length, JSON.stringify(unit)).toBeGreaterThan(MAX_YAML_ERRORS);
      expect(doc.issues.map((i) => [i.rule, i.start, i.data?.["detail"]]), JSON.stringify(unit)).toEqual([["parse-error", theirs.errors[0]!.pos[0], theirs.errors[0]!.message.split("\n")[0]]]);
      expect(ms, JSON.stringify(unit)).toBeLessThan(cpuBound(1500));
    }
    // On random texts of faults, few or many, the first error is the yaml package's.
    const piece = fc.constantFrom("k", "a", ":", ": ", " ", "\n", "\n  ", "- ", "[", "]", "{", "}", ", ", "'", '"', "#", " #", "|", "?", "&a ", "*a", "---", "...", "\t", "@", "]\n", "[]\n", "a\n  b\n", "a # b\n", "\n---\n");
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 400 }), (pieces) => {
        const text = pieces.join("");
        const syntax = parseYaml(text).issues.find((i) => i.rule === "parse-error" && i.messageId.startsWith("yamlSyntax"));
        if (syntax === undefined) return;
        const first = parseDocument(text, { uniqueKeys: false, merge: false, schema: "core", strict: true, prettyErrors: false }).errors[0]!;
        expect([syntax.start, syntax.data?.["detail"]]).toEqual([Math.min(first.pos[0], text.length), first.message.split("\n")[0]]);
      }),
      { numRuns: 300 },
    );
  });

  it("the cheap count of all tokens before tokenizing is never below what the yaml package's lexer makes", () => {
    const piece = fc.constantFrom(
      "k", "a", "1", "x y", ":", ": ", " ", "  ", "\n", "\n  ", "\n- ", "- ", "[", "]", "{", "}", ", ", ",", "'", '"', "'a'", '"a"', '"a\\"b"', "#", " #", " # c",
      "\t", " \t ", "|", ">", "|-", "|\n  x\n", "?", "? ", "&a ", "&a&b", "*a", "*a*b", "!!str ", "!a!b", "!<x>y", "---", "...", "%YAML 1.2\n", "\r\n", "\r", "\\",
      "%", "@", "`", "a:b", "a-b", "::", "--", "''", '""', "\ufeff", "\u0085", "\u00a0", "[[[", "]]]", "{&a b: *a}", "!a%41", "!a%4", "!<a", "\u00e9", "^",
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 40 }), (pieces) => {
        const text = pieces.join("");
        // The lexer's own markers (document start, flow end, scalar) are not text of the document, nor is an empty token.
        const lexemes = [...new Lexer().lex(text)].filter((token) => token !== "\x02" && token !== "\x18" && token !== "\x1f" && token !== "").length;
        expect(yamlTokenEstimate(text).lexemes).toBeGreaterThanOrEqual(lexemes);
      }),
      { numRuns: 3000 },
    );
  });

  it("a plan of 1 MiB is still read", () => {
    let text = "steps:\n";
    for (let i = 0; text.length + 100 < 1024 * 1024; i++) text += `  - tool: read_file\n    arguments: {path: src/f${i}.ts}\n    intent: read file ${i}\n`;
    expect(parseYaml(text).issues).toEqual([]);
  });
});

describe("resource bombs in JSON", () => {
  // A plan of many small values: each is read, walked by several rules, resolved when it may be a path and
  // hashed. An object of a million keys (10 MB) took 7 s and 610 MB; 10 MB of empty lists were all built by
  // JSON.parse (480 MB) before they were counted.
  const manyKeys = (n: number) => `{"steps": [{"tool": "read_file", "arguments": {"path": "a", "x": {${Array.from({ length: n }, (_, i) => `"k${i.toString(36)}": 0`).join(", ")}}}, "intent": "r"}]}`;
  const over = { rule: "limit-exceeded", message: expect.stringContaining("more than 250000 values") };

  it("a plan of more values than limits.maxValues is refused from a file, with the peak memory bounded", () => {
    const own = mkdtempSync(join(tmpdir(), "plangate-values-"));
    const peak = 'data:text/javascript,process.on("exit",()=>process.stderr.write("maxRSS="+process.resourceUsage().maxRSS))';
    const bin = new URL("../bin/plangate.js", import.meta.url).pathname;
    const cases: [string, string][] = [
      ["keys.json", manyKeys(1_000_000)],
      ["lists.json", `{"steps": [{"tool": "read_file", "arguments": {"path": "a", "x": [${"[],".repeat(5_000_000)}[]]}, "intent": "r"}]}`],
    ];
    try {
      for (const [name, text] of cases) {
        writeFileSync(join(own, name), text);
        const out = spawnSync(process.execPath, ["--import", peak, bin, "validate", "--no-policy", "--format", "json", name], { cwd: own, encoding: "utf8" });
        expect(out.status, out.stderr).toBe(1);
        const diagnostics = JSON.parse(out.stdout).results[0].diagnostics as { rule: string; message: string; severity: string }[];
        expect(diagnostics.filter((d) => d.severity !== "warning" || d.rule === "limit-exceeded")).toEqual([expect.objectContaining(over)]);
        expect(Number(/maxRSS=(\d+)/.exec(out.stderr)?.[1]), name).toBeLessThan(220 * 1024);
      }
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("the same bound holds from standard input and the library, and in a lowered limit", async () => {
    const text = manyKeys(250_000);
    const piped = await cli(["validate", "--no-policy", "--format", "json", "-"], { stdin: text });
    expect(piped.code).toBe(1);
    expect(JSON.parse(piped.stdout).results[0].diagnostics).toContainEqual(expect.objectContaining(over));
    expect(await diagnosticsOf("limit-exceeded", text)).toEqual([expect.objectContaining({ messageId: "jsonTooManyValues", line: 1 })]);
    const policy = defaultPolicy("/workspace");
    // manyKeys(n) holds 8 + n values.
    policy.limits.maxValues = 10;
    expect(await diagnosticsOf("limit-exceeded", manyKeys(3), { policy })).toEqual([expect.objectContaining({ messageId: "jsonTooManyValues" })]);
    expect(await diagnosticsOf("limit-exceeded", manyKeys(2), { policy })).toEqual([]);
  });

  it("a hook input of more values than a plan may hold is blocked as limit-exceeded", () => {
    // Within the 1 MiB a hook input may take: 349,000 empty lists.
    const bytes = new TextEncoder().encode(`{"tool_name": "Bash", "tool_input": {"x": [${"[],".repeat(349_000)}[]]}}`);
    expect(bytes.byteLength).toBeLessThan(1024 * 1024);
    expect(() => parseHookInput(bytes)).toThrow(expect.objectContaining({ diagnostic: expect.objectContaining({ rule: "limit-exceeded", message: expect.stringContaining("more than 250000 values") }) }));
  });

  it("YAML counts the values its aliases copy in against limits.maxValues, and reports the alias", async () => {
    // 90,000 values under one anchor and ten aliases of it, in a file padded to 1 MiB by a comment: the
    // expansion bound of the file's own length let 990,000 values through (1.9 s, 340 MB).
    let text = `steps:\n  - tool: read_file\n    intent: r\n    arguments: {path: a, x: &a [${"0,".repeat(89_999)}0]}\n`;
    for (let i = 0; i < 10; i++) text += "  - tool: read_file\n    intent: r\n    arguments: {path: a, x: *a}\n";
    text += `# ${"x".repeat(1000)}\n`.repeat(800);
    const doc = parseYaml(text);
    expect(doc.value).toBeUndefined();
    const issue = doc.issues.find((i) => i.rule === "limit-exceeded");
    expect(issue?.messageId).toBe("yamlTooManyValues");
    expect(text.slice(issue!.start, issue!.end)).toBe("*a");
    const d = await diagnosticsOf("limit-exceeded", text, { file: "plan.yaml" });
    expect(d).toEqual([expect.objectContaining({ messageId: "yamlTooManyValues", line: 10, message: expect.stringContaining("more than 250000 values") })]);
    // Without aliases a lowered limit holds too, at the value past it (the seventh: the map, the list, the
    // step, "a", the arguments, the list x and its first element "1"; keys are not counted, as in JSON).
    const small = parseYaml("steps:\n  - tool: a\n    arguments: {x: [1, 2, 3]}\n", { maxValues: 6 });
    expect(small.issues).toEqual([expect.objectContaining({ messageId: "yamlTooManyValues", start: 39, end: 40 })]);
  });

  it("1 MiB of a legacy list of numbers is refused by its length, without building half a million steps", () => {
    const own = mkdtempSync(join(tmpdir(), "plangate-steps-"));
    const file = join(own, "steps.json");
    // Under limits.maxValues (a longer list is refused as soon as it is read), over limits.maxSteps.
    writeFileSync(file, `[${Array(200_000).fill("1").join(",")}]`);
    const peak = 'data:text/javascript,process.on("exit",()=>process.stderr.write("maxRSS="+process.resourceUsage().maxRSS))';
    const bin = new URL("../bin/plangate.js", import.meta.url).pathname;
    const out = spawnSync(process.execPath, ["--import", peak, bin, "validate", "--format", "json", file], { cwd: own, encoding: "utf8" });
    rmSync(own, { recursive: true, force: true });
    expect(out.status, out.stderr).toBe(1);
    const diagnostics = JSON.parse(out.stdout).results[0].diagnostics as { rule: string; message: string }[];
    expect(diagnostics).toEqual([expect.objectContaining({ rule: "limit-exceeded", message: "The plan has 200000 steps, over the 100000-step limit." })]);
    // Building the steps took 1.1 GB before the count was checked.
    expect(Number(/maxRSS=(\d+)/.exec(out.stderr)?.[1])).toBeLessThan(300 * 1024);
  });

  it("thousands of findings in one long command line quote it cut, not each whole", async () => {
    const own = mkdtempSync(join(tmpdir(), "plangate-findings-"));
    const file = join(own, "p.json");
    // 16,000 characters naming about 1,700 paths outside the workspace, in 20 steps: about 34,000 findings.
    const command = ("cat " + Array.from({ length: 1800 }, (_, i) => `/etc/x${i}`).join(" ")).slice(0, 16_000);
    writeFileSync(file, JSON.stringify({ steps: Array.from({ length: 20 }, () => ({ tool: "bash", arguments: { command }, intent: "read" })) }));
    const policy = defaultPolicy(own);
    policy.tools.allow = ["bash"];
    const r = await validateFile(file, { policy, now: new Date(0) });
    rmSync(own, { recursive: true, force: true });
    const outside = r.diagnostics.filter((d) => d.rule === "path-outside-workspace");
    expect(outside.length).toBeGreaterThan(1000);
    for (const d of outside) {
      expect(typeof d.actual).toBe("string");
      expect((d.actual as string).length).toBeLessThan(600);
      expect(d.actual).toMatch(/^cat \/etc\/x0 .*\.\.\. \(16000 characters\)$/);
    }
    // A short value is kept whole.
    const short = await run('{"steps": [{"tool": "bash", "arguments": {"command": "cat /etc/passwd"}, "intent": "read"}]}', { tools: tools("bash") });
    expect(short.diagnostics.find((d) => d.rule === "path-outside-workspace")?.actual).toBe("cat /etc/passwd");
  });

  it("8 MiB of unclosed brackets is refused at the depth limit, without native JSON.parse holding 8 million arrays", () => {
    const own = mkdtempSync(join(tmpdir(), "plangate-brackets-"));
    const file = join(own, "deep.json");
    writeFileSync(file, "[".repeat(8 * 1024 * 1024));
    // The peak resident size of the whole process: JSON.parse's partial arrays are not in the JS heap's limit.
    const peak = 'data:text/javascript,process.on("exit",()=>process.stderr.write("maxRSS="+process.resourceUsage().maxRSS))';
    const bin = new URL("../bin/plangate.js", import.meta.url).pathname;
    const out = spawnSync(process.execPath, ["--import", peak, bin, "validate", "--format", "json", file], { cwd: own, encoding: "utf8" });
    rmSync(own, { recursive: true, force: true });
    expect(out.status, out.stderr).toBe(1);
    expect(out.stdout).toContain('"rule": "limit-exceeded"');
    const kb = Number(/maxRSS=(\d+)/.exec(out.stderr)?.[1]);
    // About 80 MB for the process; it was about 400 MB when JSON.parse read the brackets first.
    expect(kb).toBeLessThan(200 * 1024);
  });
});

describe("resource bombs in Markdown", () => {
  it("a TeDDy metadata line of 20 million characters in a document that is not Latin-1 is limit-exceeded, not an internal error", async () => {
    const head = "# Plan \u{1f7e2}\n\n- **Status:** Green\n- **Agent:** Developer\n\n## Rationale\n````text\nx\n````\n\n## Action Plan\n\n";
    for (const item of ["- ", ""]) {
      const text = `${head}### \`READ\`\n${item}**Resource:** [a.md](/a.md)\n${item}**Description:** ${"a ".repeat(10_000_000)}\n`;
      const started = process.cpuUsage();
      const r = await run(text, { file: "plan.md", tools: tools("READ") });
      // The metadata expression overflowed its stack past about 8 million characters.
      expect(cpuMsSince(started)).toBeLessThan(cpuBound(10_000));
      expect(r.diagnostics.some((d) => d.rule === "limit-exceeded")).toBe(true);
    }
  });
});

describe("resource bombs in TODO.md", () => {
  it("a Status line of 14 MB is normalised in chunks, not one replace of 7 million matches", async () => {
    const { normaliseStatus } = await import("../src/orchestration/todo.js");
    const raw = "\u{1f7e2} " + "Not  -Started ".repeat(1_000_000);
    const { value: status, ms } = cpuTimed(() => normaliseStatus(raw));
    // It took 1.2 s and 500 MB in one replace.
    expect(ms).toBeLessThan(cpuBound(5_000));
    // The emoji goes, its space stays: "_not_started_not_started...".
    expect(status === "_not_started".repeat(1_000_000)).toBe(true);
    // Runs of separators are never split between chunks.
    const long = "a" + " ".repeat(70_000) + "-".repeat(70_000) + "b" + "x".repeat(65_535) + " \t-c";
    expect(normaliseStatus(long)).toBe("a_b" + "x".repeat(65_535) + "_c");
    expect(normaliseStatus("[NOT STARTED] later")).toBe("not_started");
  });
});

describe("configuration files that are not plain files", () => {
  it.skipIf(!existsSync("/dev/zero"))("a policy or tools path to a device is a usage error, not a hang", async () => {
    const p = await cli(["validate", "x.json", "--policy", "/dev/zero"], { cwd: dir });
    expect(p.code).toBe(2);
    expect(p.stderr).toContain("device, pipe or socket");
    const t = await cli(["validate", "x.json", "--tools", "/dev/zero"], { cwd: dir });
    expect(t.code).toBe(2);
  });
});

describe("resource bombs in tool registries", () => {
  it("a schema of more than 10,000 values, or a registry of more than 100,000, is refused before any is compiled", async () => {
    const { parseToolsText, MAX_REGISTRY_SCHEMA_VALUES, MAX_SCHEMA_VALUES } = await import("../src/node/tools-file.js");
    expect([MAX_SCHEMA_VALUES, MAX_REGISTRY_SCHEMA_VALUES]).toEqual([10_000, 100_000]);
    // A tree of anyOf 14 levels deep (49,000 values, 230 KB): ajv took 11.5 s and 750 MB to compile it.
    let tree: unknown = { type: "string", format: "path" };
    for (let i = 0; i < 14; i++) tree = { anyOf: [tree, tree] };
    const text = JSON.stringify({ tools: [{ name: "t1", inputSchema: { type: "object", properties: { path: tree } } }] });
    // The count stops at the bound: no more than 10,000 values are visited.
    expect(() => parseToolsText(text, "tools.json")).toThrow(/tools\.json tools\[0\] \("t1"\) inputSchema: the schema holds more than 10000 values/);
    // A schema nested 20,000 deep is counted without recursion.
    const deep = '{"type":"object","properties":{"a":'.repeat(10_000) + '{"type":"string"}' + "}}".repeat(10_000);
    expect(() => parseToolsText(`{"tools":[{"name":"d","inputSchema":${deep}}]}`, "deep.json")).toThrow(/more than 10000 values/);
    // The registry's bound is over all the tools together: 26,000 tools of 4 values.
    const tool = (i: number) => ({ name: `t${i}`, inputSchema: { type: "object", properties: { p: { type: "string" } } } });
    expect(() => parseToolsText(JSON.stringify({ tools: Array.from({ length: 26_000 }, (_, i) => tool(i)) }), "many.json")).toThrow(/tools\[\d+\] \("t\d+"\) inputSchema: the registry's inputSchemas hold more than 100000 values/);
    // Up to the bounds, a registry loads: 20,000 such tools, and a tool of 9,000 values.
    expect(parseToolsText(JSON.stringify({ tools: Array.from({ length: 20_000 }, (_, i) => tool(i)) }), "fits.json").names.size).toBe(20_000);
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 4_400 }, (_, i) => [`p${i}`, { type: "string" }])) };
    expect(parseToolsText(JSON.stringify({ tools: [{ name: "w", inputSchema: wide }] }), "wide.json").names.size).toBe(1);
  });
});
