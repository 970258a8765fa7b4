import { registerRuleIds } from "../core/rule-ids.js";
import type { InputKind, Rule } from "../core/rule.js";
import checksumMismatch from "./checksum-mismatch/index.js";
import checksumMissing from "./checksum-missing/index.js";
import duplicateKey from "./duplicate-key/index.js";
import emptyPlan from "./empty-plan/index.js";
import fileNotFound from "./file-not-found/index.js";
import futureTimestamp from "./future-timestamp/index.js";
import hashMismatch from "./hash-mismatch/index.js";
import invalidType from "./invalid-type/index.js";
import limitExceeded from "./limit-exceeded/index.js";
import missingField from "./missing-field/index.js";
import parseError from "./parse-error/index.js";
import stepNumbering from "./step-numbering/index.js";
import stalePlan from "./stale-plan/index.js";
import unknownFormat from "./unknown-format/index.js";
import unknownKey from "./unknown-key/index.js";
import unknownTool from "./unknown-tool/index.js";
import unsafeValue from "./unsafe-value/index.js";
import disallowedTool from "./disallowed-tool/index.js";
import toolArguments from "./tool-arguments/index.js";
import unresolvedArgument from "./unresolved-argument/index.js";
import argumentConstraint from "./argument-constraint/index.js";
import missingIntent from "./missing-intent/index.js";
import multipleTools from "./multiple-tools/index.js";
import nonDeterministic from "./non-deterministic/index.js";
import scopeMismatch from "./scope-mismatch/index.js";
import pathOutsideWorkspace from "./path-outside-workspace/index.js";
import protectedPathWrite from "./protected-path-write/index.js";
import mdTitle from "./md-title/index.js";
import mdMissingSection from "./md-missing-section/index.js";
import mdActionHeading from "./md-action-heading/index.js";
import mdActionSeparator from "./md-action-separator/index.js";
import missingFilePath from "./missing-file-path/index.js";
import createTargetExists from "./create-target-exists/index.js";
import editTargetMissing from "./edit-target-missing/index.js";
import notInContext from "./not-in-context/index.js";
import editMissingFindReplace from "./edit-missing-find-replace/index.js";
import findNoMatch from "./find-no-match/index.js";
import findAmbiguous from "./find-ambiguous/index.js";
import missingResource from "./missing-resource/index.js";
import readFileMissing from "./read-file-missing/index.js";

// orchestration (the orchestrator validation strategy)
import { APPROVAL_RULES } from "./approval.js";
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
 * line here.
 */
const CATALOGUE = [
  // reading and structure
  fileNotFound,
  parseError,
  duplicateKey,
  unsafeValue,
  limitExceeded,
  unknownFormat,
  emptyPlan,
  missingField,
  unknownKey,
  invalidType,
  stepNumbering,
  // integrity and age
  checksumMismatch,
  checksumMissing,
  hashMismatch,
  stalePlan,
  futureTimestamp,
  // tools and steps
  unknownTool,
  disallowedTool,
  toolArguments,
  unresolvedArgument,
  argumentConstraint,
  missingIntent,
  multipleTools,
  nonDeterministic,
  // workspace scope
  scopeMismatch,
  pathOutsideWorkspace,
  protectedPathWrite,
  // Markdown plans (teddy): structure, then each action's checks in SPEC §3 order
  mdTitle,
  mdMissingSection,
  mdActionHeading,
  mdActionSeparator,
  missingFilePath,
  createTargetExists,
  editTargetMissing,
  notInContext,
  editMissingFindReplace,
  findNoMatch,
  findAmbiguous,
  missingResource,
  readFileMissing,
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
