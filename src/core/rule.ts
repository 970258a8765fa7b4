import { type PathWhy, type Place, type Shape, wordOf } from "./place.js";
import type { RuleId } from "./rule-ids.js";
import type { Severity } from "./diagnostic.js";
import type { DialectId, Plan } from "./plan.js";
import type { Pointer } from "./pointer.js";
import type { Policy } from "./policy.js";
import type { ToolRegistry } from "./tools.js";
import type { FileProbe } from "./file-probe.js";
import type { PlanFacts } from "./facts.js";
import type { ApprovalInput } from "./input/approval.js";
import type { DelegationInput } from "./input/delegation.js";
import type { ReadInput } from "./input/read.js";
import type { ReturnInput } from "./input/return.js";
import type { TaskInput } from "./input/task.js";

/**
 * When a check runs, for `--fail-fast` and for reading order: reading, structure, integrity, age,
 * then the steps in order. Orchestration rules run outside plan validation.
 */
export type Phase = "read" | "structure" | "integrity" | "age" | "step" | "orchestration" | "approval";

/** What a rule's doc says: shown by `plangate explain`. */
export interface RuleDocs {
  /** What the rule catches, one paragraph. */
  description: string;
  /** Why it matters. */
  rationale: string;
  /** How to fix a report. */
  fix: string;
  /** A short input that the rule reports, and one it accepts. */
  bad?: string;
  good?: string;
}

/**
 * What a rule runs on, as an ESLint rule declares its language: a normalised plan, the issues found while
 * reading a document (its syntax, then its dialect's shape), a subagent's return, a delegation, a task
 * reference, or an approval record. The engine runs the rules of a kind on that kind's input and alone turns
 * their reports into diagnostics.
 */
export type InputKind = "plan" | "read" | "return" | "delegation" | "task" | "approval";

/** A message template: `{{name}}` is replaced by the report's `data.name`. */
export type MessageTemplate = string | { message: string; hint?: string };

/** A rule's messages by id, in the manner of typescript-eslint's `meta.messages`. */
export type RuleMessages = Readonly<Record<string, MessageTemplate>>;

/** Values a message's placeholders take: plain values, or a place, shape or path reason that core/place.ts words. */
export type MessageData = Readonly<Record<string, string | number | boolean | bigint | Place | Shape | PathWhy>>;

/** The catalogue entry of a rule (`Id`: its id, a literal type where the rule is defined). */
export interface RuleMeta<Id extends string = RuleId> {
  id: Id;
  /** The kind of input the rule's check runs on. */
  input: InputKind;
  /** The rule's messages: reports name one by `messageId`, with `data` for its placeholders. */
  messages?: RuleMessages;
  defaultSeverity: Severity;
  /** Dialects the rule applies to; undefined means every dialect (or none, for orchestration rules). */
  dialects?: readonly DialectId[];
  phase: Phase;
  /** One line for `plangate rules`. */
  summary: string;
  docs: RuleDocs;
}

/** What a rule reports; the engine adds the severity, the file and the position. */
export interface Report {
  /** The message, by its id in the rule's `meta.messages`. */
  messageId?: string;
  /** Values for the message's (and hint's) `{{placeholders}}`. */
  data?: MessageData;
  /** Pointer into the source document; the engine resolves its span (closest ancestor if needed). */
  at?: Pointer;
  /** 0-based offsets into the checked text, half-open, when the rule knows them directly. */
  offsets?: { start: number; end: number };
  /** A 0-based offset into the checked text, for a report that has a place but no extent: line and column, no end. */
  offset?: number;
  /** A 1-based line, for an input read line by line (an audit trail) where no column is meant. */
  line?: number;
  /** With `line`, a 1-based column: a place in another file than the checked text (a policy setting). */
  column?: number;
  /** The file the report is about, when the input spans several (a task in TODO.md and in state.json); default: the input's. */
  file?: string;
  /** Point at the member's key rather than its value (unknown keys, duplicates). */
  key?: boolean;
  step?: number;
  /**
   * The text itself: for the engine's own reports and rules that do not declare `meta.messages` yet. A plan
   * rule that declares its messages cannot give one (its context takes a `MessageReport`).
   */
  message?: string;
  /** Overrides the message template's hint. */
  hint?: string;
  /** A notice that a check could not run: reported as info whatever the rule's severity. */
  notice?: boolean;
  /** Reported at most at this severity (a rule set to error reports a warning), unless the rule is off. */
  atMost?: Severity;
  expected?: unknown;
  actual?: unknown;
}

/** Everything a rule may look at. Rules do no I/O but through `files`, and read time only through `now`. */
export interface RuleContext {
  readonly plan: Plan;
  readonly policy: Policy;
  readonly tools: ToolRegistry | undefined;
  readonly now: Date;
  readonly files: FileProbe;
  /** What the engine knows of the plan, built once per validation: step facts and the path service. */
  readonly facts: PlanFacts;
  /** The turn context for Markdown plans (paths the planner has read), if given. */
  readonly context: readonly string[] | undefined;
  report(report: Report): void;
}

/**
 * What a plan rule reports: one of its `meta.messages` by id, with data for its placeholders; never a
 * literal text, so that every message a rule can give is declared in one place.
 */
