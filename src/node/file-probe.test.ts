import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPathService } from "../core/path-service.js";
import { createFileProbe } from "./file-probe.js";

const root = mkdtempSync(join(tmpdir(), "plangate-probe-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the real file system's listing", () => {
  it("lists a folder's entries with their lstat kinds, and agrees with lstat through the path service", () => {
    const ws = join(root, "ws");
    mkdirSync(join(ws, "d", "sub"), { recursive: true });
    for (let i = 0; i < 20; i++) writeFileSync(join(ws, "d", `f${i}.txt`), "x");
    symlinkSync("/etc", join(ws, "d", "out"));
    symlinkSync("f1.txt", join(ws, "d", "alias"));
    const probe = createFileProbe();
    const listing = probe.list!(join(ws, "d"))!;
    expect(listing.get("f3.txt")).toBe("file");
    expect(listing.get("sub")).toBe("dir");
    expect(listing.get("out")).toBe("symlink");
    expect(probe.list!(join(ws, "missing"))).toBeUndefined();
    const names = [...Array.from({ length: 20 }, (_, i) => `d/f${i}.txt`), "d/sub", "d/out/passwd", "d/alias", "d/new.txt"];
    const listed = createPathService(ws, probe);
    const asked = createPathService(ws, { ...createFileProbe(), list: undefined });
    for (const n of names) expect(listed.resolve(n), n).toEqual(asked.resolve(n));
    expect(listed.whyOutside(listed.resolve("d/out/passwd")[0]!)).toMatch(/through a symlink to \/etc\/passwd/);
  });
});
