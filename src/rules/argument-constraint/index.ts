import { constraintProblems, dollarObjects, isCommandKey, lookalikeProblems, stepConstraints } from "../../commands/constraint-check.js";
import { mayHoldDollar } from "../../core/constraints.js";
import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { isPathName } from "../../core/paths.js";
import { defineRule } from "../../core/rule.js";
import type { Step } from "../../core/plan.js";

/** Dialects whose arguments may hold constraints (with `plan.constraints: allow`). */
const CONSTRAINT_DIALECTS = new Set(["intake", "ikoma"]);


const NESTED_HINT = 'make the constraint the whole argument value, or wrap a real value that has a "$" key as {"$literal": …}';
const OPEN_PATH_HINT = 'bound the path with {"$glob": "folder/**"} or {"$enum": […]}; plan.allowOpenArguments: true allows open arguments';

let schemaChecker: ((schema: unknown) => string | undefined) | undefined;

/** Does a step have an argument that is a `$schema` constraint (the schema compiler is loaded only then)? */
function hasSchemaArgument(step: Step): boolean {
  for (const key in step.args) {
    if (!Object.hasOwn(step.args, key)) continue;
    const v = step.args[key];
    if (v !== null && typeof v === "object" && Object.hasOwn(v, "$schema")) return true;
  }
  return false;
}