export type MessageReport<Id extends string = string> = Omit<Report, "messageId" | "message"> & { messageId: Id };

/** The context of a plan rule that declares its messages: its reports name one of them. */
export interface PlanRuleContext<Id extends string = string> extends Omit<RuleContext, "report"> {
  report(report: MessageReport<Id>): void;
}

/** What a rule of a kind other than "plan" is given besides its input: where to report. */
export interface ReportContext {
  report(report: Report): void;
}

/** The input of each kind of rule. */
export interface RuleInputs {
  plan: Plan;
  read: ReadInput;
  return: ReturnInput;
  delegation: DelegationInput;
  task: TaskInput;
  approval: ApprovalInput;
}

/** The context of each kind of rule. */
export interface RuleContexts {
  plan: RuleContext;
  read: ReportContext;
  return: ReportContext;
  delegation: ReportContext;
  task: ReportContext;
  approval: ReportContext;
}

/**
 * A rule: its catalogue entry and its check, which runs on the input its `meta.input` names. Rules do no
 * I/O but through what their input and context give them.
 */
export interface Rule<K extends InputKind = InputKind, Id extends string = RuleId> {
  meta: RuleMeta<Id> & { input: K };
  check?(input: RuleInputs[K], context: RuleContexts[K]): void;
  /**
   * Loads what the check needs (e.g. a heavy library) before it runs, or works out what is best done early
   * (a plan rule's prepare runs before any rule checks the plan, and before the read rules, while the heap
   * holds little but the document); only called when the rule will run. It reports nothing.
   */
  prepare?(input: RuleInputs[K], context: RuleContexts[K]): Promise<void>;
}

/**
 * The context a rule's check is given, by its kind and its declared messages: a plan rule that declares
 * `meta.messages` reports by `messageId` (one of those it declares) and cannot report a literal message.
 */
export type DefinedContext<K extends InputKind, M extends RuleMessages | undefined> = K extends "plan"
  ? M extends RuleMessages
    ? PlanRuleContext<Extract<keyof M, string>>
    : RuleContext
  : RuleContexts[K];

/** A rule as written in its folder: its context is typed by its kind and its `meta.messages`. */
export interface RuleDefinition<K extends InputKind, M extends RuleMessages | undefined, Id extends string = string> {
  meta: RuleMeta<Id> & { input: K; messages?: M };
  check?(input: RuleInputs[K], context: NoInfer<DefinedContext<K, M>>): void;
  prepare?(input: RuleInputs[K], context: NoInfer<DefinedContext<K, M>>): Promise<void>;
}

/**
 * Declares a rule (an identity function that keeps the type): its id's literal type is kept, so that
 * `src/rules/index.ts` derives `RuleId` from the rules it registers.
 */
export function defineRule<K extends InputKind, const M extends RuleMessages | undefined = undefined, const Id extends string = string>(
  rule: RuleDefinition<K, M, Id>,
): Rule<K, Id> {
  return rule as Rule<K, Id>;
}

/** Narrows a rule to a kind. */
export function isRuleOf<K extends InputKind>(rule: Rule, kind: K): rule is Rule<K> {
  return rule.meta.input === kind;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*)\s*\}\}/g;

/** A template with `{{name}}` replaced by `data.name`; a placeholder without data is left as written. */
export function formatMessage(template: string, data: MessageData | undefined): string {
  if (!data || template.indexOf("{{") < 0) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(data, name) ? shortened(wordOf(data[name]!)) : whole));
}

/** The longest value a message quotes whole (UTF-16 units); a longer one is cut, so a report stays small. */
export const MAX_QUOTED = 1024;

/** A value as a message quotes it: whole up to MAX_QUOTED units, else its start and its length. */
function shortened(word: string): string {
  if (word.length <= MAX_QUOTED) return word;
  let end = MAX_QUOTED / 2;
  if ((word.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${word.slice(0, end)}... (${word.length} characters)`;
}

/**
 * A diagnostic's `actual` as a report carries it: a string is cut as a message quotes it, so that many
 * findings in one long value (a command line naming thousands of paths) do not each copy it whole;
 * other values are kept.
 */
export function clipActual(actual: unknown): unknown {
  return typeof actual === "string" ? shortened(actual) : actual;
}

/**
 * The text and hint of a report: its `messageId` looked up in the rule's `meta.messages` and filled with
 * its data, or its own `message`. A report that names a message the rule does not declare is a bug in the
 * rule: it throws, and the engine turns that into an internal error that rejects the input.
 */
export function reportText(meta: RuleMeta, report: Report): { message: string; hint?: string } {
  if (report.messageId === undefined) {
    if (report.message === undefined) throw new Error(`rule ${meta.id} reported neither a messageId nor a message`);
    return report.hint === undefined ? { message: report.message } : { message: report.message, hint: report.hint };
  }
  const template = meta.messages && Object.hasOwn(meta.messages, report.messageId) ? meta.messages[report.messageId] : undefined;
  if (template === undefined) throw new Error(`rule ${meta.id} has no message "${report.messageId}"`);
  const text = typeof template === "string" ? { message: template } : template;
  const message = formatMessage(text.message, report.data);
  const hint = report.hint ?? (text.hint === undefined ? undefined : formatMessage(text.hint, report.data));
  return hint === undefined ? { message } : { message, hint };
}
