/**
 * Commands that write a file replace it atomically: killed at any moment, they leave the old content or
 * the new, never a truncated plan, and the temporary files a killed writer leaves are removed by the next.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { removeStaleTemps, writeFileAtomic } from "../src/node/atomic-write.js";

const BIN = fileURLToPath(new URL("../bin/plangate.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "plangate-atomic-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const temps = () => readdirSync(dir).filter((n) => n.includes(".plangate-tmp-"));

/** A legacy plan and an envelope of ~5 MB, so that writing them takes a while. */
function bigSteps(): unknown[] {
  return Array.from({ length: 25_000 }, (_, i) => ({ tool: "plot_qc", description: `plot batch ${i} of the quality-control metrics`, params: { batch: i, path: `data/batch-${i}.h5ad` } }));
}

function waitExit(child: ChildProcess): Promise<void> {
  return new Promise((done) => child.once("exit", () => done()));
}

/** Kills the command at once when `early`, else as soon as its temporary file appears (mid-write) plus a random delay. */
async function runAndKill(args: string[], early: number | undefined): Promise<void> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: "ignore" });
  const exited = waitExit(child);
  if (early !== undefined) {
    await new Promise((r) => setTimeout(r, early));
  } else {
    // Until the file appears or the command ends: one that does neither fails the test at its timeout.
    let ended = false;
    void exited.then(() => (ended = true));
    while (temps().length === 0 && !ended) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 3)));
  }
  child.kill("SIGKILL");
  await exited;
}

const CASES = [
  {
    name: "seal --in-place",
    target: "envelope.json",
    args: ["seal", "envelope.json", "--in-place"],
    setup() {
      const text = JSON.stringify({ version: "1.0", created_at: "2026-11-20T10:00:00", message: "m", intent: "i", checksum: "0".repeat(64), plan: bigSteps() }, null, 2);
      writeFileSync(join(dir, "envelope.json"), text);
      return text;
    },
  },
  {
    name: "migrate --out over an existing file",
    target: "migrated.json",
    args: ["migrate", "legacy.json", "--out", "migrated.json"],
    setup() {
      writeFileSync(join(dir, "legacy.json"), JSON.stringify(bigSteps(), null, 2));
      const old = '{"previous": "content"}\n';
      writeFileSync(join(dir, "migrated.json"), old);
      return old;
    },
  },
];

describe("atomic writes under SIGKILL", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s leaves the old or the new file, whole", async (_n, c) => {
    const old = c.setup();
    // The complete new content, from an uninterrupted run on a copy.
    const full = spawnSync(process.execPath, [BIN, ...c.args], { cwd: dir, encoding: "utf8" });
    expect(full.status, full.stderr).toBe(0);
    // migrate stamps created_at with the clock: runs differ there and nowhere else.
    const same = (t: string) => t.replace(/"created_at": "[^"]*"/, '"created_at": ""');
    const fresh = same(readFileSync(join(dir, c.target), "utf8"));
    expect(fresh).not.toBe(same(old));
    JSON.parse(fresh);

    let midWrite = 0;
    for (let i = 0; i < 10; i++) {
      c.setup();
      // Half the kills land at a random moment, half while the temporary file is being written.
      await runAndKill(c.args, i % 2 === 0 ? Math.floor(Math.random() * 300) : undefined);
      const now = same(readFileSync(join(dir, c.target), "utf8"));
      expect(now === same(old) || now === fresh, `iteration ${i}: the target is neither the old nor the new file (${now.length} chars)`).toBe(true);
      if (temps().length > 0) midWrite++;
    }
    // Some kills must have hit the write itself, or the test proves nothing.
    expect(midWrite).toBeGreaterThan(0);

    // The next run removes what the killed ones left, and completes.
    c.setup();
    const after = spawnSync(process.execPath, [BIN, ...c.args], { cwd: dir, encoding: "utf8" });
    expect(after.status, after.stderr).toBe(0);
    expect(temps()).toEqual([]);
    expect(same(readFileSync(join(dir, c.target), "utf8"))).toBe(fresh);
  }, 60_000);
});

describe("writeFileAtomic", () => {
  it("keeps the mode of the file it replaces", () => {
    const f = join(dir, "private.json");
    writeFileSync(f, "{}");
    chmodSync(f, 0o600);
    writeFileAtomic(f, '{"a": 1}');
    expect(statSync(f).mode & 0o777).toBe(0o600);
  });

  it("writes through a symlink instead of replacing the link", () => {
    const real = join(dir, "real.json");
    const link = join(dir, "link.json");
    writeFileSync(real, "{}");
    symlinkSync(real, link);
    writeFileAtomic(link, '{"b": 2}');
    expect(readFileSync(real, "utf8")).toBe('{"b": 2}');
    expect(readFileSync(link, "utf8")).toBe('{"b": 2}');
  });

  it("removes only the temporary files of writers that are gone", () => {
    const f = join(dir, "plan.json");
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    writeFileSync(join(dir, `.plan.json.plangate-tmp-${dead}-abcdef`), "partial");
    writeFileSync(join(dir, `.plan.json.plangate-tmp-${process.pid}-abcdef`), "in progress");
    writeFileSync(join(dir, ".other.json.plangate-tmp-1-abcdef"), "another file's");
    expect(removeStaleTemps(f)).toEqual([`.plan.json.plangate-tmp-${dead}-abcdef`]);
    expect(temps().sort()).toEqual([".other.json.plangate-tmp-1-abcdef", `.plan.json.plangate-tmp-${process.pid}-abcdef`].sort());
    rmSync(join(dir, `.plan.json.plangate-tmp-${process.pid}-abcdef`));
    rmSync(join(dir, ".other.json.plangate-tmp-1-abcdef"));
  });
});
