import type { RuleId } from "./core/rule-ids.js";
import { canonicalSha256, sha256Hex } from "./core/canonical/jcs.js";
import type { Diagnostic, Severity } from "./core/diagnostic.js";
import { MAX_FINDINGS } from "./core/run-rules.js";
import type { ReadFact, SourceDocument, SyntaxId } from "./core/document.js";
import type { PlanView, ReadInput } from "./core/input/read.js";
import type { FileProbe } from "./core/file-probe.js";
import { planFacts } from "./core/facts.js";
import type { HostProfile } from "./core/host-profile.js";
import type { DialectId, Plan, Step } from "./core/plan.js";
import { parentPointer, type Pointer } from "./core/pointer.js";
import { LineIndex } from "./core/source.js";
import type { PlanReport } from "./core/plan-report.js";
import { clipActual, isRuleOf, reportText, type Phase, type Report, type ReportContext, type Rule, type RuleContext } from "./core/rule.js";
import { ALLOW_SOURCE, registryFromNames, type ToolRegistry } from "./core/tools.js";
import { detectDialect, detectSyntax } from "./dialects/detect.js";
import { DIALECTS, findDialect } from "./dialects/index.js";
import { defaultPolicy, PROTECTION_RULES, STRUCTURAL_RULES } from "./policy/defaults.js";
import type { Policy } from "./core/policy.js";
import { VALIDATION_RULES } from "./rules/validation.js";
import limitExceeded from "./rules/limit-exceeded/index.js";
import { decodeText } from "./syntax/decode.js";
import { readSyntax } from "./syntax/index.js";
import { MAX_PATTERN_CHARS, MAX_PATTERNS, patternsPastBound } from "./commands/constraint-check.js";
import { MAX_PLAN_SCHEMA_VALUES, schemaBudget, valuesText } from "./rules/tool-arguments/budget.js";
import { workReport } from "./rules/work-report.js";
import { policyBoundProblem, registryBoundProblem } from "./policy/bounds.js";

/**
 * The rules validation runs: the start of the catalogue (src/rules/validation.ts), so a rule's position
 * here is its position in the catalogue (its check order). The orchestration and approval rules are not
 * loaded by validation.
 */
const RULES: readonly Rule[] = VALIDATION_RULES;
const BY_ID: ReadonlyMap<string, { rule: Rule; index: number }> = new Map(RULES.map((r, i) => [r.meta.id, { rule: r, index: i }]));
const findRule = (id: string): Rule | undefined => BY_ID.get(id)?.rule;
const ruleOrder = (id: string): number => BY_ID.get(id)?.index ?? RULES.length;

/** Options of one validation. Everything is optional; the clock and the file system can be injected. */
export interface ValidateOptions {
  /** The file name, for messages and to pick the syntax by extension. */
  file?: string;
  /** Force a syntax instead of choosing it from the extension or the content. */
  syntax?: SyntaxId;
  /** Force a dialect instead of detecting it from the shape. */
  dialect?: DialectId;
  policy?: Policy;
  /** The workspace root; wins over the policy's. */
  workspace?: string;
  /** The tool registry; when absent, the policy's tools.allow is used, if any. */
  tools?: ToolRegistry;
  /** Turn context for Markdown plans: paths the planner has read. */
  context?: readonly string[];
  /** A plan hash or raw-file SHA-256 the plan must have. */
  expectedHash?: string;
  /** Overrides plan.maxAgeDays. */
  maxAgeDays?: number;
  /** Stop at the first error, in the order the checks run. */
  failFast?: boolean;
  /** The clock (default: the system clock). */
  now?: Date | (() => Date);
  /** File-system access for workspace and Markdown rules (default: the real file system). */
  files?: FileProbe;
  /** The agent host: every step must map to one of its calls (absent or generic: no check). */
  host?: HostProfile;
}

