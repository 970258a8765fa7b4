import type { FileProbe } from "../core/file-probe.js";
import type { LineIndex } from "../core/source.js";
import { escapeToken, type Pointer } from "../core/pointer.js";
import { closest } from "../core/tools.js";
import { isObject, typeName } from "../core/type-name.js";
import { DEFAULT_RETURN_FIELDS } from "../policy/defaults.js";
import type { Policy } from "../core/policy.js";
import { decodeText } from "../syntax/decode.js";
import { parseJson } from "../syntax/json.js";
import { type CheckResult, type Finding, isValid, quoteList, toDiagnostics } from "./common.js";
import { artifactFinding } from "./artifacts.js";
import { loadTokenCounter } from "./tokens.js";
import { readFactText } from "../rules/read-text.js";

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

type Obj = Record<string, unknown>;
const has = (o: Obj, k: string) => Object.hasOwn(o, k) && o[k] !== null && o[k] !== undefined;

/** What checkReturnWith leaves to its caller: the file system and the working directory, when the options do not give them. */
export interface ReturnCheckIo {
  /** The probe for artifacts, when options.files is absent. */
  files: FileProbe;
  /** The workspace, when neither options.workspace nor the policy gives one. */
  cwd(): string;
}

/**
 * The orchestrator validation strategy's return checks (Stage 3 ValidateReturn), with statuses and fields
 * from the policy. Pure: the file system and the working directory come from `io` (src/node/check-return.ts).
 */
