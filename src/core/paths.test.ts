import { wordOf } from "./place.js";
import { describe, expect, it } from "vitest";
import type { FileProbe } from "./file-probe.js";
import { argumentsWrite, isWriteTool, nameSaysWrite, schemaDefaultWrite, schemaWriteTargets, stepWrites, writeArgument, writerReason } from "./writers.js";
import { defaultPolicy } from "../policy/defaults.js";
import {
  fileUrlPath,
  isInside,
  isPathName,
  looksLikeEscapingPath,
  looksLikePath,
  normalizeAbsolute,
  pathReadings,
  resolveReal,
  unsafePathReason,
  windowsSpelling,
} from "./paths.js";

/** A file system in a map: path → "dir" | "file" | "->target". */
function fakeFs(entries: Record<string, string>): FileProbe {
  return {
    kind: (p) => {
      const e = entries[p];
      if (e === undefined) return "missing";
      return e.startsWith("->") ? "symlink" : (e as "dir" | "file");
    },
    readlink: (p) => (entries[p]?.startsWith("->") ? entries[p]!.slice(2) : undefined),
    realpath: () => undefined,
    size: () => undefined,
    readText: () => undefined,
  };
}


/** unsafePathReason in words (its reasons are data, worded by core/place.ts). */
function reasonText(text: string): string | undefined {
  const r = unsafePathReason(text);
  return r === undefined ? undefined : wordOf(r);
}

