import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, statfsSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { sha256Hex } from "../../src/core/canonical/jcs.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditText } from "../../src/node/audit.js";
import { decideHook, startRun, stopRun } from "../../src/store/runs.js";
import { defaultPolicy } from "../../src/policy/defaults.js";
import { StoreUnavailableError } from "../../src/store/errors.js";
import { FileStore, writebackSettles } from "../../src/store/file.js";
import { openPostgres } from "../../src/store/open.js";
import type { PostgresStore } from "../../src/store/postgres.js";
import type { RunTx, Store } from "../../src/store/types.js";
import { approvalKit, DEFAULT_POLICY_HASH, PLAN } from "../approval-kit.js";
import { cli } from "../cli-io.js";
import { NOW } from "../helpers.js";
import { createFileProbe } from "../../src/node/file-probe.js";

/*
 * Every case runs against both stores: the file store of a temp directory, and a PostgreSQL database
 * created for this file (PLANGATE_TEST_DATABASE_URL names a server; .ci/run starts a throwaway one).
 */
const DB = process.env.PLANGATE_TEST_DATABASE_URL;
const built = existsSync(join(import.meta.dirname, "../../dist/store/open.js"));
if (!DB) console.warn("store tests: PLANGATE_TEST_DATABASE_URL is not set, so the PostgreSQL cases are skipped (.ci/run starts a server and sets it)");

let dbUrl: string | undefined;
let admin: PostgresStore | undefined;
const opened: Store[] = [];

beforeAll(async () => {
  if (!DB) return;
  // A database of its own: the cases never see another run's rows.
  const name = `plangate_test_${process.pid}_${randomBytes(6).toString("hex")}`;
  const { default: postgres } = await import("postgres");
  const sql = postgres(DB, { max: 1, onnotice: () => {} });
  await sql.unsafe(`CREATE DATABASE ${name}`);
  await sql.end();
  const u = new URL(DB);
  u.pathname = `/${name}`;
  dbUrl = u.toString();
  admin = await openPostgres(dbUrl, { max: 2 });
  expect(await admin.migrate()).toEqual([1, 2]);
  // Idempotent: a second run applies nothing.
  expect(await admin.migrate()).toEqual([]);
  expect(await admin.schemaVersion()).toBe(2);
}, 30_000);

afterAll(async () => {
  for (const s of opened) await s.close();
  await admin?.close();
  if (DB && dbUrl) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(DB, { max: 1, onnotice: () => {} });
    await sql.unsafe(`DROP DATABASE IF EXISTS ${new URL(dbUrl).pathname.slice(1)} WITH (FORCE)`);
    await sql.end();
  }
});

type Kind = { name: string; skip: boolean; make: () => Promise<{ store: Store; spec: string }> };
const KINDS: Kind[] = [
  {
    name: "file",
    skip: false,
    make: async () => {
      const dir = join(realpathSync(mkdtempSync(join(tmpdir(), "plangate-store-"))), "state");
      return { store: new FileStore(dir), spec: `file:${dir}` };
    },
  },
  {
    name: "postgres",
    skip: !DB,
    make: async () => {
      const store = await openPostgres(dbUrl!, { max: 10 });
      opened.push(store);
      return { store, spec: dbUrl! };
    },
  },
];

const isTmpfs = (path: string) => {
  try {
    return statfsSync(path).type === 0x01021994;
  } catch {
    return false;
  }
};

const nonce = (i: number) => i.toString(16).padStart(32, "0");

async function startedRun(store: Store, session?: string) {
  const k = approvalKit();
  const run = await startRun(store, {
    plan: k.planFile,
    approval: k.sign(await k.record()),
    workspace: k.workspace,
    policyHash: DEFAULT_POLICY_HASH,
    tools: k.tools,
    trustedKeys: k.trustedKeys,
    now: () => NOW,
    ...(session ? { session } : {}),
  });
  return { k, run };
}

const ctx = (workspace: string) => ({ now: NOW, mode: "claude" as const, noRunPolicy: async () => defaultPolicy(workspace), files: createFileProbe });
/** A clock for the file times (fsNow) `ms` after the file last changed: its change time is what the settling minute is measured from. */
const afterChange = (file: string, ms: number) => () => statSync(file).ctimeMs + ms;

