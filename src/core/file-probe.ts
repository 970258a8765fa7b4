/**
 * Entries a folder listing (FileProbe.list) holds at most; a larger folder is not listed. Listing costs
 * about 0.75 microseconds an entry (65,536: some 50 ms, 5 MB), once per folder and validation. A path
 * missing as written whose name a name-folding file system reads as another entry is checked against
 * its folder's listing, so a folder past this bound refuses such a name rather than let it by unread.
 */
export const MAX_LISTING = 65_536;

/** What the file-system rules may ask; the Node layer implements it, tests may fake it. */
export interface FileProbe {
  /** lstat-like: kind of the entry at an absolute path, without following a final symlink. */
  kind(path: string): "file" | "dir" | "symlink" | "other" | "missing";
  /** Size in bytes of a file (following symlinks), or undefined. */
  size(path: string): number | undefined;
  /** The real path, following every symlink; undefined if it does not exist. */
  realpath(path: string): string | undefined;
  /** The target of a symlink, or undefined. */
  readlink(path: string): string | undefined;
  /** A text file's content (UTF-8), or undefined. Reads each path once per probe. */
  readText(path: string): string | undefined;
  /**
   * How many names (hard links) a regular file has, following symlinks; undefined for anything else. A
   * write through one name changes the file under all of them, wherever they are.
   */
  nlink?(path: string): number | undefined;
  /**
   * A file's raw bytes, or undefined; read once per probe. Lets large files be searched without decoding them.
   * With `transient`, the caller is done with the bytes before it next calls the probe and keeps no reference
   * to them: the probe may then return a view into a buffer it reuses, and need not remember the file (a
   * caller that reads each file once does not hold every file it has read). A probe may ignore the option.
   */
  readBytes?(path: string, options?: { transient?: boolean }): Uint8Array | undefined;
  /**
   * A folder's entries by name with their lstat kind (undefined where the listing does not say), or
   * undefined when the folder cannot be listed or holds more than MAX_LISTING entries. A name missing from a listing is not
   * proof that it is missing (a case-insensitive file system): callers ask `kind` for those.
   */
  list?(dir: string): ReadonlyMap<string, "file" | "dir" | "symlink" | "other" | undefined> | undefined;
}
