/**
 * An optional package a feature needs is not installed: not a bug, and not a verdict on a plan. The CLI
 * exits 2 with the message (JSON: the error document with code `missing-dependency`).
 */
export class MissingDependency extends Error {}

/** The Node codes of a module that cannot be found. */
export function isModuleNotFound(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}
