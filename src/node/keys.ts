import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { readFileBounded } from "./read-bounded.js";

/** A public key a verifier trusts, with where it came from (to refuse keys inside the workspace). */
export interface TrustedKey {
  keyid: string;
  /** "ed25519", or the other algorithm the file holds (refused when used). */
  alg: string;
  key: KeyObject;
  /** Real path of the file the key was read from. */
  file: string;
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
function keyBlocks(file: string): string[] {
  // A regular file of bounded size: a device, a pipe or a huge file would be read forever.
  const read = readFileBounded(file, MAX_KEY_FILE_BYTES);
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
  return blocks;
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
    for (const pem of keyBlocks(file)) {
      try {
        const key = createPublicKey(pem);
        keys.push({ keyid: keyId(key), alg: key.asymmetricKeyType ?? "unknown", key, file });
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