describe("paths", () => {
  const fs = fakeFs({ "/ws": "dir", "/ws/link": "->/elsewhere/deep", "/elsewhere": "dir", "/elsewhere/deep": "dir", "/ws/rel": "->../elsewhere", "/ws/self": "->self" });
  it("resolves `link/..` as the kernel does: the parent of the link's target", () => {
    expect(resolveReal("/ws/link/..", fs)).toBe("/elsewhere");
    expect(normalizeAbsolute("/ws/link/..")).toBe("/ws");
  });
  it("follows relative links and keeps a missing tail under the link's target", () => {
    expect(resolveReal("/ws/rel/new/file.txt", fs)).toBe("/elsewhere/new/file.txt");
    expect(resolveReal("/ws/missing/../link/x", fs)).toBe("/elsewhere/deep/x");
  });
  it("marks a symlink loop as unresolvable, never inside", () => {
    const r = resolveReal("/ws/self/x", fs);
    expect(r).toContain("\0");
    expect(isInside(r, "/ws")).toBe(false);
  });
  it("reads percent-encoding and file URLs as an executor might", () => {
    expect(pathReadings("%2e%2e/x")).toEqual(["%2e%2e/x", "../x"]);
    expect(pathReadings("file:///etc/hosts")).toEqual(["/etc/hosts"]);
    expect(pathReadings("%E0%A4%A")).toHaveLength(2);
  });
  it.each([
    ["file:/etc/passwd", "/etc/passwd"],
    ["FILE:/etc/passwd", "/etc/passwd"],
    ["File:///etc/passwd", "/etc/passwd"],
    ["file://localhost/etc/passwd", "/etc/passwd"],
    ["file://LOCALHOST/etc/passwd", "/etc/passwd"],
    ["file:\\\\\\etc\\passwd", "\\etc\\passwd"],
    ["file:data/x.csv", "data/x.csv"],
    ["file://server/share/x", "//server/share/x"],
    ["file:///C:/Windows/x", "C:/Windows/x"],
    ["file:///c|/Windows/x", "c|/Windows/x"],
    ["file://", "/"],
  ])("reads the file URL %s as the path %s", (url, path) => {
    expect(fileUrlPath(url)).toBe(path);
    expect(pathReadings(url)).toContain(path);
  });
  it("reads a file URL hidden behind percent-encoding", () => {
    expect(pathReadings("file%3A%2F%2F%2Fetc%2Fpasswd")).toContain("/etc/passwd");
    expect(pathReadings("file:///%2e%2e/etc")).toContain("/../etc");
  });
  it("decodes twice and refuses a third round", () => {
    expect(pathReadings("%252e%252e/x")).toEqual(["%252e%252e/x", "%2e%2e/x", "../x"]);
    for (const deep of ["%25252e%25252e/x", "%2525252e%2525252e/etc", "a/%2525252F"]) {
      const readings = pathReadings(deep);
      expect(readings.map(reasonText).find(Boolean)).toContain("three or more times");
    }
    expect(pathReadings("100%/a%zz")).toEqual(["100%/a%zz"]);
  });
  it.each(["%c0%af", "..%c0%af..%c0%afetc", "%C0%AE%C0%AE/x", "%e0%80%af", "%f0%80%80%af", "%c1%9c", "%80", "%ed%a0%80", "%25c0%25af", "%fe"])(
    "refuses the overlong or broken UTF-8 escape %s",
    (text) => {
      expect(pathReadings(text).map(reasonText).find(Boolean)).toContain("not valid UTF-8");
    },
  );
  it.each([
    ["..\uFF0F..\uFF0Fetc", "FF0F"],
    ["..\u2215..\u2215etc", "2215"],
    ["..\u2044etc", "2044"],
    ["..\uFF3Cetc", "FF3C"],
    ["\u2025/etc", "2025"],
    ["\uFE52\uFE52/etc", "FE52"],
    ["\uFF0E\uFF0E/etc", "FF0E"],
    ["a\u29F8b", "29F8"],
    ["a\u2216b", "2216"],
    ["\u2026/x", "2026"],
    ["a\uFE68b", "FE68"],
    ["x\u3002\u3002/y", "3002"],
  ])("refuses the look-alike in %s", (text, cp) => {
    expect(reasonText(JSON.parse(`"${text}"`) as string)).toContain(`U+${cp}`);
  });
  it("leaves names in other scripts alone", () => {
    for (const ok of ["données/été.csv", "報告/ノート.md", "отчёт.txt", "l·l.txt"]) expect(reasonText(ok)).toBeUndefined();
  });
  it.each(["... /x", "a/.. /b", "a/... ", "a/. ./b", "a/..../b", "a/.. ./b"])("refuses the dot-and-space name in %j", (text) => {
    expect(reasonText(text)).toContain("dots and spaces");
  });
  it("keeps ordinary dotted names", () => {
    for (const ok of ["a/../b", "./x", ".env", "..rc", "v1.2.3/x", ".hidden. name/x"]) expect(reasonText(ok)).toBeUndefined();
  });
  it("gives the Windows spelling of a path", () => {
    expect(windowsSpelling(".git./config")).toBe(".git/config");
    expect(windowsSpelling(".git /config")).toBe(".git/config");
    expect(windowsSpelling(".git. . /config")).toBe(".git/config");
    expect(windowsSpelling(".git::$INDEX_ALLOCATION/config")).toBe(".git/config");
    expect(windowsSpelling("plangate.yaml.")).toBe("plangate.yaml");
    expect(windowsSpelling(".git/config")).toBeUndefined();
  });
  it("takes names ending in a path word as path names", () => {
    const none = new Set<string>();
    for (const n of ["path", "notebook_path", "filePath", "outputFile", "to", "from", "out", "output", "dst", "work-dir", "log.file", "config_dir", "targetFolder"])
      expect(isPathName(n, none), n).toBe(true);
    for (const n of ["content", "title", "pathology", "profile", "mode", "todo", "outline", "n"]) expect(isPathName(n, none), n).toBe(false);
    expect(isPathName("weird", new Set(["weird"]))).toBe(true);
  });
  it("sees path-looking values under any name", () => {
    expect(looksLikePath("anything", ".git/config")).toBe(true);
    expect(looksLikePath("anything", ".env")).toBe(true);
    expect(looksLikePath("url", "FILE:/etc/passwd")).toBe(true);
    expect(looksLikePath("url", "https://example.com/a")).toBe(false);
    expect(looksLikePath("command", "cat .git/config")).toBe(false);
    expect(looksLikePath("title", "a title")).toBe(false);
    expect(looksLikeEscapingPath("uri", "file:/etc/passwd")).toBe(true);
  });
  it("decides writers by effect and fails closed", () => {
    const policy = defaultPolicy("/ws");
    const reg = (annotations: Record<string, unknown>) => ({ names: new Set(["t"]), patterns: [], schemas: new Map(), annotations: new Map([["t", annotations]]), source: "r" });
    expect(isWriteTool("read_file", undefined, policy)).toBe(false);
    expect(isWriteTool("Grep", undefined, policy)).toBe(false);
    expect(isWriteTool("text_editor", undefined, policy)).toBe(true);
    expect(isWriteTool("developer__text_editor", undefined, policy)).toBe(true);
    expect(isWriteTool("sed", undefined, policy)).toBe(true);
    expect(isWriteTool("tee", undefined, policy)).toBe(true);
    expect(isWriteTool("WRITE_FILE", undefined, policy)).toBe(true);
    expect(isWriteTool("t", reg({ readOnlyHint: true }), policy)).toBe(false);
    expect(isWriteTool("t", reg({ readOnlyHint: true, destructiveHint: true }), policy)).toBe(true);
    expect(isWriteTool("t", reg({ readOnlyHint: false }), policy)).toBe(true);
    expect(isWriteTool("t", reg({ readOnlyHint: "yes" }), policy)).toBe(true);
    expect(isWriteTool("read_file", reg({ readOnlyHint: true }), { tools: { ...policy.tools, read: undefined } })).toBe(true);
    // A hint spelt other than as a boolean says nothing for sure: a writer, even if tools.read lists the name.
    const listed = { tools: { ...policy.tools, read: ["t"] } };
    for (const hints of [{ readOnlyHint: "false" }, { readOnlyHint: "true" }, { readOnlyHint: 0 }, { readOnlyHint: true, destructiveHint: "true" }, { destructiveHint: 1 }])
      expect(isWriteTool("t", reg(hints), listed), JSON.stringify(hints)).toBe(true);
    expect(isWriteTool("t", reg({ readOnlyHint: true, destructiveHint: false }), listed)).toBe(false);
    expect(isWriteTool("t", reg({}), listed)).toBe(false);
    // Why: listed, annotated, or nothing says it reads.
    expect(writerReason("write_file", undefined, policy)).toBe("listed");
    expect(writerReason("t", reg({ readOnlyHint: false }), policy)).toBe("annotated");
    expect(writerReason("get_settings", undefined, policy)).toBe("unknown");
    expect(writerReason("read_file", undefined, policy)).toBeUndefined();
  });
  it("takes a step that is given something to write as a write, whatever its tool", () => {
    for (const args of [
      { path: "a", content: "x" },
      { path: "a", CONTENTS: "x" },
      { path: "a", file_text: "x" },
      { path: "a", output: "out/x.txt" },
      { path: "a", output_file: ".env" },
      { path: "a", saveAs: "x.md" },
      { path: "a", write_to: "~/x" },
      { path: "a", dest: ["b/c"] },
      { nested: [{ options: { outPath: "x/y" } }] },
      // The content names in any case and with any separators, and further names of written text.
      { path: "a", fileText: "x" },
      { path: "a", newString: "x" },
      { path: "a", "new-text": "x" },
      { path: "a", NewStr: "x" },
      { path: "a", insertText: "x" },
      { notebook_path: "a", new_source: "x" },
      { path: "a", edits: [{ oldText: "a", newText: "b" }] },
      { path: "a", newContent: "x" },
      { path: "a", replacement: "x" },
    ])
      expect(argumentsWrite(args), JSON.stringify(args)).toBe(true);
    for (const args of [{ path: "a" }, { path: "a", from: 1, to: 10 }, { path: "a", output: "json" }, { path: "a", output_mode: "content" }, { pattern: "x", path: "." }, { path: "a", insert: false }, { path: "a", edits: 0 }])
      expect(argumentsWrite(args), JSON.stringify(args)).toBe(false);
    // Arguments that say the file is written: an open mode, permissions, an operation, a switch that is on.
    for (const [args, name] of [
      [{ path: "a", mode: "w" }, "mode"],
      [{ path: "a", mode: "a+" }, "mode"],
      [{ path: "a", mode: "r+b" }, "mode"],
      [{ path: "a", mode: "x" }, "mode"],
      [{ path: "a", flags: "as+" }, "flags"],
      [{ path: "a", flags: 1 }, "flags"],
      [{ path: "a", mode: 420 }, "mode"],
      [{ path: "a", permissions: "u+x" }, "permissions"],
      [{ path: "a", access: "ReadWrite" }, "access"],
      [{ path: "a", command: "create" }, "command"],
      [{ path: "a", op: "undo_edit" }, "op"],
      [{ path: "a", method: "DELETE" }, "method"],
      [{ path: "a", overwrite: true }, "overwrite"],
      [{ path: "a", overwrite_existing: "true" }, "overwrite_existing"],
      [{ path: "a", createIfMissing: 1 }, "createIfMissing"],
      [{ path: "a", inPlace: true }, "inPlace"],
      [{ path: "a", save: true }, "save"],
      [{ path: "a", replace: "b" }, "replace"],
      [{ opts: [{ truncate: "yes" }] }, "truncate"],
      [{ path: "a", update: { a: 1 } }, "update"],
    ] as const)
      expect(writeArgument(args), JSON.stringify(args)).toBe(name);
    for (const args of [
      { path: "a", mode: "r" },
      { path: "a", mode: "rb" },
      { path: "a", mode: "rs" },
      { path: "a", mode: "text" },
      { path: "a", mode: "lines" },
      { path: "a", flags: 0 },
      { path: "a", overwrite: false },
      { path: "a", create: "no" },
      { path: "a", replace: "" },
      { path: "a", command: "view" },
      { path: "a", action: "list" },
      { path: "a", update_cache: true },
      { path: "a", remove_duplicates: true },
      { path: "a", export: ".env" },
      { path: "a", task: "update the docs" },
    ])
      expect(writeArgument(args), JSON.stringify(args)).toBeUndefined();
    // An own `__proto__` key, as JSON.parse makes it, is looked into like any other.
    expect(writeArgument(JSON.parse('{"path": "a", "__proto__": {"content": "x"}}'))).toBe("content");
    expect(writeArgument(JSON.parse('{"__proto__": {"mode": "w"}}'))).toBe("mode");
    // Names are classified once and remembered: asking again gives the same answer.
    expect(writeArgument({ path: "a", out_file: "b.txt" })).toBe("out_file");
    expect(writeArgument({ path: "a", out_file: "b.txt" })).toBe("out_file");
    expect(writeArgument({ path: "a", out_file: true })).toBeUndefined();
    // Names an executor may normalise: full-width and look-alike letters, invisible characters.
    expect(writeArgument({ path: "a", "\uff43\uff4f\uff4e\uff54\uff45\uff4e\uff54": "x" })).toBe("\uff43\uff4f\uff4e\uff54\uff45\uff4e\uff54");
    expect(writeArgument({ path: "a", "c\u043entent": "x" })).toBe("c\u043entent");
    expect(writeArgument({ path: "a", "mo\u200bde": "w" })).toBe("mo\u200bde");
    expect(writeArgument({ path: "a", "\u043everwrite": true })).toBe("\u043everwrite");
    // An argument the registry schema describes as where the tool writes.
    expect(writeArgument({ path: "a", report: "r.txt" }, { targets: new Set(["report"]) })).toBe("report");
    expect(writeArgument({ path: "a", report: "" }, { targets: new Set(["report"]) })).toBeUndefined();
    expect(nameSaysWrite("save_report")).toBe(true);
    expect(nameSaysWrite("fs.putObject")).toBe(true);
    expect(nameSaysWrite("mcp__fs__move")).toBe(true);
    expect(nameSaysWrite("get_settings")).toBe(false);
    expect(nameSaysWrite("fetch_page")).toBe(false);
    const policy = defaultPolicy("/ws");
    expect(stepWrites("read_file", { path: ".git/config", mode: "w" }, undefined, policy)).toBe(true);
    expect(stepWrites("read_file", { path: ".git/config", content: "x" }, undefined, policy)).toBe(true);
    expect(stepWrites("read_file", { path: ".git/config" }, undefined, policy)).toBe(false);
  });
  it("knows paths that can never be safe", () => {
    expect(reasonText("a\0b")).toContain("NUL");
    expect(reasonText("~/x")).toContain("~");
    expect(reasonText("\\\\server\\share")).toContain("UNC");
    expect(reasonText("data/x")).toBeUndefined();
    expect(reasonText("%u002e%u002e/x")).toContain("%u");
  });
  it("compares folders by whole segments", () => {
    expect(isInside("/ws2/x", "/ws")).toBe(false);
    expect(isInside("/ws/x", "/ws")).toBe(true);
    expect(isInside("/ws", "/ws")).toBe(true);
  });
  it("isInside answers as the plain definition does (the root, or the root and a separator, as a prefix)", async () => {
    const fc = await import("fast-check");
    const part = fc.constantFrom("/", "ws", "w", "s", "/ws", "x", ".", "\\");
    const path = fc.array(part, { maxLength: 6 }).map((p) => "/" + p.join(""));
    const plain = (p: string, root: string) => (root === "/" ? p.startsWith("/") : p === root || p.startsWith(root.endsWith("/") ? root : root + "/"));
    fc.assert(fc.property(path, path, (p, root) => isInside(p, root) === plain(p, root)), { numRuns: 2000 });
  });
  it("spots escaping paths under other argument names", () => {
    expect(looksLikeEscapingPath("output", "../x")).toBe(true);
    expect(looksLikeEscapingPath("command", "/usr/bin/make")).toBe(false);
    expect(looksLikeEscapingPath("title", "a/b")).toBe(false);
  });
});

