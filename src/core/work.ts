import type { Pointer } from "./pointer.js";

/**
 * The names the walks of one path service may read from symbolic links' targets, over all of them: each
 * link sends a walk through the names of its target (up to some 2,000 in 4 KiB), and a path may pass 40
 * links, so paths through links whose targets go down and up again (`x/../x/../…`) walked millions of
 * names for a plan of a few KiB (2,000 such paths took 6 s). Past the bound a walk that meets a link
 * stops there, unresolved: the path cannot be shown to stay inside (core/paths.ts UNWALKED).
 */
export const MAX_LINK_NAMES = 1_048_576;

/** Units of distinct path texts the path service of one validation resolves (see WORK_LIMITS, `pathTexts`). */
export const MAX_PATH_TEXTS = 262_144;

/**
 * The work one validation may do beyond reading its document's values, bounded in all rather than per
 * step: a bound per step is multiplied by the number of steps, and a plan chooses both. Each kind counts
 * units of work that cost about the same (microseconds each) wherever they are spent:
 *
 * - `pathReadings`: path texts the path rules read from a command line or build from two values of a
 *   step: each path of a command line read from the workspace root (one unit: a plan repeating a line
 *   repeats texts already resolved) and from each folder it may run in, a relative path read from each
 *   folder the step names (`{cwd, path}`), a file name joined to each extension given apart (`{name,
 *   ext}`) (four units: each is a new text to resolve and match); one more for each 256 characters.
 * - `derivedValues`: values read from inside a string: the values of structured text in an argument (a JSON
 *   object, `key: value` pairs) and the file names of a patch's headers; units as for `pathReadings`.
 * - `diskNames`: names a command line's patterns are tried against on disk, over all its patterns.
 * - `linkNames`: names the path service reads from symbolic links' targets (see MAX_LINK_NAMES); it counts
 *   them itself, and its paths that meet a link past the bound are not resolved (so never inside).
 * - `pathTexts`: distinct path texts the path service resolves (MAX_PATH_TEXTS); units as for
 *   `pathReadings`. Each is looked up on disk and remembered: half a million distinct paths in a plan of
 *   a million values took 4 to 5 s and 800 MB. Past it a text is not resolved (so never inside).
 * - `patternWitnesses`: paths a writer's `$glob` constraint is tried on to find a protected one it admits
 *   (commands/constraint-check.ts globReachesProtected), made from the `$glob` and from each protected
 *   glob: each counts one, and one more for each 256 protected globs it is tested against (about two
 *   microseconds a unit, making and testing it). A constraint that admits no protected path costs some
 *   2,400 under the default globs: 1,000 took 5 s, and under 4,000 protected globs 1,000 ran for minutes.
 *   Past the bound (about 2 s of work; some 440 such constraints under the defaults) the constraints from
 *   there on are not judged.
 * - `writtenRuns`: the work of following the files a plan writes into the commands that run or load them
 *   (commands/written.ts): one unit for each file pattern a command's programs load by themselves (a test
 *   runner's `test_*.py`, an interpreter's `*.sh`), one for each write of the line and each written file
 *   looked at for it, and 64 for each written file judged by its text (a shell script is read as a command
 *   line, and what it runs followed in turn). Each command judges again every written file it may load,
 *   so a plan that writes a script at each step and runs a test runner at each step does work that grows
 *   with the square of its steps: 2,000 such steps took 18 s and 1.2 GB. Past the bound (about a second
 *   of work) the commands from there on are not followed.
 * - `commandMatches`: the comparisons of the programs a plan's command lines run with the entries of
 *   commands.allow and commands.deny (commands/match.ts): each entry compared counts one, each of its words
 *   tested against a word of the command one more, and one more for each 256 characters of that word
 *   (some 30 ns a unit). 1,024 entries of 127 words naming one program took 6 s against 8,000 commands of
 *   127 words. Past the bound, no program is allowed and none found denied: the plan is not judged.
 *
 * Each path rule spends on its own work (two rules reading one step's folders spend twice). When a kind
 * runs out, the work that would pass it is not done, the place where it ran out is kept, and whoever ran
 * the rules reports `limit-exceeded` there (the engine for a plan, the guard for a call): the plan is
 * rejected, never judged on part of its work.
 */
