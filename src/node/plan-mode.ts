import type { QuotedRuleId } from "../rules/quoted.js";
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Token } from "markdown-it";
import type { Diagnostic } from "../core/diagnostic.js";
import type { FileProbe } from "../core/file-probe.js";
import { registryFromNames, type ToolRegistry } from "../core/tools.js";
import type { PlanReport } from "../core/plan-report.js";
import { validatePlan } from "./validate-plan.js";
import { type HostProfile, profileAllowList, profileHash } from "../host/profile.js";
import { clipFeedback, formatFeedback } from "../formatters/feedback.js";
import { markdownTokens, parseMarkdown } from "../syntax/markdown.js";
import { TooBusy } from "../syntax/markdown-budget.js";
import type { Policy } from "../core/policy.js";
import type { MessageData } from "../core/rule.js";
import { ruleText } from "../rules/read-text.js";
import { HOW_TO_WRITE } from "../rules/unknown-format/messages.js";
import { guardFailure } from "../approval/judge.js";

/*
 * Claude Code's plan mode as an enforceable plan.
 *
 * In plan mode the model ends by calling ExitPlanMode; its hook input carries the Markdown the person is
 * shown in `tool_input.plan`. plangate reads the enforceable plan out of that Markdown, and the reading
 * must be the one the person sees rendered: a plan whose visible text differs from what is enforced is
 * the attack. So the Markdown is read as CommonMark (markdown-it, as the rest of plangate), and anything a
 * renderer hides or shows otherwise than written is refused, never skipped:
 *   - HTML of any kind (blocks, inline tags, `<!-- comments -->`, `<details>`): a renderer hides or folds it;
 *   - link reference definitions (`[x]: /url "text"`): they render as nothing;
 *   - zero-width, bidi, tag, variation-selector and control characters, raw or as entities.
 *
 * The enforceable plan is exactly one of:
 *   - a TeDDy plan: the Markdown has one heading mentioning "Action Plan" and it is a top-level `## Action
 *     Plan`; the WHOLE text is then the plan.md (title, `## Rationale`, `## Action Plan` with `### CREATE` /
 *     `### EDIT` / `### READ` / `### EXECUTE` actions) and is validated as TeDDy, so nothing shown is left
 *     out of what is checked; fences inside the Action Plan section are the actions' content;
 *   - an intake plan: exactly one fenced code block whose info word is `json`, `yaml` or `yml` (any case;
 *     backticks or tildes), at the top level of the document (not in a list or a quote); its content,
 *     exactly as shown, is the plan.
 * Anything else is refused with a diagnostic that says how to write the plan: no candidate, two candidates
 * (two such fences, a fence and an Action Plan, two Action Plan headings), a candidate fence nested in a
 * list or quote, a fence whose language only resembles json/yaml (`jsonc`, `yaml+jinja`), an unclosed
 * candidate fence.
 */

/** The file name the extracted text is validated under: its extension picks the reader. */
export type PlanFileName = "plan.md" | "plan.json" | "plan.yaml";

export interface ExtractedPlan {
  /** The enforceable plan's text, exactly as shown. */
  text: string;
  file: PlanFileName;
  kind: "teddy" | "intake";
  /** 1-based line of the Markdown where `text` starts (1 for a TeDDy plan, the line after the fence). */
  line: number;
}

export type Extraction = ExtractedPlan | { diagnostic: Diagnostic };

/** Largest plan text read (Claude Code's own hook input is bounded by guard.maxInputBytes too). */
export const MAX_PLAN_CHARS = 1024 * 1024;

/** Characters that render as nothing, or reorder or restyle what is around them. */
const HIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e0fff}\u{1d173}-\u{1d17a}]/u;

const FENCE_LANG = /^(json|ya?ml)$/i;
/** Languages that look like a plan's but are not read as one. */
const LOOKALIKE_LANG = /^(json|ya?ml)|^(jsonc|json5|jsonl|ndjson)$/i;

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Why the plan cannot be enforced: one of the rule's messages (`messageId`, with its data), at a line. */
function diag(rule: QuotedRuleId, messageId: string, data: MessageData | undefined, at?: { line: number; column?: number }): { diagnostic: Diagnostic } {
  const { message, hint } = ruleText(rule, messageId, data);
  return { diagnostic: { rule, severity: "error", message, hint, line: at?.line ?? 1, column: at?.column ?? 1 } };
}

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Every token, children included, in document order. */
function* allTokens(tokens: readonly Token[]): Generator<{ token: Token; line: number }> {
  let line = 1;
  for (const t of tokens) {
    if (t.map) line = t.map[0] + 1;
    yield { token: t, line };
    for (const c of t.children ?? []) yield { token: c, line };
  }
}

