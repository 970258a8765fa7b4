import { planContext, reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { teddyFacts } from "../teddy-facts.js";
import { messages } from "./messages.js";

/**
 * A rule of one input kind, "read": the readers and the engine record the limits a document passes (its
 * size, depth, string lengths, steps) as facts; when reading has produced a TeDDy plan, the read input
 * carries it, and the rule also reports the edits the check cannot simulate within bounds. Both are
 * limits of reading the plan, found before any step is judged.
 */
export default defineRule({
  meta: {
    id: "limit-exceeded",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "read",
    summary: "The file is larger, deeper or longer than the policy's limits.",
    docs: {
      description:
        "Reports a file larger than limits.maxFileBytes, nesting deeper than limits.maxDepth, a JSON or YAML document holding more than limits.maxValues values (objects, lists, strings, numbers, booleans, nulls, aliases expanded; 250,000 by default: each is read, walked by several rules, resolved when it may be a path and hashed), or more steps than limits.maxSteps; a YAML document over limits.maxYamlBytes or holding more than 50,000 aliases, anchors and tags, or whose aliases expand to more values than its length (100,000 at least) or copy in more text than its own length (1 MiB at least: a long string aliased many times); a Markdown document of more than 500,000 lines, one that makes more than 250,000 tokens (headings, paragraphs, list items, inline markup), or one with more than a MiB of inline text (paragraphs, headings, list items outside code blocks), which is then not read at all; a plan holding more than 1,000 `$glob` and `$regex` constraints or 64 KiB of their patterns (each is searched for a path it admits), which is then not judged; a step whose tool's inputSchema would take the schemas a plan's tools compile past 15,000 values in all (its arguments are not checked); the step where the work of the path rules passes a bound for the whole validation (not per step, which the steps multiply), the work past it not done: 1,048,576 units of paths read from command lines and from the folders a step names (four for a path joined to a folder or to an extension given apart), 262,144 units of values read from inside strings (structured text in arguments, patch headers), 2,097,152 names tried against command-line patterns on disk, 1,048,576 names read from symbolic links' targets, 262,144 units of distinct paths resolved on disk, 1,048,576 units of paths a writer's `$glob` constraint is tried on against the protected globs (one per path, one more per 256 protected globs), 4,194,304 units of following the files a plan writes into the commands that run or load them (one per kind of file a command's programs load, per write and written file looked at, 64 per written file read as it would run: a plan that writes a script and runs a test runner at every step does work that grows with the square of its steps). Also a policy given in code whose lists pass their bounds (1,024 entries of each list of names, 64 globs, 4,096 protected globs, 256 overrides, 1,024 rule settings: README \"Bounds on a policy\"; a policy file past them does not load), or tools given in code past 32,768 names or 64 globs: no step is judged. For TeDDy plans, also a plan whose edits the check cannot simulate within bounds: a simulated file over 32 MiB (Match All pairs that grow a file geometrically), more than 256 MiB of search and copy work, or a FIND block that occurs more than 100,000 times.",
      rationale: "Hostile input must not exhaust memory or time; a bounded reader rejects it with a diagnostic instead.",
      fix: "Split the plan, flatten the nesting, or raise the limit in plangate.yaml (limits:) if the input is trusted.",
      bad: "# limits: {maxSteps: 1}\nsteps:\n  - {tool: read_file, arguments: {path: a.txt}, intent: read a}\n  - {tool: read_file, arguments: {path: b.txt}, intent: read b}",
      good: "# limits: {maxSteps: 1}\nsteps:\n  - {tool: read_file, arguments: {path: a.txt}, intent: read a}",
    },
  },
  check(input, context) {
    reportFacts("limit-exceeded", input, context);
    const view = input.normalized;
    if (!view || view.plan.dialect !== "teddy") return;
    const plan = view.plan;
    const ctx = planContext(view, context);
    const limit = teddyFacts(plan, ctx).limit;
    if (!limit) return;
    const step = plan.steps.find((s) => s.position === limit.step);
    ctx.report({ at: step?.at ?? plan.stepsAt, step: limit.step, messageId: limit.messageId, data: limit.data });
  },
});
