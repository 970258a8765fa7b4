import fc from "fast-check";
import { wordOf } from "./place.js";
import { describe, expect, it } from "vitest";
import { memoryFiles, type Tree } from "../../test/rule-tester.js";
import type { FileProbe } from "./file-probe.js";
import { contextPath, createPathService, resolvePosix } from "./path-service.js";
import { normalizeAbsolute, UNWALKED, walkReal } from "./paths.js";
import { cpuBound } from "../../test/cpu-time.js";

const NAMES = ["a", "b", "src", ".git", "x.txt", "link", "up", "loop"];

/** A tree of files, folders and symlinks (inside, outside, dangling, looping) under /ws. */
const tree = fc
  .array(
    fc.tuple(
      fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
      fc.oneof(
        fc.constant<Tree[string]>("text"),
        fc.constant<Tree[string]>({ dir: true }),
        fc.constantFrom<Tree[string]>({ link: "/etc" }, { link: ".." }, { link: "a" }, { link: "../../outside" }, { link: "loop" }, { link: "/ws/src" }),
      ),
    ),
    { maxLength: 8 },
  )
  .map((entries) => {
    const t: Tree = {};
    for (const [parts, e] of entries) t[`/ws/${parts.join("/")}`] = e;
    return t;
  });
const clean = fc.array(fc.constantFrom(...NAMES, "new", "c.md"), { minLength: 1, maxLength: 4 }).map((p) => p.join("/"));

/** What the general resolution (every component looked up, every link followed) says of a relative path. */
function general(path: string, files: FileProbe) {
  const abs = `/ws/${path}`;
  const r = walkReal(abs, files);
  return { lexical: normalizeAbsolute(abs), real: r.path, reading: path, missing: r.missing };
}

describe("path service: deep folders", () => {
  it("walks a path deeper than 64 folders (by the tree of names) as it walks a short one (by path strings)", () => {
    fc.assert(
      fc.property(tree, clean, (t, path) => {
        const files = memoryFiles(t);
        // 65 missing folders and back: the same place, reached by a walk that goes deeper than 64 names.
        const deep = walkReal(`/ws/${"gone/".repeat(65)}${"../".repeat(65)}${path}`, files);
        const short = walkReal(`/ws/${path}`, files);
        expect(deep).toEqual(short);
      }),
    );
  });
  it("resolves many paths under a folder 2,000 names deep in linear time per path", () => {
    // A tree of folders a/a/.../a, 2,000 deep (a file system holds it; PATH_MAX bounds only one call's path).
    const depth = 2000;
    const deep = "/ws" + "/a".repeat(depth);
    const files: FileProbe = {
      kind: (p) => (p === "/ws" || (deep.startsWith(p) && p.endsWith("/a")) ? "dir" : "missing"),
      size: () => undefined,
      realpath: (p) => (deep.startsWith(p) ? p : undefined),
      readlink: () => undefined,
      readText: () => undefined,
    };
    const service = createPathService("/ws", files);
    const prefix = "a/".repeat(depth);
    const started = process.cpuUsage();
    // Names with a space are not plain: each is walked name by name, and a folder under the deep one too.
    for (let i = 0; i < 1000; i++) {
      const [r] = service.resolve(`${prefix} x${i}/y`);
      expect(r && "real" in r && r.missing).toBe(true);
    }
    const used = process.cpuUsage(started);
    // Building each folder's path at every step took about 25 s here; the walk now steps by name.
    expect((used.user + used.system) / 1000).toBeLessThan(cpuBound(3000));
  });
});

describe("path service: walks that climb", () => {
  const climbing = fc.array(fc.constantFrom(...NAMES, "new", "..", "."), { minLength: 1, maxLength: 6 }).map((p) => p.join("/"));
  it("says a path under a missing name is missing, and that one climbed back out of it is not, deep or short", () => {
    fc.assert(
      fc.property(tree, climbing, (t, path) => {
        const files = memoryFiles(t);
        const deep = walkReal(`/ws/${"gone/".repeat(65)}${"../".repeat(65)}${path}`, files);
        const short = walkReal(`/ws/${path}`, files);
        expect(deep).toEqual(short);
      }),
      { numRuns: 500 },
    );
    const files = memoryFiles({ "/ws/a": { dir: true } });
    expect(walkReal("/ws/a/m/x/..", files)).toMatchObject({ path: "/ws/a/m", missing: true });
    expect(walkReal("/ws/a/m/x/../..", files)).toMatchObject({ path: "/ws/a", missing: false });
    expect(walkReal(`/ws/a/${"m/".repeat(70)}${"../".repeat(69)}`, files)).toMatchObject({ path: "/ws/a/m", missing: true });
  });
});

