import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, readdirSync, realpathSync, type Stats, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { KeyLocation } from "../core/input/approval.js";
import type { SettingPosition } from "../core/policy.js";
import { type BoundedRead, readFileBounded, readOpenBounded } from "./read-bounded.js";

export type { SettingPosition };

/** A public key a verifier trusts, with where it came from (to refuse keys the plan's author could write). */
export interface TrustedKey {
  keyid: string;
  /** "ed25519", or the other algorithm the file holds (refused when used). */
  alg: string;
  key: KeyObject;
  /** Real path of the file the key was read from. */
  file: string;
  /** The file's link count when it was read: more than 1, and another name could rewrite it (undefined: not known). */
  links?: number;
  /** The file is owned by another user and writable by neither its group nor others: the current user cannot rewrite it. */
  foreign?: boolean;
  /** Where the policy named the key (`approval.trustedKeys`); absent for a key given otherwise. */
  namedAt?: SettingPosition;
}

/** An error reading a key file: the CLI turns it into a usage error. */
export class KeyError extends Error {}

/** The key id: hex sha256 of the raw 32-byte Ed25519 public key (of the SPKI DER for other algorithms). */
export function keyId(key: KeyObject): string {
  const pub = key.type === "private" ? createPublicKey(key) : key;
  if (pub.asymmetricKeyType === "ed25519") {
    const x = pub.export({ format: "jwk" }).x as string;
    return createHash("sha256").update(Buffer.from(x, "base64url")).digest("hex");
  }
  return createHash("sha256").update(pub.export({ format: "der", type: "spki" })).digest("hex");
}

