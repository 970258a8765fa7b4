import { wordOf } from "../core/place.js";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
    expect(wordOf(listed.whyOutside(listed.resolve("d/out/passwd")[0]!)!)).toMatch(/through a symlink to \/etc\/passwd/);
  });
});

describe("the real file system's transient reads", () => {
  it("give the bytes an ordinary read gives, for small and large files, and undefined for what cannot be read", () => {
    const dir = join(root, "transient");
    mkdirSync(dir, { recursive: true });
    const sizes = [0, 1, 1000, 256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 700_000, 9 * 1024 * 1024];
    const files = sizes.map((n, i) => {
      const path = join(dir, `f${i}.bin`);
      const data = Buffer.alloc(n);
      for (let j = 0; j < n; j++) data[j] = (j * 31 + i) & 0xff;
      writeFileSync(path, data);
      return { path, data };
    });
    const probe = createFileProbe();
    // Larger, smaller, then larger again: the reused buffer grows and is read into from its start.
    for (const f of [...files, ...files.slice().reverse()]) {
      const got = probe.readBytes!(f.path, { transient: true });
      expect(got && Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(f.data), f.path).toBe(true);
    }
    expect(probe.readBytes!(join(dir, "missing"), { transient: true })).toBeUndefined();
    expect(probe.readBytes!(dir, { transient: true })).toBeUndefined();
  });
  it("are not remembered, and an ordinary read still is", () => {
    const path = join(root, "changing.txt");
    writeFileSync(path, "one");
    const probe = createFileProbe();
    expect(Buffer.from(probe.readBytes!(path, { transient: true })!).toString()).toBe("one");
    writeFileSync(path, "two");
    expect(Buffer.from(probe.readBytes!(path, { transient: true })!).toString()).toBe("two");
    expect(Buffer.from(probe.readBytes!(path)!).toString()).toBe("two");
    writeFileSync(path, "three");
    // Once read the ordinary way, the file is the same for the rest of the validation.
    expect(Buffer.from(probe.readBytes!(path, { transient: true })!).toString()).toBe("two");
  });
});

describe("the real file system's link counts", () => {
  it("are the same whether a transient read has looked at the file or not", () => {
    const dir = join(root, "links");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "one.txt"), "1");
    writeFileSync(join(dir, "two.txt"), "2");
    linkSync(join(dir, "two.txt"), join(dir, "two-again.txt"));
    symlinkSync("two.txt", join(dir, "to-two"));
    const paths = ["one.txt", "two.txt", "to-two", "missing"].map((n) => join(dir, n)).concat(dir);
    const fresh = createFileProbe();
    const read = createFileProbe();
    for (const p of paths) read.readBytes!(p, { transient: true });
    for (const p of paths) expect(read.nlink!(p), p).toBe(fresh.nlink!(p));
    expect(read.nlink!(join(dir, "to-two"))).toBe(2);
    expect(read.nlink!(dir)).toBeUndefined();
  });
});