/** The plain text of a heading's inline token. */
function inlineText(t: Token | undefined): string {
  return (t?.children ?? []).map((c) => (c.type === "text" || c.type === "code_inline" ? c.content : "")).join("").trim();
}

/** Extracts the enforceable plan from ExitPlanMode's Markdown, or says why there is none. Never throws. */
export function extractPlan(markdown: unknown, options: { maxChars?: number } = {}): Extraction {
  if (typeof markdown !== "string" || markdown.trim() === "")
    return diag("unknown-format", "planModeNoText", undefined);
  const max = options.maxChars ?? MAX_PLAN_CHARS;
  if (markdown.length > max)
    return diag("limit-exceeded", "planModeTooLong", { length: markdown.length, max });

  const hidden = HIDDEN.exec(markdown);
  if (hidden)
    return diag("unsafe-value", "planModeHidden", { code: codePoint(hidden[0]) }, position(markdown, hidden.index));

  const read = markdownTokens(markdown);
  if (read instanceof TooBusy) return diag("limit-exceeded", read.messageId, { max: read.max, line: read.line + 1 }, { line: read.line + 1 });
  const { tokens, env } = read;

  // Hidden content: what a renderer drops, folds or shows otherwise than written.
  for (const { token: t, line } of allTokens(tokens)) {
    if (t.type === "html_block" || t.type === "html_inline") {
      const id = /^\s*<!--/.test(t.content) ? "planModeHtmlComment" : /^\s*<\/?details\b/i.test(t.content) ? "planModeDetails" : "planModeHtml";
      return diag("unsafe-value", id, { line, content: clip(t.content) }, { line });
    }
    if ((t.type === "text" || t.type === "code_inline") && HIDDEN.test(t.content)) {
      const c = HIDDEN.exec(t.content)![0];
      return diag("unsafe-value", "planModeCharacterReference", { line, code: codePoint(c) }, { line });
    }
  }
  const refs = Object.keys(env.references ?? {});
  if (refs.length > 0) {
    const m = /^ {0,3}(?:> ?)*\[[^\]\n]+\]:/m.exec(markdown);
    return diag("unsafe-value", "planModeReferenceDefinition", { label: clip(refs[0]!) }, m ? position(markdown, m.index) : undefined);
  }

  // Candidates: Action Plan headings and json/yaml fences.
  const headings: { line: number; level: number; text: string; nested: boolean; index: number }[] = [];
  tokens.forEach((t, i) => {
    if (t.type !== "heading_open") return;
    const text = inlineText(tokens[i + 1]);
    if (/action\s*plan/i.test(text)) headings.push({ line: t.map![0] + 1, level: Number(t.tag.slice(1)), text, nested: t.level !== 0, index: i });
  });
  if (headings.length > 1)
    return diag("unknown-format", "planModeHeadings", { count: headings.length, lines: headings.map((h) => h.line).join(", ") }, { line: headings[1]!.line });
  const heading = headings[0];
  if (heading && (heading.nested || heading.level !== 2 || heading.text !== "Action Plan"))
    return diag("unknown-format", "planModeHeadingForm", { line: heading.line, text: clip(heading.text) }, { line: heading.line });
  // The Action Plan section runs to the next top-level H1 or H2.
  let sectionEnd = Infinity;
  if (heading) {
    for (let i = heading.index + 1; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.type === "heading_open" && t.level === 0 && (t.tag === "h1" || t.tag === "h2")) {
        sectionEnd = t.map![0] + 1;
        break;
      }
    }
  }
  const inSection = (line: number) => heading !== undefined && line > heading.line && line < sectionEnd;

  const fences: { token: Token; line: number }[] = [];
  for (const { token: t, line } of allTokens(tokens)) {
    if (t.type !== "fence" || inSection(line)) continue;
    const lang = t.info.trim().split(/\s+/)[0] ?? "";
    if (FENCE_LANG.test(lang)) {
      if (t.level !== 0)
        return diag("unknown-format", "planModeNestedBlock", { line, lang }, { line });
      fences.push({ token: t, line });
    } else if (LOOKALIKE_LANG.test(lang))
      return diag("unknown-format", "planModeLookalikeBlock", { line, lang: clip(lang) }, { line });
  }

  const candidates = fences.length + (heading ? 1 : 0);
  if (candidates === 0) return diag("unknown-format", "planModeNoPlan", undefined);
  if (candidates > 1) {
    const where = [...(heading ? [`\`## Action Plan\` (line ${heading.line})`] : []), ...fences.map((f) => `\`\`\`${f.token.info.trim()} block (line ${f.line})`)];
    const second = heading ? fences[0]! : fences[1]!;
    return diag("unknown-format", "planModeCandidates", { count: candidates, where: where.join(", ") }, { line: second.line });
  }
  if (heading) return { text: markdown, file: "plan.md", kind: "teddy", line: 1 };

  const { token, line } = fences[0]!;
  const [open, after] = token.map!;
  const closing = new RegExp(`^ {0,3}${token.markup[0] === "`" ? "`" : "~"}{${token.markup.length},}[ \\t]*\\r?$`);
  const lines = markdown.split("\n");
  if (after - 1 <= open || !closing.test(lines[after - 1] ?? ""))
    return diag("parse-error", "planModeOpenFence", { line, fence: token.markup }, { line });
  // An indented fence takes up to its indentation off each line inside (CommonMark): the text read is then
  // not the text as written, and in YAML indentation is structure. Refused unless nothing was taken off.
  const indent = /^[ \t]*/.exec(lines[open] ?? "")![0];
  if (indent !== "" && token.content.replace(/\r\n/g, "\n") !== lines.slice(open + 1, after - 1).map((l) => `${l}\n`).join("").replace(/\r\n/g, "\n"))
    return diag("unsafe-value", "planModeIndentedFence", { line, indent: indent.length === 1 ? "1 space" : `${indent.length} spaces` }, { line });
  const lang = token.info.trim().split(/\s+/)[0]!.toLowerCase();
  // An escape that spells a printable character needing none (`\u0072m` for `rm`, YAML's `\x2e`): the
  // person reads the escape, plangate enforces the character.
  const escape = token.content.includes("\\") ? needlessEscape(token.content) : undefined;
  if (escape) {
    const at = line + 1 + (token.content.slice(0, escape.index).match(/\n/g)?.length ?? 0);
    return diag("unsafe-value", "planModeEscape", { line: at, escape: escape.text, char: escape.char }, { line: at });
  }
  return { text: token.content, file: lang === "json" ? "plan.json" : "plan.yaml", kind: "intake", line: line + 1 };
}

