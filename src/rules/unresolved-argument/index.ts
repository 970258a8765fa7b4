import { commandFindings, prepareCommandRule } from "../../commands/report.js";
import { analysedCommands, commandsOf, partAt } from "../../commands/plan.js";
import { findingData, inStepCommand } from "../command-findings.js";
import { commandClauses } from "./command-messages.js";
import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { defineRule } from "../../core/rule.js";
import { LeafTag } from "../../core/facts.js";
import { looksLikePath } from "../../core/paths.js";

/** A whole value that is only a stand-in. */
export const WHOLE =
  /^\s*(?:<[^<>\n]{1,80}>|\?{2,}|\.{3}|…|TODO|TBD|FIXME|CHANGEME|CHANGE_ME|REPLACE_?ME|PLACEHOLDER|your[_ -].{0,40}[_ -]here|\[(?:insert|fill in|path|file|value)[^\]]{0,60}\])\s*$/i;
/** A whole value that is only a TODO, TBD or FIXME marker. */
const MARKER = /^\s*(?:TODO|TBD|FIXME)\s*$/;
const ANGLE = /<[A-Za-z_][\w .-]{0,40}>/;
/** Arguments that search markup, where `<title>` is a tag, not a stand-in. */
const MARKUP_ARGUMENTS = new Set(["pattern", "regex", "regexp", "selector", "xpath", "query", "search"]);
/** Stand-ins that are never legitimate inside an instruction argument, each with the message that reports it. */
export const INSIDE: readonly { pattern: RegExp; messageId: InsideMessage }[] = [
  { pattern: /\{\{[^{}]*\}\}/, messageId: "templateInside" },
  { pattern: /\$\{[^{}]*\}/, messageId: "variableInside" },
  { pattern: ANGLE, messageId: "angleInside" },
  { pattern: /\?{3,}/, messageId: "questionMarksInside" },
  { pattern: /\b(?:TODO|TBD|FIXME)\b/, messageId: "markerInside" },
];
type InsideMessage = "templateInside" | "variableInside" | "angleInside" | "questionMarksInside" | "markerInside";
const INFER = ": the executor would have to infer the value.";
const INFER_HINT = "write the actual value into the plan";
/** Stand-ins written in words only: a value without them and without LeafTag.Placeholder's characters holds none. */
export const WORDS = /TODO|TBD|FIXME|CHANGE_?ME|REPLACE_?ME|PLACEHOLDER|your/i;
/**
 * In a path, a `$NAME` is resolved from the executor's environment: not fixed by the plan. So is a
 * Windows `%NAME%` (cmd, and Python's `os.path.expandvars` on Windows), told from a percent-escape
 * (`%C3%A9`) by its name: not two hex digits.
 */
