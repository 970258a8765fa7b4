import { analyseCommand } from "../commands/analyse.js";
import { withMatchMeter } from "../commands/match.js";
import { commandPathText, resolveOutside } from "../commands/paths.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { isInside, relativeInside } from "../core/paths.js";
import { hostCommandFindingText } from "../rules/command-findings.js";
import { createPathService } from "../core/path-service.js";
import type { FileProbe } from "../core/file-probe.js";
import { loadShellReader } from "../syntax/shell/parse.js";
import { ruleDiagnostic } from "../rules/read-text.js";
import { hiddenNames, matcherFor, type NameBudget, patternMatchesOnDisk, protectedNames, protectedSpelling, reachesProtectedOnDisk, readProtectedGlobs, shellGlobReachesProtected } from "../rules/protected-path-write/index.js";
import { WORK_LIMITS } from "../core/work.js";
import { why } from "../core/place.js";
import { clipActual } from "../core/rule.js";
import type { HostCommandPolicy } from "./host-command.js";

/** The plan check's matchers for some protected globs: linear time for globs whose backtracking expression could take seconds on one path. */
function checksOf(globs: readonly string[]) {
  return { globs, isProtected: matcherFor(globs), hidden: hiddenNames(globs), names: protectedNames(globs) };
}

/** A refusal that quotes the command it refuses. */
function withCommand(d: Diagnostic, command: string): Diagnostic {
  d.actual = clipActual(command);
  return d;
}

/** The refusal of a host's shell call (`hostCommandRefusal` in ./host-command.ts), or undefined if it passes. */
export async function shellCallRefusal(tool: string, args: unknown, policy: HostCommandPolicy, files: () => FileProbe): Promise<Diagnostic | undefined> {
  const command = args !== null && typeof args === "object" ? (args as Record<string, unknown>).command : undefined;
  if (typeof command !== "string") return ruleDiagnostic("parse-error", "hostCommandMissing", { tool });
  let reader;
  try {
    reader = await loadShellReader();
  } catch (err) {
    return ruleDiagnostic("parse-error", "hostParserNotLoaded", { tool, reason: (err as Error).message });
  }
  // Its comparisons with commands.allow and commands.deny are bounded as a plan's are (core/work.ts).
  const matches = { left: WORK_LIMITS.commandMatches };
  const report = withMatchMeter(matches, () => analyseCommand(reader, command, "chain", policy.commands));
  if (matches.left < 0) return withCommand(ruleDiagnostic("limit-exceeded", "workCommandMatches", { whose: "The call's", max: WORK_LIMITS.commandMatches }), command);
  const first = report.findings[0];
  // The finding's words are its rule's command clause, the call's tool their subject.
  if (first) return withCommand({ rule: first.rule, severity: "error", ...hostCommandFindingText(tool, first) }, command);
  const paths = createPathService(policy.workspace, files());
  const ws = paths.workspace;
  // A package manager's write outside the workspace that no word names (`npm install -g x`, `cargo install x`),
  // and one the project's configuration or the program's place decides (`npm install x` under a .npmrc of `global=true`).
  const outside = (report.outside ?? []).map((o) => resolveOutside(o, [""], paths)).find((o) => o !== undefined);
  if (outside) return withCommand(ruleDiagnostic("path-outside-workspace", "hostCommandInstallsOutside", { tool, how: outside.how, where: outside.where, fix: outside.fix, manager: outside.manager, workspace: ws }), command);
  const wsReal = paths.workspaceReal;
  const writes = checksOf(policy.protected);
  // The names the call's patterns may be tried against on disk, over all of them (a validation's bound):
  // past it a pattern counts as unbounded, and the call is refused.
  const diskNames: NameBudget = { left: WORK_LIMITS.diskNames };
  // What a program that only reads its operands is given (`cat x`, `< x`): only the secrets are refused.
  let reads: ReturnType<typeof checksOf> | undefined;
  for (const p of report.paths) {
    const { globs, isProtected, hidden, names } = p.read ? (reads ??= checksOf(readProtectedGlobs(policy.protected))) : writes;
    const text = commandPathText(p);
    for (const r of paths.resolve(text)) {
      if ("unsafe" in r) return withCommand(ruleDiagnostic("path-outside-workspace", "hostCommandUnsafePath", { tool, path: p.text, why: r.unsafe }), command);
      const real = r.real.includes("\0") ? r.real : paths.resolveReal(r.lexical);
      if (!isInside(r.lexical, ws) || !isInside(real, wsReal))
        return withCommand(ruleDiagnostic("path-outside-workspace", "hostCommandPathOutside", { tool, path: p.text, resolved: isInside(r.lexical, ws) ? real : r.lexical, workspace: ws }), command);
      const rel = [relativeInside(r.lexical, ws), relativeInside(real, wsReal)];
      // A pattern names the files it matches: one may be a symlink out of the workspace (`cat lin*/passwd`).
      if (p.glob) {
        const matches = patternMatchesOnDisk(rel[0]!, p, ws, paths.files, diskNames);
        if (matches === undefined) return withCommand(ruleDiagnostic("path-outside-workspace", "hostCommandUnsafePath", { tool, path: p.text, why: why("patternUnbounded") }), command);
        for (const m of matches)
          for (const mr of paths.resolve(m)) {
            if ("unsafe" in mr) return withCommand(ruleDiagnostic("path-outside-workspace", "hostCommandUnsafePath", { tool, path: m, why: mr.unsafe }), command);
            const mreal = mr.real.includes("\0") ? mr.real : paths.resolveReal(mr.lexical);
            if (!isInside(mr.lexical, ws) || !isInside(mreal, wsReal)) return withCommand(ruleDiagnostic("path-outside-workspace", "hostCommandPathOutside", { tool, path: m, resolved: isInside(mr.lexical, ws) ? mreal : mr.lexical, workspace: ws }), command);
          }
      }
      // A pattern bash expands to a hidden protected name: `cp a .e*` names .env.
      if (rel.some((x) => protectedSpelling(x, isProtected, names) !== undefined || (p.glob && shellGlobReachesProtected(x, hidden, isProtected, { dotglob: p.dotglob === true }) !== undefined))) return withCommand(ruleDiagnostic("protected-path-write", "hostCommandProtectedPath", { tool, path: p.text }), command);
      // A pattern's existing matches, and a folder the program writes whole (`rm -r`, `find -delete`).
      const written = p.glob && p.written !== undefined ? paths.resolve(commandPathText({ ...p, text: p.written })).flatMap((w) => ("unsafe" in w || !isInside(w.lexical, ws) ? [] : [relativeInside(w.lexical, ws)])) : [];
      if (p.glob || p.tree)
        for (const x of [...rel, ...written]) {
          const reach = reachesProtectedOnDisk(x, p, ws, paths.files, globs, isProtected, diskNames);
          if (reach === undefined) continue;
          if (reach.kind === "match") return withCommand(ruleDiagnostic("protected-path-write", "hostCommandProtectedPath", { tool, path: reach.path }), command);
          if (reach.kind === "under") return withCommand(ruleDiagnostic("protected-path-write", "hostCommandTreeUnder", { tool, path: p.text, witness: reach.path }), command);
          return withCommand(reach.kind === "root" ? ruleDiagnostic("protected-path-write", "hostCommandTreeRoot", { tool, path: p.text }) : ruleDiagnostic("protected-path-write", "hostCommandTreeProtected", { tool, path: p.text, witness: reach.path }), command);
        }
    }
  }
  return undefined;
}