/**
 * The first escape in a plan block that spells a printable ASCII character other than a quote or a
 * backslash (JSON's `\u0072`, YAML's `\x72` and `\U00000072`), or undefined. A backslash before a
 * backslash is skipped with it, so `\\u0072` (a backslash, then `u0072`) is no escape.
 */
function needlessEscape(text: string): { index: number; text: string; char: string } | undefined {
  const re = /\\(?:\\|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|U([0-9A-Fa-f]{8}))/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const hex = m[1] ?? m[2] ?? m[3];
    if (hex === undefined) continue;
    const code = Number.parseInt(hex, 16);
    if (code >= 0x20 && code <= 0x7e && code !== 0x22 && code !== 0x27 && code !== 0x5c) return { index: m.index, text: m[0], char: String.fromCharCode(code) };
  }
  return undefined;
}

function clip(s: string, n = 60): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** What validation of a plan-mode plan takes: validatePlan's options, less the file and the reader choice. */
export interface PlanModeOptions {
  policy: Policy;
  /** The tool registry; without one, the policy's tools.allow. Neither: the plan is refused (any tool would pass). */
  tools?: ToolRegistry;
  workspace?: string;
  now?: Date | (() => Date);
  files?: FileProbe;
  maxChars?: number;
  /** The agent host (default generic): every step must map to one of its calls; its tools are the allow list when neither the registry nor the policy names any. */
  host?: HostProfile;
}

/** The outcome of extracting and validating: the extraction, and the report (always present, for feedback). */
export interface PlanModeResult {
  extracted?: ExtractedPlan;
  report: PlanReport;
}

