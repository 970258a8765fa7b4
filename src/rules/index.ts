import { registerRuleIds } from "../core/rule-ids.js";
import type { InputKind, Rule } from "../core/rule.js";
import { VALIDATION_RULES } from "./validation.js";
import { APPROVAL_RULES } from "./approval.js";
// orchestration (the orchestrator validation strategy)
import taskNumberFormat from "./task-number-format/index.js";
import taskNotFound from "./task-not-found/index.js";
import taskStatus from "./task-status/index.js";
import delegationDepth from "./delegation-depth/index.js";
import delegationCycle from "./delegation-cycle/index.js";
import sessionIdReused from "./session-id-reused/index.js";
import returnJson from "./return-json/index.js";
import returnMissingField from "./return-missing-field/index.js";
import returnStatus from "./return-status/index.js";
import returnSessionMismatch from "./return-session-mismatch/index.js";
import summaryTooLong from "./summary-too-long/index.js";
import artifactMissing from "./artifact-missing/index.js";
import artifactEmpty from "./artifact-empty/index.js";

/**
 * Every rule, in the order checks run within a phase (SPEC §3's order). This list is the catalogue: the
 * `RuleId` type is derived from it (below) and `isRuleId` knows its ids, so a rule is its folder and its
 * line here, or in the list of its kind it takes in (./validation.ts, ./approval.ts).
 */
const CATALOGUE = [
  // reading, structure, tools, steps, the workspace and Markdown plans (listed in ./validation.ts)
  ...VALIDATION_RULES,
  // orchestration (the orchestrator validation strategy): reported by src/orchestration, not by plan validation
  taskNumberFormat,
  taskNotFound,
  taskStatus,
  delegationDepth,
  delegationCycle,
  sessionIdReused,
  returnJson,
  returnMissingField,
  returnStatus,
  returnSessionMismatch,
  summaryTooLong,
  artifactMissing,
  artifactEmpty,
  // approval, signatures and the execution guard (listed in ./approval.ts)
  ...APPROVAL_RULES,
] as const;

/** The catalogue's ids, each to its rule's input kind. */
type Catalogue<R extends readonly { meta: { id: string; input: InputKind } }[]> = { [E in R[number] as E["meta"]["id"]]: E["meta"]["input"] };

declare module "../core/rule-ids.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the catalogue, merged into core's declaration
  interface RuleIdRegistry extends Catalogue<typeof CATALOGUE> {}
}

/** Every rule, in the order checks run within a phase (SPEC §3's order): the catalogue, as its users see it. */
export const RULES: readonly Rule[] = CATALOGUE;

registerRuleIds(RULES.map((r) => r.meta.id));

const BY_ID: ReadonlyMap<string, { rule: Rule; index: number }> = new Map(RULES.map((r, i) => [r.meta.id, { rule: r, index: i }]));

/** The rule with this id, if any. */
export function findRule(id: string): Rule | undefined {
  return BY_ID.get(id)?.rule;
}

/** The position of a rule in the catalogue (its check order), or the end for unknown ids. */
export function ruleOrder(id: string): number {
  return BY_ID.get(id)?.index ?? RULES.length;
}
