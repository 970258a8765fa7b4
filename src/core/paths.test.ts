import { describe, expect, it } from "vitest";
import type { FileProbe } from "./file-probe.js";
import { isInside, looksLikeEscapingPath, normalizeAbsolute, pathReadings, resolveReal, unsafePathReason } from "./paths.js";

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
  it("knows paths that can never be safe", () => {
    expect(unsafePathReason("a\0b")).toContain("NUL");
    expect(unsafePathReason("~/x")).toContain("~");
    expect(unsafePathReason("\\\\server\\share")).toContain("UNC");
    expect(unsafePathReason("data/x")).toBeUndefined();
  });
  it("compares folders by whole segments", () => {
    expect(isInside("/ws2/x", "/ws")).toBe(false);
    expect(isInside("/ws/x", "/ws")).toBe(true);
    expect(isInside("/ws", "/ws")).toBe(true);
  });
  it("spots escaping paths under other argument names", () => {
    expect(looksLikeEscapingPath("output", "../x")).toBe(true);
    expect(looksLikeEscapingPath("command", "/usr/bin/make")).toBe(false);
    expect(looksLikeEscapingPath("title", "a/b")).toBe(false);
  });
});
