import type { Command } from "commander";
import { StoreUnavailableError } from "../../store/errors.js";
import { openPostgres, parseStoreSpec, StoreSpecError } from "../../store/open.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";

/** `plangate store migrate --store URL`, `plangate store expire --store URL`. */
export function registerStore(program: Command, io: CliIO, wrap: Wrap): void {
  const store = program.command("store").description("work with a shared store (postgres://…): create or update its schema, expire sessions");
  const postgresOf = async (spec: string | undefined) => {
    if (spec === undefined) throw new UsageError("--store URL is required (postgres://…)");
    let s: ReturnType<typeof parseStoreSpec>;
    try {
      s = parseStoreSpec(spec, io.cwd);
    } catch (err) {
      if (err instanceof StoreSpecError) throw new UsageError(`--store: ${err.message}`);
      throw err;
    }
    return s.kind === "file" ? undefined : openPostgres(s.url, { max: 1 });
  };
  store
    .command("migrate")
    .description("apply the schema migrations a postgres:// store has not had yet (recorded in schema_migrations; running it again changes nothing)")
    .option("--store <url>", "the store (postgres://…; a file: store needs no migration)")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (flags: { store?: string; output: string }) => {
        const pg = await postgresOf(flags.store);
        if (pg === undefined) {
          io.stdout(flags.output === "json" ? JSON.stringify({ ok: true, store: flags.store, applied: [], note: "a file store needs no migration" }, null, 2) + "\n" : `${flags.store}: a file store needs no migration\n`);
          return EXIT.ok;
        }
        try {
          const applied = await pg.migrate();
          const version = await pg.schemaVersion();
          if (flags.output === "json") io.stdout(JSON.stringify({ ok: true, store: pg.location, applied, version }, null, 2) + "\n");
          else io.stdout(`${pg.location}: ${applied.length === 0 ? "up to date" : `applied migration${applied.length > 1 ? "s" : ""} ${applied.join(", ")}`}; schema version ${version}\n`);
          return EXIT.ok;
        } catch (err) {
          if (err instanceof StoreUnavailableError) throw new UsageError(err.message);
          throw err;
        } finally {
          await pg.close();
        }
      }),
    );
  store
    .command("expire")
    .description("remove the session registry's expired entries")
    .option("--store <url>", "the store (file:DIR or postgres://…)")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (flags: { store?: string; output: string }) => {
        if (flags.store === undefined) throw new UsageError("--store URL is required");
        const { openStore } = await import("../../store/open.js");
        let s;
        try {
          s = await openStore(flags.store, io.cwd, { max: 1 });
        } catch (err) {
          if (err instanceof StoreSpecError) throw new UsageError(`--store: ${err.message}`);
          throw err;
        }
        try {
          const removed = await s.expireSessions(io.now());
          io.stdout(flags.output === "json" ? JSON.stringify({ ok: true, store: s.location, removed }, null, 2) + "\n" : `${s.location}: ${removed} expired session${removed === 1 ? "" : "s"} removed\n`);
          return EXIT.ok;
        } catch (err) {
          if (err instanceof StoreUnavailableError) throw new UsageError(err.message);
          throw err;
        } finally {
          await s.close();
        }
      }),
    );
  for (const cmd of store.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }).allowExcessArguments(false);
}
