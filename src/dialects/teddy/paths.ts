/**
 * Is the resource a web page (READ fetches it) rather than a local path? As TeDDy routes it: `http://`
 * and `https://` as spelt. TeDDy reads any other text as a file below the project (`HTTP://x`, `ftp://x`,
 * `smb://x` are the folders `HTTP:`, `ftp:`, `smb:`), so it is checked as a path; a `file:` URL too.
 */
export function isUrl(value: string): boolean {
  return /^https?:\/\//.test(value);
}

/**
 * Link targets TeDDy keeps absolute on POSIX: those starting with one of these prefixes, compared as
 * plain string prefixes (so `/tmpfile` and `/homework` too), case-sensitively. Every other target with a
 * leading `/` is read relative to the project root, all leading slashes removed.
 */
const TEDDY_ABSOLUTE_PREFIXES = ["/tmp", "/etc", "/home", "/var", "/usr", "/root"];

/** A link target as TeDDy reads it: `http(s)://` as is, a kept absolute prefix as is, else leading `/`s dropped. */
export function teddyLinkTarget(target: string): string {
  if (/^https?:\/\//.test(target)) return target;
  if (!target.startsWith("/") || TEDDY_ABSOLUTE_PREFIXES.some((p) => target.startsWith(p))) return target;
  return target.replace(/^\/+/, "");
}

/**
 * The path a metadata value names, as TeDDy reads it: a link's destination (or its text when the
 * destination is empty), else the bare text; backslashes become slashes; in a link (or a `[...]`
 * shortcut left unresolved) a leading `/` means the workspace root unless TeDDy keeps it absolute
 * (`/etc/…`, `/home/…`, `/tmp/…`, `/var/…`, `/usr/…`, `/root/…`). A bare absolute path stays absolute,
 * so the workspace rules see it (fail closed).
 */
export function pathFromValue(value: string, link: { text: string; href: string } | undefined): string {
  // A bracketed value without a link (`[/a.py]`, an undefined reference) is not a link to TeDDy: the
  // caller keeps it, brackets and all, as TeDDy does.
  let p = (link ? link.href || link.text : value).trim();
  if (link) p = teddyLinkTarget(p);
  return p.replace(/\\/g, "/");
}

/**
 * The path TeDDy's file system adapter opens for a relative path whose second character is a colon:
 * it takes any such first two characters for a Windows drive and drops them (`.:.env` is `.env`,
 * `_:../x` is `../x`), after its own validation has passed the path as written. Undefined for every
 * other path. Characters are counted as Python counts them (code points).
 */
export function teddyDriveStripped(path: string): string | undefined {
  const m = /^[^/]:/u.exec(path);
  return m ? path.slice(m[0].length) : undefined;
}
