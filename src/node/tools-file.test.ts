import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { registryFromNames } from "../core/tools.js";
import { loadToolsFile, MAX_REGISTRY_INSTRUCTIONS, mergeRegistries, parseToolsText, ToolsFileError } from "./tools-file.js";

const errorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ToolsFileError);
    return (err as Error).message;
  }
  throw new Error("no ToolsFileError");
};
const mcp = (...tools: unknown[]) => JSON.stringify({ tools });

describe("a tool listed twice", () => {
  it.each([
    ["whitelist, exact", "read_file\nwrite_file\nread_file\n", "tools.txt:1 and tools.txt:3"],
    ["whitelist, after a comment and CRLF", "# tools\r\nread_file # the reader\r\n\r\nread_file\r\n", "tools.txt:2 and tools.txt:4"],
    ["whitelist, case", "read_file\nREAD_FILE\n", '"read_file" and "READ_FILE" differ only'],
    ["whitelist, separators", "sequential_thinking\nsequential-thinking\n", "tools.txt:1 and tools.txt:2"],
    ["whitelist, camel case", "readFile\nread_file\n", "differ only"],
    ["whitelist, Cyrillic look-alike", "plot_qc\nplot_q\u0441\n", "differ only"],
    ["MCP tools/list", mcp({ name: "read_file" }, { name: "run" }, { name: "read_file", inputSchema: {} }), 'tools.txt tools[0] ("read_file") and tools.txt tools[2] ("read_file")'],
    ["MCP result wrapper", JSON.stringify({ result: { tools: [{ name: "a" }, { name: "a" }] } }), "tools[0]"],
    ["bare JSON list", JSON.stringify([{ name: "a" }, { name: "b" }, { name: "A" }]), 'tools.txt [0] ("a") and tools.txt [2] ("A")'],
    ["iKOMA parameters", mcp({ name: "search_web", parameters: {} }, { name: "search.web", parameters: {} }), "tools[1]"],
  ])("is refused in one file: %s", (_name, text, places) => {
    expect(errorOf(() => parseToolsText(text, "tools.txt"))).toContain(places);
  });

  it("is refused across merged files, naming both files and places", () => {
    const a = parseToolsText("plot_qc\nread_file\n", "tools.txt");
    const b = parseToolsText(mcp({ name: "write_file" }, { name: "read_file", inputSchema: { type: "object" } }), "tools.json");
    expect(errorOf(() => mergeRegistries([a, b]))).toContain('tools.txt:2 and tools.json tools[1] ("read_file")');
    const allow = registryFromNames(["Read-File", "x*"], "the policy's tools.allow");
    expect(errorOf(() => mergeRegistries([allow, b]))).toContain("the policy's tools.allow (\"Read-File\") and tools.json tools[1]");
  });

  it("leaves distinct names and globs alone", () => {
    const r = parseToolsText("read_file\nread_files\nread*\nread*\n", "t.txt");
    expect([...r.names]).toEqual(["read_file", "read_files"]);
    expect(mergeRegistries([r, parseToolsText(mcp({ name: "write_file" }), "t.json")])!.names.size).toBe(3);
  });
});

describe("registry patterns", () => {
  it.each([
    ["backreference", { properties: { s: { pattern: "^(a)\\1$" } } }, "/properties/s/pattern", "backreference"],
    ["lookahead", { properties: { s: { type: "string", pattern: "^(?=.*[0-9]).+$" } } }, "/properties/s/pattern", "lookahead"],
    ["lookbehind in patternProperties", { patternProperties: { "(?<!x)y": {} } }, "/patternProperties/(?<!x)y", "lookbehind"],
    ["propertyNames", { propertyNames: { pattern: "(?<n>a)\\k<n>" } }, "/propertyNames/pattern", "named backreference"],
    ["nested in $defs and anyOf", { $defs: { p: { anyOf: [{ pattern: "a{5000}" }] } } }, "/$defs/p/anyOf/0/pattern", "repeat count"],
    ["not an ECMAScript pattern", { items: { pattern: "(" } }, "/items/pattern", "Invalid regular expression"],
  ])("refuses one RE2 cannot run at load: %s", (_name, schema, pointer, why) => {
    const m = errorOf(() => parseToolsText(mcp({ name: "a" }, { name: "t", inputSchema: schema }), "tools.json"));
    expect(m).toContain(`tools.json tools[1] ("t") inputSchema ${pointer}`);
    expect(m).toContain(why);
  });

  it("refuses a registry whose patterns compile to too large programs, before compiling the rest", () => {
    // 5,000 of these took minutes and gigabytes: each is 4,000 instructions, 2 MB and 8 ms to compile.
    // The last tool's pattern is refused when compiled: its error would show that the rest were compiled.
    const tools = Array.from({ length: 5_000 }, (_, i) => ({ name: `t${i}`, inputSchema: { properties: { s: { type: "string", pattern: i === 4_999 ? "^(a)\\1$" : `^${i}(x|y|z){1,1000}$` } } } }));
    const m = errorOf(() => parseToolsText(mcp(...tools), "tools.json"));
    expect(m).toMatch(/^tools\.json tools\[\d+\] \("t\d+"\) inputSchema \/properties\/s\/pattern: the registry's patterns compile to more than 500000 instructions by the pattern /);
    // Refused at the pattern that takes the total over: at least 4,000 instructions each, so by the 125th.
    const at = Number(/tools\[(\d+)\]/.exec(m)![1]);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(MAX_REGISTRY_INSTRUCTIONS / 4_000);
    // Ordinary patterns, thousands of them, stay well within.
    const many = Array.from({ length: 5_000 }, (_, i) => ({ name: `u${i}`, inputSchema: { properties: { s: { type: "string", pattern: `^[a-z0-9_-]+${i}$` } } } }));
    expect(parseToolsText(mcp(...many), "tools.json").schemas.size).toBe(5_000);
  });

  it("loads catastrophic but RE2-safe patterns, and patterns in data keywords are not patterns", () => {
    const r = parseToolsText(mcp({ name: "t", inputSchema: { properties: { s: { pattern: "^(a+)+$" } }, examples: [{ pattern: "(a)\\1" }] } }), "tools.json");
    expect(r.schemas.has("t")).toBe(true);
  });
});

describe("loadToolsFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "plangate-tools-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("refuses a folder and names the file", () => {
    expect(errorOf(() => loadToolsFile(dir, "tools-dir"))).toContain("cannot read tools file tools-dir");
  });
  it("reads a file and refuses its duplicates with the name given", () => {
    writeFileSync(join(dir, "t.txt"), "a\nb\na\n");
    expect(errorOf(() => loadToolsFile(join(dir, "t.txt"), "t.txt"))).toContain("t.txt:1 and t.txt:3");
  });
});
