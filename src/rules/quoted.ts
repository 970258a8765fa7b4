import duplicateKey from "./duplicate-key/index.js";
import emptyPlan from "./empty-plan/index.js";
import fileNotFound from "./file-not-found/index.js";
import hashMismatch from "./hash-mismatch/index.js";
import invalidType from "./invalid-type/index.js";
import limitExceeded from "./limit-exceeded/index.js";
import mdActionHeading from "./md-action-heading/index.js";
import mdActionSeparator from "./md-action-separator/index.js";
import mdMissingSection from "./md-missing-section/index.js";
import mdTitle from "./md-title/index.js";
import missingField from "./missing-field/index.js";
import parseError from "./parse-error/index.js";
import pathOutsideWorkspace from "./path-outside-workspace/index.js";
import protectedPathWrite from "./protected-path-write/index.js";
import stepNumbering from "./step-numbering/index.js";
import toolArguments from "./tool-arguments/index.js";
import unknownFormat from "./unknown-format/index.js";
import unknownKey from "./unknown-key/index.js";
import unknownTool from "./unknown-tool/index.js";
import unsafeValue from "./unsafe-value/index.js";

/**
 * The rules whose messages code outside a validation quotes (./read-text.ts): every rule of the readers'
 * facts, and those a command reports before or beside a validation (a hook input, a host call, a plan
 * file that cannot be read). read-text looks their texts up here rather than in the catalogue (./index.ts,
 * which holds these same modules), so that a guard hook call, which quotes them, does not load every rule.
 */
export const QUOTED_RULES = [
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
  hashMismatch,
  mdTitle,
  mdMissingSection,
  mdActionHeading,
  mdActionSeparator,
  unknownTool,
  toolArguments,
  pathOutsideWorkspace,
  protectedPathWrite,
] as const;

/** The id of a rule whose messages may be quoted outside a validation. */
export type QuotedRuleId = (typeof QUOTED_RULES)[number]["meta"]["id"];
