import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSessionRegistry } from "../../src/store/file-registry.js";
import { NOW } from "../helpers.js";
import { tempWorkspace } from "./fixtures.js";

const WORKER = join(import.meta.dirname, "race-worker.mjs");
const DIST = join(import.meta.dirname, "../../dist/orchestration/registry.js");

/** Starts `n` racer processes, releases them together, and returns each one's winnings. */
async function race(n: number, folder: string, nowMs: number, ids: string[]): Promise<{ pid: number; won: string[] }[]> {
  const go = join(folder, "..", `go-${Math.random().toString(36).slice(2)}`);
  let ready = 0;
  let release!: () => void;
  const allReady = new Promise<void>((r) => {
    release = r;
  });
  const runs = Array.from({ length: n }, () => {
    const child = spawn(process.execPath, [WORKER, folder, go, String(nowMs), "60", ...ids], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => {
      const before = out;
      out += b.toString();
      if (!before.includes("ready\n") && out.includes("ready\n") && ++ready === n) release();
    });
    child.stderr.on("data", (b: Buffer) => {
      err += b.toString();
    });
    return new Promise<{ pid: number; won: string[] }>((resolve, reject) => {
      child.on("close", (code) => {
        if (code !== 0) reject(new Error(`racer exited ${code}: ${err}`));
        else resolve(JSON.parse(out.split("\n").filter(Boolean).pop()!));
      });
    });
  });
  await allReady;
  writeFileSync(go, "");
  return Promise.all(runs);
}

describe("session registry across processes", () => {
  it("needs the compiled library (npm run build)", () => {
    expect(existsSync(DIST), "run `npm run build` before the tests").toBe(true);
  });

  it.skipIf(!existsSync(DIST))("lets exactly one of 8 racing processes register each id", async () => {
    const folder = join(tempWorkspace(), "sessions");
    const ids = Array.from({ length: 20 }, (_, i) => `sess_race_${i}`);
    const results = await race(8, folder, NOW.getTime(), ids);
    for (const id of ids) {
      const winners = results.filter((r) => r.won.includes(id));
      expect(winners, id).toHaveLength(1);
      const entry = JSON.parse(readFileSync(join(folder, `${id}.json`), "utf8"));
      expect(entry.pid).toBe(winners[0]!.pid);
    }
  });

  it.skipIf(!existsSync(DIST))("lets exactly one racer take over each expired entry", async () => {
    const folder = join(tempWorkspace(), "sessions");
    const registry = new FileSessionRegistry(folder);
    const ids = Array.from({ length: 20 }, (_, i) => `sess_stale_${i}`);
    for (const id of ids) expect(registry.register(id, { now: NOW, ttlSeconds: 1 }).ok).toBe(true);
    const results = await race(8, folder, NOW.getTime() + 10_000, ids);
    for (const id of ids) {
      const winners = results.filter((r) => r.won.includes(id));
      expect(winners, id).toHaveLength(1);
      const entry = JSON.parse(readFileSync(join(folder, `${id}.json`), "utf8"));
      expect(entry.pid).toBe(winners[0]!.pid);
      expect(existsSync(join(folder, `${id}.json.lock`))).toBe(false);
    }
  });
});