/** Writes a new Ed25519 key pair as PEM: `NAME.key` (PKCS#8, mode 0600) and `NAME.pub` (SPKI). Refuses to overwrite. */
export function generateKeyFiles(dir: string, name = "plangate"): { privateFile: string; publicFile: string; keyid: string } {
  mkdirSync(dir, { recursive: true });
  const privateFile = join(dir, `${name}.key`);
  const publicFile = join(dir, `${name}.pub`);
  for (const f of [privateFile, publicFile]) if (existsSync(f)) throw new KeyError(`${f} already exists; choose another --out or --name`);
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  // "wx" so a file created between the check and now is not clobbered; the mode is set at creation.
  writeFileSync(privateFile, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
  chmodSync(privateFile, 0o600);
  writeFileSync(publicFile, publicKey.export({ format: "pem", type: "spki" }), { mode: 0o644, flag: "wx" });
  return { privateFile, publicFile, keyid: keyId(publicKey) };
}

/** The most a key file may hold (a trusted key file, or a private key): a few keys fit in a few kilobytes. */
export const MAX_KEY_FILE_BYTES = 256 * 1024;

/** Reads an Ed25519 private key (PEM); any other algorithm is refused. */
export function loadPrivateKey(file: string): KeyObject {
  let key: KeyObject;
  // A regular file of bounded size: a device, a pipe or a huge file would be read forever.
  const read = readFileBounded(file, MAX_KEY_FILE_BYTES);
  if (!read.ok)
    throw new KeyError(`cannot read the private key ${file}: ${read.reason === "too-large" ? `${read.size} bytes, more than a key file holds (${MAX_KEY_FILE_BYTES})` : read.reason === "not-a-file" ? `it is ${read.kind}, not a key file` : read.code}`);
  try {
    key = createPrivateKey(Buffer.from(read.bytes));
  } catch (err) {
    throw new KeyError(`cannot read the private key ${file}: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== "ed25519")
    throw new KeyError(`${file} is a ${key.asymmetricKeyType} key; plangate signs only with Ed25519 (run plangate keygen)`);
  return key;
}

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g;

/**
 * The PEM public-key blocks of a trusted key file, which must hold nothing else but white space: a key
 * found inside other text (a log, a plan kept in a state directory, a note) was written by whoever
 * wrote that text, not placed there as a trust anchor.
 */
function keyBlocks(file: string): { blocks: string[]; stat: Stats | undefined } {
  // A regular file of bounded size: a device, a pipe or a huge file would be read forever.
  const { read, stat } = readKeyFile(file);
  if (!read.ok)
    throw new KeyError(
      read.reason === "too-large"
        ? `${file} is ${read.size} bytes, more than a trusted key file holds (${MAX_KEY_FILE_BYTES}); name the public key files themselves`
        : read.reason === "not-a-file"
          ? `${file} is ${read.kind}, not a public key file`
          : `cannot read the trusted key ${file}: ${read.code}`,
    );
  const text = Buffer.from(read.bytes).toString("utf8");
  const blocks = text.match(PEM_BLOCK) ?? [];
  // The blocks blanked out, their line breaks kept: what remains must be white space.
  const rest = text.replace(PEM_BLOCK, (b) => b.replace(/[^\n]/g, ""));
  const stray = /\S/.exec(rest);
  if (stray) {
    const before = rest.slice(0, stray.index);
    const line = before.split("\n").length;
    throw new KeyError(`${file}: line ${line} is not part of a PEM public key block; a trusted key file holds only "BEGIN PUBLIC KEY" blocks (copy the .pub file plangate keygen wrote)`);
  }
  return { blocks, stat };
}

/**
 * Reads a key file as readFileBounded does, and stats the descriptor it read through: the link count and
 * the owner are those of the bytes read, not of whatever the path names a moment later.
 */
function readKeyFile(file: string): { read: BoundedRead; stat: Stats | undefined } {
  let fd: number;
  try {
    // The path is a real path: a last component swapped for a link since is refused, not followed.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    return { read: { ok: false, reason: "error", code: (err as NodeJS.ErrnoException).code ?? (err as Error).message }, stat: undefined };
  }
  try {
    const read = readOpenBounded(fd, MAX_KEY_FILE_BYTES);
    let stat: Stats | undefined;
    try {
      stat = fstatSync(fd);
    } catch {
      stat = undefined;
    }
    return { read, stat };
  } finally {
    closeSync(fd);
  }
}

/**
 * Is the file owned by another user, with no write bit for its group or others (an ACL's mask shows in the
 * group bits), so that the current user cannot rewrite it? Never for root, who can write any file, nor
 * where there are no user ids.
 */
export function ownedByAnother(stat: Pick<Stats, "uid" | "mode">): boolean {
  const me = process.getuid?.();
  return me !== undefined && me !== 0 && stat.uid !== me && (stat.mode & 0o022) === 0;
}

/** Reads the trusted public keys from a PEM file (one or more blocks) or from every *.pub / *.pem file of a folder. */
export function loadTrustedKeys(path: string): TrustedKey[] {
  let files: string[];
  try {
    const abs = realpathSync(path);
    files = statSync(abs).isDirectory()
      ? readdirSync(abs)
          .filter((f) => f.endsWith(".pub") || f.endsWith(".pem"))
          .sort()
          .map((f) => realpathSync(join(abs, f)))
      : [abs];
  } catch (err) {
    throw new KeyError(`cannot read the trusted keys ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const keys: TrustedKey[] = [];
  for (const file of files) {
    const { blocks, stat } = keyBlocks(file);
    for (const pem of blocks) {
      try {
        const key = createPublicKey(pem);
        const k: TrustedKey = { keyid: keyId(key), alg: key.asymmetricKeyType ?? "unknown", key, file };
        if (stat !== undefined) {
          k.links = stat.nlink;
          k.foreign = ownedByAnother(stat);
        }
        keys.push(k);
      } catch (err) {
        throw new KeyError(`${file}: not a public key (${(err as Error).message})`);
      }
    }
  }
  if (keys.length === 0) throw new KeyError(`no public key (PEM "BEGIN PUBLIC KEY") in ${path}`);
  return keys;
}

/** The real path of a path, or of its nearest existing ancestor joined with the rest (a file not yet created). */
export function realPathOf(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = resolve(abs, "..");
    if (parent === abs) return abs;
    return join(realPathOf(parent), abs.slice(parent.length).replace(/^[/\\]+/, ""));
  }
}

/**
 * The repository a workspace lies in: the nearest folder at or above its real path that holds `.git` (a
 * folder, or a worktree's file), as policy discovery finds the project; undefined outside any repository.
 * A `workspace:` set below the repository's root still leaves the rest of the repository to whoever
 * writes the project, the policy file that set it included.
 */
export function projectRootOf(workspace: string): string | undefined {
  let dir = realPathOf(workspace);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = resolve(dir, "..");
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Is `path` the folder `dir` or inside it, comparing real paths (symlinks resolved)? */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(realPathOf(dir), realPathOf(path));
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Why a folder is one whoever writes the project may write: it holds the policy file, it is the folder the command runs in, or it holds the plan. */
export type KeyFolderAnchor = "policy" | "cwd" | "plan";

/** A folder whoever writes the project may write, besides the workspace (a real path). */
export interface KeyFolder {
  readonly dir: string;
  readonly anchor: KeyFolderAnchor;
  /** The folder is the repository (the nearest folder with `.git`) holding the anchor, not the anchor's own folder. */
  readonly repository: boolean;
}

/**
 * Where a key must not lie, besides the workspace and the repository holding it, and where keys are kept
 * out of the project's reach. The workspace a policy names is itself written in that policy, which
 * whoever writes the project may edit: so the folders the command was pointed at (the policy file's,
 * the folder it runs in, the plan's) count as the project too.
 */
export interface KeyPlaces {
  /** The project's folders (real paths), each with the repository holding it. */
  readonly folders: readonly KeyFolder[];
  /**
   * The per-user folders keys are kept in (real paths): `$XDG_CONFIG_HOME/plangate`, `~/.config/plangate`
   * and `~/.ssh`, unless one lies inside a project folder. A key inside one is the user's own.
   */
  readonly userFolders: readonly string[];
}

/**
 * The key places of a command: the folders of the policy file, the working folder and the plan (with the
 * repository holding each), and the per-user key folders `env` names. A folder that is the home folder,
 * one of its ancestors or the file-system root is no project's (a workspace there is still refused as
 * a workspace); nor is one inside a per-user key folder (a policy kept in ~/.config/plangate is the
 * user's own).
 */
export function keyPlacesFor(o: {
  policy?: string | undefined;
  /** The folder the command runs in; a hook gives its own and the session's. */
  cwd?: string | readonly (string | undefined)[] | undefined;
  plan?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}): KeyPlaces {
  const home = o.env.HOME || o.env.USERPROFILE;
  const homeReal = home !== undefined && isAbsolute(home) ? realPathOf(home) : undefined;
  const user = [
    ...(o.env.XDG_CONFIG_HOME && isAbsolute(o.env.XDG_CONFIG_HOME) ? [join(o.env.XDG_CONFIG_HOME, "plangate")] : []),
    ...(home !== undefined && isAbsolute(home) ? [join(home, ".config", "plangate"), join(home, ".ssh")] : []),
  ].map(realPathOf);
  const tooWide = (dir: string) => dirname(dir) === dir || (homeReal !== undefined && isInside(homeReal, dir));
  const folders: KeyFolder[] = [];
  const add = (dir: string, anchor: KeyFolderAnchor, repository: boolean) => {
    if (tooWide(dir) || folders.some((f) => f.dir === dir)) return;
    folders.push({ dir, anchor, repository });
  };
  const cwds = o.cwd === undefined ? [] : typeof o.cwd === "string" ? [o.cwd] : o.cwd;
  const anchors: [string | undefined, KeyFolderAnchor][] = [
    [o.policy === undefined ? undefined : dirname(resolve(o.policy)), "policy"],
    ...cwds.map((c): [string | undefined, KeyFolderAnchor] => [c === undefined || !isAbsolute(c) ? undefined : c, "cwd"]),
    [o.plan === undefined || o.plan === "-" ? undefined : dirname(resolve(o.plan)), "plan"],
  ];
  for (const [path, anchor] of anchors) {
    if (path === undefined) continue;
    const dir = realPathOf(path);
    // The user's own folder (a policy kept in ~/.config/plangate): neither it nor a repository holding it (dotfiles) is the project.
    if (user.some((u) => isInside(dir, u))) continue;
    add(dir, anchor, false);
    const repo = projectRootOf(dir);
    if (repo !== undefined && repo !== dir) add(repo, anchor, true);
  }
  // A per-user folder inside the project (a link into it, a home under the project) is the project's.
  const userFolders = [...new Set(user)].filter((u) => !folders.some((f) => isInside(u, f.dir)));
  return { folders, userFolders };
}

/** Where a key file lies among the key places: the project folder holding it, and the per-user folder holding it, if any. */
export function keyFolderOf(file: string, places: KeyPlaces): { folder?: KeyFolder; userFolder?: string } {
  const folder = places.folders.find((f) => isInside(file, f.dir));
  const userFolder = places.userFolders.find((u) => isInside(file, u));
  return { ...(folder ? { folder } : {}), ...(userFolder !== undefined ? { userFolder } : {}) };
}

/**
 * Where a key file lies that whoever writes the project could replace or read, and who chose it: the
 * workspace (the first of `workspaces` holding it), or else the repository holding one (a policy's
 * `workspace:` set to a subfolder leaves the rest writable too); with `places`, the project folder it
 * lies in and the per-user key folder it lies in; and, when the policy named it (`namedAt`), whether
 * that policy file is the project's to edit (outside the per-user key folders, not another user's).
 */
export function keyLocation(file: string, workspaces: readonly string[], places?: KeyPlaces, namedAt?: SettingPosition): KeyLocation {
  const inside = workspaces.find((w) => isInside(file, w));
  if (inside !== undefined) return { workspace: inside, ...(namedAt ? { namedAt } : {}) };
  for (const w of workspaces) {
    const project = projectRootOf(w);
    if (project !== undefined && isInside(file, project)) return { project, ...(namedAt ? { namedAt } : {}) };
  }
  if (places === undefined) return namedAt ? { namedAt } : {};
  return { ...keyFolderOf(file, places), ...(namedAt ? { namedAt, namedByProject: policyIsProjects(namedAt.file, places) } : {}) };
}

/** A policy file whoever writes the project may edit: one outside the per-user key folders that the current user can write. */
function policyIsProjects(file: string, places: KeyPlaces): boolean {
  if (places.userFolders.some((u) => isInside(file, u))) return false;
  try {
    return !ownedByAnother(statSync(realPathOf(file)));
  } catch {
    return true;
  }
}
