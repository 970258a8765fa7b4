import type { FileProbe } from "../core/file-probe.js";
import { createPathService, type PathService } from "../core/path-service.js";
import type { ReturnInput } from "../core/input/return.js";
import type { Pointer } from "../core/pointer.js";
import { isObject } from "../core/type-name.js";

/*
 * What the "return" rules share: the return as an object, where a pointer is in its text, and what an
 * artifact path names on the file system.
 */

type Obj = Record<string, unknown>;

/** The return's value when it is a JSON object; otherwise only return-json has something to say. */
export function returnObject(input: ReturnInput): Obj | undefined {
  return input.problems.length === 0 && isObject(input.value) ? input.value : undefined;
}

/** A member that is present and not null. */
export const has = (o: Obj, k: string): boolean => Object.hasOwn(o, k) && o[k] !== null && o[k] !== undefined;

/** Where to report a pointer: the pointer, at the place of its closest ancestor found in the text (a member's key when it has one). */
export function place(input: ReturnInput, pointer: Pointer): { at: Pointer; offset?: number } {
  let p = pointer;
  for (;;) {
    const loc = input.locate(p);
    if (loc) return { at: pointer, offset: loc.keyStart ?? loc.start };
    if (p === "") return { at: pointer };
    p = p.slice(0, p.lastIndexOf("/"));
  }
}

/** The return's status, when it is a string. */
export function statusOf(value: Obj): string | undefined {
  return typeof value.status === "string" ? value.status : undefined;
}

/**
 * The artifacts the return must have produced: its list when its status promises them (the orchestrator
 * validation strategy: partial and failed returns may lack artifacts), with the status.
 */
export function promisedArtifacts(input: ReturnInput): { status: string; artifacts: unknown[] } | undefined {
  const value = returnObject(input);
  if (!value) return undefined;
  const status = statusOf(value);
  if (status === undefined || !input.expect.successStatuses.includes(status) || !Array.isArray(value.artifacts)) return undefined;
  return { status, artifacts: value.artifacts };
}

/** Each artifact's path, with the pointer to report it at: a bare path, or an object's string `path`. */
export function artifactPaths(artifacts: readonly unknown[]): { path: string; pointer: Pointer }[] {
  const out: { path: string; pointer: Pointer }[] = [];
  artifacts.forEach((a, i) => {
    if (typeof a === "string") out.push({ path: a, pointer: `/artifacts/${i}` });
    else if (isObject(a) && typeof a.path === "string") out.push({ path: a.path, pointer: `/artifacts/${i}/path` });
  });
  return out;
}

/** What an artifact path names, as far as the workspace lets it be probed. */
export type ArtifactState =
  | { kind: "unusable" }
  /** Resolves outside the workspace: never probed. */
  | { kind: "outside"; abs: string }
  | { kind: "missing"; abs: string }
  | { kind: "broken-link"; abs: string }
  | { kind: "link-outside"; real: string }
  /** Exists inside the workspace: a folder, or something whose size tells whether it is empty. */
  | { kind: "present"; abs: string; dir: boolean };

/**
 * The path service the artifact rules read a return's paths with: the one every path check uses, made once
 * per return and workspace.
 */
const services = new WeakMap<FileProbe, Map<string, PathService>>();
export function artifactPathService(workspace: string, probe: FileProbe): PathService {
  let byWorkspace = services.get(probe);
  if (!byWorkspace) services.set(probe, (byWorkspace = new Map()));
  let s = byWorkspace.get(workspace);
  if (!s) byWorkspace.set(workspace, (s = createPathService(workspace, probe)));
  return s;
}

/**
 * Probes one artifact path as every path check reads a path (core/path-service.ts): each reading an
 * executor may make of it (percent-decoded, trimmed, a `file:` URL), resolved lexically and through every
 * symbolic link on the way, a folder's as much as the last name's. Paths that leave the workspace are not
 * probed: a return must not make the orchestrator read anywhere.
 */
export function artifactState(path: string, workspace: string, probe: FileProbe): ArtifactState {
  if (path.trim() === "") return { kind: "unusable" };
  const paths = artifactPathService(workspace, probe);
  const readings = paths.resolve(path);
  for (const r of readings) {
    if ("unsafe" in r) return { kind: "unusable" };
    const why = paths.whyOutside(r);
    if (why === undefined) continue;
    if (why.why === "resolvesTo") return { kind: "outside", abs: r.lexical };
    return { kind: "link-outside", real: r.real.includes("\0") ? r.lexical : r.real };
  }
  const first = readings[0];
  if (first === undefined || "unsafe" in first) return { kind: "unusable" };
  const abs = first.lexical;
  if (first.missing) return paths.kind(abs) === "symlink" ? { kind: "broken-link", abs } : { kind: "missing", abs };
  return { kind: "present", abs, dir: paths.kind(first.real) === "dir" };
}