export default defineRule({
  meta: {
    id: "argument-constraint",
    input: "plan",
    defaultSeverity: "error",
    phase: "step",
    messages: {
      lookalikeKey: { message: "Step {{step}}: the key \"{{key}}\" looks like a constraint but does not start with \"$\" (U+0024): a reader would take it for one, plangate and the guard read it as a plain key.", hint: 'write the constraint with a plain "$", or rename the key' },
      constraintInDialect: { message: "Step {{step}}: the argument value with the key \"{{key}}\" is a constraint, and {{dialect}} plans take literal arguments only.", hint: 'write the literal value, or wrap a real value that has a "$" key as {"$literal": …}' },
      constraintsRefused: {
        message: "Step {{step}}: the argument value with the key \"{{key}}\" is a constraint object, and the policy refuses constraints (plan.constraints: refuse): every argument must be the literal value.",
        hint: 'write the literal value; to let arguments be constraints, set plan.constraints: allow in plangate.yaml; a real value with a "$" key is written {"$literal": …}',
      },
      invalidConstraint: { message: "Step {{step}}: argument \"{{key}}\" is no valid constraint: {{error}}.", hint: 'write one constraint ({"$glob": "…"}, {"$regex": "…"}, {"$enum": […]}, {"$schema": {…}}, {"$any": true}), or wrap a real value as {"$literal": …}' },
      unusableRegex: { message: "Step {{step}}: argument \"{{key}}\": the $regex cannot be used: {{error}}.", hint: "write a regular expression RE2 can run (no backreferences or lookaround), or use $glob or $enum" },
      unreadableGlob: { message: "Step {{step}}: argument \"{{key}}\": the path $glob cannot be read: {{error}}.", hint: "write a plain glob: *, **, ?, [abc], [a-z], {a,b}" },
      enumTooLarge: { message: "Step {{step}}: argument \"{{key}}\": the $enum has {{count}} values, over 1000.", hint: "list fewer values, or split the step" },
      unusableSchema: { message: "Step {{step}}: argument \"{{key}}\": the $schema cannot be used: {{why}}.", hint: "write a small self-contained JSON Schema (2020-12) with no $ref outside it" },
      schemaCheckerNotLoaded: {
        message: "Step {{step}}: argument \"{{key}}\": the $schema cannot be used: the JSON Schema checker could not be loaded.",
        hint: "write a small self-contained JSON Schema (2020-12) with no $ref outside it",
      },
      invalidNestedConstraint: { message: "Step {{step}}: a value inside an argument is no valid constraint: {{error}}.", hint: NESTED_HINT },
      nestedConstraint: { message: "Step {{step}}: a {{kind}} constraint stands inside an argument's value: constraints are whole argument values only.", hint: NESTED_HINT },
      openCommand: { message: "Step {{step}}: argument \"{{key}}\" is {{kind}}, which leaves the command open: any command line would match.", hint: 'write the command literally, list the allowed lines with {"$enum": […]}, or bound it with {"$glob": "program *"}; plan.allowOpenArguments: true allows open arguments' },
      openPath: { message: "Step {{step}}: argument \"{{key}}\" is {{kind}}, which leaves the path open: any file, inside the workspace or not, would match.", hint: OPEN_PATH_HINT },
      openWrittenPath: { message: "Step {{step}}: argument \"{{key}}\" is {{kind}}, which leaves the path open for a tool that writes: any file, inside the workspace or not, would match.", hint: OPEN_PATH_HINT },
    },
    summary: "An argument is a constraint object the policy does not allow, or one that cannot be used.",
    docs: {
      description:
        'Intake and iKOMA step arguments may be constraint objects (`{"$glob": …}`, `{"$regex": …}`, `{"$enum": […]}`, `{"$schema": {…}}`, `{"$any": true}`) when the policy sets `plan.constraints: allow`; `{"$literal": v}` stands for the value v itself. With `plan.constraints: refuse` (the default) every object with a `$` key in an argument, at any depth, other than `$literal`, is reported. With `allow`: a constraint with other keys beside its `$` key, an unknown `$` key, a wrong operand, a `$regex` RE2 cannot run, a `$glob` that cannot be read, a `$schema` that does not compile, is too large or has a `$ref` outside itself; a `$` object anywhere but as a whole top-level argument value (inside an object, a list or an `$enum` member) unless it is `$literal`; an open constraint (`$any`, `$schema`) on a path argument or a command unless `plan.allowOpenArguments: true`; constraints in scQC plans. In every mode a key that looks like `$` but is not (fullwidth `＄`, small `﹩`, an invisible character before `$`) is reported.',
      rationale:
        'SPEC §6 forbids inferred arguments: a constraint lets the executor choose a value within bounds, so it is opt-in, and each form is judged by the worst value it admits. The guard reads constraints with the same functions, so a value cannot mean one thing to validation and another to the guard.',
      fix: 'Write the literal value, or set `plan.constraints: allow` in plangate.yaml and write one well-formed constraint as the whole argument value; wrap a real value that has a `$` key as `{"$literal": …}`.',
      bad: 'arguments: {path: {"$glob": "src/**/*.py", "extra": 1}}',
      good: 'arguments: {path: {"$glob": "src/**/*.py"}}',
    },
  },
  async prepare(plan) {
    if (schemaChecker) return;
    const has = plan.steps.some(hasSchemaArgument);
    if (!has) return;
    try {
      const m = await import("../../core/constraint-schema.js");
      schemaChecker = (schema) => {
        const c = m.compileConstraintSchema(schema);
        return "error" in c ? c.error : undefined;
      };
    } catch {
      schemaChecker = undefined;
    }
  },
  check(plan, ctx) {
    if (!TOOL_CALL_DIALECTS.includes(plan.dialect)) return;
    // Most plans have no "$" (or look-alike, or an escape that could spell one): nothing to walk.
    if (!mayHoldDollar(plan, ctx.facts)) return;
    const allow = ctx.policy.plan.constraints === "allow";
    const open = ctx.policy.plan.allowOpenArguments;
    for (let s = 0, steps = plan.steps; s < steps.length; s++) {
      const step = steps[s]!;
      // The problem is the key (it looks like "$" but is not): reported there.
      for (const p of lookalikeProblems(step)) ctx.report({ at: p.at, key: true, step: step.position, messageId: p.messageId, data: { ...p.data, step: step.position } });
      if (!allow || !CONSTRAINT_DIALECTS.has(plan.dialect)) {
        for (const d of dollarObjects(step))
          ctx.report({ at: d.at, step: step.position, messageId: allow ? "constraintInDialect" : "constraintsRefused", data: { step: step.position, key: d.key, dialect: plan.dialect } });
        continue;
      }
      const facts = ctx.facts.step(step);
      const names = facts.pathNames;
      for (const p of constraintProblems(step, schemaChecker, (key) => isPathName(key, names))) ctx.report({ at: p.at, step: step.position, messageId: p.messageId, data: { ...p.data, step: step.position } });
      if (open) continue;
      for (const c of stepConstraints(step)) {
        if (c.constraint.kind !== "$any" && c.constraint.kind !== "$schema") continue;
        const command = isCommandKey(c.key);
        const path = !command && isPathName(c.key, names);
        if (!command && !path) continue;
        const writes = facts.writes;
        ctx.report({
          at: c.at,
          step: step.position,
          messageId: command ? "openCommand" : writes ? "openWrittenPath" : "openPath",
          data: { step: step.position, key: c.key, kind: c.constraint.kind === "$any" ? "$any" : "a $schema" },
        });
      }
    }
  },
});