export const WORK_LIMITS = {
  pathReadings: 1_048_576,
  derivedValues: 262_144,
  diskNames: 2_097_152,
  linkNames: MAX_LINK_NAMES,
  pathTexts: MAX_PATH_TEXTS,
  patternWitnesses: 1_048_576,
  writtenRuns: 4_194_304,
  commandMatches: 8_388_608,
} as const;

/** The writtenRuns units of judging one written file by its text (see WORK_LIMITS). */
export const WRITTEN_JUDGED = 64;

export type WorkKind = keyof typeof WORK_LIMITS;

/** Where some work was refused: the step, and the place in it whose work passed the bound. */
export interface WorkPlace {
  step?: number;
  at: Pointer;
}

/** The units a text of this length costs (`pathReadings`, `derivedValues`): one, and one more per 256 characters. */
export function readingUnits(length: number): number {
  return 1 + (length >>> 8);
}

/** How many times readingUnits a path joined to a folder or an extension costs `pathReadings`: a new text each. */
export const JOINED_READING = 4;

/** What is left of one kind of work: below zero once work that counts its units as it goes has passed the bound. */
export interface WorkMeter {
  left: number;
}

/** The work budget of one validation (see WORK_LIMITS). */
export class PlanWork {
  readonly #max: Record<WorkKind, number>;
  /** A meter per kind (its `left` below zero once the kind has run out): asked at every step, so a field, not a map. */
  readonly #meters: Record<WorkKind, WorkMeter>;
  readonly #over = new Map<WorkKind, WorkPlace>();

  constructor(limits: Partial<Record<WorkKind, number>> = {}) {
    this.#max = { ...WORK_LIMITS, ...limits };
    const m = this.#max;
    this.#meters = { pathReadings: { left: m.pathReadings }, derivedValues: { left: m.derivedValues }, diskNames: { left: m.diskNames }, linkNames: { left: m.linkNames }, pathTexts: { left: m.pathTexts }, patternWitnesses: { left: m.patternWitnesses }, writtenRuns: { left: m.writtenRuns }, commandMatches: { left: m.commandMatches } };
  }

  /**
   * The live meter of a kind, for work that counts its units as it goes (a pattern's expansion on disk):
   * it takes from `left` and stops below zero; overrun() then says so and keeps the place.
   */
  meter(kind: WorkKind): WorkMeter {
    return this.#meters[kind];
  }

  /**
   * Takes `units` of a kind for the work at `place` (made only when it is refused): false, and nothing
   * taken, when they are not left, or the kind has already run out (the rest of it is not done either).
   */
  spend(kind: WorkKind, units: number, place: WorkPlace | (() => WorkPlace)): boolean {
    const m = this.#meters[kind];
    if (m.left < 0) return false;
    if (units <= m.left) {
      m.left -= units;
      return true;
    }
    m.left = -1;
    if (!this.#over.has(kind)) this.#over.set(kind, typeof place === "function" ? place() : place);
    return false;
  }

  /** Has a kind run out (by spend, stop, or its meter gone below zero)? */
  spent(kind: WorkKind): boolean {
    return this.#meters[kind].left < 0;
  }

  /**
   * Has the work just done at `place` run its kind's meter out? Keeps the place then (the first place
   * only): the work's answer is not to be used, and the kind is reported as exceeded there.
   */
  overrun(kind: WorkKind, place: WorkPlace | (() => WorkPlace)): boolean {
    if (this.#meters[kind].left >= 0) return false;
    if (!this.#over.has(kind)) this.#over.set(kind, typeof place === "function" ? place() : place);
    return true;
  }

  /** Marks a kind as run out at a place (work that counts its units elsewhere: the path service's). */
  stop(kind: WorkKind, place: WorkPlace): void {
    if (!this.#over.has(kind)) this.#over.set(kind, place);
    this.#meters[kind].left = -1;
  }

  /** Each kind that ran out, and where, in the order they did. */
  exceeded(): { kind: WorkKind; place: WorkPlace; max: number }[] {
    return [...this.#over].map(([kind, place]) => ({ kind, place, max: this.#max[kind] }));
  }
}
