import picomatch from "picomatch";
import {
  isInside,
  normalizeAbsolute,
  pathArguments,
  pathNamesFor,
  realWorkspace,
  relativeInside,
  resolveArgument,
} from "../../core/paths.js";
import { reportCommandPathsProtected } from "../../commands/paths.js";
import { prepareCommandRule } from "../../commands/report.js";
import { probeFor } from "../../core/probe-memo.js";
import { defineRule } from "../../core/rule.js";

/** Verbs that make a tool a writer even when the policy does not list it (fail closed on `save_report`, `fs.put`). */
const WRITE_VERBS = new Set([
  "write",
  "edit",
  "create",
  "delete",
  "del",
  "remove",
  "rm",
  "move",
  "mv",
  "rename",
  "copy",
  "cp",
  "append",
  "patch",
  "save",
  "put",
  "upload",
  "mkdir",
  "touch",
  "truncate",
  "overwrite",
  "replace",
  "update",
  "insert",
  "modify",
  "chmod",
  "chown",
  "link",
  "symlink",
  "unlink",
  "exec",
  "execute",
  "run",
  "shell",
  "bash",
  "sh",
  "install",
  "apply",
  "commit",
  "push",
]);

/** Does a tool's name say it changes files: any word of it (snake, kebab, dotted or camel case) is a write verb. */
export function soundsLikeWrite(tool: string): boolean {
  const words = tool
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => WRITE_VERBS.has(w));
}

const writerSets = new WeakMap<readonly string[], Set<string>>();
function writersOf(list: readonly string[]): Set<string> {
  let w = writerSets.get(list);
  if (!w) {
    w = new Set(list.map((t) => t.toLowerCase()));
    writerSets.set(list, w);
  }
  return w;
}

const matchers = new WeakMap<readonly string[], (path: string) => boolean>();

/** The policy's protected globs, compiled once per list. */
function matcherFor(globs: readonly string[]): (path: string) => boolean {
  let m = matchers.get(globs);
  if (!m) {
    m = picomatch(globs as string[], { dot: true, nocase: true });
    matchers.set(globs, m);
  }
  return m;
}

export default defineRule({
  meta: {
    id: "protected-path-write",
    defaultSeverity: "error",
    phase: "step",
    summary: "A write tool targets a protected path.",
    docs: {
      description:
        "Reports a path argument of a write tool (policy `tools.write`, compared without case, and any tool whose name holds a write verb such as `save`, `put`, `delete`, `run`, `exec`, in snake, kebab, dotted or camel case; the list's defaults include `write_file`, `edit_file`, `delete_file`, `move_file`, `apply_patch`, `run_command`, `shell` and the Markdown `CREATE` and `EDIT`) that matches a protected glob (`paths.protected`; defaults `.git/**`, `.env*`, `**/*.pem`, `**/*.key`, SSH keys, the plangate policy). Globs match the path relative to the workspace root, both as written and after following symlinks, without case (a case-insensitive file system writes `.GIT/config` into `.git`). Read tools may read protected paths.",
      rationale:
        "The intake protocol §4: no protected paths in write operations. Version control internals, secrets and the policy itself must not be changed by a plan.",
      fix: "Remove the write, or target another file; change `paths.protected` only if the path really is safe to write.",
      bad: "steps: [{tool: write_file, arguments: {path: .git/hooks/pre-commit, content: …}, intent: …}]",
      good: "steps: [{tool: read_file, arguments: {path: .git/HEAD}, intent: …}]",
    },
  },
  prepare: prepareCommandRule,
  check(plan, ctx) {
    const files = probeFor(plan, ctx.files);
    const writers = writersOf(ctx.policy.tools.write);
    const isProtected = matcherFor(ctx.policy.paths.protected);
    const ws = normalizeAbsolute(ctx.policy.workspace);
    const wsReal = realWorkspace(ws, files);
    for (const step of plan.steps) {
      if (step.tool === undefined || !(writers.has(step.tool.toLowerCase()) || soundsLikeWrite(step.tool)))
        continue;
      const names = pathNamesFor(step.tool, ctx.policy.paths.arguments, ctx.tools?.schemas);
      for (const arg of pathArguments(step, names)) {
        const candidates: string[] = [];
        for (const r of resolveArgument(arg.value, ws, files)) {
          if ("unsafe" in r) continue;
          if (isInside(r.lexical, ws)) candidates.push(relativeInside(r.lexical, ws));
          if (isInside(r.real, wsReal)) candidates.push(relativeInside(r.real, wsReal));
          candidates.push(r.lexical, r.real);
        }
        const hit = candidates.find((c) => c !== "" && isProtected(c));
        if (hit === undefined) continue;
        ctx.report({
          at: arg.at,
          step: step.position,
          message: `Step ${step.position}: "${step.tool}" would write to the protected path "${arg.value}"${hit !== arg.value ? ` (${hit})` : ""}.`,
          hint: "remove the write or choose another file; protected paths are listed in paths.protected",
          actual: arg.value,
        });
      }
    }
    reportCommandPathsProtected(plan, ctx, files, ws, wsReal, isProtected);
  },
});
