import {
  isInside,
  isRemoteUrl,
  looksLikeEscapingPath,
  normalizeAbsolute,
  pathArguments,
  pathNamesFor,
  realWorkspace,
  resolveArgument,
  resolveReal,
} from "../../core/paths.js";
import { reportCommandPathsOutside } from "../../commands/paths.js";
import { prepareCommandRule } from "../../commands/report.js";
import { probeFor } from "../../core/probe-memo.js";
import { defineRule } from "../../core/rule.js";
import { argumentStrings } from "../../core/walk.js";

export default defineRule({
  meta: {
    id: "path-outside-workspace",
    defaultSeverity: "error",
    phase: "step",
    summary: "A path argument resolves outside the workspace.",
    docs: {
      description:
        'Checks every path argument of every step (arguments named in `paths.arguments`, e.g. `path`, `file_path`, `target`, `cwd`, at any depth, and arguments whose registry schema says `format: "path"`). Relative paths resolve against the workspace root. Reports a path that leaves the workspace through `..`, an absolute path elsewhere, `~`, a Windows drive or UNC path, percent-encoding (`%2e%2e/`), a NUL byte or control characters, or a symlink on the real file system, followed component by component like the kernel, including dangling links and a tail that does not exist yet under a symlinked folder. Every dialect\'s paths are checked. A value that starts with `~/`, `../`, `/` or a drive, or holds `/../`, is checked in any argument that is not file content, a command, a URL or a pattern, so a path under another name is no way out. URLs other than `file:` are not paths.',
      rationale:
        "The intake protocol §4: all paths in plan steps are within the workspace. An executor that writes through `../` or a symlink it did not expect can reach anything the agent's user can.",
      fix: "Use a path inside the workspace, relative to its root; if a symlink points out of the workspace, target the real location inside instead, or remove the link.",
      bad: "arguments: {path: ../../etc/passwd}",
      good: "arguments: {path: data/input.csv}",
    },
  },
  prepare: prepareCommandRule,
  check(plan, ctx) {
    const files = probeFor(plan, ctx.files);
    const ws = normalizeAbsolute(ctx.policy.workspace);
    const wsReal = realWorkspace(ws, files);
    for (const step of plan.steps) {
      const names = pathNamesFor(step.tool, ctx.policy.paths.arguments, ctx.tools?.schemas);
      const args = pathArguments(step, names);
      const named = new Set(args.map((a) => a.at));
      for (const a of argumentStrings(step.args, step.argsAt))
        if (!a.content && !named.has(a.at) && looksLikeEscapingPath(a.name, a.value))
          args.push({ at: a.at, name: a.name, value: a.value });
      for (const arg of args) {
        if (arg.value === "" || isRemoteUrl(arg.value)) continue;
        for (const r of resolveArgument(arg.value, ws, files)) {
          let why: string | undefined;
          if ("unsafe" in r) why = r.unsafe;
          // The lexical form is what an executor that normalises paths first would open.
          else if (!isInside(r.lexical, ws) && !isInside(resolveReal(r.lexical, files), wsReal))
            why = `resolves to ${r.lexical}`;
          else if (!isInside(r.real, wsReal))
            why = r.real.includes("\0")
              ? "goes through a symlink loop"
              : `resolves through a symlink to ${r.real}`;
          if (!why) continue;
          const decoded = r.reading !== arg.value ? ` (read as "${r.reading.replace(/\0/g, "\\0")}")` : "";
          ctx.report({
            at: arg.at,
            step: step.position,
            message: `Step ${step.position}: path "${arg.value.replace(/\0/g, "\\0")}"${decoded} in "${arg.name}" ${why}, outside the workspace ${ws}.`,
            hint: "use a path inside the workspace, relative to its root",
            actual: arg.value,
          });
          break;
        }
      }
    }
    reportCommandPathsOutside(plan, ctx, files, ws, wsReal);
  },
});