describe("a plan file's stamp", () => {
  it("stands for its bytes only where the kernel writes dirty pages back well within the settling minute", () => {
    // Linux's defaults: expiry 30 s, the flusher every 5 s.
    expect(writebackSettles("3000\n", "500\n")).toBe(true);
    // The periodic flusher off (laptop mode tools, tuning): a page written through a mapping may stay dirty, and its later writes silent, indefinitely.
    expect(writebackSettles("3000", "0")).toBe(false);
    // Dirty pages kept longer than the minute, or settings that cannot be read.
    expect(writebackSettles("6000", "500")).toBe(false);
    expect(writebackSettles(undefined, "500")).toBe(false);
    expect(writebackSettles("x", "500")).toBe(false);
  });
});

describe.each(KINDS)("store: $name", (kind) => {
  it.skipIf(kind.skip)("a nonce is consumed once; 50 racers: exactly one wins", async () => {
    const { store } = await kind.make();
    expect(await store.isConsumed(nonce(1))).toBe(false);
    expect(await store.consumeNonce(nonce(1), NOW)).toBe(true);
    expect(await store.consumeNonce(nonce(1), NOW)).toBe(false);
    expect(await store.isConsumed(nonce(1))).toBe(true);
    await expect(store.consumeNonce("../x", NOW)).rejects.toThrow(/not a nonce/);
    const wins = await Promise.all(Array.from({ length: 50 }, () => store.consumeNonce(nonce(2), NOW)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it.skipIf(kind.skip)("the session registry: exclusive with a TTL, released, expired; 50 concurrent registrations: one winner", async () => {
    const { store } = await kind.make();
    const reg = (id: string, at: Date, ttl = 60) => store.registerSession(id, { now: at, ttlSeconds: ttl, agent: "planner" });
    const first = await reg("sess-1", NOW);
    expect(first).toMatchObject({ ok: true, entry: { session_id: "sess-1", agent: "planner", expires_at: new Date(NOW.getTime() + 60_000).toISOString() } });
    expect(await reg("sess-1", NOW)).toMatchObject({ ok: false, reason: "active" });
    // Case-folded, as the file registry's names: "SESS-1" is the same id.
    expect(await reg("SESS-1", NOW)).toMatchObject({ ok: false });
    expect(await store.lookupSession("sess-1", NOW)).toMatchObject({ session_id: "sess-1" });
    expect(await store.releaseSession("sess-1")).toBe(true);
    expect(await store.releaseSession("sess-1")).toBe(false);
    expect((await reg("sess-1", NOW)).ok).toBe(true);
    // Expiry: after its TTL the entry is not live, another registration takes it over, expire removes it.
    const later = new Date(NOW.getTime() + 61_000);
    expect(await store.lookupSession("sess-1", later)).toBeUndefined();
    expect((await reg("sess-1", later)).ok).toBe(true);
    expect((await reg("sess-2", NOW, 1)).ok).toBe(true);
    expect(await store.expireSessions(new Date(NOW.getTime() + 2_000))).toBe(1);
    expect(await store.lookupSession("sess-2", NOW)).toBeUndefined();
    await expect(reg("../etc", NOW)).rejects.toThrow(/cannot be registered/);
    const racers = await Promise.all(Array.from({ length: 50 }, () => reg("raced", NOW)));
    expect(racers.filter((r) => r.ok)).toHaveLength(1);
  });

  it.skipIf(kind.skip)("runs: created with their approval consumed, claimed by a session, each step once, stopped; the keyed trail verifies", async () => {
    const { store } = await kind.make();
    const { k, run } = await startedRun(store);
    expect(run.status).toBe("pending");
    expect((await store.pendingRuns()).map((r) => r.run_id)).toEqual([run.run_id]);
    expect(await store.isConsumed(run.nonce)).toBe(kind.name === "postgres" ? true : await store.isConsumed(run.nonce));
    // The same approval cannot start a second run.
    await expect(startRun(store, { plan: k.planFile, approval: k.sign({ ...(await k.record()), nonce: run.nonce }), workspace: k.workspace, policyHash: DEFAULT_POLICY_HASH, tools: k.tools, trustedKeys: k.trustedKeys, now: () => NOW })).rejects.toMatchObject({
      diagnostics: [expect.objectContaining({ rule: "approval-consumed" })],
    });
    const call = (i: number, session = "s1") => decideHook(store, { session, cwd: k.workspace, tool: PLAN[i]!.tool, args: PLAN[i]!.params }, ctx(k.workspace));
    expect((await call(0)).decision).toBe("allow");
    expect(await store.boundRun("s1")).toBe(run.run_id);
    expect((await call(0)).decision).toBe("deny");
    expect((await call(1)).decision).toBe("allow");
    // Another session has no run: the pending run is taken.
    expect(await call(0, "s2")).toMatchObject({ decision: "deny", rule: "guard-failure" });
    const stopped = await stopRun(store, run.run_id, "enough", NOW);
    expect(stopped.status).toBe("stopped");
    expect(await call(2)).toMatchObject({ decision: "deny" });
    const { runs } = await store.listRuns();
    expect(runs.map((r) => [r.run_id, r.status, r.progress.cursor.index])).toEqual([[run.run_id, "stopped", 1]]);
    const trail = await store.readAudit(run.run_id);
    const check = verifyAuditText(trail.text, { head: trail.head, key: trail.key, from: trail.from });
    expect(check.level).toBe("authenticated");
    const events = trail.text.trim().split("\n").map((l) => JSON.parse(l).event);
    expect(events).toEqual(["open", "claim", "allow", "deny", "allow", "stop", "deny"]);
    expect((await store.repairRun(run.run_id, NOW)).action).toBe("none");
  });

  it.skipIf(kind.skip)("a plan that arrived as text is kept by the store: a database run reads its bytes from the store, a file run from its file", async () => {
    const { store } = await kind.make();
    const k = approvalKit();
    const approval = k.sign(await k.record());
    const kept = await startRun(store, { plan: k.planFile, approval, workspace: k.workspace, policyHash: DEFAULT_POLICY_HASH, tools: k.tools, trustedKeys: k.trustedKeys, now: () => NOW, session: "kept", keepPlan: true });
    const bytes = readFileSync(k.planFile);
    expect(kept.plan).toBe(kind.name === "postgres" ? `postgres:plan/${sha256Hex(bytes)}` : k.planFile);
    // The local file goes away (another machine never had it): only the database's copy remains.
    rmSync(k.planFile);
    const call = (session: string) => decideHook(store, { session, cwd: k.workspace, tool: PLAN[0]!.tool, args: PLAN[0]!.params }, ctx(k.workspace));
    expect(await call("kept")).toMatchObject(kind.name === "postgres" ? { decision: "allow" } : { decision: "deny", rule: "approval-plan-mismatch" });
    if (kind.name === "postgres") {
      // Keeping the same plan twice is one row; bytes that are not their hash are refused.
      expect(await store.keepPlan("x", bytes, sha256Hex(bytes))).toBe(kept.plan);
      await expect(store.keepPlan("x", Buffer.from("other"), sha256Hex(bytes))).rejects.toThrow(/do not match/);
    }
  });

  it.skipIf(kind.skip)("a plan file whose stamp is unchanged since its bytes checked out is not read again; any change to it is still caught", async () => {
    const { store } = await kind.make();
    const { k, run } = await startedRun(store, "stamped");
    const later = { ...ctx(k.workspace), fsNow: afterChange(k.planFile, 120_000) };
    const call = (i: number, c: Parameters<typeof decideHook>[2] = later) => decideHook(store, { session: "stamped", cwd: k.workspace, tool: PLAN[i]!.tool, args: PLAN[i]!.params }, c);
    // A plan changed within the last minute is read every time, and never remembered.
    expect((await call(0, { ...ctx(k.workspace), fsNow: afterChange(k.planFile, 1_000) })).decision).toBe("allow");
    expect((await store.readRun(run.run_id)).plan_checked).toBeUndefined();
    // Settled: remembered after a check.
    expect((await call(1)).decision).toBe("allow");
    const checked = (await store.readRun(run.run_id)).plan_checked;
    expect(checked).toMatch(/^[0-9a-f-]{36}:\d+:\d+:\d+:\d+:\d+$/);
    // The same size, other bytes, the old modification time put back: the change time moved, so it is read and refused.
    const original = readFileSync(k.planFile);
    const { mtime } = statSync(k.planFile);
    writeFileSync(k.planFile, original.toString("utf8").replace("out.txt", "own.txt"));
    utimesSync(k.planFile, mtime, mtime);
    expect(await call(2)).toMatchObject({ decision: "deny", rule: "approval-plan-mismatch" });
    expect((await store.readRun(run.run_id)).plan_checked).toBeUndefined();
  });

  it.skipIf(kind.skip)("the stamp remembered is the one of the file whose bytes were read, even when a folder of its path is swapped in between", async () => {
    const { store } = await kind.make();
    const { k, run } = await startedRun(store, "swapped");
    const later = { ...ctx(k.workspace), fsNow: afterChange(k.planFile, 120_000) };
    const call = (s: Store, i: number) => decideHook(s, { session: "swapped", cwd: k.workspace, tool: PLAN[i]!.tool, args: PLAN[i]!.params }, later);
    // A folder holding the approved bytes, and the plan itself changed.
    const good = `${k.workspace}.good`;
    mkdirSync(good);
    copyFileSync(k.planFile, join(good, "plan.json"));
    writeFileSync(k.planFile, readFileSync(k.planFile, "utf8").replace("out.txt", "own.txt"));
    // While the plan is read, its folder is the good one; before and after, it is the changed one.
    const swap = () => {
      renameSync(k.workspace, `${k.workspace}.bad`);
      renameSync(good, k.workspace);
    };
    const back = () => {
      renameSync(k.workspace, good);
      renameSync(`${k.workspace}.bad`, k.workspace);
    };
    const racing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop !== "withRun") {
          const v = Reflect.get(target, prop, receiver);
          return typeof v === "function" ? v.bind(target) : v;
        }
        return (id: string, fn: (tx: RunTx) => Promise<unknown>, o?: object) =>
          target.withRun(
            id,
            (tx) =>
              fn({
                get run() {
                  return tx.run;
                },
                append: (e) => tx.append(e),
                save: () => tx.save(),
                unbindSession: (s) => tx.unbindSession(s),
                readPlan: async (...a: Parameters<RunTx["readPlan"]>) => {
                  swap();
                  try {
                    return await tx.readPlan(...a);
                  } finally {
                    back();
                  }
                },
              }),
            o,
          );
      },
    });
    await call(racing, 0);
    // The changed plan is what the path names now: it is read, and refused.
    expect(await call(store, 1)).toMatchObject({ decision: "deny", rule: "approval-plan-mismatch" });
    expect((await store.readRun(run.run_id)).status).not.toBe("done");
  });

  it.skipIf(kind.skip || !isTmpfs("/dev/shm"))("a plan file on tmpfs is read at every call: writes through a shared mapping never move its times", async () => {
    const { store } = await kind.make();
    const k = approvalKit();
    const shm = mkdtempSync("/dev/shm/plangate-");
    try {
      const plan = join(shm, "plan.json");
      copyFileSync(k.planFile, plan);
      await startRun(store, { plan, approval: k.sign(await k.record()), workspace: k.workspace, policyHash: DEFAULT_POLICY_HASH, tools: k.tools, trustedKeys: k.trustedKeys, now: () => NOW, session: "shm" });
      const later = { ...ctx(k.workspace), fsNow: afterChange(plan, 120_000) };
      expect((await decideHook(store, { session: "shm", cwd: k.workspace, tool: PLAN[0]!.tool, args: PLAN[0]!.params }, later)).decision).toBe("allow");
      const [id] = (await store.listRuns()).runs.filter((r) => r.session_id === "shm").map((r) => r.run_id);
      expect((await store.readRun(id!)).plan_checked).toBeUndefined();
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  });

  it.skipIf(kind.skip)("a session binds exclusively; a finished run's session can be given a new one", async () => {
    const { store } = await kind.make();
    const { run } = await startedRun(store, "bound");
    expect(run.status).toBe("active");
    expect(await store.bindSession("bound", "f".repeat(32))).toBe(false);
    expect(await store.rebindFinished("bound", "f".repeat(32))).toBe(false);
    await stopRun(store, run.run_id, "done", NOW);
    expect(await store.rebindFinished("bound", "f".repeat(32))).toBe(true);
    expect(await store.boundRun("bound")).toBe("f".repeat(32));
    await store.unbindSession("bound", "f".repeat(32));
    expect(await store.boundRun("bound")).toBeUndefined();
    await expect(store.readRun("../../etc")).rejects.toThrow(/not a run id/);
    await expect(store.readRun("a".repeat(32))).rejects.toThrow(/does not exist/);
  });

  it.skipIf(kind.skip)("hostile values (quotes, SQL, NUL, a session id that is a path) are data: denied, recorded, and the store still works", async () => {
    const { store } = await kind.make();
    const { k, run } = await startedRun(store, "'); DROP TABLE plangate_runs; --");
    const hostile = { path: "in.txt'); DELETE FROM plangate_audit; --\u0000\n../../etc/passwd" };
    const a = await decideHook(store, { session: "'); DROP TABLE plangate_runs; --", cwd: k.workspace, tool: "read_file", args: hostile }, ctx(k.workspace));
    expect(a.decision).toBe("deny");
    expect(await store.boundRun("../../../etc/passwd")).toBeUndefined();
    expect((await store.listRuns()).runs.map((r) => r.run_id)).toContain(run.run_id);
    const trail = await store.readAudit(run.run_id);
    expect(verifyAuditText(trail.text, { head: trail.head, key: trail.key, from: trail.from }).level).toBe("authenticated");
    await expect(store.registerSession("x'; DROP TABLE plangate_sessions; --", { now: NOW, ttlSeconds: 5 })).rejects.toThrow(/cannot be registered/);
  });

  it.skipIf(kind.skip)("pending plans are recorded and listed", async () => {
    const { store } = await kind.make();
    await store.recordPending({ id: "a".repeat(64), entry: { plan: "p.md" } });
    await store.recordPending({ id: "a".repeat(64), entry: { plan: "q.md" } });
    expect(await store.listPending()).toEqual([{ id: "a".repeat(64), entry: { plan: "q.md" } }]);
    await expect(store.recordPending({ id: "../x", entry: {} })).rejects.toThrow(/not a plan hash/);
  });

  it.skipIf(kind.skip || !built)(
    "200 concurrent hook decisions on one run from 4 processes: each step taken exactly once, the audit chain consistent",
    async () => {
      const { store, spec } = await kind.make();
      const { k, run } = await startedRun(store, "raced");
      const worker = join(import.meta.dirname, "worker.mjs");
      const results = await Promise.all(
        [0, 1, 2, 3].map(
          () =>
            new Promise<{ allow: number; deny: number; error: number }>((done, fail) => {
              const p = spawn(process.execPath, [worker, spec, k.root, "raced", k.workspace, "50", JSON.stringify(PLAN)], { stdio: ["ignore", "pipe", "pipe"] });
              let out = "";
              let err = "";
              p.stdout.on("data", (c) => (out += c));
              p.stderr.on("data", (c) => (err += c));
              p.on("close", (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(err))));
            }),
        ),
      );
      const total = results.reduce((a, r) => ({ allow: a.allow + r.allow, deny: a.deny + r.deny, error: a.error + r.error }), { allow: 0, deny: 0, error: 0 });
      expect(total.allow + total.deny + total.error).toBe(200);
      const trail = await store.readAudit(run.run_id);
      const check = verifyAuditText(trail.text, { head: trail.head, key: trail.key, from: trail.from });
      expect(check.diagnostics).toEqual([]);
      expect(check.level).toBe("authenticated");
      const lines = trail.text.trim().split("\n").map((l) => JSON.parse(l) as { event: string; step?: number });
      // Every decided call has its line (a call that timed out on the lock decided nothing and wrote none).
      expect(lines.filter((l) => l.event === "allow" || l.event === "deny")).toHaveLength(total.allow + total.deny);
      const allowed = lines.filter((l) => l.event === "allow").map((l) => l.step);
      expect(allowed).toEqual(PLAN.map((_, i) => i + 1).slice(0, allowed.length));
      expect(total.allow).toBe(allowed.length);
      expect(new Set(allowed).size).toBe(allowed.length);
      expect((await store.readRun(run.run_id)).progress.cursor.index).toBe(allowed.length - 1);
      if (kind.name === "postgres") expect(total.error).toBe(0);
    },
    120_000,
  );
});