export async function checkReturnWith(input: string | Uint8Array, options: ReturnCheckOptions, io: ReturnCheckIo): Promise<ReturnCheckResult> {
  const cfg = { ...DEFAULT_RETURNS, ...options.policy?.returns };
  const encoding = options.encoding ?? cfg.encoding;
  const maxTokens = options.maxSummaryTokens ?? cfg.maxSummaryTokens;
  const rules = options.policy?.rules ?? {};
  const file = options.file ?? "-";
  const workspace = options.workspace ?? options.policy?.workspace ?? io.cwd();
  const findings: Finding[] = [];
  const info: ReturnInfo = { encoding, artifacts: 0 };
  // Set once the text is decoded; `done` may run before that, for undecodable input.
  const source: { lines?: LineIndex } = {};

  let text: string;
  if (typeof input === "string") text = input;
  else {
    const decoded = decodeText(input);
    if (decoded.issue) {
      const f: Finding = { rule: "return-json", message: `The subagent return is not valid JSON: ${readFactText(decoded.issue).message}.` };
      return done([f]);
    }
    text = decoded.text;
  }
  const doc = parseJson(text);
  source.lines = doc.lines;
  const at = (pointer: Pointer): Pick<Finding, "pointer" | "offset"> => {
    let p = pointer;
    for (;;) {
      const loc = doc.locate(p);
      if (loc) return { pointer, offset: loc.keyStart ?? loc.start };
      if (p === "") return { pointer };
      p = p.slice(0, p.lastIndexOf("/"));
    }
  };

  if (doc.issues.length > 0) {
    for (const issue of doc.issues) {
      const { message, hint } = readFactText(issue);
      findings.push({
        rule: "return-json",
        message: `The subagent return is not valid JSON: ${message}.`,
        ...(hint ? { hint } : {}),
        offset: issue.start,
        endOffset: issue.end,
      });
    }
    return done(findings);
  }
  const value = doc.value;
  if (!isObject(value)) {
    const kind = typeName(value, { integers: false });
    return done([
      {
        rule: "return-json",
        message: `The subagent return is ${kind}, not a JSON object with status, summary, artifacts, metadata and session_id.`,
        offset: 0,
      },
    ]);
  }
  const meta = isObject(value.metadata) ? value.metadata : undefined;

  // Types of the fields the orchestrator validation strategy defines, whenever present: a field of the wrong type is as good as absent.
  const wrongType = (name: string, want: string) =>
    findings.push({ rule: "return-missing-field", message: `\`${name}\` must be ${want}, not ${typeName(value[name], { integers: false })}.`, ...at(`/${name}`) });
  for (const k of ["status", "summary", "session_id"]) if (has(value, k) && typeof value[k] !== "string") wrongType(k, "a string");
  if (has(value, "metadata") && !meta) wrongType("metadata", "an object");
  if (has(value, "artifacts") && !Array.isArray(value.artifacts)) wrongType("artifacts", "an array of paths or {path} objects");
  if (has(value, "errors") && !Array.isArray(value.errors)) wrongType("errors", "an array");
  if (has(value, "next_steps") && typeof value.next_steps !== "string" && !isStrings(value.next_steps))
    wrongType("next_steps", "a string or a list of strings");
  if (meta && has(meta, "session_id") && typeof meta.session_id !== "string")
    findings.push({ rule: "return-missing-field", message: "`metadata.session_id` must be a string.", ...at("/metadata/session_id") });

  for (const field of cfg.requiredFields) {
    if (present(value, field)) continue;
    const parts = field.split(".");
    const parent = `/${parts.slice(0, -1).map(escapeToken).join("/")}`.replace(/\/$/, "");
    const where = parts.length > 1 ? ` in \`${parts.slice(0, -1).join(".")}\`` : "";
    const isSession = field === "session_id";
    findings.push({
      rule: "return-missing-field",
      message: `The subagent return has no \`${parts[parts.length - 1]}\`${where}${isSession ? " (nor metadata.session_id)" : ""}; it is required.`,
      hint: `required fields: ${cfg.requiredFields.join(", ")} (returns.requiredFields)`,
      expected: field,
      ...at(parent),
    });
  }

  const artifacts = Array.isArray(value.artifacts) ? value.artifacts : undefined;
  const paths: { path: string; pointer: Pointer }[] = [];
  artifacts?.forEach((a, i) => {
    const pointer = `/artifacts/${i}`;
    if (typeof a === "string") {
      if (cfg.artifactFields?.length) {
        findings.push({
          rule: "return-missing-field",
          message: `Artifact ${i + 1} is a bare path; this policy wants objects with ${quoteList(cfg.artifactFields, "and")}.`,
          hint: `write {"type": "…", "path": "${a}"} (returns.artifactFields)`,
          ...at(pointer),
        });
      }
      paths.push({ path: a, pointer });
    } else if (isObject(a) && typeof a.path === "string") {
      for (const f of cfg.artifactFields ?? []) {
        if (!has(a, f)) findings.push({ rule: "return-missing-field", message: `Artifact ${i + 1} has no \`${f}\`; it is required.`, ...at(pointer) });
      }
      paths.push({ path: a.path, pointer: `${pointer}/path` });
    } else {
      findings.push({
        rule: "return-missing-field",
        message: `Artifact ${i + 1} must be a path or an object with a string \`path\`, not ${typeName(a, { integers: false })}${isObject(a) ? " without one" : ""}.`,
        ...at(pointer),
      });
    }
  });
  info.artifacts = artifacts?.length ?? 0;

  const status = typeof value.status === "string" ? value.status : undefined;
  if (status !== undefined) {
    info.status = status;
    if (!cfg.statuses.includes(status)) {
      const near = closest(status, cfg.statuses) ?? cfg.statuses.find((s) => s.toLowerCase() === status.toLowerCase());
      findings.push({
        rule: "return-status",
        message: `Return status "${status}" is not one of ${quoteList(cfg.statuses)}.`,
        hint: near ? `did you mean "${near}"? (returns.statuses lists the allowed values)` : "returns.statuses lists the allowed values",
        expected: cfg.statuses,
        actual: status,
        ...at("/status"),
      });
    }
  }

  const top = typeof value.session_id === "string" ? value.session_id : undefined;
  const inMeta = typeof meta?.session_id === "string" ? meta.session_id : undefined;
  const sessionId = top ?? inMeta;
  if (sessionId !== undefined) info.sessionId = sessionId;
  if (top !== undefined && inMeta !== undefined && top !== inMeta) {
    findings.push({
      rule: "return-session-mismatch",
      message: `session_id "${top}" and metadata.session_id "${inMeta}" differ; a return belongs to one session.`,
      expected: top,
      actual: inMeta,
      ...at("/metadata/session_id"),
    });
  }
  const expected = options.expectedSessionId;
  if (expected !== undefined) {
    for (const [id, pointer] of [
      [top, "/session_id"],
      [inMeta, "/metadata/session_id"],
    ] as const) {
      if (id !== undefined && id !== expected) {
        findings.push({
          rule: "return-session-mismatch",
          message: `Return session_id "${id}" does not match the delegated session "${expected}"; it may be a stale or foreign return.`,
          hint: "discard the return and re-check the delegation; do not merge its artifacts",
          expected,
          actual: id,
          ...at(pointer),
        });
      }
    }
    if (sessionId === undefined) {
      findings.push({
        rule: "return-session-mismatch",
        message: `The return carries no session id, so it cannot be matched to the delegated session "${expected}".`,
        expected,
        ...at(""),
      });
    }
  }

  // 0: summaries are not measured, and the optional tokenizer package is not loaded.
  if (typeof value.summary === "string" && maxTokens > 0) {
    const counter = await loadTokenCounter(encoding);
    const summary = value.summary;
    // Short texts are counted in one pass; a huge one is first bounded so it cannot cost more than the limit.
    const n = summary.length <= 64 * maxTokens || !counter.under(summary, maxTokens) ? counter.count(summary) : undefined;
    if (n !== undefined) info.summaryTokens = n;
    if (n !== undefined && n >= maxTokens) {
      findings.push({
        rule: "summary-too-long",
        message: `Summary is ${n} tokens (${encoding}); it must stay under ${maxTokens}.`,
        hint: "keep the summary to a sentence or two and move details into an artifact",
        expected: `< ${maxTokens}`,
        actual: n,
        ...at("/summary"),
      });
    }
  }

  // The orchestrator validation strategy: artifacts must exist and be non-empty only for a success; partial/failed may lack them.
  if (status !== undefined && cfg.successStatuses.includes(status) && artifacts !== undefined) {
    if (artifacts.length === 0) {
      findings.push({
        rule: "artifact-missing",
        message: `Status "${status}" but the return lists no artifacts; a completed task must produce at least one.`,
        hint: 'report "partial" if nothing was produced, or list the files written',
        ...at("/artifacts"),
      });
    }
    const probe = options.files ?? io.files;
    for (const a of paths) {
      const f = artifactFinding(a.path, workspace, probe, status);
      if (f) findings.push({ ...f, ...at(a.pointer) });
    }
  }
  return done(findings);

  function done(fs: Finding[]): ReturnCheckResult {
    // Source order, as `validate` reports; findings without a position go last.
    fs.sort((a, b) => (a.offset ?? Number.MAX_SAFE_INTEGER) - (b.offset ?? Number.MAX_SAFE_INTEGER));
    const diagnostics = toDiagnostics(fs, rules, file, source.lines);
    return { file, valid: isValid(diagnostics), diagnostics, return: info };
  }
}

function isStrings(v: unknown): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

function present(o: Obj, field: string): boolean {
  if (field === "session_id") return has(o, "session_id") || (isObject(o.metadata) && has(o.metadata, "session_id"));
  let cur: unknown = o;
  for (const part of field.split(".")) {
    if (!isObject(cur) || !has(cur, part)) return false;
    cur = cur[part];
  }
  return true;
}
