import type { Rule } from "../core/rule.js";
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
import stalePlan from "./stale-plan/index.js";
import unknownFormat from "./unknown-format/index.js";
import unknownKey from "./unknown-key/index.js";
import unknownTool from "./unknown-tool/index.js";
import unsafeValue from "./unsafe-value/index.js";
import disallowedTool from "./disallowed-tool/index.js";
import toolArguments from "./tool-arguments/index.js";
import unresolvedArgument from "./unresolved-argument/index.js";
import missingIntent from "./missing-intent/index.js";
import multipleTools from "./multiple-tools/index.js";
import nonDeterministic from "./non-deterministic/index.js";
import scopeMismatch from "./scope-mismatch/index.js";
import pathOutsideWorkspace from "./path-outside-workspace/index.js";
import protectedPathWrite from "./protected-path-write/index.js";

/** Every rule, in the order checks run within a phase (SPEC §3's order). */
export const RULES: readonly Rule[] = [
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
  missingIntent,
  multipleTools,
  nonDeterministic,
  // workspace scope
  scopeMismatch,
  pathOutsideWorkspace,
  protectedPathWrite,
];

const BY_ID = new Map(RULES.map((r, i) => [r.meta.id, { rule: r, index: i }]));

/** The rule with this id, if any. */
export function findRule(id: string): Rule | undefined {
  return BY_ID.get(id)?.rule;
}

/** The position of a rule in the catalogue (its check order), or the end for unknown ids. */
export function ruleOrder(id: string): number {
  return BY_ID.get(id)?.index ?? RULES.length;
}