describe("path service: names read from links' targets", () => {
  /** A probe that counts the names it is asked about, over a link whose target goes down and up 800 times. */
  function chain() {
    let asked = 0;
    const target = "x/../".repeat(800) + ".";
    const files: FileProbe = {
      ...memoryFiles({ "/ws/x": { dir: true } }),
      kind: (p) => (asked++, p === "/ws/a" || p === "/ws/b" ? "symlink" : p === "/" || p === "/ws" || p === "/ws/x" || p.endsWith("/x") ? "dir" : "missing"),
      readlink: (p) => (p === "/ws/a" ? target : p === "/ws/b" ? "a" : undefined),
      realpath: (p) => p,
    };
    return { files, asked: () => asked };
  }
  const paths = (n: number) => Array.from({ length: n }, (_, i) => Array.from({ length: 17 }, (_, j) => ((i >> j) & 1 ? "a" : "b")).join("/") + "/f.txt");

  it("reads at most MAX_LINK_NAMES of them in one validation, then leaves paths through links unresolved and outside", () => {
    const { files } = chain();
    let spent = 0;
    const service = createPathService("/ws", files, () => spent++);
    const reasons = paths(2000).map((p) => service.resolve(p).map((r) => service.whyOutside(r)?.why)[0]);
    // Each link read costs its 1,601 names (folders the paths share are resolved once): the first paths
    // resolve inside, every one after is refused.
    const inside = reasons.filter((w) => w === undefined).length;
    expect(inside).toBeGreaterThan(30);
    expect(inside).toBeLessThan(200);
    expect(new Set(reasons.slice(inside))).toEqual(new Set(["linksUnwalked"]));
    expect(spent).toBe(1);
  });

  it("counts every name a walk reads from a target, and reads none of a target past the bound", () => {
    const { files } = chain();
    const budget = { left: 100_000 };
    const results = paths(1000).map((p) => walkReal(`/ws/${p}`, files, 40, undefined, budget));
    // The names read never pass the bound: the target that would pass it is not read at all.
    expect(budget.left).toBe(-1);
    const first = results.findIndex((r) => r.path.startsWith(UNWALKED));
    expect(first).toBeGreaterThan(0);
    expect(results.slice(first).every((r) => r.path.startsWith(UNWALKED) && r.missing)).toBe(true);
    expect(results.slice(0, first).every((r) => r.path === "/ws/f.txt")).toBe(true);
  });
});

