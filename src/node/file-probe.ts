import { Buffer } from "node:buffer";
import { closeSync, fstatSync, lstatSync, openSync, opendirSync, readFileSync, readSync, readlinkSync, realpathSync, statSync } from "node:fs";

/** Entries of the listings a probe keeps, over all folders (a pattern in many steps lists each folder once). */
const MAX_LISTED = 256 * 1024;
/** The buffer a probe reuses for transient reads: its first size, and the size past which a file gets its own. */
const SCRATCH_FIRST = 256 * 1024;
const SCRATCH_MAX = 8 * 1024 * 1024;
import { type FileProbe, MAX_LISTING } from "../core/file-probe.js";

/** The real file system, with each text file read at most once per probe. */
export function createFileProbe(): FileProbe {
  const texts = new Map<string, string | undefined>();
  const bytes = new Map<string, Uint8Array | undefined>();
  // The link count of files kind() has just looked at: the hard-link check asks for it right after.
  const links = new Map<string, number>();
  type Listing = ReadonlyMap<string, "file" | "dir" | "symlink" | "other" | undefined> | undefined;
  const listings = new Map<string, Listing>();
  let listed = 0;
  let scratch: Buffer | undefined;
  /**
   * A file's bytes read into the reused buffer (a view of it), without a stat or a new allocation per file;
   * a file larger than the buffer may grow to is read on its own. Undefined when it cannot be read.
   */
  const readTransient = (path: string): Uint8Array | undefined => {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return undefined;
    }
    try {
      // The file's link count, while it is open: the hard-link check asks for it next (a stat by descriptor
      // costs less than the stat by path it saves).
      const st = fstatSync(fd);
      if (st.isFile() && links.size < 65536) links.set(path, st.nlink);
      let buf = (scratch ??= Buffer.allocUnsafe(SCRATCH_FIRST));
      let n = 0;
      for (;;) {
        if (n === buf.length) {
          if (buf.length >= SCRATCH_MAX) return readFileSync(path);
          const larger = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(larger, 0, 0, n);
          buf = scratch = larger;
        }
        const got = readSync(fd, buf, n, buf.length - n, null);
        if (got === 0) return buf.subarray(0, n);
        n += got;
      }
    } catch {
      return undefined;
    } finally {
      try {
        closeSync(fd);
      } catch {
        // Nothing to do: the descriptor is gone either way.
      }
    }
  };
  return {
    kind(path) {
      try {
        // No exception for a missing entry: throwing costs more than the system call itself.
        const st = lstatSync(path, { throwIfNoEntry: false });
        if (!st) return "missing";
        if (st.isSymbolicLink()) return "symlink";
        if (st.isFile()) {
          if (links.size < 65536) links.set(path, st.nlink);
          return "file";
        }
        if (st.isDirectory()) return "dir";
        return "other";
      } catch {
        return "missing";
      }
    },
    size(path) {
      try {
        const st = statSync(path);
        return st.isFile() ? st.size : undefined;
      } catch {
        return undefined;
      }
    },
    nlink(path) {
      const known = links.get(path);
      if (known !== undefined) return known;
      try {
        const st = statSync(path, { throwIfNoEntry: false });
        return st?.isFile() ? st.nlink : undefined;
      } catch {
        return undefined;
      }
    },
    realpath(path) {
      try {
        return realpathSync.native(path);
      } catch {
        return undefined;
      }
    },
    readlink(path) {
      try {
        return readlinkSync(path);
      } catch {
        return undefined;
      }
    },
    list(dir) {
      if (listings.has(dir)) return listings.get(dir);
      const listing = listFolder(dir);
      if (listed < MAX_LISTED) {
        listings.set(dir, listing);
        listed += 1 + (listing?.size ?? 0);
      }
      return listing;
    },
    readBytes(path, options) {
      if (bytes.has(path)) return bytes.get(path);
      if (options?.transient) return readTransient(path);
      let data: Uint8Array | undefined;
      try {
        data = readFileSync(path);
      } catch {
        data = undefined;
      }
      bytes.set(path, data);
      return data;
    },
    readText(path) {
      if (texts.has(path)) return texts.get(path);
      let text: string | undefined;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        text = undefined;
      }
      texts.set(path, text);
      return text;
    },
  };
}

/** A folder's entries by name with their lstat kind, or undefined when it cannot be listed or holds more than MAX_LISTING. */
function listFolder(dir: string): ReadonlyMap<string, "file" | "dir" | "symlink" | "other" | undefined> | undefined {
  let d;
  try {
    d = opendirSync(dir);
  } catch {
    return undefined;
  }
  try {
    const out = new Map<string, "file" | "dir" | "symlink" | "other" | undefined>();
    for (let e = d.readSync(); e !== null; e = d.readSync()) {
      if (out.size >= MAX_LISTING) return undefined;
      // A file system that does not type its entries (DT_UNKNOWN) leaves lstat to decide.
      out.set(e.name, e.isSymbolicLink() ? "symlink" : e.isFile() ? "file" : e.isDirectory() ? "dir" : e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice() ? "other" : undefined);
    }
    return out;
  } catch {
    return undefined;
  } finally {
    d.closeSync();
  }
}
