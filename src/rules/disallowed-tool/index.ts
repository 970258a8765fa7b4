import { mayHoldDollar } from "../../core/constraints.js";
import { isCommandKey, stepConstraints } from "../../commands/constraint-check.js";
import { childPointer } from "../../core/pointer.js";
import { commandFindings, prepareCommandRule } from "../../commands/report.js";
import { findingData, inStepCommand } from "../command-findings.js";
import { commandClauses, patternReasonText } from "./command-messages.js";
import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { globMatcher } from "../../core/glob.js";
import { INVISIBLE, lookalikeReason, looseName, skeleton } from "../../core/lookalike.js";
import { defineRule } from "../../core/rule.js";
import { compiledFor, compiledFrom } from "../../core/compiled.js";

function denyOf(deny: readonly string[]) {
  // Compared without case, separators or look-alike letters: `Sequential-Thinking` is `sequential_thinking`.
  return compiledFrom("deny", deny, () => ({
    denySkeletons: new Set(deny.filter((x) => !/[*?]/.test(x)).map(looseName)),
    denyGlobs: deny.filter((x) => /[*?]/.test(x)).map((x) => globMatcher(looseName(x))),
  }));
}

/** A registry's names by their folded form; registries are reused across validations, so once per object. */
function knownOf(names: ReadonlySet<string>): Map<string, string> {
  return compiledFor("known-names", names, () => new Map([...names].map((n) => [skeleton(n), n])));
}

/** The command pattern check (../../commands/command-pattern.ts), once a plan needed it. */
let patterns: typeof import("../../commands/command-pattern.js") | undefined;