/** The tools a plan-mode plan is checked against, or undefined when nothing constrains them. */
function toolsOf(options: PlanModeOptions): ToolRegistry | undefined {
  if (options.tools) return options.tools;
  if (options.policy.tools.allow.length > 0) return registryFromNames(options.policy.tools.allow, "policy tools.allow");
  const hostTools = options.host ? profileAllowList(options.host) : [];
  return hostTools.length > 0 ? registryFromNames(hostTools, `the ${options.host!.name} host profile`) : undefined;
}

/** Extracts and validates; an extraction failure becomes a report on the Markdown itself. */
export async function checkPlanMode(markdown: unknown, options: PlanModeOptions): Promise<PlanModeResult> {
  const extracted = extractPlan(markdown, { maxChars: options.maxChars });
  if ("diagnostic" in extracted) {
    const source = typeof markdown === "string" && markdown.length <= (options.maxChars ?? MAX_PLAN_CHARS) ? parseMarkdown(markdown) : undefined;
    return { report: { file: "ExitPlanMode plan", valid: false, steps: 0, diagnostics: [{ ...extracted.diagnostic, file: "ExitPlanMode plan" }], source } };
  }
  const tools = toolsOf(options);
  const report = await validatePlan(extracted.text, {
    file: extracted.file,
    policy: options.policy,
    workspace: options.workspace,
    tools,
    now: options.now,
    files: options.files,
    ...(options.host ? { host: options.host } : {}),
  });
  if (tools === undefined) {
    const { unconstrainedToolsDiagnostic } = await import("../approval/record.js");
    report.diagnostics.push(unconstrainedToolsDiagnostic());
    report.valid = false;
  }
  report.file = extracted.kind === "teddy" ? "ExitPlanMode plan (TeDDy plan.md)" : `ExitPlanMode plan (${extracted.file} block; its line 1 is line ${extracted.line} of the plan)`;
  return { extracted, report };
}

/** The preface of the feedback: what happened and how to revise. */
export const REVISE_PREFACE =
  "plangate refused this plan: it cannot be enforced as written, so plan mode stays on. Revise the plan and call ExitPlanMode again with the complete corrected plan. " +
  `To be enforceable, ${HOW_TO_WRITE}. Every tool call after approval must match a step.\n\n`;

/**
 * PreToolUse / PermissionRequest on ExitPlanMode: `{deny: feedback}` for a missing or invalid plan, else
 * undefined: plangate never answers "allow" for the person, who decides on a valid plan.
 */
export async function planModeCheck(markdown: unknown, options: PlanModeOptions): Promise<{ deny: string } | undefined> {
  const { report } = await checkPlanMode(markdown, options);
  if (report.valid && !report.internalErrors?.length) return undefined;
  return { deny: REVISE_PREFACE + clipFeedback(formatFeedback([report])) };
}

/*
 * Claude Code hook answers (pure; the guard command prints them with exit 0).
 *
 * Shapes, from the Claude Code hooks reference as summarised in public material found with `search`:
 *   - PreToolUse: `hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow"|"deny"|"ask"
 *     (|"defer"), permissionDecisionReason}`; on deny the reason is shown to Claude; deny wins over defer,
 *     ask and allow when several hooks answer (xsyetopz/claudetto wiki "Claude Code Hooks Events Tool",
 *     citing the Hooks Reference; code.claude.com/docs/en/hooks.md#pretooluse).
 *   - PermissionRequest: `hookSpecificOutput: {hookEventName: "PermissionRequest", decision: {behavior:
 *     "allow"|"deny", message?, updatedInput?}}` (hex.pm claude_code Hook.Output.PermissionRequest;
 *     anthropics/claude-code#90498 quotes the allow payload).
 *   - ExitPlanMode's input is `{plan: string}` (the Markdown shown to the person; anthropics/claude-code#2585),
 *     newer versions also `allowedPrompts`; PostToolUse runs only once the tool ran, i.e. the person accepted.
 * Plannotator (backnotprop/plannotator) answers PermissionRequest on ExitPlanMode with allow, or deny plus
 * the person's feedback (its PR #290 / #291). To compose: plangate denies an invalid plan already at
 * PreToolUse, which runs before the permission flow (so Plannotator never shows it), and says nothing on a
 * valid one, so Plannotator or Claude Code's own dialog decides; if both hooks answer a PermissionRequest,
 * deny wins. The PostToolUse accept hook runs after either way of accepting.
 */