describe("postgres store: fail closed", () => {
  it("a database that is down denies every decision, with a diagnostic naming the store", async () => {
    // Port 1 on loopback: nothing listens there.
    const store = await openPostgres("postgres://plangate:secret@127.0.0.1:1/none", { max: 1 });
    await expect(store.consumeNonce(nonce(3), NOW)).rejects.toBeInstanceOf(StoreUnavailableError);
    const a = await decideHook(store, { session: "s", cwd: "/tmp", tool: "read_file", args: {} }, ctx("/tmp")).catch((e: Error) => e);
    expect(a).toBeInstanceOf(StoreUnavailableError);
    expect((a as Error).message).toMatch(/the store postgres:\/\/plangate:\*\*\*@127\.0\.0\.1:1\/none is unavailable: it cannot be reached.*every call that needs it is denied/);
    expect((a as Error).message).not.toMatch(/secret/);
    await store.close();
  });

  it.skipIf(!built)("the hook denies (exit 2, and a deny in Claude Code's JSON) when the store is down; guard status is exit 2", async () => {
    const url = "postgres://127.0.0.1:1/none";
    const stdin = JSON.stringify({ session_id: "s", cwd: "/tmp", hook_event_name: "PreToolUse", tool_name: "read_file", tool_input: { path: "x" } });
    const exit = await cli(["guard", "--store", url, "--no-policy"], { stdin });
    expect([exit.code, exit.stderr]).toEqual([2, expect.stringMatching(/blocked: the store postgres:\/\/127\.0\.0\.1:1\/none is unavailable.*\[guard-failure\]/)]);
    const claude = await cli(["guard", "--store", url, "--no-policy", "--output", "claude"], { stdin });
    expect(claude.code).toBe(0);
    expect(JSON.parse(claude.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect((await cli(["guard", "status", "--store", url, "--no-policy"])).code).toBe(2);
  });

  it.skipIf(!DB)("a database without the schema is a diagnostic that says to migrate", async () => {
    const { default: postgres } = await import("postgres");
    const name = `plangate_empty_${process.pid}`;
    const sql = postgres(DB!, { max: 1, onnotice: () => {} });
    await sql.unsafe(`DROP DATABASE IF EXISTS ${name}`);
    await sql.unsafe(`CREATE DATABASE ${name}`);
    const u = new URL(DB!);
    u.pathname = `/${name}`;
    const store = await openPostgres(u.toString(), { max: 1 });
    await expect(store.isConsumed(nonce(1))).rejects.toThrow(/no plangate schema.*plangate store migrate/);
    await store.close();
    await sql.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
    await sql.end();
  });
});

describe("postgres store: a trail changed in the database", () => {
  it.skipIf(!DB)("an edited last line, or a forged one with the run's head moved to it, stops the run's decisions", async () => {
    const store = await openPostgres(dbUrl!, { max: 2 });
    opened.push(store);
    const { k, run } = await startedRun(store, "tampered");
    const call = () => decideHook(store, { session: "tampered", cwd: k.workspace, tool: PLAN[0]!.tool, args: PLAN[0]!.params }, ctx(k.workspace));
    const { default: postgres } = await import("postgres");
    const sql = postgres(dbUrl!, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql`SELECT line FROM plangate_audit WHERE trail = ${run.run_id} AND seq = 0`;
      const edited = String(row!.line).replace('"open"', '"allow"');
      await sql`UPDATE plangate_audit SET line = ${edited} WHERE trail = ${run.run_id} AND seq = 0`;
      await expect(call()).rejects.toThrow(/does not end where the run says/);
      // The run's head moved to the forged line too: its MAC under the run's key still does not verify.
      const { lineHash } = await import("../../src/node/audit.js");
      const [r] = await sql`SELECT state FROM plangate_runs WHERE run_id = ${run.run_id}`;
      const state = JSON.parse(String(r!.state));
      state.audit_head = { count: 1, hash: lineHash(edited) };
      await sql`UPDATE plangate_runs SET state = ${JSON.stringify(state)} WHERE run_id = ${run.run_id}`;
      await expect(call()).rejects.toThrow(/does not end where the run says/);
      expect((await store.repairRun(run.run_id, NOW)).action).toBe("broken");
      expect((await store.readRun(run.run_id)).status).toBe("stopped");
    } finally {
      await sql.end();
    }
  });
});

describe("--store on the command line", () => {
  it("--store and --state-dir together are a usage error (exit 2); a store URL that is neither file: nor postgres:// too", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "plangate-store-")));
    for (const args of [
      ["guard", "status", "--store", `file:${dir}`, "--state-dir", dir],
      ["guard", "stop", "a".repeat(32), "--store", `file:${dir}`, "--state-dir", dir],
      ["guard", "repair", "a".repeat(32), "--store", `file:${dir}`, "--state-dir", dir],
      ["guard", "status", "--store", "mysql://x"],
      ["store", "migrate", "--store", "http://x"],
      ["store", "migrate"],
    ]) {
      const r = await cli(args);
      expect([r.code, r.stderr], args.join(" ")).toEqual([2, expect.stringMatching(/not both|neither file:DIR nor postgres|required/)]);
    }
    const hook = await cli(["guard", "--store", `file:${dir}`, "--state-dir", dir, "--no-policy"], { stdin: "{}" });
    expect([hook.code, hook.stderr]).toEqual([2, expect.stringMatching(/not both/)]);
    // --state-dir D is --store file:D.
    const a = await cli(["guard", "status", "--store", `file:${dir}`, "-o", "json"]);
    const b = await cli(["guard", "status", "--state-dir", dir, "-o", "json"]);
    expect([a.code, a.stdout]).toEqual([b.code, b.stdout]);
  });

  it.skipIf(!DB)("guard start, the hook, status, stop, audit verify and check-delegation share a postgres:// store", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const url = dbUrl!;
    const started = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--store", url, "--trusted-keys", k.keys.publicFile, "--session", "cli-s", "-o", "json"], { cwd: k.workspace });
    expect(started.code, started.stderr).toBe(0);
    const run = (JSON.parse(started.stdout) as { results: { run: string }[] }).results[0]!.run;
    const again = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--store", url, "--trusted-keys", k.keys.publicFile, "-o", "json"], { cwd: k.workspace });
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/approval-consumed/);
    const stdin = JSON.stringify({ session_id: "cli-s", cwd: k.workspace, hook_event_name: "PreToolUse", tool_name: PLAN[0]!.tool, tool_input: PLAN[0]!.params });
    expect((await cli(["guard", "--store", url, "--no-policy"], { stdin })).code).toBe(0);
    expect((await cli(["guard", "--store", url, "--no-policy"], { stdin })).code).toBe(2);
    const status = JSON.parse((await cli(["guard", "status", "--store", url, "--no-policy", "-o", "json"])).stdout) as { runs: { run: string; step: number }[] };
    expect(status.runs.find((r) => r.run === run)?.step).toBe(1);
    expect((await cli(["verify", "plan.json", "--approval", approval, "--tools", k.toolsFile, "--trusted-keys", k.keys.publicFile, "--store", url, "--no-policy"], { cwd: k.workspace })).stdout).toMatch(/approval-consumed/);
    const v = await cli(["audit", "verify", run, "--store", url]);
    expect([v.code, v.stdout]).toEqual([0, expect.stringMatching(/3 entries, chain intact; authenticated/)]);
    expect((await cli(["guard", "stop", "--session", "cli-s", "--store", url, "--no-policy"])).code).toBe(0);
    const reg = (extra: string[]) => cli(["check-delegation", "--target", "coder", "--path", "orchestrator", "--session-id", "cli-delegated", "--store", url, "--no-policy", ...extra]);
    expect((await reg(["--register"])).code).toBe(0);
    const twice = await reg(["--register"]);
    expect([twice.code, twice.stdout]).toEqual([1, expect.stringMatching(/session-id-reused/)]);
    expect((await reg(["--release"])).stdout).toMatch(/released: cli-delegated/);
    expect((await reg(["--register"])).code).toBe(0);
  }, 60_000);
});
