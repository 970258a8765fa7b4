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

/**
 * The rules plan validation runs (the "read" and "plan" rules), in their check order: the start of the
 * catalogue (./index.ts), kept in their own list so that validation, which runs only these, does not
 * load the orchestration and approval rules (a CLI run's start-up).
 */
export const VALIDATION_RULES = [
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
] as const;
