/** How the protected globs are read: dot files matched, without case (a case-insensitive file system writes `.GIT/config` into `.git`). */
export const GLOB_OPTIONS = { dot: true, nocase: true } as const;
