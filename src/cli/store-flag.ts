import { join, resolve } from "node:path";
import type { Policy } from "../core/policy.js";
import { parseStoreSpec, StoreSpecError } from "../store/open.js";
import type { Store } from "../store/types.js";
import { type CliIO, UsageError } from "./io.js";

/** The flags of a command that touches the shared state. */
export interface StoreFlags {
  store?: string;
  stateDir?: string;
}

export const STORE_OPTION = ["--store <url>", "shared store: file:DIR (the same as --state-dir DIR) or postgres://… (default: the policy's store, else its guard.stateDir, else $XDG_STATE_HOME/plangate)"] as const;

/** --store and --state-dir name the same thing: both is a usage error. */
export function checkStoreFlags(flags: StoreFlags): void {
  if (flags.store !== undefined && flags.stateDir !== undefined) throw new UsageError("give --store or --state-dir, not both (--state-dir D is --store file:D)");
}

/** Was the store named on the command line (so the policy need not be read for it)? */
export function storeNamed(flags: StoreFlags): boolean {
  checkStoreFlags(flags);
  return flags.store !== undefined || flags.stateDir !== undefined;
}

/**
 * The store a command uses: a state directory's path (the file store), or an open PostgreSQL store
 * (close it when done). --store, else --state-dir, else the policy's store, else its guard.stateDir,
 * else $XDG_STATE_HOME/plangate, else ~/.local/state/plangate.
 */
export async function storeFrom(flags: StoreFlags, policy: Policy | undefined, io: CliIO): Promise<string | Store> {
  checkStoreFlags(flags);
  const spec = flags.store ?? (flags.stateDir !== undefined ? undefined : policy?.store);
  if (spec !== undefined) {
    let s: ReturnType<typeof parseStoreSpec>;
    try {
      s = parseStoreSpec(spec, io.cwd);
    } catch (err) {
      if (err instanceof StoreSpecError) throw new UsageError(`${flags.store !== undefined ? "--store" : "the policy's store"}: ${err.message}`);
      throw err;
    }
    if (s.kind === "file") return s.dir;
    const { openPostgres } = await import("../store/open.js");
    return openPostgres(s.url, { max: 4 });
  }
  if (flags.stateDir !== undefined) return resolve(io.cwd, flags.stateDir);
  if (policy?.guard.stateDir !== undefined) return policy.guard.stateDir;
  const base = io.env.XDG_STATE_HOME || (io.env.HOME ? join(io.env.HOME, ".local", "state") : undefined);
  if (!base) throw new UsageError("cannot place the guard's state directory: pass --state-dir DIR or --store URL (no HOME or XDG_STATE_HOME)");
  return join(base, "plangate");
}

/** Closes a store opened by storeFrom (a path needs nothing). */
export async function closeStore(s: string | Store | undefined): Promise<void> {
  if (s !== undefined && typeof s !== "string") await s.close();
}

/** How a store is named in output. */
export function storeName(s: string | Store): string {
  return typeof s === "string" ? s : s.location;
}
