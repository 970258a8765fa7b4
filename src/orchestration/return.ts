import type { RuleSetting } from "../core/diagnostic.js";
import type { FileProbe } from "../core/file-probe.js";
import type { ReturnExpectations, ReturnInput, ReturnProblem } from "../core/input/return.js";
import type { Policy } from "../core/policy.js";
import type { RuleFinding } from "../core/run-rules.js";
import type { LineIndex } from "../core/source.js";
import { isObject } from "../core/type-name.js";
import { DEFAULT_RETURN_FIELDS } from "../policy/defaults.js";
import { decodeText } from "../syntax/decode.js";
import { parseJson } from "../syntax/json.js";
import { type CheckResult, diagnosticsOf, findingsOf, isValid } from "./common.js";
import { loadTokenCounter } from "./tokens.js";
import { readFactText, ruleText } from "../rules/read-text.js";

export interface ReturnCheckOptions {
  /** Name the return is reported under (default `-`). */
  file?: string;
  /** The session id the orchestrator gave the subagent. */
  expectedSessionId?: string;
  /** Absolute workspace root that artifact paths are relative to (default: the policy's). */
  workspace?: string;
  /** Overrides returns.maxSummaryTokens / returns.encoding. */
  maxSummaryTokens?: number;
  encoding?: string;
  policy?: Partial<Pick<Policy, "returns" | "rules" | "workspace">>;
  /** File-system probe for the artifact checks (default: the real file system). */
  files?: FileProbe;
}

/** What the return said, for the report. */
export interface ReturnInfo {
  status?: string;
  sessionId?: string;
  summaryTokens?: number;
  encoding: string;
  artifacts: number;
}

export interface ReturnCheckResult extends CheckResult {
  return?: ReturnInfo;
}

// The embedded defaults of Policy["returns"], without building a whole default policy per call.
const DEFAULT_RETURNS: Policy["returns"] = {
  statuses: ["completed", "partial", "failed", "blocked"],
  successStatuses: ["completed"],
  maxSummaryTokens: 100,
  encoding: "o200k_base",
  requiredFields: DEFAULT_RETURN_FIELDS,
};

/** What checkReturnWith leaves to its caller: the file system and the working directory, when the options do not give them. */
export interface ReturnCheckIo {
  /** The probe for artifacts, when options.files is absent. */
  files: FileProbe;
  /** The workspace, when neither options.workspace nor the policy gives one. */
  cwd(): string;
}

/**
 * The orchestrator validation strategy's return checks (Stage 3 ValidateReturn), with statuses and fields
 * from the policy: the return is read and measured here, and judged by the "return" rules
 * (src/rules/return-*, summary-too-long, artifact-*). Pure: the file system and the working directory come
 * from `io` (src/node/check-return.ts).
 */
export async function checkReturnWith(input: string | Uint8Array, options: ReturnCheckOptions, io: ReturnCheckIo): Promise<ReturnCheckResult> {
  const cfg = { ...DEFAULT_RETURNS, ...options.policy?.returns };
  const encoding = options.encoding ?? cfg.encoding;
  const maxTokens = options.maxSummaryTokens ?? cfg.maxSummaryTokens;
  const rules = options.policy?.rules ?? {};
  const file = options.file ?? "-";
  const workspace = options.workspace ?? options.policy?.workspace ?? io.cwd();
  const read = readReturn(input);
  const info: ReturnInfo = { encoding, artifacts: 0 };
  let summaryTokens: number | undefined;
  const value = read.value;
  if (isObject(value)) {
    info.artifacts = Array.isArray(value.artifacts) ? value.artifacts.length : 0;
    if (typeof value.status === "string") info.status = value.status;
    const meta = isObject(value.metadata) ? value.metadata : undefined;
    const sessionId = typeof value.session_id === "string" ? value.session_id : typeof meta?.session_id === "string" ? meta.session_id : undefined;
    if (sessionId !== undefined) info.sessionId = sessionId;
    // 0: summaries are not measured, and the optional tokenizer package is not loaded.
    if (typeof value.summary === "string" && maxTokens > 0) {
      const counter = await loadTokenCounter(encoding);
      const summary = value.summary;
      // Short texts are counted in one pass; a huge one is first bounded so it cannot cost more than the limit.
      summaryTokens = summary.length <= 64 * maxTokens || !counter.under(summary, maxTokens) ? counter.count(summary) : undefined;
      if (summaryTokens !== undefined) info.summaryTokens = summaryTokens;
    }
  }
  const expect: ReturnExpectations = {
    statuses: cfg.statuses,
    successStatuses: cfg.successStatuses,
    requiredFields: cfg.requiredFields,
    ...(cfg.artifactFields ? { artifactFields: cfg.artifactFields } : {}),
    ...(options.expectedSessionId !== undefined ? { expectedSessionId: options.expectedSessionId } : {}),
    maxSummaryTokens: maxTokens,
    encoding,
  };
  const files = remembered(options.files ?? io.files);
  const ret: ReturnInput = { ...read, expect, workspace, files, ...(summaryTokens !== undefined ? { summaryTokens } : {}) };
  return { ...judgeReturn(ret, rules, file, read.lines), return: info };
}