describe("paths (properties)", () => {
  const segment = () =>
    import("fast-check").then((fc) => fc.oneof(fc.constantFrom("..", ".", "a", "etc", ".git", "x y"), fc.string({ maxLength: 6 })));
  it("checks every encoding of a path as the path itself, and refuses a third round", async () => {
    const fc = await import("fast-check");
    const fs = fakeFs({ "/ws": "dir" });
    fc.assert(
      fc.property(fc.array(await segment(), { minLength: 1, maxLength: 6 }), (segs) => {
        const path = segs.join("/");
        const once = encodeURIComponent(path);
        const twice = encodeURIComponent(once);
        const outside = (text: string) =>
          pathReadings(text).some((r) => reasonText(r) !== undefined || !isInside(normalizeAbsolute(/^[/\\]/.test(r) ? r : `/ws/${r}`), "/ws"));
        // Whatever the plain path is judged, its encodings are judged no more leniently.
        if (outside(path)) {
          expect(outside(once)).toBe(true);
          expect(outside(twice)).toBe(true);
        }
        if (/%[0-9A-F]{2}/.test(twice)) expect(outside(encodeURIComponent(twice))).toBe(true);
        void resolveReal("/ws/" + path, fs);
      }),
      { numRuns: 300 },
    );
  });
  it("refuses every look-alike spelling of a separator or a dot", async () => {
    const fc = await import("fast-check");
    const slashes = ["\uff0f", "\u2215", "\u2044", "\u29f8", "\uff3c", "\u2216", "\ufe68"];
    const dots = ["\u2024", "\uff0e", "\ufe52"];
    fc.assert(
      fc.property(fc.constantFrom(...slashes), fc.constantFrom(...dots), fc.string({ maxLength: 8 }), (slash, dot, tail) => {
        expect(reasonText(`..${slash}${tail}`)).toBeDefined();
        expect(reasonText(`${dot}${dot}/${tail}`)).toBeDefined();
        expect(reasonText(encodeURIComponent(`..${slash}x`))).toBeUndefined(); // the text as written is plain ASCII…
        expect(pathReadings(encodeURIComponent(`..${slash}x`)).some((r) => reasonText(r) !== undefined)).toBe(true); // …its reading is not
      }),
      { numRuns: 200 },
    );
  });
});

