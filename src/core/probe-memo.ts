import type { FileProbe } from "./file-probe.js";

const memo = new WeakMap<object, FileProbe>();

/**
 * The probe with its answers remembered for one plan: the three workspace rules resolve the same paths,
 * one component at a time, and a plan of many steps shares its folders. Keyed by the plan, so a
 * long-running process never sees an answer from an earlier validation.
 */
export function probeFor(plan: object, files: FileProbe): FileProbe {
  let p = memo.get(plan);
  if (p) return p;
  const kinds = new Map<string, ReturnType<FileProbe["kind"]>>();
  const links = new Map<string, string | undefined>();
  const reals = new Map<string, string | undefined>();
  p = {
    ...files,
    kind(path) {
      let k = kinds.get(path);
      if (k === undefined) {
        k = files.kind(path);
        kinds.set(path, k);
      }
      return k;
    },
    readlink(path) {
      if (!links.has(path)) links.set(path, files.readlink(path));
      return links.get(path);
    },
    realpath(path) {
      if (!reals.has(path)) reals.set(path, files.realpath(path));
      return reals.get(path);
    },
    size: (path) => files.size(path),
    readText: (path) => files.readText(path),
  };
  memo.set(plan, p);
  perPlan.add(p);
  return p;
}

const perPlan = new WeakSet<FileProbe>();

/** Is this a probe made by probeFor, whose answers may be remembered for the one plan it serves? */
export function isPlanProbe(files: FileProbe): boolean {
  return perPlan.has(files);
}
