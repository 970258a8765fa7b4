import type { Diagnostic } from "../core/diagnostic.js";
import type { Plan, Step } from "../core/plan.js";
import { clipActual, isRuleOf, reportText, type Report, type Rule } from "../core/rule.js";
import { planFacts } from "../core/facts.js";
import type { ToolRegistry } from "../core/tools.js";
import type { FileProbe } from "../core/file-probe.js";
import { defaultPolicy, PROTECTION_RULES } from "../policy/defaults.js";
import type { Policy } from "../core/policy.js";
import pathOutsideWorkspace from "../rules/path-outside-workspace/index.js";
import protectedPathWrite from "../rules/protected-path-write/index.js";
import { checkedAtCall } from "../rules/checked-at-call.js";
import limitExceeded from "../rules/limit-exceeded/index.js";
import { workReport } from "../rules/work-report.js";
import { isAbsoluteAnywhere, mayNamePath } from "../core/paths.js";
import { LeafTag } from "../core/facts.js";
import { parsePointer } from "../core/pointer.js";
import { HOST_SHELL_TOOLS } from "./host-command.js";

/** The workspace checks a call's paths get at the moment it runs. */
const RULES: readonly Rule[] = [pathOutsideWorkspace, protectedPathWrite];

/** Where and under which policy a call's paths are resolved. */
export interface CallPathsContext {
  workspace: string;
  policy?: Policy;
  tools?: ToolRegistry;
}

/**
 * Checks one tool call's paths against the real file system as it is now, with the same rules that
 * validated the plan: a symlink an earlier step made (`ln -s /etc out`, then a write to
 * `out/cron.d/job`), a hard link, a folder swapped for a link since approval; the paths a command line
 * names (`cp a.txt out/cron.d/job`) as much as path arguments. `files` makes a fresh probe of the real
 * file system for each check, so nothing seen at validation or at an earlier call is reused. Returns the
 * first problem, or undefined when every path stays inside and off the protected list.
 */
export async function callPathProblem(step: number, tool: string, args: unknown, c: CallPathsContext, files: () => FileProbe): Promise<Diagnostic | undefined> {
  const policy = c.policy ?? defaultPolicy(c.workspace);
  const argsObject = args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const s: Step = { position: step, at: "", tool, toolAt: "/tool", args: argsObject, argsAt: "/arguments", raw: { tool, arguments: argsObject } };
  // The two rules read the steps and nothing else of the plan; the call has no source text.
  const plan = { dialect: "intake", fields: { tool: "tool", args: "arguments", intent: "intent" }, stepsAt: "", steps: [s], meta: {} } as unknown as Plan;
  const found: Diagnostic[] = [];
  for (const rule of RULES) {
    // A rule the policy turns off was off at approval too; a warning did not stop the plan either. The
    // protection rules are never off, also for a run whose policy was recorded with them lowered.
    const setting = PROTECTION_RULES.has(rule.meta.id) ? "error" : (policy.rules[rule.meta.id] ?? rule.meta.defaultSeverity);
    if (setting !== "error") continue;
    const report = (r: Report) => {
      // The rule's finding, in the words that say it was checked when the call was made.
      const { hint, ...text } = reportText(rule.meta, checkedAtCall(reportText(rule.meta, r)));
      const d: Diagnostic = { rule: rule.meta.id, severity: "error", ...text, step };
      if (r.at !== undefined) d.pointer = r.at;
      if (hint !== undefined) d.hint = hint;
      if (r.actual !== undefined) d.actual = clipActual(r.actual);
      found.push(d);
    };
    const facts = planFacts(plan, policy, c.tools, files());
    const ctx = { plan, policy, tools: c.tools, now: new Date(0), files: facts.paths.files, facts, context: undefined, report };
    // prepare reads the step's command lines (`cp a out/job`): without it their paths went unchecked.
    if (!isRuleOf(rule, "plan")) continue;
    await rule.prepare?.(plan, ctx);
    rule.check?.(plan, ctx);
    if (found.length > 0) return found[0];
    // Work the rule left undone past a call's bounds (src/core/work.ts): the call is refused, never let
    // through on the part that was checked.
    const over = facts.work.exceeded()[0];
    if (over) {
      const r = workReport(over, "call");
      const d: Diagnostic = { rule: "limit-exceeded", severity: "error", ...reportText(limitExceeded.meta, r), step };
      if (r.at !== undefined) d.pointer = r.at;
      return d;
    }
  }
  return undefined;
}

/**
 * What a host reads against its working folder in a call to a tool its profile does not describe: each
 * relative path the path checks find in the arguments (a path argument, or a value that reads as a path,
 * outside file content), and a shell tool's command line, under the argument's top-level key. A call made
 * while the host works in another folder than the scope names other files with them (host/profile.ts).
 */
export function workingFolderReads(tool: string, args: Record<string, unknown>, c: CallPathsContext, files: FileProbe): { key: string; text: string; command: boolean }[] {
  const out: { key: string; text: string; command: boolean }[] = [];
  if (HOST_SHELL_TOOLS.has(tool) && Object.hasOwn(args, "command")) out.push({ key: "command", text: typeof args.command === "string" ? args.command : "(not a string)", command: true });
  const policy = c.policy ?? defaultPolicy(c.workspace);
  const s: Step = { position: 0, at: "", tool, toolAt: "/tool", args, argsAt: "/arguments", raw: { tool, arguments: args } };
  const plan = { dialect: "intake", fields: { tool: "tool", args: "arguments", intent: "intent" }, stepsAt: "", steps: [s], meta: {} } as unknown as Plan;
  const facts = planFacts(plan, policy, c.tools, files).step(s);
  const leaves = [...facts.pathArguments(), ...facts.strings.filter((a) => !a.content && a.has(LeafTag.PathLike) && mayNamePath(a.name, a.value))];
  const seen = new Set(out.map((o) => o.key));
  for (const leaf of leaves) {
    const text = leaf.value.trim();
    // Absolute, a home folder (refused as such), a URL: the working folder does not move them.
    if (text === "" || isAbsoluteAnywhere(text) || text.startsWith("~") || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) continue;
    const key = parsePointer(leaf.at)[1];
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    out.push({ key, text: leaf.value, command: false });
  }
  return out;
}
