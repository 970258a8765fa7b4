import { isAbsolute, relative, resolve, sep } from "node:path";
import type { FileProbe } from "../core/file-probe.js";
import type { Finding } from "./common.js";

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** What is wrong with one artifact of a successful return, if anything. */
export function artifactFinding(path: string, workspace: string, probe: FileProbe, status: string): Omit<Finding, "pointer"> | undefined {
  const quoted = JSON.stringify(path);
  if (path.trim() === "" || path.includes("\0")) return { rule: "artifact-missing", message: `Artifact path ${quoted} is not a usable path.` };
  const abs = resolve(workspace, path);
  // Paths that leave the workspace are not probed: a return must not make the orchestrator read anywhere.
  if (!inside(workspace, abs)) {
    return {
      rule: "artifact-missing",
      message: `Artifact ${quoted} is outside the workspace ${workspace}; artifacts must be written inside it.`,
      actual: abs,
    };
  }
  const kind = probe.kind(abs);
  if (kind === "missing") {
    return {
      rule: "artifact-missing",
      message: `Artifact ${quoted} does not exist, but the return says "${status}".`,
      hint: "write the artifact before returning, or return partial/failed",
      actual: abs,
    };
  }
  if (kind === "symlink") {
    const real = probe.realpath(abs);
    const root = probe.realpath(workspace) ?? workspace;
    if (real === undefined) return { rule: "artifact-missing", message: `Artifact ${quoted} is a broken symlink.`, actual: abs };
    if (!inside(root, real)) {
      return { rule: "artifact-missing", message: `Artifact ${quoted} is a symlink to ${real}, outside the workspace.`, actual: real };
    }
  }
  if (kind === "dir" || (kind === "symlink" && probe.kind(probe.realpath(abs)!) === "dir")) return undefined;
  if (probe.size(abs) === 0) {
    return {
      rule: "artifact-empty",
      message: `Artifact ${quoted} is empty (0 bytes), but the return says "${status}".`,
      hint: "write the artifact's content, or return partial/failed",
      actual: abs,
    };
  }
  return undefined;
}
