import type { ValueLocation } from "../document.js";
import type { FileProbe } from "../file-probe.js";
import type { Pointer } from "../pointer.js";

/** Why a return is not a JSON document the other checks can read. */
export type ReturnProblem =
  /** The return's file could not be read (`reason`: an error code, or what the path is instead of a file). */
  | { kind: "unreadable"; file: string; reason: string }
  /** The bytes are not text, or the text is not JSON: the reader's message and hint, with offsets when the parser gave them. */
  | { kind: "invalid"; message: string; hint?: string; start?: number; end?: number };

/** What the orchestrator expects of a return: the policy's `returns` section and the delegated session. */
export interface ReturnExpectations {
  /** Allowed values of `status`. */
  readonly statuses: readonly string[];
  /** Statuses that promise artifacts. */
  readonly successStatuses: readonly string[];
  /** Fields that must be present (dotted paths; `session_id` may also be `metadata.session_id`). */
  readonly requiredFields: readonly string[];
  /** Members every artifact object must have, if any. */
  readonly artifactFields?: readonly string[];
  /** The session id the orchestrator gave the subagent, if it is to be compared. */
  readonly expectedSessionId?: string;
  /** The summary must stay under this many tokens (0: not measured). */
  readonly maxSummaryTokens: number;
  /** The tokenizer encoding the summary was measured in. */
  readonly encoding: string;
}

/**
 * The input of "return" rules: a subagent's return as read, with what the orchestrator expects of it and
 * what was measured for it. Reading, decoding, parsing and token counting are done before the rules run;
 * the artifact rules look at the file system only through `files`, and only inside `workspace`.
 */
export interface ReturnInput {
  /** The decoded text that offsets point into ("" when the return could not be read or decoded). */
  readonly text: string;
  /** Why the return could not be read as JSON; when there is any, `value` is absent and only return-json reports. */
  readonly problems: readonly ReturnProblem[];
  /** The parsed JSON value, when the text is JSON. */
  readonly value?: unknown;
  /** Where the value at a pointer is in the text, if it is there. */
  locate(pointer: Pointer): ValueLocation | undefined;
  readonly expect: ReturnExpectations;
  /** The summary's length in tokens of `expect.encoding`, when it was measured (a string summary under a limit above 0). */
  readonly summaryTokens?: number;
  /** The absolute workspace root that artifact paths are relative to. */
  readonly workspace: string;
  /** The file system, for the artifact checks. */
  readonly files: FileProbe;
}
