import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import type { FileProbe } from "../core/file-probe.js";

/** The real file system, with each text file read at most once per probe. */
export function createFileProbe(): FileProbe {
  const texts = new Map<string, string | undefined>();
  return {
    kind(path) {
      try {
        // Without throwIfNoEntry a missing path costs an exception with a stack trace: most plan paths are new files.
        const st = lstatSync(path, { throwIfNoEntry: false });
        if (st === undefined) return "missing";
        if (st.isSymbolicLink()) return "symlink";
        if (st.isFile()) return "file";
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