/** A return's text, read: decoded and parsed, or why it could not be. */
export function readReturn(input: string | Uint8Array): Pick<ReturnInput, "text" | "problems" | "value" | "locate"> & { lines?: LineIndex } {
  let text: string;
  if (typeof input === "string") text = input;
  else {
    const decoded = decodeText(input);
    if (decoded.issue) return { text: "", problems: [{ kind: "invalid", message: readFactText(decoded.issue).message }], locate: () => undefined };
    text = decoded.text;
  }
  const doc = parseJson(text);
  const problems: ReturnProblem[] = doc.issues.map((issue) => {
    const { message, hint } = readFactText(issue);
    return { kind: "invalid", message, ...(hint ? { hint } : {}), start: issue.start, end: issue.end };
  });
  return { text, problems, ...(problems.length === 0 ? { value: doc.value } : {}), locate: (p) => doc.locate(p), lines: doc.lines };
}

/** The result for a return whose file could not be read (`reason`: an error code, or what the path is instead). */
export function unreadableReturn(file: string, reason: string, rules: Readonly<Record<string, RuleSetting>> = {}): ReturnCheckResult {
  const input: ReturnInput = {
    text: "",
    problems: [{ kind: "unreadable", file, reason }],
    locate: () => undefined,
    expect: { ...DEFAULT_RETURNS },
    workspace: "",
    files: NO_FILES,
  };
  return judgeReturn(input, rules, file);
}

/**
 * The result for a return over the size limit, which is not read: limit-exceeded, the reading rule of
 * oversized input, says so.
 */
export function returnTooLarge(file: string, max: number, rules: Readonly<Record<string, RuleSetting>> = {}): ReturnCheckResult {
  const finding: RuleFinding = {
    rule: "limit-exceeded",
    report: ruleText("limit-exceeded", "returnTooLarge", { max }),
  };
  const diagnostics = diagnosticsOf([finding], rules, file);
  return { file, valid: isValid(diagnostics), diagnostics };
}

/** Runs the return rules and orders their diagnostics in source order, as `validate` reports; those without a position go last. */
function judgeReturn(input: ReturnInput, rules: Readonly<Record<string, RuleSetting>>, file: string, lines?: LineIndex): CheckResult {
  const at = (f: RuleFinding) => f.report.offsets?.start ?? f.report.offset ?? Number.MAX_SAFE_INTEGER;
  const findings = findingsOf("return", input, rules).sort((a, b) => at(a) - at(b));
  const diagnostics = diagnosticsOf(findings, rules, file, lines);
  return { file, valid: isValid(diagnostics), diagnostics };
}

/**
 * The probe with its answers remembered for one return: artifact-missing and artifact-empty look at the
 * same paths, and must judge one answer for each even if the file changes in between.
 */
function remembered(files: FileProbe): FileProbe {
  const kinds = new Map<string, ReturnType<FileProbe["kind"]>>();
  const reals = new Map<string, string | undefined>();
  const sizes = new Map<string, number | undefined>();
  const once = <T>(memo: Map<string, T>, path: string, ask: () => T): T => {
    if (!memo.has(path)) memo.set(path, ask());
    return memo.get(path) as T;
  };
  return {
    kind: (path) => once(kinds, path, () => files.kind(path)),
    realpath: (path) => once(reals, path, () => files.realpath(path)),
    size: (path) => once(sizes, path, () => files.size(path)),
    readlink: (path) => files.readlink(path),
    readText: (path) => files.readText(path),
  };
}

/** A file system with nothing in it, for inputs that never reach the artifact checks. */
const NO_FILES: FileProbe = {
  kind: () => "missing",
  size: () => undefined,
  realpath: () => undefined,
  readlink: () => undefined,
  readText: () => undefined,
};