// ($RANDOM and the shell clock are non-deterministic's finding.)
export const ENV_IN_PATH = /(^|[^\\])\$(?!\{?(?:RANDOM|SRANDOM|EPOCHSECONDS|EPOCHREALTIME)\b)[A-Za-z_]|%(?![0-9A-Fa-f]{2}%)[A-Za-z_][\w()]*%/;

export default defineRule({
  meta: {
    id: "unresolved-argument",
    input: "plan",
    defaultSeverity: "error",
    phase: "step",
    messages: {
      ...inStepCommand(commandClauses),
      placeholder: { message: 'Step {{step}}: argument "{{argument}}" holds the placeholder "{{placeholder}}"' + INFER, hint: INFER_HINT },
      templateInside: { message: 'Step {{step}}: argument "{{argument}}" holds a {{template}} placeholder ("{{match}}")' + INFER, hint: INFER_HINT },
      variableInside: { message: 'Step {{step}}: argument "{{argument}}" holds a $' + '{variable} placeholder ("{{match}}")' + INFER, hint: INFER_HINT },
      angleInside: { message: 'Step {{step}}: argument "{{argument}}" holds an <angle-bracket> placeholder ("{{match}}")' + INFER, hint: INFER_HINT },
      questionMarksInside: { message: 'Step {{step}}: argument "{{argument}}" holds "???" ("{{match}}")' + INFER, hint: INFER_HINT },
      markerInside: { message: 'Step {{step}}: argument "{{argument}}" holds a TODO/TBD marker ("{{match}}")' + INFER, hint: INFER_HINT },
      environmentInPath: { message: 'Step {{step}}: argument "{{argument}}" holds an environment variable, which the executor would expand' + INFER, hint: INFER_HINT },
    },
    summary: "An argument is a placeholder the executor would have to fill in.",
    docs: {
      description:
        "Reports argument values left for the executor to infer: a value that is only `<path>`, `???`, `...`, `TODO`, `TBD`, `CHANGEME` or `[insert …]`, and, in any argument that is not file content, `{{x}}`, `$" +
        "{X}`, `<name>` and TODO/TBD markers inside the text; in a path argument, and in any other value that looks like a path (`{\"location\": \"$HOME/.bashrc\"}`), also `$NAME` and Windows `%NAME%` environment references. Content arguments (`content`, `text`, `replace`, `patch`…) are checked only for whole-value stand-ins, since files legitimately hold templates. In a command line a marker counts only as a word of its own (`deploy --version TODO`, `TAG=TBD`), not among a search program's words (`rg TODO src`, `git grep FIXME`, `git log --grep=TODO`) or in text (`git commit -m \"fix the TODO\"`, `echo TODO`). In command lines (including Markdown EXECUTE blocks) every word decided at run time is reported: `$VAR`, `${VAR}`, `$(…)` output, brace expansions such as `{a,b}`, redirections to such names, a file an awk program prints to or reads that is decided at run time (`print > $1`, a program that changes `ARGV`), and the words `xargs` reads from its input and gives the program it runs, and a folder change plangate does not follow (a `cd` run by `eval` or a `trap`, a relative one in a loop, which moves again each time round, a rotation of `pushd`'s stack), after which the folder later words are read from is not known, and a relative path given to a program a runner runs in package folders its configuration names (`npx -w pkg`, `pnpm -r exec`, `pnpm --filter ... exec`, `yarn workspace pkg`). Argument constraints are read as the values they admit: a `$glob` operand, each `$enum` member and a `$literal` are checked as the argument itself (`{\"$glob\": \"<dir>/**\"}` is reported), a `$regex` operand likewise except for `<name>` (a group name there).",
      rationale: "The intake protocol §6: arguments are fully specified, with no inferred values. A placeholder is a decision the reviewer never saw.",
      fix: "Replace the placeholder with the actual value before submitting the plan.",
      bad: "arguments: {path: <path to the report>}",
      good: "arguments: {path: reports/qc.html}",
    },
  },
  prepare: prepareCommandRule,
  check(plan, ctx) {
    for (const { at, step, actual, finding, where } of commandFindings(plan, ctx.facts, "unresolved-argument"))
      ctx.report({ at, step, messageId: finding.messageId, data: { ...findingData(finding), ...where }, actual });
    if (!TOOL_CALL_DIALECTS.includes(plan.dialect)) return;
    // Command lines are read by the shell parser above; the text patterns would report them twice.
    const found = commandsOf(plan, ctx.facts);
    const commands = new Set(found.map((c) => c.at));
    // The arguments a command line is made of: the line itself, an argument vector's members, the pieces joined into it.
    const pieces = new Set(commands);
    for (const c of found) for (const p of c.parts ?? []) pieces.add(p.at);
    const inCommand = (at: string) => pieces.has(at) || pieces.has(at.slice(0, at.lastIndexOf("/")));
    // A marker in a command line is one only as a word of its own (`--version TODO`), not in a search
    // program's words (`rg TODO src`) or in text (`git commit -m "fix the TODO"`).
    if (commands.size > 0)
      for (const { command, report } of analysedCommands(plan, ctx.facts)) {
        const marker = report.markers[0];
        if (marker)
          ctx.report({
            at: partAt(command, marker.span?.start),
            step: command.step.position,
            messageId: "markerInside",
            data: { step: command.step.position, argument: command.name, match: marker.word },
            actual: command.text,
          });
      }
    const pathNames = new Set(ctx.policy.paths.arguments.map((n) => n.toLowerCase()));
    for (const step of plan.steps) {
      for (const a of ctx.facts.step(step).strings) {
        if (!a.has(LeafTag.Placeholder) && !(a.has(LeafTag.Words) && WORDS.test(a.value))) continue;
        let found: { messageId: "placeholder" | InsideMessage | "environmentInPath"; data: Record<string, string> } | undefined;
        // A `$regex` operand is a pattern: `(?<name>…)` is a group name there, not a stand-in.
        const markup = MARKUP_ARGUMENTS.has(a.name.toLowerCase()) || a.at.endsWith("/$regex");
        // A marker word in a command line is the analysis's to judge (above): `rg TODO` looks for it.
        if (WHOLE.test(a.value) && !(markup && a.value.trim().startsWith("<")) && !(MARKER.test(a.value) && inCommand(a.at))) found = { messageId: "placeholder", data: { placeholder: a.value.trim() } };
        else if (!a.content) {
          for (const { pattern: re, messageId } of INSIDE) {
            if (re === ANGLE && markup) continue;
            if (messageId === "variableInside" && commands.has(a.at)) continue;
            if (messageId === "markerInside" && inCommand(a.at)) continue;
            const m = re.exec(a.value);
            if (m) {
              found = { messageId, data: { match: m[0] } };
              break;
            }
          }
          // A path under any other name is read as one too (`{"target": "$HOME/.bashrc"}`), as `~/.bashrc` is.
          if (!found && (pathNames.has(a.name.toLowerCase()) || looksLikePath(a.name, a.value)) && ENV_IN_PATH.test(a.value))
            found = { messageId: "environmentInPath", data: {} };
        }
        if (!found) continue;
        ctx.report({
          at: a.at,
          step: step.position,
          messageId: found.messageId,
          data: { step: step.position, argument: a.name || plan.fields.args, ...found.data },
          actual: a.value,
        });
      }
    }
  },
});
