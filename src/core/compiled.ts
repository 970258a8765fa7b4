/**
 * What is compiled from a policy's lists (protected globs, deny lists, read and write tool names) is kept
 * by the lists' content, so a policy rebuilt for every validation (defaults, an `extends` chain, the
 * service's per-request policy) compiles each list once. Bounded: past the limit the oldest goes.
 */
const MAX_ENTRIES = 256;
const kept = new Map<string, unknown>();
/** The same list object asked again (the common case: one policy for many plans) skips building the key. */
const byList = new WeakMap<readonly string[], Map<string, unknown>>();

/** The value `make` compiles from `list`, under a name for what it is (`"protected"`, `"deny"`…). */
export function compiledFrom<T>(what: string, list: readonly string[], make: () => T): T {
  let mine = byList.get(list);
  if (mine?.has(what)) return mine.get(what) as T;
  const key = `${what}\u0000${list.length}\u0000${list.join("\u0000")}`;
  let value: T;
  if (kept.has(key)) value = kept.get(key) as T;
  else {
    value = make();
    if (kept.size >= MAX_ENTRIES) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
  }
  if (!mine) {
    mine = new Map();
    byList.set(list, mine);
  }
  mine.set(what, value);
  return value;
}

/** What is derived from objects reused across validations (a policy section, a tool registry, a schema), by object. */
const byObject = new WeakMap<object, Map<string, unknown>>();

/**
 * The value `make` derives from `source`, once per object and name (`"known-names"`, `"commands"`…);
 * `within` keys it by a second object too (a schema under a name set), each pair once.
 */
export function compiledFor<T>(what: string, source: object, make: () => T, within?: object): T {
  let mine = byObject.get(source);
  if (!mine) {
    mine = new Map();
    byObject.set(source, mine);
  }
  if (within === undefined) {
    if (mine.has(what)) return mine.get(what) as T;
    const value = make();
    mine.set(what, value);
    return value;
  }
  let per = mine.get(what) as WeakMap<object, T> | undefined;
  if (!per) {
    per = new WeakMap();
    mine.set(what, per);
  }
  if (per.has(within)) return per.get(within)!;
  const value = make();
  per.set(within, value);
  return value;
}