interface Pending {
  rule: RuleId;
  /** The report, its text resolved from the rule's messages. */
  report: Report & { message: string };
  /** Source offsets when known directly (reader issues). */
  offsets?: { start: number; end: number };
  phase: Phase;
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** Most diagnostics in one report: the same bound as a run of the other kinds' rules. */
const MAX_DIAGNOSTICS = MAX_FINDINGS;

const PHASE_RANK: Record<Phase, number> = {
  read: 0,
  structure: 1,
  integrity: 2,
  age: 3,
  step: 4,
  orchestration: 5,
  approval: 6,
};

/**
 * What the engine leaves to its caller: the file system, the clock and the host check, each used only
 * when the options do not give it (src/node/validate-plan.ts supplies the real ones).
 */
export interface EngineIo {
  /** A probe for one validation, asked for only when a plan was read and options.files is absent. */
  files(): FileProbe | Promise<FileProbe>;
  /** The time, when options.now is absent. */
  now(): Date;
  /** What a host profile says of the plan (src/host/profile.ts `hostDiagnostics`). */
  hostDiagnostics(profile: HostProfile, plan: Plan, scope: string, options: { constraints: boolean }): Diagnostic[] | Promise<Diagnostic[]>;
}

/** Validates a plan given as text or bytes. Pure: the file system, the clock and the host check come from `io`. */
export async function validateWith(input: string | Uint8Array, options: ValidateOptions, io: EngineIo): Promise<PlanReport> {
  const policy = effectivePolicy(options);
  const pending: Pending[] = [];
  const crashed: { rule: string; message: string }[] = [];
  const push = (rule: RuleId, report: Report, speak?: (message: string) => string) => {
    // A hostile plan can hold millions of faults; past the cap one note stands for the rest, so the
    // report stays bounded. Rules that are off do not count against it.
    if (settingOf(rule, policy) === "off" || pending.length > MAX_DIAGNOSTICS) return;
    if (pending.length === MAX_DIAGNOSTICS) {
      const note: Report = { messageId: "tooManyProblems", data: { max: MAX_DIAGNOSTICS } };
      pending.push({ rule: "limit-exceeded", phase: "read", report: { ...note, ...reportText(limitExceeded.meta, note) } });
      return;
    }
    const meta = findRule(rule)?.meta;
    const text = meta ? reportText(meta, report) : { message: report.message ?? "" };
    if (speak) text.message = speak(text.message);
    pending.push({ rule, report: { ...report, ...text }, offsets: report.offsets, phase: meta?.phase ?? "structure" });
  };
  const crash = (rule: RuleId, err: unknown) => {
    crashed.push({ rule, message: String((err as Error)?.message ?? err) });
    push(rule, {
      at: "",
      message: `The ${rule} check failed on this input (${(err as Error)?.message ?? String(err)}); the plan is rejected.`,
      hint: "report this as a bug in plangate, with the plan that triggers it",
    });
  };

  // What reading finds, from the bytes to the dialect's shape (the syntax's own facts stay in doc.issues):
  // the read rules say it, when reading stops or before the plan's steps are judged.
  const facts: ReadFact[] = [];
  const runRead = async (read: ReadInput, speak?: (message: string) => string) => {
    for (const rule of RULES) {
      if (!isRuleOf(rule, "read") || !rule.check || settingOf(rule.meta.id, policy) === "off") continue;
      const view = read.normalized;
      // A rule with nothing to say costs no call: no fact of it, and no plan it would look at.
      const applies = view !== undefined && (!rule.meta.dialects || rule.meta.dialects.includes(view.plan.dialect));
      if (!applies && !read.facts.some((f) => f.rule === rule.meta.id)) continue;
      const given: ReadInput = applies || view === undefined ? read : { facts: read.facts };
      const context: ReportContext = { report: (r) => push(rule.meta.id, r, speak) };
      try {
        if (rule.prepare && applies) await rule.prepare(given, context);
        rule.check(given, context);
      } catch (err) {
        crash(rule.meta.id, err);
      }
    }
  };
  /** Says what reading found: the syntax's facts (terse clauses, spoken as sentences), then the others. */
  const read = async (doc: SourceDocument | undefined, text: string | undefined, normalized?: PlanView) => {
    const hash = hashFact(options, policy, doc, text, bytes);
    if (hash) facts.push(hash);
    if (doc && doc.issues.length > 0) await runRead({ facts: doc.issues }, sentence);
    await runRead(normalized ? { facts, normalized } : { facts });
  };

  const bytes = typeof input === "string" ? undefined : input;
  // A policy or a registry past its bounds (a policy file is refused when it loads; one built in code is
  // here): every step would be compared with each of its entries, so no plan is read under it.
  const bound = boundProblem(options);
  if (bound !== undefined) {
    facts.push(bound.pointer === undefined ? { rule: "limit-exceeded", messageId: "toolsTooLarge", data: { problem: bound.message }, at: "" } : { rule: "limit-exceeded", messageId: "policyTooLarge", data: { pointer: bound.pointer, problem: bound.message }, at: "" });
    await read(undefined, undefined);
    return finish(options, policy, pending, undefined, undefined, undefined);
  }
  const size = bytes ? bytes.byteLength : input.length;
  if (size > policy.limits.maxFileBytes) {
    const max = policy.limits.maxFileBytes;
    facts.push({ rule: "limit-exceeded", messageId: "fileTooLarge", data: { size, max }, actual: size, expected: max });
    await read(undefined, undefined);
    return finish(options, policy, pending, undefined, undefined, undefined);
  }

  let text: string;
  if (typeof input === "string") {
    text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  } else {
    const decoded = decodeText(input);
    text = decoded.text;
    if (decoded.issue) {
      facts.push(decoded.issue);
      await read(undefined, text);
      return finish(options, policy, pending, undefined, undefined, undefined, text);
    }
  }

  if (text.charCodeAt(0) === 0xfeff) {
    // One byte order mark is tolerated; a second one is content that other readers choke on.
    facts.push({ rule: "parse-error", messageId: "doubleBom", start: 0, end: 1 });
    await read(undefined, text);
    return finish(options, policy, pending, undefined, undefined, undefined, text);
  }
  const syntax = options.syntax ?? (options.dialect === "teddy" ? "markdown" : detectSyntax(options.file, text));
  const doc = await readSyntax(syntax, text, policy.limits, policy.yaml);
  if (doc.value === undefined) {
    await read(doc, undefined);
    return finish(options, policy, pending, doc, undefined, undefined);
  }

  const dialectId = options.dialect ?? detectDialect(syntax, doc.value);
  const dialect = dialectId ? findDialect(dialectId) : undefined;
  if (!dialect) {
    const dialects = DIALECTS.map((d) => d.id).join(", ");
    facts.push(
      dialectId
        ? { rule: "unknown-format", messageId: "unknownDialect", data: { dialect: dialectId, dialects }, at: "" }
        : { rule: "unknown-format", messageId: "notAPlan", data: { shapes: describeDialects(), dialects }, at: "" },
    );
    await read(doc, undefined);
    return finish(options, policy, pending, doc, undefined, dialectId);
  }
  if (!dialect.syntaxes.includes(syntax)) {
    facts.push({ rule: "unknown-format", messageId: "wrongSyntax", data: { dialect: dialect.id, syntaxes: dialect.syntaxes.join(" or "), syntax }, at: "" });
    await read(doc, undefined);
    return finish(options, policy, pending, doc, undefined, dialect.id);
  }

  if (dialect.id === "teddy" && startsWithBom(input)) {
    // TeDDy reads the file as UTF-8 with the mark kept as text, so its title line is not a heading to it.
    facts.push({ rule: "unsafe-value", messageId: "teddyBom", start: 0, end: 0 });
  }
  const plan = dialect.normalize(doc, { policy, report: (f) => facts.push(f), budget: { steps: policy.limits.maxSteps } });
  const stepCount = plan ? plan.steps.reduce((n, s) => n + 1 + (s.substeps?.length ?? 0), 0) : 0;
  let patterns: ReturnType<typeof patternsPastBound>;
  let earlyHash: string | undefined;
  if (plan && stepCount > policy.limits.maxSteps) {
    const messageId = stepCount !== plan.steps.length ? "tooManyStepsNested" : "tooManySteps";
    facts.push({ rule: "limit-exceeded", messageId, data: { count: stepCount, max: policy.limits.maxSteps }, at: plan.stepsAt });
    await read(doc, text);
  } else if (plan && (patterns = patternsPastBound(plan.steps)) !== undefined) {
    // Every pattern is searched for a path it admits: a plan with more than the bound is not judged.
    facts.push({ rule: "limit-exceeded", messageId: "tooManyPatterns", data: { max: MAX_PATTERNS, maxChars: MAX_PATTERN_CHARS }, at: patterns.at });
    await read(doc, text);
  } else if (plan) {
    const tools = options.tools ?? registryFromPolicy(policy);
    const files = options.files ?? (await io.files());
    const now = typeof options.now === "function" ? options.now() : (options.now ?? io.now());
    // The plan hash is taken before the rules run and their facts fill the heap: its text, made and hashed
    // in chunks, is garbage that a collection then sweeps without copying the facts along.
    earlyHash = planHashOf(doc);
    const known = planFacts(plan, policy, tools, files);
    // The inputSchemas a plan's steps have compiled are bounded in all: a step past the bound is limit-exceeded.
    const checksArguments = findRule("tool-arguments")?.meta.dialects?.includes(plan.dialect) && settingOf("tool-arguments", policy) !== "off";
    if (tools && tools.schemas.size > 0 && checksArguments) {
      const budget = schemaBudget(plan, tools.schemas, known);
      for (const [step, values] of budget.over)
        facts.push({ rule: "limit-exceeded", messageId: "toolSchemasTooLarge", data: { step: step.position, tool: step.tool!, values: valuesText(values), max: MAX_PLAN_SCHEMA_VALUES }, at: step.toolAt, step: step.position });
      budget.reported = true;
    }
    // A Task or Agent step's nested steps are calls the subagent makes: the step rules judge them as a
    // plan of their own, keeping only what they report inside a nested step (plan-wide findings once).
    const nested: Step[] = [];
    for (let i = 0; i < plan.steps.length; i++) {
      const substeps = plan.steps[i]!.substeps;
      if (substeps !== undefined) for (let j = 0; j < substeps.length; j++) nested.push(substeps[j]!);
    }
    const subPlan: Plan | undefined = nested.length > 0 ? { ...plan, steps: nested } : undefined;
    const inNested = (at: string | undefined) => at !== undefined && nested.some((s) => at === s.at || at.startsWith(s.at + "/"));
    const runs: { plan: Plan; keep?: (r: Report) => boolean }[] = [{ plan }];
    if (subPlan) runs.push({ plan: subPlan, keep: (r) => inNested(r.at) });
    const jobs: { rule: Rule<"plan">; judged: Plan; ctx: RuleContext; failed?: boolean }[] = [];
    for (const { plan: judged, keep } of runs)
      for (const rule of RULES) {
        if (!isRuleOf(rule, "plan") || !rule.check) continue;
        if (rule.meta.dialects && !rule.meta.dialects.includes(plan.dialect)) continue;
        if (settingOf(rule.meta.id, policy) === "off") continue;
        if (keep && rule.meta.phase !== "step") continue;
        const ctx: RuleContext = {
          plan: judged,
          policy,
          tools,
          now,
          files: known.paths.files,
          facts: known,
          context: options.context,
          report: (r) => {
            if (!keep || keep(r)) push(rule.meta.id, r);
          },
        };
        jobs.push({ rule, judged, ctx });
      }
    // Every rule's prepare runs before any rule checks, and before the read rules: what one loads or works
    // out there (a parser; the plan's own checksum) is done while the heap holds little but the document.
    for (const job of jobs) {
      if (!job.rule.prepare) continue;
      try {
        await job.rule.prepare(job.judged, job.ctx);
      } catch (err) {
        job.failed = true;
        crash(job.rule.meta.id, err);
      }
    }
    await read(doc, text, { plan, policy, tools, now, files: known.paths.files, facts: known, context: options.context });
    for (const job of jobs) {
      if (job.failed) continue;
      try {
        job.rule.check!(job.judged, job.ctx);
      } catch (err) {
        crash(job.rule.meta.id, err);
      }
    }
    // Work a rule left undone past the validation's bounds (src/core/work.ts): the plan is rejected there.
    for (const e of known.work.exceeded()) push("limit-exceeded", workReport(e));
    if (options.host && (Object.keys(options.host.tools).length > 0 || options.host.teddy)) {
      // A step that maps to no host call cannot be enforced by the guard: the plan is refused now.
      // Read as the guard will compile the plan: constraints stay constraints only where the policy allows them.
      for (const d of await io.hostDiagnostics(options.host, plan, policy.workspace, { constraints: policy.plan.constraints === "allow" })) push(d.rule, { at: d.pointer, step: d.step, message: d.message, hint: d.hint });
    }
  } else {
    await read(doc, text);
  }
  const report = finish(options, policy, pending, doc, plan, plan?.dialect ?? dialect.id, undefined, earlyHash);
  if (crashed.length > 0) report.internalErrors = crashed;
  return report;
}

/** Readers write terse messages; a report speaks in sentences, as every other diagnostic does. */
function sentence(message: string): string {
  const m = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(m) ? m : `${m}.`;
}

/**
 * The hash-mismatch fact, when an expected hash is given and the plan has another: its plan hash (of the
 * value, or of the text for Markdown) and, when the text was decoded, the raw file's SHA-256 may match.
 */
function hashFact(options: ValidateOptions, policy: Policy, doc: SourceDocument | undefined, text: string | undefined, bytes: Uint8Array | undefined): ReadFact | undefined {
  if (options.expectedHash === undefined || settingOf("hash-mismatch", policy) === "off") return undefined;
  const planHash = doc ? planHashOf(doc) : undefined;
  const want = normaliseHash(options.expectedHash);
  const raw = text === undefined ? undefined : sha256Hex(bytes ?? text);
  if (planHash !== undefined && (normaliseHash(planHash) === want || raw === want)) return undefined;
  const fact: ReadFact = planHash
    ? { rule: "hash-mismatch", messageId: "differs", data: { planHash, expected: options.expectedHash }, expected: options.expectedHash, actual: planHash }
    : { rule: "hash-mismatch", messageId: "unreadable", data: { expected: options.expectedHash }, expected: options.expectedHash };
  return fact;
}

function describeDialects(): string {
  return DIALECTS.map((d) => d.shape).join("; or ");
}

/** The policy with the options' overrides applied. */
/**
 * The default policy of the last workspace validated without a policy, frozen: a caller validating many
 * plans without one gets the same lists each time, so what is compiled from them is found by object
 * (core/compiled.ts) instead of by their joined text.
 */
let lastDefault: { workspace: string; policy: Policy } | undefined;
function sharedDefault(workspace: string): Policy {
  if (lastDefault?.workspace !== workspace) lastDefault = { workspace, policy: frozen(defaultPolicy(workspace)) };
  return lastDefault.policy;
}
function frozen<T>(v: T): T {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) frozen(x);
  }
  return v;
}

