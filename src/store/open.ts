import { isAbsolute, resolve } from "node:path";
import { FileStore } from "./file.js";
import type { Store } from "./types.js";

/** A store URL that is not one plangate knows. */
export class StoreSpecError extends Error {}

/** What a store URL names: `file:DIR` (a state directory) or `postgres://…` / `postgresql://…`. */
export function parseStoreSpec(spec: string, cwd: string): { kind: "file"; dir: string } | { kind: "postgres"; url: string } {
  if (spec.startsWith("file:")) {
    let path = spec.slice("file:".length);
    if (path.startsWith("//")) path = path.slice(2);
    if (path === "") throw new StoreSpecError(`the store "${spec}" names no folder: write file:DIR`);
    return { kind: "file", dir: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    try {
      new URL(spec);
    } catch {
      throw new StoreSpecError("the store URL is not a valid postgres:// URL");
    }
    return { kind: "postgres", url: spec };
  }
  throw new StoreSpecError(`the store "${spec.slice(0, 40)}" is neither file:DIR nor postgres://…`);
}

/** Opens a store; the PostgreSQL driver is loaded only for a postgres:// store. */
export async function openStore(spec: string, cwd: string, o: { max?: number } = {}): Promise<Store> {
  const s = parseStoreSpec(spec, cwd);
  if (s.kind === "file") return new FileStore(s.dir);
  return openPostgres(s.url, o);
}

export async function openPostgres(url: string, o: { max?: number } = {}): Promise<import("./postgres.js").PostgresStore> {
  const [{ default: postgres }, { PostgresStore }] = await Promise.all([import("postgres"), import("./postgres.js")]);
  return new PostgresStore(url, postgres, o);
}