/** PreToolUse on ExitPlanMode: the deny answer, or nothing (let the person decide). */
export function preToolUseOutput(check: { deny: string } | undefined): Record<string, unknown> | undefined {
  if (!check) return undefined;
  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: check.deny } };
}

/** PermissionRequest on ExitPlanMode: the deny answer, or nothing. */
export function permissionRequestOutput(check: { deny: string } | undefined): Record<string, unknown> | undefined {
  if (!check) return undefined;
  return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: check.deny } } };
}

/** What acceptPlan did. */
export type AcceptResult =
  | { status: "started"; planFile: string; planHash: string; message: string }
  | { status: "pending"; planFile: string; planHash: string; pendingFile: string; message: string }
  | { status: "refused"; diagnostics: Diagnostic[]; message: string; planFile?: string };

export interface AcceptOptions extends PlanModeOptions {
  /** The state directory (runs, plans/, pending/). */
  stateDir: string;
  /** The policy's identity, as `plangate approve` records it. */
  policyHash: string;
  /** The hook input's session_id. */
  session: string | undefined;
  /** The hook input's cwd: the key must be outside it too. */
  cwd?: string;
  /**
   * The project's other folders and the per-user key folders (keyPlacesFor): the signing key must not lie
   * in one of the project's folders either. Default: none, only the workspaces and `cwd`.
   */
  keyPlaces?: import("./keys.js").KeyPlaces;
  /** Starts the run for an approved plan (src/store/runs.ts's startRun); returns the refusal's diagnostics when the run cannot start. */
  startRun: (planFile: string, approvalBytes: Uint8Array, session: string | undefined) => Promise<Diagnostic[] | void>;
}

/** PostToolUse on ExitPlanMode: the person accepted the plan. */
export async function acceptPlan(markdown: unknown, options: AcceptOptions): Promise<AcceptResult> {
  const { extracted, report } = await checkPlanMode(markdown, options);
  if (!extracted || !report.valid || report.planHash === undefined || report.internalErrors?.length) {
    const diagnostics = report.diagnostics.filter((d) => d.severity === "error");
    return { status: "refused", diagnostics, message: `plangate: the accepted plan is not enforceable, so no run was started; every tool call will be blocked.\n\n${clipFeedback(formatFeedback([report]))}` };
  }
  const { writeFileAtomic } = await import("./atomic-write.js");
  const hex = report.planHash.replace(/^sha256:/, "");
  const ext = extracted.file.slice("plan".length);
  const plans = join(options.stateDir, "plans");
  mkdirSync(plans, { recursive: true, mode: 0o700 });
  const planFile = join(plans, `${hex}${ext}`);
  writeFileAtomic(planFile, extracted.text, 0o600);
  chmodSync(planFile, 0o600);
  const nowOf = () => (typeof options.now === "function" ? options.now() : (options.now ?? new Date()));
  const approval = options.policy.approval;
  const workspace = options.workspace ?? options.policy.workspace;

  if (approval.onPlanAccepted === "sign-and-start" && approval.key !== undefined) {
    const { keyInWorkspace, loadSigner, approve } = await import("./sign.js");
    const refused = keyInWorkspace(approval.key, [workspace, options.policy.workspace, ...(options.cwd ? [options.cwd] : [])], options.keyPlaces, options.policy.settingsAt?.key);
    if (refused) return { status: "refused", diagnostics: [refused], planFile, message: `plangate: ${refused.message} No run was started; fix: ${refused.hint}.` };
    const { KeyError } = await import("./keys.js");
    const { approvalLifetime } = await import("../approval/record.js");
    let signer;
    try {
      signer = loadSigner(approval.key);
    } catch (err) {
      if (!(err instanceof KeyError)) throw err;
      const { judgeApproval } = await import("../approval/judge.js");
      const d: Diagnostic = judgeApproval({ step: "signing", key: approval.key, keyError: err.message })[0]!;
      return { status: "refused", diagnostics: [d], planFile, message: `plangate: ${err.message}; no run was started.` };
    }
    // A policy file is checked when it is loaded (a reusable approval needs approval.ttl); a Policy built in code is checked here.
    const lifetime = approvalLifetime(approval.ttl, approval.singleUse, "approval.ttl");
    if ("error" in lifetime) throw new TypeError(`acceptPlan: the policy's ${lifetime.error}`);
    const { text } = approve({
      planHash: report.planHash,
      workspace,
      policyHash: options.policyHash,
      tools: toolsOf(options)!,
      steps: report.steps,
      now: nowOf(),
      ...lifetime,
      singleUse: approval.singleUse,
      signer,
      ...(options.host ? { host: { name: options.host.name, hash: profileHash(options.host) } } : {}),
    });
    const refusal = await options.startRun(planFile, Buffer.from(text, "utf8"), options.session);
    if (refusal && refusal.length > 0)
      return { status: "refused", diagnostics: refusal, planFile, message: `plangate: the plan was approved but its run cannot start, so every tool call will be blocked: ${refusal.map((d) => `${d.message} [${d.rule}]`).join(" ")}` };
    return { status: "started", planFile, planHash: report.planHash, message: `plangate: plan ${report.planHash.slice(0, 19)}… approved (signed by ${signer.keyid.slice(0, 16)}…) and started; each tool call must now match its next step.` };
  }

  const pendingDir = join(options.stateDir, "pending");
  mkdirSync(pendingDir, { recursive: true, mode: 0o700 });
  const pendingFile = join(pendingDir, `${hex}.json`);
  const entry = { plan_file: planFile, plan_hash: report.planHash, session_id: options.session ?? null, workspace, accepted_at: nowOf().toISOString() };
  writeFileAtomic(pendingFile, JSON.stringify(entry, null, 2) + "\n", 0o600);
  chmodSync(pendingFile, 0o600);
  const why = approval.onPlanAccepted === "sign-and-start" ? " (approval.onPlanAccepted is sign-and-start but approval.key is not set)" : "";
  return {
    status: "pending",
    planFile,
    planHash: report.planHash,
    pendingFile,
    message:
      `plangate: the accepted plan is recorded as pending${why}; no run is active, so tool calls are blocked until it is approved. ` +
      `To approve it: plangate approve ${planFile}${hostFlag(options.host)} --key YOUR_KEY --out approval.json, then start the run with plangate guard start${hostFlag(options.host)} (see the README's Runs section).`,
  };
}

