import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LeafTag, PlanFacts, tagsOf } from "./facts.js";
import type { FileProbe } from "./file-probe.js";
import type { Step } from "./plan.js";
import { defaultPolicy } from "../policy/defaults.js";
import { looksLikeEscapingPath, looksLikePath, mayBeFileName, mayNamePath } from "./paths.js";
import { ENV_IN_PATH, INSIDE, WHOLE, WORDS } from "../rules/unresolved-argument/index.js";
import { ANY_RUN_TIME, RUN_TIME_WORDS } from "../rules/non-deterministic/index.js";

/*
 * The tags are a pre-check: a rule skips a leaf whose tags rule it out, so a tag must be set for every
 * text the rule's own test could match. These properties try texts built from the characters and words
 * the rules look for.
 */
const PIECES = [
  "a", "Z", "0", "/", "\\", ".", "..", "...", "~", "%", "%2e", ":", "file:", "$", "{", "}", "{{", "(", ")", "`", "<", ">", "?", "[", "]",
  " ", "\t", "\n", "\u2026", "\u200b", "\u202e", "\uff0f", "é", "TODO", "tbd", "FixMe", "change_me", "REPLACEME", "placeholder", "your", "here",
  "RANDOM", "date", "uuidgen", "uuid4", "Math.random", "DATE.NOW", "now()", "/dev/", "/DEV/urandom", "rand(", "_", "-", "insert", "path",
];
const of = (pieces: readonly string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.array(fc.constantFrom(...pieces), { maxLength: 5 }).map((p) => p.join("")) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join("")) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
const STAND_INS = ["?", "??", "<", "x>", "{{", "}}", "${", "}", "$", "%", "A", "...", "\u2026", "[", "insert", "TODO", "tbd", "your", "_", " here", " "];
const RUN_TIMES = ["$", "{", "{{", "(", ")", "`", " ", "RANDOM", "date", "uuidgen", "uuid4", "Math.random", "DATE.NOW", "now", "/DEV/urandom", "/dev/random", "rand", "time"];
const PATHS = ["/", "\\", ".", "..", "~", "%", "%2e", ":", "file:", "C:", "a", " ", "x"];

const has = (t: number, tag: number) => (t & tag) !== 0;