describe("registry schemas that say a tool writes", () => {
  it("finds a default that writes behind $ref, allOf, anyOf and in an object argument given", () => {
    const w = { type: "string", default: "w" };
    expect(schemaDefaultWrite({ properties: { mode: w } }, {})).toEqual({ argument: "mode", value: "w" });
    expect(schemaDefaultWrite({ properties: { mode: w } }, { mode: "r" })).toBeUndefined();
    expect(schemaDefaultWrite({ properties: { mode: { $ref: "#/$defs/M" } }, $defs: { M: w } }, {})?.argument).toBe("mode");
    expect(schemaDefaultWrite({ $ref: "#/definitions/A", definitions: { A: { properties: { mode: w } } } }, {})?.argument).toBe("mode");
    expect(schemaDefaultWrite({ allOf: [{ properties: { overwrite: { default: true } } }] }, {})?.argument).toBe("overwrite");
    expect(schemaDefaultWrite({ properties: { mode: { oneOf: [{ type: "null" }, w] } } }, {})?.argument).toBe("mode");
    expect(schemaDefaultWrite({ properties: { mode: { enum: ["a"] } } }, {})?.argument).toBe("mode");
    expect(schemaDefaultWrite({ properties: { mode: { anyOf: [{ const: "r" }, { const: "w" }] } } }, {})).toBeUndefined();
    expect(schemaDefaultWrite({ properties: { mode: { enum: ["r", "w"] } } }, {})).toBeUndefined();
    const nested = { properties: { opts: { type: "object", properties: { overwrite: { default: true } } } } };
    expect(schemaDefaultWrite(nested, { opts: {} })?.argument).toBe("opts.overwrite");
    // An object argument left out is filled with its own arguments' defaults too.
    expect(schemaDefaultWrite(nested, {})?.argument).toBe("opts.overwrite");
    expect(schemaDefaultWrite({ properties: { mode: { anyOf: [{ const: "w" }] } } }, {})?.argument).toBe("mode");
    expect(schemaDefaultWrite({ properties: { output: { default: ".git/x" } } }, {})).toEqual({ argument: "output", value: ".git/x" });
    // A $ref to itself ends; a schema past the bound counts as one that writes.
    const loop: Record<string, unknown> = { properties: { a: { $ref: "#" } } };
    expect(schemaDefaultWrite(loop, {})).toBeUndefined();
    const wide = { properties: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, { type: "string" }])) };
    expect(schemaDefaultWrite(wide, {})?.argument).toMatch(/too large/);
  });
  it("reads an argument's description that says the tool writes there", () => {
    const targets = (description: string) => [...schemaWriteTargets({ properties: { x: { type: "string", description } } })];
    for (const d of ["Output file", "Destination path of the copy", "Where to save the report", "Path to write to", "File the report is written to", "The folder where the results are saved"])
      expect(targets(d), d).toEqual(["x"]);
    for (const d of ["Path of the file to read", "Directory to search; results are written to stdout", "The output format", "A search query"]) expect(targets(d), d).toEqual([]);
  });
});
