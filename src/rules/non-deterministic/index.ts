import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { defineRule } from "../../core/rule.js";
import { LeafTag } from "../../core/facts.js";
import { keysWhere } from "../../core/walk.js";

/** Keys that make a step conditional. */
// (Not `branch`: git tools take a branch name.)
const BRANCH_KEYS = new Set([
  "if",
  "else",
  "elif",
  "elseif",
  "else_if",
  "when",
  "unless",
  "goto",
  "condition",
  "conditions",
  "conditional",
  "switch",
]);
/** Keys that leave the order of execution open when set. */
// (Not `after`, `before` or `dependencies`: editing and install tools take those as plain arguments.)
const ORDER_KEYS = new Set([
  "parallel",
  "concurrent",
  "concurrency",
  "async",
  "background",
  "run_in_background",
  "detach",
  "detached",
  "any_order",
  "unordered",
  "depends_on",
]);
/** Values chosen at run time: randomness and the clock. */
const RUN_TIME: readonly [RegExp, string][] = [
  [/\$\{?(?:RANDOM|SRANDOM)\b/, "$RANDOM"],
  [/\$\{?(?:EPOCHSECONDS|EPOCHREALTIME)\b/, "the shell clock"],
  [
    /\$\(\s*(?:date|uuidgen|shuf|mktemp|openssl\s+rand)\b|`\s*(?:date|uuidgen|shuf|mktemp)\b/,
    "a command substitution of the clock or a random source",
  ],
  [/\buuid[1-7]?\s*\(|\buuidgen\b/i, "a generated UUID"],
  [
    /\b(?:random|rand|randint|randrange|choice|shuffle)\s*\(|\bMath\.random\b|\/dev\/u?random\b/i,
    "a random value",
  ],
  [/\b(?:now|today|utcnow|timestamp|time)\s*\(\s*\)|\bDate\.now\b|\bnew Date\(\s*\)/i, "the current time"],
  [/\{\{\s*(?:now|today|timestamp|date|time|uuid|random)\b/i, "a run-time template value"],
];

/** Run-time values written without `$`, `` ` ``, `(`, `{` or `/dev/` (LeafTag.RunTime): `uuidgen`, `Math.random`, `Date.now`. */
export const RUN_TIME_WORDS = /uuidgen|math\.random|date\.now/i;
/** One pass over a string before the per-pattern search that names what it found. */
export const ANY_RUN_TIME = new RegExp(RUN_TIME.map(([re]) => `(?:${re.source})`).join("|"), "i");

function isSet(value: unknown): boolean {
  if (value === false || value === null || value === 0 || value === "" || value === undefined) return false;
  if (typeof value === "string" && /^(false|no|off|0)$/i.test(value.trim())) return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** Keys already looked up (plans repeat their keys from step to step), up to a bound. */
const KEY_KIND = new Map<string, boolean>();

/** Is the key (in any case) one that branches or leaves the order open? */
function isBranchOrOrderKey(key: string): boolean {
  let is = KEY_KIND.get(key);
  if (is === undefined) {
    const lower = key.toLowerCase();
    is = BRANCH_KEYS.has(lower) || ORDER_KEYS.has(lower);
    if (KEY_KIND.size < 4096) KEY_KIND.set(key, is);
  }
  return is;
}

export default defineRule({
  meta: {
    id: "non-deterministic",
    input: "plan",
    defaultSeverity: "error",
    phase: "step",
    messages: {
      conditional: { message: "Step {{step}}: \"{{key}}\" makes the step conditional; an approved plan runs every step as written.", hint: "write the branch the plan takes as plain steps, or set plan.allowConditionals: true in plangate.yaml" },
      openOrder: { message: "Step {{step}}: \"{{key}}\" leaves the order of execution open; steps run one after another, in the order written.", hint: "remove it and order the steps as they must run" },
      runTimeValue: { message: "Step {{step}}: argument \"{{argument}}\" uses {{what}}, so it differs from run to run.", hint: "write the fixed value into the plan" },
    },
    summary: "A step branches, depends on chance or the clock, or leaves the order of execution open.",
    docs: {
      description:
        "Reports, anywhere in a step: branching keys (`if`, `else`, `elif`, `when`, `unless`, `goto`, `condition`, `switch`…) unless the policy sets `plan.allowConditionals: true`; keys that leave the order open when set (`parallel`, `async`, `background`, `depends_on`, `any_order`…); and, in arguments that are not file content, values chosen at run time: `$RANDOM`, `uuid()`, `random()`, `now()`, `$(date …)`, `` `date` ``, `{{ now }}`, `/dev/urandom`.",
      rationale:
        "The intake protocol §7: an approved plan is deterministic, with every variation written in the plan and a fixed order. A branch or a random value means the plan that runs is not the plan that was reviewed.",
      fix: "Write the branch the plan takes as plain steps (or allow conditionals in the policy), write fixed values instead of generated ones, and list steps in the order they run.",
      bad: 'steps: [{tool: write_file, arguments: {path: "out/run-$RANDOM.txt"}, intent: save}]',
      good: 'steps: [{tool: write_file, arguments: {path: "out/run-42.txt"}, intent: save}]',
    },
  },
  check(plan, ctx) {
    const allowBranches = ctx.policy.plan.allowConditionals;
    for (let s = 0, steps = plan.steps; s < steps.length; s++) {
      const step = steps[s]!;
      // The whole step of JSON/YAML dialects; for Markdown, whose raw step is the parser's, the arguments.
      const root =
        TOOL_CALL_DIALECTS.includes(plan.dialect) && step.raw !== null && typeof step.raw === "object"
          ? step.raw
          : step.args;
      const base = root === step.args ? step.argsAt : step.at;
      for (const k of keysWhere(root, base, isBranchOrOrderKey)) {
        const key = k.key.toLowerCase();
        if (!allowBranches && BRANCH_KEYS.has(key)) {
          ctx.report({
            at: k.at,
            key: true,
            step: step.position,
            messageId: "conditional",
            data: { step: step.position, key: k.key },
          });
        } else if (ORDER_KEYS.has(key) && isSet(k.value)) {
          ctx.report({
            at: k.at,
            key: true,
            step: step.position,
            messageId: "openOrder",
            data: { step: step.position, key: k.key },
          });
        }
      }
      const strings = ctx.facts.step(step).strings;
      for (let i = 0; i < strings.length; i++) {
        const a = strings[i]!;
        if (a.content || (!a.has(LeafTag.RunTime) && !(a.has(LeafTag.Words) && RUN_TIME_WORDS.test(a.value))) || !ANY_RUN_TIME.test(a.value)) continue;
        const hit = RUN_TIME.find(([re]) => re.test(a.value));
        if (!hit) continue;
        ctx.report({
          at: a.at,
          step: step.position,
          messageId: "runTimeValue",
          data: { step: step.position, argument: a.name || plan.fields.args, what: hit[1] },
          actual: a.value,
        });
      }
    }
  },
});