describe("leaf tags", () => {
  it("Placeholder or Words (with a stand-in word) for every text unresolved-argument could report", () => {
    fc.assert(
      fc.property(of(STAND_INS), (s) => {
        const hit = WHOLE.test(s) || INSIDE.some(({ pattern }) => pattern.test(s)) || ENV_IN_PATH.test(s);
        if (!hit) return;
        const t = tagsOf(s);
        expect(has(t, LeafTag.Placeholder) || (has(t, LeafTag.Words) && WORDS.test(s)), JSON.stringify(s)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
  it("RunTime or Words (with a run-time word) for every text non-deterministic could report", () => {
    fc.assert(
      fc.property(of(RUN_TIMES), (s) => {
        if (!ANY_RUN_TIME.test(s)) return;
        const t = tagsOf(s);
        expect(has(t, LeafTag.RunTime) || (has(t, LeafTag.Words) && RUN_TIME_WORDS.test(s)), JSON.stringify(s)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
  it("PathLike for every text the path rules would take for a path", () => {
    fc.assert(
      fc.property(of(PATHS), fc.constantFrom("", "x", "path", "command"), (s, name) => {
        if (!looksLikePath(name, s) && !looksLikeEscapingPath(name, s)) return;
        expect(has(tagsOf(s), LeafTag.PathLike), JSON.stringify(s)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
  it("answers mayBeFileName and mayNamePath from the tags as the text tests do", () => {
    const URLS = ["http://x", "ftp:", "a:b", "://", "file:x", "%2e", "/", "\\", " ", "\t", "\u00a0", "\u2028", ".", "~", "x", "gl", "C:"];
    fc.assert(
      fc.property(of(URLS), fc.constantFrom("", "x", "name", "url", "command", "pattern"), (s, name) => {
        const word = !has(tagsOf(s), LeafTag.Space | LeafTag.Hidden | LeafTag.PathLike);
        expect(mayBeFileName(name, s, word), JSON.stringify(s)).toBe(mayBeFileName(name, s));
        // mayNamePath's shortcut (no separator or %) against its full tests.
        if (!/[/\\%]/.test(s)) expect(mayNamePath(name, s), JSON.stringify(s)).toBe(looksLikeEscapingPath(name, s) || looksLikePath(name, s));
      }),
      { numRuns: 5000 },
    );
  });
  it("tags plain words with nothing a rule looks for", () => {
    expect(tagsOf("human")).toBe(LeafTag.Words);
    expect(tagsOf("42")).toBe(0);
    expect(has(tagsOf("data/x.h5ad"), LeafTag.PathLike)).toBe(true);
    expect(has(tagsOf("a\u200bb"), LeafTag.Hidden)).toBe(true);
    expect(has(tagsOf("a b"), LeafTag.Space)).toBe(true);
  });
});

/*
 * A step's path arguments are compared with its other leaves by place (container and key): one by one for
 * a few, through an index for many. Both must agree with the definition, for any argument tree.
 */
describe("isPathArgument", () => {
  const NONE: FileProbe = { kind: () => "missing", size: () => undefined, realpath: () => undefined, readlink: () => undefined, readText: () => undefined };
  const NAMES = ["path", "file", "files", "paths", "cwd", "content", "name", "x", "flags", "0", "$literal", "file:///a"];
  const value = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("a.txt", "data/x.h5ad", "../up", "file:///etc/passwd", "plain", ".env", "a.txt"),
      fc.constantFrom(1, true, null),
      fc.array(tie("tree"), { maxLength: 24 }),
      fc.dictionary(fc.constantFrom(...NAMES), tie("tree"), { maxKeys: 6 }),
    ),
  })).tree;
  it("answers as a comparison of places with every path argument", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...NAMES), value, { maxKeys: 6 }), (args) => {
        const facts = new PlanFacts(defaultPolicy("/w"), undefined, NONE);
        const step = { position: 1, at: "/steps/0", toolAt: "/steps/0/tool", tool: "write_file", args, argsAt: "/steps/0/arguments", raw: {} } as Step;
        const f = facts.step(step);
        const paths = f.pathArguments();
        for (const leaf of [...f.strings, ...f.keys, ...paths])
          for (const same of [false, true]) {
            const want = paths.some((a) => a.slot.container === leaf.slot.container && String(a.slot.token) === String(leaf.slot.token) && (!same || a.value === leaf.value));
            expect(f.isPathArgument(leaf, same)).toBe(want);
          }
      }),
      { numRuns: 3000 },
    );
  });
  it("keeps the facts of steps that share a position apart (a nested step has its parent's)", () => {
    const facts = new PlanFacts(defaultPolicy("/w"), undefined, NONE);
    const mk = (path: string) => ({ position: 3, at: "/steps/2", toolAt: "/steps/2/tool", tool: "write_file", args: { path }, argsAt: "/steps/2/arguments", raw: {} }) as Step;
    const a = mk("a.txt");
    const b = mk("b.txt");
    expect(facts.step(a).pathArguments()[0]!.value).toBe("a.txt");
    expect(facts.step(b).pathArguments()[0]!.value).toBe("b.txt");
    expect(facts.step(a)).toBe(facts.step(a));
    expect(facts.step(b)).toBe(facts.step(b));
    expect(facts.step(a)).not.toBe(facts.step(b));
  });
});

describe("writeReason: a file's text beside a path", () => {
  const NONE: FileProbe = { kind: () => "missing", size: () => undefined, realpath: () => undefined, readlink: () => undefined, readText: () => undefined };
  const reason = (args: Record<string, unknown>) => {
    const facts = new PlanFacts(defaultPolicy("/w"), undefined, NONE);
    return facts.step({ position: 1, at: "/steps/0", toolAt: "/steps/0/tool", tool: "read_file", args, argsAt: "/steps/0/arguments", raw: {} } as Step).writeReason;
  };
  it.each([
    [{ path: "run.sh", data: "#!/bin/sh\nmake\n" }, "data"],
    [{ path: "run.sh", body: "make" }, "body"],
    [{ path: "run.sh", text: "line\r\n" }, "text"],
    [{ path: "run.sh", lines: ["#!/bin/sh", "make"] }, "lines"],
    [{ file_path: "a.py", source_code: "print(1)" }, "source_code"],
    [{ files: ["a.py"], options: { fileData: "x" } }, "fileData"],
  ])("%j writes through %s", (args, argument) => {
    expect(reason(args)).toEqual({ kind: "text", argument, reader: true });
  });
  it.each([
    { path: "src", text: "TODO" },
    { path: "a.py", lines: "1-20" },
    { path: "a.py", lines: [1, 20] },
    { path: "a.py", lines: ["10:20"] },
    { path: "a.json", data: "{\"a\": 1}" },
    { source: "a\nb" },
    { text: "a\nb", body: "x" },
    { url: "https://example.com/x", body: "x" },
  ])("%j reads", (args) => {
    expect(reason(args)).toBeUndefined();
  });
});
