import { randomBytes } from "node:crypto";
import type postgresT from "postgres";
import { AuditChain, type AuditEntry, type AuditHead, lineHash, lineMacOk, verifyAuditText } from "../node/audit.js";
import { sha256Hex } from "../core/canonical/jcs.js";
import { InvalidSessionIdError, type RegisterOutcome, type SessionEntry, sessionIdProblem } from "../orchestration/registry.js";
import { GuardStateError, RunNotFoundError, StoreUnavailableError } from "./errors.js";
import { guardFailure } from "../approval/judge.js";
import { MIGRATIONS } from "./migrations.js";
import { isExpected, isRun } from "./validate.js";
import type { AuditInput, AuditRead, NewRun, PendingPlan, RepairOutcome, RunState, RunTx, Store, WithRunOptions } from "./types.js";
import { RUN_ID, STORED_PLAN, type TrailAdvice, trailAdvice } from "./types.js";
import { readPlanStamped } from "./file.js";

/*
 * The PostgreSQL store (`postgres://…`): what several machines share. Single use is a primary key
 * (INSERT … ON CONFLICT DO NOTHING), a run's critical section is a transaction holding its row
 * (SELECT … FOR UPDATE) in which its audit lines are inserted and its state updated, session expiry is
 * compared in SQL. Every statement is parameterised (postgres.js tagged templates); the migrations are
 * fixed text. A database that cannot be reached or used is a StoreUnavailableError: the guard denies.
 */

type Sql = postgresT.Sql;
type Tx = postgresT.TransactionSql;

/** A database URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparsable URL)";
  }
}

/** The database is not usable: the refusal says why, from its error code, and what to do. */
function unavailable(location: string, err: unknown): StoreUnavailableError {
  const e = err as { code?: string; message?: string };
  return new StoreUnavailableError(guardFailure({ kind: "store-unavailable", location, code: e?.code ?? "", error: e?.message ?? String(err) }).message);
}

function iso(v: unknown): string {
  return v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString();
}

function entryOf(r: Record<string, unknown>): SessionEntry {
  return { session_id: String(r.session_id), registered_at: iso(r.registered_at), expires_at: iso(r.expires_at), ...(r.agent != null ? { agent: String(r.agent) } : {}) };
}

function checkId(id: string): string {
  const problem = sessionIdProblem(id);
  if (problem) throw new InvalidSessionIdError(`session id "${id}" cannot be registered: ${problem}`);
  return id.toLowerCase();
}

/** A run read back from its row: the same checks as a run file. */
function runOf(location: string, id: string, state: string, calls: string): RunState {
  let v: Partial<RunState>;
  let expected: unknown;
  try {
    v = JSON.parse(state) as Partial<RunState>;
    expected = JSON.parse(calls);
  } catch {
    throw new GuardStateError(guardFailure({ kind: "bad-run-row", run: id, location, problem: "json" }).message);
  }
  if (!Array.isArray(expected) || !expected.every(isExpected)) throw new GuardStateError(guardFailure({ kind: "bad-run-row", run: id, location, problem: "calls" }).message);
  const run = { ...v, expected } as Partial<RunState>;
  if (!isRun(run, id)) throw new GuardStateError(guardFailure({ kind: "bad-run-row", run: id, location, problem: "run" }).message);
  return run;
}

function stateText(run: RunState): string {
  const { expected: _e, ...rest } = run;
  return JSON.stringify(rest);
}

/** Checks that the trail's last row is the run's anchored head. */
async function checkTail(tx: Tx, run: RunState, key: Uint8Array, then: TrailAdvice): Promise<void> {
  const rows = await tx`SELECT seq, line FROM plangate_audit WHERE trail = ${run.run_id} ORDER BY seq DESC LIMIT 1`;
  const last = rows[0];
  const head: AuditHead = last === undefined ? { count: 0, hash: null } : { count: Number(last.seq) + 1, hash: lineHash(String(last.line)) };
  const macOk = last === undefined || head.count - 1 < run.audit_from || lineMacOk(key, String(last.line));
  if (head.count !== run.audit_head.count || head.hash !== run.audit_head.hash || !macOk)
    throw new GuardStateError(guardFailure({ kind: "trail-end", run: run.run_id, then }).message);
}