function effectivePolicy(options: ValidateOptions): Policy {
  const base = options.policy ?? sharedDefault(options.workspace ?? "/");
  const policy: Policy = { ...base, plan: { ...base.plan }, rules: { ...base.rules } };
  if (options.workspace !== undefined) policy.workspace = options.workspace;
  if (options.maxAgeDays !== undefined) policy.plan.maxAgeDays = options.maxAgeDays;
  return policy;
}

/**
 * The first bound the options' policy or tool registry passes (src/policy/bounds.ts), or undefined. A policy
 * object given again (one policy for many plans) is checked once: what is compiled from its lists is kept by
 * the lists too (core/compiled.ts), so neither is read again after its first validation.
 */
function boundProblem(options: ValidateOptions): { pointer?: string; message: string } | undefined {
  const checked = (o: object, check: () => { pointer?: string; message: string } | undefined) => {
    if (BOUNDS_CHECKED.has(o)) return BOUNDS_CHECKED.get(o) ?? undefined;
    const problem = check();
    BOUNDS_CHECKED.set(o, problem ?? null);
    return problem;
  };
  const policy = options.policy === undefined ? undefined : checked(options.policy, () => policyBoundProblem(options.policy));
  if (policy !== undefined || options.tools === undefined) return policy;
  const tools = options.tools;
  return checked(tools, () => {
    const problem = registryBoundProblem(tools.names.size, tools.patterns.length);
    return problem === undefined ? undefined : { message: problem };
  });
}
const BOUNDS_CHECKED = new WeakMap<object, { pointer?: string; message: string } | null>();

