/** The task as found in TODO.md: its heading and Status line. */
export interface TodoEntry {
  readonly title: string;
  /** The status as written (`PLANNED`, `NOT STARTED`…). */
  readonly rawStatus: string;
  /** Normalised (snake_case, as state.json writes it): `planned`, `not_started`… */
  readonly status: string;
  /** Offset of the Status line in the TODO text. */
  readonly statusOffset: number;
}

/** Where a task was looked up, and what was found there. */
export type TaskSource =
  | {
      readonly kind: "todo";
      /** The TODO file as named; offsets point into the input's `text`. */
      readonly file: string;
      readonly entry?: TodoEntry;
      /** A `### N. Title` heading without a Status line, when there is one and no task. */
      readonly heading?: { readonly title: string; readonly offset: number };
      /** The file needed a CommonMark reading and has more lines or tokens than it may (nothing was looked up). */
      readonly tooBusy?: { readonly what: "lines" | "tokens"; readonly max: number; readonly line: number };
    }
  | {
      readonly kind: "state";
      readonly file: string;
      /** Why the file cannot be searched (not JSON, no active_projects…). */
      readonly error?: string;
      /** The project entry's status when one has the task's number: raw, and normalised. */
      readonly entry?: { readonly rawStatus?: string; readonly status?: string };
    };

/**
 * The input of "task" rules: a task reference, where it was looked up (TODO.md, state.json) and the
 * operation about to run on it. The files are read and searched before the rules run; nothing is looked up
 * for a reference that is not a number.
 */
export interface TaskInput {
  /** The task number as written. */
  readonly reference: string;
  /** The TODO text that todo offsets point into ("" without one). */
  readonly text: string;
  /** The file reported for findings about the check as a whole (the TODO file, else state.json, else `-`). */
  readonly file: string;
  /** Where the task was looked up, in order; empty when the reference is not a number. */
  readonly sources: readonly TaskSource[];
  /** The operation about to run (`research`, `plan`, `implement`…), if checked. */
  readonly operation?: string;
  /** The statuses each operation may start from (the policy's tasks.operations). */
  readonly operations: Readonly<Record<string, readonly string[]>>;
}