export class PostgresStore implements Store {
  readonly kind = "postgres" as const;
  readonly location: string;
  readonly #sql: Sql;
  constructor(url: string, postgres: typeof postgresT, o: { max?: number } = {}) {
    this.location = redact(url);
    this.#sql = postgres(url, {
      max: o.max ?? 10,
      connect_timeout: 3,
      idle_timeout: 30,
      onnotice: () => {},
      // A row locked by a guard that hangs must not hang every other guard: the call is denied instead.
      connection: { application_name: "plangate", lock_timeout: 3000 },
    });
  }

  async close(): Promise<void> {
    await this.#sql.end({ timeout: 1 });
  }

  /** Runs a database operation; anything the database throws becomes a StoreUnavailableError. */
  async #do<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    try {
      return await fn(this.#sql);
    } catch (err) {
      if (err instanceof GuardStateError || err instanceof InvalidSessionIdError) throw err;
      throw unavailable(this.location, err);
    }
  }
  async #tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.#do((sql) => sql.begin(fn) as Promise<T>);
  }

  /** Applies the migrations not yet applied, in order, each in a transaction; returns the versions applied. */
  async migrate(): Promise<number[]> {
    return this.#tx(async (tx) => {
      // One migrator at a time (two machines migrating at once wait for each other).
      await tx`SELECT pg_advisory_xact_lock(${0x706c6167})`;
      await tx`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
      const done = new Set((await tx`SELECT version FROM schema_migrations`).map((r) => Number(r.version)));
      const applied: number[] = [];
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        // Fixed DDL text shipped with plangate: no value of any input is ever in it.
        for (const statement of m.statements) await tx.unsafe(statement);
        await tx`INSERT INTO schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
        applied.push(m.version);
      }
      return applied;
    });
  }
  async schemaVersion(): Promise<number> {
    return this.#do(async (sql) => {
      const r = await sql`SELECT coalesce(max(version), 0) AS v FROM schema_migrations`;
      return Number(r[0]?.v ?? 0);
    });
  }

  async consumeNonce(nonce: string, now: Date): Promise<boolean> {
    if (!/^[0-9a-f]{32}$/.test(nonce)) throw new GuardStateError(guardFailure({ kind: "not-an-id", what: "nonce", value: nonce }).message);
    return this.#do(async (sql) => (await sql`INSERT INTO plangate_consumed (nonce, consumed_at) VALUES (${nonce}, ${now.toISOString()}) ON CONFLICT DO NOTHING RETURNING nonce`).length === 1);
  }
  async isConsumed(nonce: string): Promise<boolean> {
    return this.#do(async (sql) => (await sql`SELECT 1 FROM plangate_consumed WHERE nonce = ${nonce}`).length > 0);
  }

  async lookupSession(id: string, now: Date): Promise<SessionEntry | undefined> {
    const key = checkId(id);
    return this.#do(async (sql) => {
      const r = await sql`SELECT session_id, registered_at, expires_at, agent FROM plangate_sessions WHERE id = ${key} AND expires_at > ${now.toISOString()}::timestamptz`;
      return r[0] === undefined ? undefined : entryOf(r[0]);
    });
  }
  async registerSession(id: string, o: { now: Date; ttlSeconds: number; agent?: string }): Promise<RegisterOutcome> {
    const key = checkId(id);
    const now = o.now.toISOString();
    return this.#do(async (sql) => {
      // One statement: a new id is inserted, an expired entry is taken over, a live one is left alone.
      const won = await sql`
        INSERT INTO plangate_sessions AS s (id, session_id, registered_at, expires_at, agent)
        VALUES (${key}, ${id}, ${now}::timestamptz, ${now}::timestamptz + make_interval(secs => ${o.ttlSeconds}), ${o.agent ?? null})
        ON CONFLICT (id) DO UPDATE SET session_id = EXCLUDED.session_id, registered_at = EXCLUDED.registered_at, expires_at = EXCLUDED.expires_at, agent = EXCLUDED.agent
        WHERE s.expires_at <= ${now}::timestamptz
        RETURNING session_id, registered_at, expires_at, agent`;
      if (won[0] !== undefined) return { ok: true, entry: entryOf(won[0]) };
      const held = await sql`SELECT session_id, registered_at, expires_at, agent FROM plangate_sessions WHERE id = ${key}`;
      return { ok: false, existing: held[0] === undefined ? undefined : entryOf(held[0]), reason: held[0] === undefined ? "registered concurrently" : "active" };
    });
  }
  async releaseSession(id: string): Promise<boolean> {
    const key = checkId(id);
    return this.#do(async (sql) => (await sql`DELETE FROM plangate_sessions WHERE id = ${key} RETURNING id`).length > 0);
  }
  async expireSessions(now: Date): Promise<number> {
    return this.#do(async (sql) => (await sql`DELETE FROM plangate_sessions WHERE expires_at <= ${now.toISOString()}::timestamptz RETURNING id`).length);
  }

  holds(): boolean {
    return false;
  }
  async createRun(n: NewRun): Promise<"created" | "consumed"> {
    const run = n.run;
    return this.#tx(async (tx) => {
      if (n.consume !== undefined) {
        const got = await tx`INSERT INTO plangate_consumed (nonce, consumed_at) VALUES (${n.consume}, ${n.now.toISOString()}) ON CONFLICT DO NOTHING RETURNING nonce`;
        if (got.length === 0) return "consumed" as const;
      }
      await tx`INSERT INTO plangate_runs (run_id, session_id, status, scope, created_at, state, calls)
        VALUES (${run.run_id}, ${run.session_id}, ${run.status}, ${run.scope}, ${run.created_at}, ${stateText(run)}, ${JSON.stringify(run.expected)})`;
      for (let i = 0; i < n.auditLines.length; i++) await tx`INSERT INTO plangate_audit (trail, seq, line) VALUES (${run.run_id}, ${i}, ${n.auditLines[i]!})`;
      return "created" as const;
    });
  }
  async readRun(id: string): Promise<RunState> {
    if (!RUN_ID.test(id)) throw new GuardStateError(guardFailure({ kind: "not-an-id", what: "run", value: id }).message);
    return this.#do(async (sql) => {
      const r = await sql`SELECT state, calls FROM plangate_runs WHERE run_id = ${id}`;
      if (r[0] === undefined) throw new RunNotFoundError(guardFailure({ kind: "run-not-found", run: id, location: this.location }).message);
      return runOf(this.location, id, String(r[0].state), String(r[0].calls));
    });
  }
  async #runs(pendingOnly: boolean): Promise<{ runs: RunState[]; problems: string[] }> {
    return this.#do(async (sql) => {
      const rows = pendingOnly
        ? await sql`SELECT run_id, state, calls FROM plangate_runs WHERE status = 'pending' AND session_id IS NULL ORDER BY created_at, run_id`
        : await sql`SELECT run_id, state, calls FROM plangate_runs ORDER BY created_at, run_id`;
      const runs: RunState[] = [];
      const problems: string[] = [];
      for (const r of rows) {
        try {
          runs.push(runOf(this.location, String(r.run_id), String(r.state), String(r.calls)));
        } catch (err) {
          problems.push((err as Error).message);
        }
      }
      return { runs, problems };
    });
  }
  async listRuns(): Promise<{ runs: RunState[]; problems: string[] }> {
    return this.#runs(false);
  }
  async pendingRuns(): Promise<RunState[]> {
    const { runs, problems } = await this.#runs(true);
    // A pending run that cannot be read may be the session's: claiming another would guess.
    if (problems.length > 0) throw new GuardStateError(guardFailure({ kind: "runs-unreadable", count: problems.length, problem: problems[0]! }).message);
    return runs;
  }
  async boundRun(session: string): Promise<string | undefined> {
    return this.#do(async (sql) => {
      const r = await sql`SELECT run_id FROM plangate_bindings WHERE session_key = ${sha256Hex(session)}`;
      if (r[0] === undefined) return undefined;
      const id = String(r[0].run_id);
      if (!RUN_ID.test(id)) throw new GuardStateError(guardFailure({ kind: "binding-not-a-run", key: sha256Hex(session) }).message);
      return id;
    });
  }
  async bindSession(session: string, id: string): Promise<boolean> {
    return this.#do(async (sql) => (await sql`INSERT INTO plangate_bindings (session_key, run_id) VALUES (${sha256Hex(session)}, ${id}) ON CONFLICT DO NOTHING RETURNING run_id`).length === 1);
  }
  async rebindFinished(session: string, id: string): Promise<boolean> {
    const key = sha256Hex(session);
    return this.#tx(async (tx) => {
      const r = await tx`SELECT b.run_id, r.status FROM plangate_bindings b LEFT JOIN plangate_runs r ON r.run_id = b.run_id WHERE b.session_key = ${key} FOR UPDATE OF b`;
      if (r[0] === undefined) return (await tx`INSERT INTO plangate_bindings (session_key, run_id) VALUES (${key}, ${id}) ON CONFLICT DO NOTHING RETURNING run_id`).length === 1;
      if (r[0].status !== "stopped" && r[0].status !== "complete") return false;
      await tx`UPDATE plangate_bindings SET run_id = ${id} WHERE session_key = ${key}`;
      return true;
    });
  }
  async unbindSession(session: string, id: string): Promise<void> {
    await this.#do((sql) => sql`DELETE FROM plangate_bindings WHERE session_key = ${sha256Hex(session)} AND run_id = ${id}`);
  }

  async #locked(tx: Tx, id: string): Promise<RunState> {
    if (!RUN_ID.test(id)) throw new GuardStateError(guardFailure({ kind: "not-an-id", what: "run", value: id }).message);
    const r = await tx`SELECT state, calls FROM plangate_runs WHERE run_id = ${id} FOR UPDATE`;
    if (r[0] === undefined) throw new RunNotFoundError(guardFailure({ kind: "run-not-found", run: id, location: this.location }).message);
    return runOf(this.location, id, String(r[0].state), String(r[0].calls));
  }
  async #save(tx: Tx, run: RunState): Promise<void> {
    await tx`UPDATE plangate_runs SET state = ${stateText(run)}, status = ${run.status}, session_id = ${run.session_id} WHERE run_id = ${run.run_id}`;
  }

  async withRun<T>(id: string, fn: (tx: RunTx) => Promise<T>, o: WithRunOptions = {}): Promise<T> {
    return this.#tx(async (tx) => {
      const run = await this.#locked(tx, id);
      const key = Buffer.from(run.audit_key, "hex");
      const then = trailAdvice(o, "repair-to-stop");
      if (o.check === "whole") {
        const text = await this.#trail(tx, id);
        const v = verifyAuditText(text, { head: run.audit_head, key, from: run.audit_from });
        if (!v.ok) throw new GuardStateError(guardFailure({ kind: "trail-end", run: id, error: v.diagnostics[0]?.message ?? "", then }).message);
      } else await checkTail(tx, run, key, then);
      const chain = new AuditChain(run.audit, key, run.audit_head, run.audit_from);
      const t: RunTx = {
        run,
        append: async (e: AuditInput): Promise<AuditEntry> => {
          const seq = chain.head.count;
          const full = chain.append(e);
          await tx`INSERT INTO plangate_audit (trail, seq, line) VALUES (${id}, ${seq}, ${chain.lines[chain.lines.length - 1]!})`;
          return full;
        },
        save: async () => {
          run.audit_head = chain.head;
          await this.#save(tx, run);
        },
        unbindSession: async (session) => {
          await tx`DELETE FROM plangate_bindings WHERE session_key = ${sha256Hex(session)} AND run_id = ${id}`;
        },
        readPlan: async (fsNow) => {
          const m = STORED_PLAN.exec(run.plan);
          if (!m) return readPlanStamped(run.plan, fsNow);
          const r = await tx`SELECT bytes FROM plangate_plans WHERE sha256 = ${m[1]!}`;
          return r[0] === undefined ? undefined : { bytes: new Uint8Array(r[0].bytes as Buffer) };
        },
      };
      return fn(t);
    });
  }

  async #trail(tx: Tx | Sql, trail: string): Promise<string> {
    const rows = await tx`SELECT line FROM plangate_audit WHERE trail = ${trail} ORDER BY seq`;
    return rows.map((r) => String(r.line) + "\n").join("");
  }

  /** The trail and the state commit together, so nothing is left half done: repair checks the trail and stops a run whose trail does not verify. */
  async repairRun(id: string, now: Date): Promise<RepairOutcome> {
    return this.#tx(async (tx) => {
      const run = await this.#locked(tx, id);
      const v = verifyAuditText(await this.#trail(tx, id), { head: run.audit_head, key: Buffer.from(run.audit_key, "hex"), from: run.audit_from });
      if (v.ok) return { action: "none" as const, detail: "the audit trail ends where the run says: nothing to repair", run };
      const why = `its audit trail does not verify: ${v.diagnostics[0]?.message ?? ""}`;
      run.status = "stopped";
      run.repaired_at = now.toISOString();
      run.stop_reason = `broken: ${why}`;
      await this.#save(tx, run);
      return { action: "broken" as const, detail: `${why}; the run is stopped (approve the plan again for a new run)`, run };
    });
  }

  async appendNoRun(sessionKey: string, entry: AuditInput): Promise<void> {
    const trail = `no-run-${sessionKey}`;
    await this.#tx(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(hashtext(${trail}))`;
      await tx`INSERT INTO plangate_keys (name, key) VALUES ('no-run', ${randomBytes(32).toString("hex")}) ON CONFLICT DO NOTHING`;
      const k = await tx`SELECT key FROM plangate_keys WHERE name = 'no-run'`;
      const hex = String(k[0]?.key ?? "");
      if (!/^[0-9a-f]{64}$/.test(hex)) throw new GuardStateError(guardFailure({ kind: "not-a-key", location: this.location }).message);
      const last = await tx`SELECT seq, line FROM plangate_audit WHERE trail = ${trail} ORDER BY seq DESC LIMIT 1`;
      const head: AuditHead = last[0] === undefined ? { count: 0, hash: null } : { count: Number(last[0].seq) + 1, hash: lineHash(String(last[0].line)) };
      const chain = new AuditChain(trail, Buffer.from(hex, "hex"), head, 0);
      chain.append(entry);
      await tx`INSERT INTO plangate_audit (trail, seq, line) VALUES (${trail}, ${head.count}, ${chain.lines[0]!})`;
    });
  }

  async readAudit(id: string): Promise<AuditRead> {
    const run = await this.readRun(id);
    const text = await this.#do((sql) => this.#trail(sql, id));
    return { text, head: run.audit_head, key: Buffer.from(run.audit_key, "hex"), from: run.audit_from };
  }

  async keepPlan(_file: string, bytes: Uint8Array, sha256: string): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(sha256) || sha256Hex(bytes) !== sha256) throw new GuardStateError(guardFailure({ kind: "plan-bytes-hash" }).message);
    await this.#do((sql) => sql`INSERT INTO plangate_plans (sha256, bytes) VALUES (${sha256}, ${Buffer.from(bytes)}) ON CONFLICT DO NOTHING`);
    return `postgres:plan/${sha256}`;
  }

  async recordPending(p: PendingPlan): Promise<void> {
    if (!/^[0-9a-f]{64}$/.test(p.id)) throw new GuardStateError(guardFailure({ kind: "not-an-id", what: "plan-hash", value: p.id }).message);
    await this.#do((sql) => sql`INSERT INTO plangate_pending (id, entry) VALUES (${p.id}, ${JSON.stringify(p.entry)}) ON CONFLICT (id) DO UPDATE SET entry = EXCLUDED.entry`);
  }
  async listPending(): Promise<PendingPlan[]> {
    return this.#do(async (sql) => {
      const rows = await sql`SELECT id, entry FROM plangate_pending ORDER BY id`;
      const out: PendingPlan[] = [];
      for (const r of rows) {
        try {
          out.push({ id: String(r.id), entry: JSON.parse(String(r.entry)) as Record<string, unknown> });
        } catch {
          // Not JSON: not a pending plan.
        }
      }
      return out;
    });
  }
}