describe("path service", () => {
  it("resolves a plain relative path through its folder exactly as component by component", () => {
    fc.assert(
      fc.property(tree, fc.array(clean, { minLength: 1, maxLength: 6 }), (t, paths) => {
        const files = memoryFiles(t);
        const service = createPathService("/ws", files);
        for (const p of paths) expect(service.resolve(p), p).toEqual([general(p, files)]);
      }),
      { numRuns: 500 },
    );
  });
  it("answers the same whether busy folders are listed or asked name by name", () => {
    fc.assert(
      fc.property(tree, fc.array(clean, { minLength: 1, maxLength: 30 }), (t, paths) => {
        const plain = memoryFiles(t);
        const listing: FileProbe = { ...plain, list: (dir) => listOf(t, dir) };
        const a = createPathService("/ws", plain);
        const b = createPathService("/ws", listing);
        for (const p of [...paths, ...paths]) expect(b.resolve(p), p).toEqual(a.resolve(p));
      }),
      { numRuns: 300 },
    );
  });
  it("asks lstat for a name a listing lacks (a case-insensitive file system) or cannot type", () => {
    const asked: string[] = [];
    const files: FileProbe = {
      ...memoryFiles({}),
      kind: (p) => (asked.push(p), p === "/ws/d/README.MD" || p === "/ws/d/odd" || /^\/ws\/d\/f\d+$/.test(p) ? "file" : p === "/ws" || p === "/ws/d" ? "dir" : "missing"),
      list: (dir) => (dir === "/ws/d" ? new Map<string, "file" | undefined>([["readme.md", "file"], ["odd", undefined], ...Array.from({ length: 20 }, (_, i) => [`f${i}`, "file"] as [string, "file"])]) : undefined),
    };
    const service = createPathService("/ws", files);
    for (let i = 0; i < 20; i++) expect(service.resolve(`d/f${i}`)[0]).toMatchObject({ missing: false });
    expect(service.resolve("d/README.MD")[0]).toMatchObject({ missing: false });
    expect(service.resolve("d/odd")[0]).toMatchObject({ missing: false });
    expect(asked).toContain("/ws/d/README.MD");
    expect(asked).toContain("/ws/d/odd");
    // Past the first lookups the folder was listed: its other names were not asked one by one.
    expect(asked.filter((p) => /^\/ws\/d\/f1[0-9]$/.test(p))).toEqual([]);
  });
  it("answers an ASCII name a listing lacks as missing when no entry is the name without case, and asks otherwise", () => {
    const asked: string[] = [];
    const names = Array.from({ length: 20 }, (_, i) => `f${i}`);
    const files: FileProbe = {
      ...memoryFiles({}),
      kind: (p) => (asked.push(p), p === "/ws" || p === "/ws/d" ? "dir" : names.some((n) => p === `/ws/d/${n}`) ? "file" : "missing"),
      list: (dir) => (dir === "/ws/d" ? new Map(names.map((n) => [n, "file" as const])) : undefined),
    };
    const service = createPathService("/ws", files);
    for (let i = 0; i < 40; i++) service.resolve(`d/g${i}`);
    expect(service.resolve("d/g39")[0]).toMatchObject({ missing: true });
    // Only the names asked before the folder was listed; none after.
    expect(asked.filter((p) => /^\/ws\/d\/g3[0-9]$/.test(p))).toEqual([]);
    // Not ASCII, or an entry without case: asked.
    service.resolve("d/\u00e9t\u00e9");
    expect(asked).toContain("/ws/d/\u00e9t\u00e9");
    service.resolve("d/F3");
    expect(asked).toContain("/ws/d/F3");
  });
  it("asks lstat for names a file system may find without listing them: 8.3 short names, trailing dots and spaces, streams", () => {
    // A lookup that finds aliases, as NTFS and Windows shares do: `link.`, `link ` and `LINK~1` are `link`.
    const names = Array.from({ length: 20 }, (_, i) => `a${i}.txt`);
    const alias = (n: string) => (/^link[. ]+$|^LINK~1$|^link:.*$/.test(n) ? "link" : n);
    const files: FileProbe = {
      ...memoryFiles({}),
      realpath: (p) => p,
      kind: (p) => {
        const name = alias(p.slice(p.lastIndexOf("/") + 1));
        if (p === "/ws") return "dir";
        if (p.startsWith("/ws/") && name === "link") return "symlink";
        return names.some((n) => p === `/ws/${n}`) ? "file" : "missing";
      },
      readlink: (p) => (alias(p.slice(p.lastIndexOf("/") + 1)) === "link" ? "/etc" : undefined),
      list: (dir) => (dir === "/ws" ? new Map<string, "file" | "symlink">([...names.map((n) => [n, "file"] as [string, "file"]), ["link", "symlink"]]) : undefined),
    };
    const s = createPathService("/ws", files);
    for (const n of names) s.resolve(n);
    for (const p of ["link./passwd", "LINK~1/passwd", "link /passwd", "link:x/passwd"]) {
      const why = s.resolve(p).map((r) => s.whyOutside(r)).map((w) => (w === undefined ? undefined : wordOf(w))).find((w) => w !== undefined);
      expect(why, p).toMatch(/through a symlink to \/etc\/passwd|resolves to/);
    }
  });
  it("looks a few bare words up one by one, without listing a busy folder, and lists it past a budget", () => {
    let listed = 0;
    let asked = 0;
    const entries = new Map<string, "file" | "symlink">([...Array.from({ length: 400 }, (_, i) => [`f${i}.json`, "file"] as [string, "file"]), ["gl", "symlink"]]);
    const files: FileProbe = {
      kind: (p) => {
        asked++;
        if (p === "/ws") return "dir";
        const name = p.slice("/ws/".length);
        return entries.get(name) ?? "missing";
      },
      readlink: () => undefined,
      realpath: (p) => (p === "/ws" ? "/ws" : undefined),
      size: () => undefined,
      readText: () => undefined,
      list: (dir) => {
        listed++;
        return dir === "/ws" ? entries : undefined;
      },
    };
    const s = createPathService("/ws", files);
    const words = ["mouse", "human", "species", "min_genes", "file_path", "flags", "gl", "plot", "qc", "x"];
    expect(words.map((w) => s.isLinkName(w))).toEqual(words.map((w) => w === "gl"));
    expect(listed).toBe(0);
    // Asked again: remembered.
    const before = asked;
    for (const w of words) s.isLinkName(w);
    expect(asked).toBe(before);
    // A plan of very many distinct words: past the budget the folder is listed once and answers the rest.
    for (let i = 0; i < 1000; i++) expect(s.isLinkName(`w${i}`)).toBe(false);
    expect(listed).toBe(1);
  });
  it("spends one budget of 40 links on the whole path, the folder's and the last name's together", () => {
    const t: Tree = { "/ws/real": { dir: true }, "/ws/real/target": "x" };
    for (let i = 0; i < 30; i++) t[`/ws/l${i}`] = { link: i === 29 ? "real" : `l${i + 1}` };
    for (let i = 0; i < 15; i++) t[`/ws/real/f${i}`] = { link: i === 14 ? "target" : `f${i + 1}` };
    const files = memoryFiles(t);
    const [r] = createPathService("/ws", files).resolve("l0/f0");
    expect(r).toEqual(general("l0/f0", files));
    expect((r as { real: string }).real).toContain("\0unresolvable");
    // Within the budget, it resolves.
    expect(createPathService("/ws", files).resolve("l20/f5")[0]).toMatchObject({ real: "/ws/real/target", missing: false });
  });
  it("refuses what it cannot read plainly, and keeps inside what stays inside", () => {
    const files = memoryFiles({ "/ws/out": { link: "/etc" }, "/ws/src/a.py": "x" });
    const s = createPathService("/ws", files);
    const why = (p: string) => s.resolve(p).map((r) => s.whyOutside(r)).map((w) => (w === undefined ? undefined : wordOf(w))).find((w) => w !== undefined);
    expect(why("out/passwd")).toBe("resolves through a symlink to /etc/passwd");
    expect(why("../x")).toBe("resolves to /x");
    expect(why("src/../../x")).toBe("resolves to /x");
    expect(why("%2e%2e/x")).toBe("resolves to /x");
    expect(why("~/x")).toMatch(/starts with ~/);
    expect(why("src/a.py")).toBeUndefined();
    expect(s.inWorkspace("src/a.py")).toEqual({ abs: "/ws/src/a.py", inside: true, kind: "file" });
    expect(s.inWorkspace("out/x")).toMatchObject({ inside: false });
  });
  it("reads turn-context entries and resolves like path.posix.resolve", () => {
    expect(resolvePosix("/ws", "a/./b/../c")).toBe("/ws/a/c");
    expect(resolvePosix("/ws", "/x//y/")).toBe("/x/y");
    expect(contextPath("/src/a.py", "/ws")).toBe("/ws/src/a.py");
    expect(contextPath("/ws/src/a.py", "/ws")).toBe("/ws/src/a.py");
    expect(contextPath(" src\\a.py ", "/ws")).toBe("/ws/src/a.py");
  });
});

/** A folder's listing in a memory tree: its direct entries with their kinds. */
function listOf(t: Tree, dir: string): Map<string, "file" | "dir" | "symlink" | "other" | undefined> | undefined {
  const files = memoryFiles(t);
  if (files.kind(dir) !== "dir") return undefined;
  const out = new Map<string, "file" | "dir" | "symlink" | "other" | undefined>();
  for (const p of Object.keys(t)) {
    const abs = p.startsWith("/") ? p : `/ws/${p}`;
    for (let d = abs; d !== "/" && d.length > dir.length; d = d.slice(0, d.lastIndexOf("/")) || "/") {
      if (d.slice(0, d.lastIndexOf("/")) === dir || (dir === "/" && d.lastIndexOf("/") === 0)) {
        const k = files.kind(d);
        if (k !== "missing") out.set(d.slice(d.lastIndexOf("/") + 1), k);
      }
    }
  }
  return out;
}
