import { describe, expect, it } from "vitest";
import { memoryFiles } from "./rule-tester.js";

describe("the rule tester's in-memory file system", () => {
  const fs = memoryFiles({
    "src/a.py": "x = 1\n",
    "/outside/secret.txt": "s",
    "out-link": { link: "/outside" },
    "rel-link": { link: "src" },
    "loop-a": { link: "loop-b" },
    "loop-b": { link: "loop-a" },
    "src/hard.txt": { file: "h", nlink: 2 },
    empty: { dir: true },
  });
  it("has every parent of an entry as a folder, and nothing else", () => {
    expect(["/", "/ws", "/ws/src", "/outside", "/ws/empty"].map((p) => fs.kind(p))).toEqual(["dir", "dir", "dir", "dir", "dir"]);
    expect([fs.kind("/ws/src/a.py"), fs.kind("src/a.py"), fs.kind("/ws/nope"), fs.kind("/ws/out-link")]).toEqual(["file", "file", "missing", "symlink"]);
  });
  it("follows links as the kernel does: relative to the link's folder, and not forever", () => {
    expect(fs.realpath("/ws/out-link/secret.txt")).toBe("/outside/secret.txt");
    expect(fs.realpath("/ws/rel-link/a.py")).toBe("/ws/src/a.py");
    expect(fs.realpath("/ws/loop-a/x")).toBeUndefined();
    expect(fs.realpath("/ws/missing/x")).toBeUndefined();
    expect(fs.readlink("/ws/out-link")).toBe("/outside");
  });
  it("reads files through links, with their size and link count", () => {
    expect(fs.readText("/ws/out-link/secret.txt")).toBe("s");
    expect(fs.size("/ws/src/a.py")).toBe(6);
    expect(fs.nlink!("/ws/src/hard.txt")).toBe(2);
    expect(fs.nlink!("/ws/src/a.py")).toBe(1);
    expect(fs.readText("/ws/src")).toBeUndefined();
  });
});