/**
 * Why a PostToolUse on ExitPlanMode is no acceptance of the plan by the person, or undefined when it may
 * be one. Claude Code asks no person when the call is made inside a subagent (the hook input then has an
 * `agent_id`; the tool's answer says `isAgent: true`: "User has approved the plan" without anyone asked)
 * or by a teammate whose plan goes to its team lead (`awaitingLeaderApproval`); and the plan it reports as
 * accepted (`tool_response.plan`) may be another than the one the hook was given and checked (edited
 * while it was accepted). Each is refused: plangate approves only a plan the person accepted as checked.
 */
export function acceptanceProblem(raw: Readonly<Record<string, unknown>>, agentId: string | undefined): AcceptResult | undefined {
  const response = raw.tool_response;
  const r = response !== null && typeof response === "object" && !Array.isArray(response) ? (response as Record<string, unknown>) : {};
  const input = raw.tool_input as Record<string, unknown> | undefined;
  const shown = input?.plan;
  const d =
    agentId !== undefined
      ? guardFailure({ kind: "plan-not-accepted", why: "agent", agent: agentId })
      : r.isAgent === true
        ? guardFailure({ kind: "plan-not-accepted", why: "response-agent" })
        : r.awaitingLeaderApproval === true
          ? guardFailure({ kind: "plan-not-accepted", why: "leader" })
          : typeof r.plan === "string" && r.plan !== shown
            ? guardFailure({ kind: "plan-not-accepted", why: "other-plan" })
            : undefined;
  if (d === undefined) return undefined;
  return { status: "refused", diagnostics: [d], message: `plangate: ${d.message} No run was started; every tool call stays blocked until one is (${d.hint}).` };
}

/**
 * PostToolUse on ExitPlanMode: tells the person (systemMessage) and the model (additionalContext) what
 * happened; a refusal also blocks, so the model stops instead of calling tools that will all be blocked.
 */
export function postToolUseOutput(result: AcceptResult): Record<string, unknown> {
  const out: Record<string, unknown> = { systemMessage: result.message, hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: result.message } };
  if (result.status === "refused") Object.assign(out, { decision: "block", reason: result.message });
  return out;
}

/** The `--host` flag a pending plan's commands need (none for generic). */
function hostFlag(host: HostProfile | undefined): string {
  return host && host.name !== "generic" ? ` --host ${host.name}` : "";
}