export default defineRule({
  meta: {
    id: "disallowed-tool",
    input: "plan",
    defaultSeverity: "error",
    phase: "step",
    messages: {
      unprovableCommand: { message: "Step {{step}}: the command constraint in \"{{argument}}\" cannot be shown to run allowed programs only: {{why}}.", hint: 'start the pattern with the program\'s literal name and a space ({"$glob": "pytest *"}), or list the command lines with {"$enum": […]}' },
      denied: { message: "Step {{step}}: the tool \"{{tool}}\" is denied by the policy (reasoning and planning tools, and tools.deny, may not run in an approved plan).", hint: "remove the step: an approved plan acts; thinking and re-planning happen before approval" },
      lookalikeOf: { message: "Step {{step}}: the tool name \"{{tool}}\" {{why}} of \"{{twin}}\".", hint: "write the name as \"{{twin}}\" in plain characters" },
      lookalikeKnown: { message: "Step {{step}}: the tool name \"{{tool}}\" {{why}}.", hint: "write the name as \"{{tool}}\" in plain characters" },
      lookalike: { message: "Step {{step}}: the tool name \"{{tool}}\" {{why}}.", hint: "write the tool name in plain ASCII" },
      ...inStepCommand(commandClauses),
    },
    summary: "A step calls a denied tool, a reasoning/planning tool, or a look-alike of a tool name.",
    docs: {
      description:
        "Reports a step whose tool is on the deny list (policy `tools.deny`, globs allowed, added to the built-in list of reasoning and planning tools such as `think`, `plan`, `sequential_thinking`, and the planning tools of common hosts: `ExitPlanMode`, `EnterPlanMode`, `plan_mode`, `mcp__sequential-thinking__sequentialthinking`). Deny entries are matched without case, separators (`_`, `-`, `.`, `:`, `/`, spaces), invisible characters or Cyrillic/Greek homoglyphs, so `Think`, `thіnk`, `exit_plan_mode` and `Sequential-Thinking` are denied too. The deny list judges plan steps: what a host may call outside the plan is the guard's business. Also reports a tool name that mixes scripts or uses compatibility letters, and a name whose skeleton equals a known tool it is not (an all-Cyrillic spelling, invisible characters inside a known name). Invisible characters in a name that imitates nothing are `unsafe-value`. In command lines (a `command`, `cmd` or `program` argument, a Markdown EXECUTE block) it reports every program the command runs, including the ones run by `xargs`, `find -exec`, `env`, `sudo`, `sh -c`, `eval`, `tmux`, `screen`, `watchexec`, `nodemon`, `hyperfine`, `ssh host cmd`, `ip netns exec`, `perf stat`…, that `commands.deny` names or that `commands.allow` (when not empty) does not; a program whose name is decided at run time (`$X`, a glob) or that cannot be made out (keys typed into a pane with `tmux send-keys`, Tcl given to `expect -c`, a shell language plangate does not read such as `fish -c`; a program run in a container or another root, `docker run`, `systemd-nspawn`; one handed to a daemon, a queue or a crontab, `pm2 start`, `crontab FILE`; command lines given to `concurrently`, `xterm -e`; an environment loaded from .env by `dotenv`, `env-cmd`); a shell reading commands from standard input or a script file (`curl … | sh`); settings that change what a name runs (`PATH=…`, `LD_PRELOAD=…`, `BASH_ENV=…`, `alias`, `hash -p`, `enable`); git settings and subcommands that run what they name (`git -c alias.x='!…'`, `core.pager`, `rebase -x`, `bisect run`, `submodule foreach`); options through which a program runs a command line it is given (`tar --to-command`, `rsync -e`, `ssh -o ProxyCommand`, `scp -S`, socat's `EXEC:` and `SYSTEM:` addresses, `gdb -ex`, `fd -x`, `rg --pre`, `vim -c`, `less +CMD`, `npm --script-shell`, `cargo --config build.rustc-wrapper=...`, `make --eval`, `just --dotenv-command`) and scripts that run one (sed's `e` command and `s///e` flag; a sed script plangate cannot read); code given to an interpreter on its line or standard input (`python -c`, `python3 - <<EOF`, `node -e`, `perl -e`, a step's `{language: python, code}`) unless `commands.inlineCode` names the interpreter; an awk program's command line decided at run time (`system(cmd)`, `print | $2`) and a program the awk reader cannot follow (gawk's `@f()`, `@load`); settings ssh gives the remote command (`ssh -o SetEnv=PATH=...`, `SendEnv`) checked as `env` settings are; runners that load an environment from files of the workspace before the program (`direnv exec`: .envrc; `mise exec`: mise.toml's `[env]`; `asdf exec`: .tool-versions' `path:` versions) and commands that have such a loader trust one (`direnv allow`, `mise trust`); settings that name a file of code or an interpreter (`YARN_YARN_PATH`, `BUNDLE_GEMFILE`, `UV_PYTHON=./py`, `RUSTFLAGS='-C linker=...'`). An interpreter given by path or name (`uv run -p ./py`, `poetry env use ./py`) is checked as a program. A file an earlier step of the plan writes (or the same command line) and a command then runs is judged by its text, reported at the step that runs it with the step that writes it named: a shell script's commands (`bash build.sh`, `./build.sh`, `. build.sh`), an interpreter's code, and code a program loads by itself (tests a test runner imports, `build.rs` for cargo, any code file for a task runner or a project's script, `.husky/*` for git commit), as its language's code unless `commands.writtenCode` or `commands.inlineCode` names it (`writtenCode`: `python3 run.py`, `python3 -m mod`, `node -r ./x.js`, `uv run x.py`, `tsx x.ts`, `go run x.go`, a `#!` line naming one, `pytest` after conftest.py), sed's and awk's script files, package.json's scripts behind `npm test` or `npm run x`; a written file whose text the plan does not hold (downloaded, copied or moved, written by a command line, edited in place, appended to, encoded, or written by a tool whose file plangate cannot name) is refused (`writtenUnknown`), and so is a written makefile, justfile, task runner's file (`Taskfile.yml`, `Rakefile`, `tox.ini`, `noxfile.py`), a build file that names commands (`pom.xml`, `build.gradle`, `.cargo/config.toml`, `*.tf`, `.pre-commit-config.yaml` before git commit), local package (`npx ./pkg`) or package manager's configuration run by its tool (`writtenManifest`) and a text plangate cannot read (`writtenUnreadable`: another `#!` interpreter, package.json that is not JSON).",
      rationale:
        "An approved plan must act, not hand control back to a planner (the intake protocol §5: no reasoning or planning tools). A look-alike of an allowed tool name is an attack: it reads as the approved tool to a reviewer and resolves to another one.",
      fix: "Remove the step or use an allowed tool; retype a look-alike name in plain ASCII.",
      bad: 'steps: [{tool: think, arguments: {}, intent: "decide what to do"}]',
      good: 'steps: [{tool: read_file, arguments: {path: a.txt}, intent: "read the input"}]',
    },
  },
  async prepare(plan, ctx) {
    await prepareCommandRule(plan, ctx);
    // The pattern check needs the wrapper tables: loaded only for a plan with a pattern on a command.
    if (ctx.policy.plan.constraints === "allow" && mayHoldDollar(plan, ctx.facts) && plan.steps.some((s) => stepConstraints(s).some((c) => isCommandKey(c.key)))) patterns ??= await import("../../commands/command-pattern.js");
  },
  check(plan, ctx) {
    for (const { at, step, actual, finding, where } of commandFindings(plan, ctx.facts, "disallowed-tool"))
      ctx.report({ at, step, messageId: finding.messageId, data: { ...findingData(finding), ...where }, actual });
    if (!TOOL_CALL_DIALECTS.includes(plan.dialect)) return;
    const { denySkeletons, denyGlobs } = denyOf(ctx.policy.tools.deny);
    const knownBySkeleton = ctx.tools ? knownOf(ctx.tools.names) : new Map<string, string>();
    type Verdict = { messageId: "denied" | "lookalike" | "lookalikeKnown" | "lookalikeOf"; why: string; twin: string } | null;
    const verdicts = new Map<string, Verdict>();
    const judge = (name: string): Verdict => {
      const sk = skeleton(name);
      const loose = looseName(name);
      if (denySkeletons.has(loose) || denyGlobs.some((g) => g.test(loose))) return { messageId: "denied", why: "", twin: "" };
      const why = lookalikeReason(name);
      const twin = knownBySkeleton.get(sk);
      // An ASCII name that differs from a known one only in case is a typo (unknown-tool's), not a disguise.
      const disguised = twin !== undefined && twin !== name && !ctx.tools?.names.has(name) && !/^[\x20-\x7e]*$/.test(name);
      // Invisible characters alone are unsafe-value's finding; here they matter when they disguise a known tool.
      const invisibleOnly = why !== undefined && INVISIBLE.test(name) && twin === undefined;
      if (!((why && !invisibleOnly) || disguised)) return null;
      return { messageId: twin === undefined ? "lookalike" : twin === name ? "lookalikeKnown" : "lookalikeOf", why: why ?? "is a look-alike", twin: twin ?? "" };
    };
    for (const step of plan.steps) {
      // A $glob or $regex on a command admits many lines: it must fix one program the policy allows.
      if (ctx.policy.plan.constraints === "allow")
        for (const c of stepConstraints(step)) {
          if (!isCommandKey(c.key)) continue;
          if (patterns === undefined) throw new Error("disallowed-tool: a command pattern was found after prepare()");
          const problem = patterns.commandPatternProblem(c.constraint, c.key, ctx.policy.commands);
          if (problem)
            ctx.report({
              at: childPointer(c.at, c.constraint.kind),
              step: step.position,
              messageId: "unprovableCommand",
              data: { step: step.position, argument: c.key, why: patternReasonText(problem) },
            });
        }
      const name = step.tool;
      if (name === undefined) continue;
      // Plans repeat their tools: what a name is judged to be is worked out once per name.
      let verdict = verdicts.get(name);
      if (verdict === undefined) verdicts.set(name, (verdict = judge(name)));
      if (verdict === null) continue;
      ctx.report({
        at: step.toolAt,
        step: step.position,
        messageId: verdict.messageId,
        data: verdict.messageId === "denied" ? { step: step.position, tool: name } : { step: step.position, tool: name, why: verdict.why, twin: verdict.twin },
        actual: name,
      });
    }
  },
});
