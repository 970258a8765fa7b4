/**
 * The PostgreSQL store's schema, as versioned migrations applied in order by `plangate store migrate`
 * (recorded in schema_migrations; applying them again changes nothing). Never edit a released
 * migration: add the next one.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; statements: readonly string[] }> = [
  {
    version: 1,
    name: "runs, bindings, audit trails, consumed approvals, session registry, pending plans",
    statements: [
      // Single use: the primary key lets exactly one INSERT of a nonce succeed.
      `CREATE TABLE plangate_consumed (nonce text PRIMARY KEY, consumed_at timestamptz NOT NULL)`,
      // The delegation registry: id is the case-folded session id (as the file registry's file names).
      `CREATE TABLE plangate_sessions (id text PRIMARY KEY, session_id text NOT NULL, registered_at timestamptz NOT NULL, expires_at timestamptz NOT NULL, agent text)`,
      `CREATE INDEX plangate_sessions_expiry ON plangate_sessions (expires_at)`,
      // A run: its state (JSON text, as a run file) and its compiled calls, written once.
      `CREATE TABLE plangate_runs (run_id text PRIMARY KEY CHECK (run_id ~ '^[0-9a-f]{32}$'), session_id text, status text NOT NULL CHECK (status IN ('pending', 'active', 'stopped', 'complete')), scope text NOT NULL, created_at text NOT NULL, state text NOT NULL, calls text NOT NULL)`,
      `CREATE INDEX plangate_runs_pending ON plangate_runs (created_at) WHERE status = 'pending' AND session_id IS NULL`,
      // A session's run: the key is the SHA-256 of the host's session id.
      `CREATE TABLE plangate_bindings (session_key text PRIMARY KEY, run_id text NOT NULL)`,
      // The keyed audit trails: a run's (trail = run id) and those of sessions without a run (no-run-<key>).
      `CREATE TABLE plangate_audit (trail text NOT NULL, seq integer NOT NULL CHECK (seq >= 0), line text NOT NULL, PRIMARY KEY (trail, seq))`,
      `CREATE TABLE plangate_keys (name text PRIMARY KEY, key text NOT NULL)`,
      `CREATE TABLE plangate_pending (id text PRIMARY KEY, entry text NOT NULL)`,
    ],
  },
  {
    version: 2,
    name: "approved plans kept in the store",
    statements: [
      // Plans that arrived as text (plan mode, POST /v1/runs), so that every server of a fleet reads the
      // same bytes: written once, keyed by their SHA-256.
      `CREATE TABLE plangate_plans (sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'), bytes bytea NOT NULL)`,
    ],
  },
];
