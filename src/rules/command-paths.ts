import type { NamedPath } from "../commands/paths.js";
import { formatMessage } from "../core/rule.js";

/**
 * A path a command line names, as path-outside-workspace and protected-path-write word it in their
 * messages' `{{path}}`: quoted as written, then how it was read when decoding changed it, then the
 * folder a `cd` moved to when the path is relative to it.
 */
const PARTS = {
  written: '"{{written}}"',
  read: ' (read as "{{read}}")',
  cwd: " (after cd {{cwd}})",
  via: " (in {{via}})",
} as const;

/** How a path was read when decoding changed it: ` (read as "a/b")`. */
export function readAsText(read: string): string {
  return formatMessage(PARTS.read, { read });
}

/** A named path's words: `"a%2fb" (read as "a/b") (after cd src)`. */
export function namedPathText(path: NamedPath): string {
  let text = formatMessage(PARTS.written, { written: path.written });
  if (path.read !== undefined) text += readAsText(path.read);
  if (path.cwd !== undefined) text += formatMessage(PARTS.cwd, { cwd: path.cwd });
  if (path.via !== undefined) text += formatMessage(PARTS.via, { via: path.via });
  return text;
}