function registryFromPolicy(policy: Policy): ToolRegistry | undefined {
  return policy.tools.allow.length === 0 ? undefined : registryFromNames(policy.tools.allow, ALLOW_SOURCE);
}

function settingOf(id: string, policy: Policy): Severity | "off" {
  // A policy file cannot lower these (a usage error); a Policy object built in code cannot either.
  if (STRUCTURAL_RULES.has(id) || PROTECTION_RULES.has(id)) return "error";
  const explicit = policy.rules[id];
  if (explicit) return explicit;
  if (id === "checksum-missing" && policy.plan.requireChecksum) return "error";
  return findRule(id)?.meta.defaultSeverity ?? "error";
}

/** Plan hash: sha256 of the RFC 8785 form of the value, or of the \n-normalised text for Markdown. */
export function planHashOf(doc: SourceDocument): string | undefined {
  if (doc.syntax === "markdown") return "sha256:" + sha256Hex(doc.text.replace(/\r\n?/g, "\n"));
  if (doc.value === undefined) return undefined;
  return "sha256:" + canonicalSha256(doc.value);
}

function normaliseHash(h: string): string {
  const t = h.trim().toLowerCase();
  return t.startsWith("sha256:") ? t.slice(7) : t;
}

function finish(
  options: ValidateOptions,
  policy: Policy,
  pending: Pending[],
  doc: SourceDocument | undefined,
  plan: Plan | undefined,
  dialect: DialectId | undefined,
  text?: string,
  hash?: string,
): PlanReport {
  // The plan hash is of the document as validated (taken before the rules ran, or now): a hash computed
  // later would be of whatever a caller has since changed in report.plan, which shares its objects with
  // the document.
  const planHash = hash ?? (doc ? planHashOf(doc) : undefined);
  // Faults found before a document exists (decoding) still have offsets into the decoded text.
  const lines = doc?.lines ?? (text !== undefined ? new LineIndex(text) : undefined);
  const resolved = resolve(pending, doc, lines, policy, options.file);
  const diagnostics = options.failFast ? firstFailure(resolved) : resolved.map((r) => r.diagnostic);
  const report: PlanReport = {
    file: options.file,
    dialect,
    valid: !diagnostics.some((d) => d.severity === "error"),
    planHash,
    steps: plan?.steps.length ?? 0,
    diagnostics,
  };
  if (plan) report.plan = plan;
  if (doc) report.source = doc;
  if (report.file === undefined) delete report.file;
  if (report.planHash === undefined) delete report.planHash;
  if (report.dialect === undefined) delete report.dialect;
  return report;
}

