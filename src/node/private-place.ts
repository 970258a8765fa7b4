import { realpathSync, type Stats, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/*
 * The guard's own state (a state directory's runs, session bindings, audit trails and consumed
 * approvals, a 0.1 state file) is what every hook decision trusts: a run file names the calls it allows
 * and the key its audit lines are made under. Whoever can write that state allows what they like, so a
 * place another user can write is refused, as OpenSSH refuses an authorized_keys file another user
 * could change (StrictModes).
 */

/** The user the process runs as; undefined where there are no user ids (Windows): nothing is checked. */
export interface UserIds {
  uid: number;
  gid: number;
}

export function currentUser(): UserIds | undefined {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
}

/** Who besides the user and root may write a folder or file of this mode: "others", "its group" or undefined. */
function otherWriters(st: Pick<Stats, "mode" | "gid">, me: UserIds): string | undefined {
  if ((st.mode & 0o002) !== 0) return "every user";
  // Group write for the user's own primary group is the user's (a user private group, umask 002).
  if ((st.mode & 0o020) !== 0 && st.gid !== me.gid) return `the members of group ${st.gid}`;
  return undefined;
}

function mode(st: Pick<Stats, "mode">): string {
  return (st.mode & 0o7777).toString(8).padStart(4, "0");
}

/** The folders above `path`, nearest first, up to the root. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let d = dirname(path); ; d = dirname(d)) {
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

/**
 * Why another user could change what is kept at `path`, or undefined when only this user (and root)
 * can. The place itself (when it exists) must be owned by this user or root and writable by no one
 * else; each folder above it (as written, and as its links resolve) must be owned by this user or root
 * and writable by others only with the sticky bit (as /tmp), so that no one else can rename it away and
 * put their own in its place. A place that cannot be checked (a permission error) is refused too.
 * `what` names the place in the message ("the state directory"). `ancestors: false` checks the place
 * alone (a folder of a state directory already checked).
 */
export function untrustedPlace(path: string, what: string, o: { ancestors?: boolean; me?: UserIds | undefined } = {}): string | undefined {
  const me = "me" in o ? o.me : currentUser();
  if (me === undefined) return undefined;
  const full = resolve(path);
  const owned = (uid: number) => uid === me.uid || uid === 0;
  let st: Stats | undefined;
  try {
    st = statSync(full);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Not there yet (created by plangate, mode 0700): the folders above it still decide who could replace it.
    if (code !== "ENOENT") return `${what} ${full} cannot be checked (${code ?? (err as Error).message})`;
  }
  if (st !== undefined) {
    if (!owned(st.uid)) return `${what} ${full} is owned by user ${st.uid}, not by this user (${me.uid}) or root, who could rewrite it: use a folder of your own`;
    const writers = otherWriters(st, me);
    if (writers !== undefined) return `${what} ${full} is writable by ${writers} (mode ${mode(st)}), who could rewrite it: chmod go-w ${full}`;
  }
  if (o.ancestors === false) return undefined;
  let real: string | undefined;
  try {
    real = realpathSync(full);
  } catch {
    // Not there yet: the folders above it as written are checked.
  }
  const seen = new Set<string>();
  for (const dir of [...ancestors(full), ...(real !== undefined && real !== full ? ancestors(real) : [])]) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    let d: Stats;
    try {
      d = statSync(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      return `${what} ${full} cannot be checked: ${dir} cannot be read (${code ?? (err as Error).message})`;
    }
    if (!owned(d.uid)) return `${what} ${full} lies in ${dir}, owned by user ${d.uid}, not by this user (${me.uid}) or root, who could replace it: use a folder of your own`;
    const writers = otherWriters(d, me);
    if (writers !== undefined && (d.mode & 0o1000) === 0)
      return `${what} ${full} lies in ${dir}, writable by ${writers} (mode ${mode(d)}) without the sticky bit, who could replace it: chmod go-w ${dir}, or use another folder`;
  }
  return undefined;
}
