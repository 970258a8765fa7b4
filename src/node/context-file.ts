import { readConfigText } from "./read-bounded.js";

/** A turn-context file that cannot be used: the CLI turns it into a usage error. */
export class ContextFileError extends Error {}

/** Reads a turn context: a JSON array of paths, or one path a line (blank lines and `#` comments skipped). */
export function parseContextText(text: string, name = "context"): string[] {
  const t = text.replace(/^\ufeff/, "");
  if (t.trimStart().startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(t);
    } catch (err) {
      throw new ContextFileError(`${name}: not valid JSON (${(err as Error).message}); write a JSON array of paths, or one path a line`);
    }
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string"))
      throw new ContextFileError(`${name}: the JSON must be an array of path strings`);
    return value as string[];
  }
  return t
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** Loads a turn-context file (`--context FILE`). */
export function loadContextFile(path: string, name = path): string[] {
  let text: string;
  try {
    // A regular file of bounded size: a device or a pipe would be read forever.
    text = readConfigText(path);
  } catch (err) {
    throw new ContextFileError(`cannot read the context file ${name} (${(err as Error).message})`);
  }
  return parseContextText(text, name);
}