interface Resolved {
  diagnostic: Diagnostic;
  offset: number;
  order: [number, number, number, number];
}

function resolve(pending: Pending[], doc: SourceDocument | undefined, lines: LineIndex | undefined, policy: Policy, file?: string): Resolved[] {
  const out: Resolved[] = [];
  const seen = new Set<string>();
  for (const p of pending) {
    const setting = settingOf(p.rule, policy);
    if (setting === "off") continue;
    // "Cannot run" notices stay informational whatever the policy says of the rule.
    const severity: Severity = p.report.notice ? "info" : p.report.atMost && SEVERITY_RANK[p.report.atMost] < SEVERITY_RANK[setting] ? p.report.atMost : setting;
    const r = p.report;
    const key = `${p.rule}\u0000${r.at ?? ""}\u0000${r.step ?? ""}\u0000${r.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const d: Diagnostic = { rule: p.rule, severity, message: r.message };
    if (file !== undefined) d.file = file;
    if (r.at !== undefined) d.pointer = r.at;
    if (r.step !== undefined) d.step = r.step;
    let offset = -1;
    const span = p.offsets ?? (doc && r.at !== undefined ? locate(doc, r.at, r.key === true) : undefined);
    if (lines && span) {
      const start = lines.position(span.start);
      const end = lines.position(span.end);
      d.line = start.line;
      d.column = start.column;
      d.endLine = end.line;
      d.endColumn = end.column;
      offset = span.start;
    }
    if (r.expected !== undefined) d.expected = r.expected;
    if (r.actual !== undefined) d.actual = clipActual(r.actual);
    if (r.hint !== undefined) d.hint = r.hint;
    if (r.messageId !== undefined) d.messageId = r.messageId;
    const phaseRank = r.step !== undefined ? PHASE_RANK.step : PHASE_RANK[p.phase];
    out.push({ diagnostic: d, offset, order: [phaseRank, r.step ?? 0, ruleOrder(p.rule), offset] });
  }
  out.sort((a, b) => a.offset - b.offset || ruleOrder(a.diagnostic.rule) - ruleOrder(b.diagnostic.rule));
  return out;
}

/** Where a pointer's value (or key) came from; the closest located ancestor when it has no span of its own. */
function locate(doc: SourceDocument, pointer: Pointer, key: boolean): { start: number; end: number } | undefined {
  let p = pointer;
  for (;;) {
    const loc = doc.locate(p);
    if (loc) {
      if (key && p === pointer && loc.keyStart !== undefined && loc.keyEnd !== undefined)
        return { start: loc.keyStart, end: loc.keyEnd };
      return { start: loc.start, end: loc.end };
    }
    // The document itself, when the reader could not place it (a text it could not read): its start.
    if (p === "") return { start: 0, end: 0 };
    p = parentPointer(p);
  }
}

function compareOrder(a: Resolved["order"], b: Resolved["order"]): number {
  for (let i = 0; i < 4; i++) if (a[i]! !== b[i]!) return a[i]! - b[i]!;
  return 0;
}

/** The first error in check order, with the warnings and notes found before it. */
function firstFailure(resolved: Resolved[]): Diagnostic[] {
  const errors = resolved.filter((r) => r.diagnostic.severity === "error");
  if (errors.length === 0) return resolved.map((r) => r.diagnostic);
  const first = errors.reduce((a, b) => (compareOrder(b.order, a.order) < 0 ? b : a));
  return resolved.filter((r) => r === first || (r.diagnostic.severity !== "error" && compareOrder(r.order, first.order) < 0)).map((r) => r.diagnostic);
}

/** Does the input begin with a UTF-8 byte order mark (as bytes, or as U+FEFF in a string)? */
function startsWithBom(input: string | Uint8Array): boolean {
  return typeof input === "string" ? input.charCodeAt(0) === 0xfeff : input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;
}
