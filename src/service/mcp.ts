import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isModuleNotFound, MissingDependency } from "../core/missing-dependency.js";
import { hashResult } from "../cli/commands/seal.js";
import type { Setup } from "../cli/setup.js";
import { DIALECT_IDS, type DialectId } from "../core/plan.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { closest } from "../core/tools.js";
import { validatePlan } from "../node/validate-plan.js";
import { inputTooLarge } from "../node/read-bounded.js";
import { clipFeedback, formatFeedback } from "../formatters/feedback.js";
import { diagnosticJson } from "../formatters/json.js";
import { VERSION } from "../version.js";

/*
 * plangate's MCP tools (the official TypeScript SDK, loaded only by `plangate mcp` and /mcp): check a
 * plan, hash it, explain a rule, list the tools a plan may use, check a subagent's return. Every tool
 * reads only what the call carries and the server's policy; none approves, signs or starts anything.
 */

export interface McpContext {
  setup: Setup;
  now: () => Date;
  cwd: string;
  /** The session registry check_delegation looks a session id up in (read-only); none: the id's form only. */
  sessions?: { lookupSession(id: string, now: Date): Promise<import("../orchestration/registry.js").SessionEntry | undefined>; location: string };
}

const DIAGNOSTIC = {
  type: "object",
  properties: {
    rule: { type: "string" },
    severity: { type: "string", enum: ["error", "warning", "info"] },
    message: { type: "string" },
    file: { type: "string" },
    pointer: { type: "string" },
    step: { type: "integer" },
    line: { type: "integer" },
    column: { type: "integer" },
    endLine: { type: "integer" },
    endColumn: { type: "integer" },
    hint: { type: "string" },
  },
  required: ["rule", "severity", "message"],
} as const;

const TEXT = { type: "string", description: "the plan file's whole content" } as const;
const FILE = { type: "string", description: "the plan's file name; its extension picks the reader (.json, .yaml, .md); default plan.json, or plan.md for the teddy dialect" } as const;

/** The tools, with their input and output JSON Schemas. */
export const TOOLS = [
  {
    name: "validate_plan",
    title: "Validate a plan",
    description: "Validate an agent plan (scQC JSON envelope, intake JSON/YAML, iKOMA, TeDDy plan.md) against the server's policy: the diagnostics (rule id, position, message, hint) and the re-plan feedback text to revise it by.",
    inputSchema: {
      type: "object",
      properties: { text: TEXT, file: FILE, dialect: { type: "string", enum: [...DIALECT_IDS], description: "force a dialect instead of detecting it" } },
      required: ["text"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        file: { type: "string" },
        valid: { type: "boolean" },
        dialect: { type: ["string", "null"] },
        planHash: { type: "string" },
        steps: { type: "integer" },
        diagnostics: { type: "array", items: DIAGNOSTIC },
        feedback: { type: "string", description: "what to change, for the planner (empty when valid)" },
      },
      required: ["file", "valid", "dialect", "steps", "diagnostics", "feedback"],
    },
  },
  {
    name: "plan_hash",
    title: "Hash a plan",
    description: "The plan hash (sha256 of the RFC 8785 canonical JSON; Markdown: of the text) and the raw file's SHA-256, as `plangate hash` prints them; or why the plan cannot be read.",
    inputSchema: { type: "object", properties: { text: TEXT, file: FILE }, required: ["text"], additionalProperties: false },
    outputSchema: {
      type: "object",
      properties: { file: { type: "string" }, valid: { type: "boolean" }, dialect: { type: ["string", "null"] }, planHash: { type: "string" }, fileSha256: { type: "string" }, diagnostics: { type: "array", items: DIAGNOSTIC } },
      required: ["file", "valid", "dialect", "diagnostics"],
    },
  },
  {
    name: "explain_rule",
    title: "Explain a rule",
    description: "A plangate rule's documentation: what it catches, why, and how to fix a report of it.",
    inputSchema: { type: "object", properties: { rule: { type: "string", description: "a rule id, as a diagnostic names it" } }, required: ["rule"], additionalProperties: false },
    outputSchema: {
      type: "object",
      properties: {
        id: { type: "string" },
        defaultSeverity: { type: "string" },
        phase: { type: "string" },
        dialects: { type: ["array", "null"], items: { type: "string" } },
        summary: { type: "string" },
        description: { type: "string" },
        rationale: { type: "string" },
        fix: { type: "string" },
        text: { type: "string", description: "the whole explanation, as `plangate explain` prints it" },
      },
      required: ["id", "defaultSeverity", "phase", "summary", "description", "rationale", "fix", "text"],
    },
  },
  {
    name: "list_allowed_tools",
    title: "List the tools a plan may use",
    description: "The tool names (and name patterns) a plan's steps may call under the server's policy and host profile, and the tools always denied.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    outputSchema: {
      type: "object",
      properties: {
        constrained: { type: "boolean", description: "false: no registry or allow list, so approval refuses every plan as unconstrained" },
        source: { type: ["string", "null"] },
        tools: { type: "array", items: { type: "string" } },
        patterns: { type: "array", items: { type: "string" } },
        denied: { type: "array", items: { type: "string" } },
        host: { type: "string" },
      },
      required: ["constrained", "source", "tools", "patterns", "denied", "host"],
    },
  },
  {
    name: "check_return",
    title: "Check a subagent's return",
    description: "Check a subagent's return document: JSON, required fields, status, session id, summary length, artifact paths inside the workspace.",
    inputSchema: {
      type: "object",
      properties: {
        text: { type: "string", description: "the return document (JSON)" },
        sessionId: { type: "string", description: "the session id the subagent was given" },
        maxSummaryTokens: { type: "integer", minimum: 0, description: "the summary must stay under this many tokens; 0: not measured (default: the policy's returns.maxSummaryTokens)" },
      },
      required: ["text"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        valid: { type: "boolean" },
        return: {
          type: ["object", "null"],
          properties: { status: { type: ["string", "null"] }, sessionId: { type: ["string", "null"] }, summaryTokens: { type: ["integer", "null"] }, encoding: { type: "string" }, artifacts: { type: "integer" } },
        },
        diagnostics: { type: "array", items: DIAGNOSTIC },
      },
      required: ["valid", "return", "diagnostics"],
    },
  },
  {
    name: "check_delegation",
    title: "Check a delegation before it starts",
    description:
      "Check whether delegating to an agent is safe: the depth it would reach against the policy's delegation.maxDepth, a cycle in the delegation path (names compared case- and separator-insensitively), and the new session id: its form, and whether the session registry holds it as active. Read-only: it registers no session (the orchestrator does, with plangate check-delegation --register).",
    inputSchema: {
      type: "object",
      properties: {
        target: { type: "string", minLength: 1, description: "the agent about to be delegated to" },
        path: { type: "array", items: { type: "string" }, maxItems: 64, description: "the delegation path so far, root first" },
        depth: { type: "integer", minimum: 0, description: "the depth the orchestrator tracks (wins over the count from path)" },
        sessionId: { type: "string", description: "the new session's id" },
      },
      required: ["target", "path"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { valid: { type: "boolean" }, depth: { type: "integer" }, maxDepth: { type: "integer" }, diagnostics: { type: "array", items: DIAGNOSTIC } },
      required: ["valid", "depth", "maxDepth", "diagnostics"],
    },
  },
] as const;

type ToolName = (typeof TOOLS)[number]["name"];

/** A call the tool cannot answer: the text goes back with isError. */
class ToolError extends Error {}

function str(args: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const v = args[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string") throw new ToolError(`${key} must be a string`);
  return v;
}

function only(args: Record<string, unknown>, keys: readonly string[]): void {
  for (const k of Object.keys(args)) if (!keys.includes(k)) throw new ToolError(`unknown argument "${k.slice(0, 100)}" (arguments: ${keys.join(", ") || "none"})`);
}

function diagnosticsOf(ds: readonly Diagnostic[]): Record<string, unknown>[] {
  return ds.map((d) => diagnosticJson(d));
}

/** Runs one tool: its structured result and the text shown to a model. */
export async function callTool(name: string, args: Record<string, unknown>, ctx: McpContext): Promise<{ structured: Record<string, unknown>; text: string }> {
  switch (name as ToolName) {
    case "validate_plan": {
      only(args, ["text", "file", "dialect"]);
      const text = str(args, "text", true)!;
      const dialect = str(args, "dialect", false);
      if (dialect !== undefined && !DIALECT_IDS.includes(dialect as DialectId)) throw new ToolError(`unknown dialect "${dialect.slice(0, 100)}" (dialects: ${DIALECT_IDS.join(", ")})`);
      const file = str(args, "file", false) ?? (dialect === "teddy" ? "plan.md" : "plan.json");
      const { setup } = ctx;
      const report = await validatePlan(Buffer.from(text, "utf8"), { file, policy: setup.policy, tools: setup.tools, now: ctx.now, host: setup.host, ...(dialect ? { dialect: dialect as DialectId } : {}) });
      const crash = report.internalErrors?.[0];
      if (crash) throw new Error(`the ${crash.rule} check failed on ${file} (${crash.message})`);
      // The text goes to the model whole: cut as a hook's is (the diagnostics stay complete).
      const feedback = report.valid ? "" : clipFeedback(formatFeedback([report], { tools: setup.tools }));
      const structured: Record<string, unknown> = { file, valid: report.valid, dialect: report.dialect ?? null, steps: report.steps, diagnostics: diagnosticsOf(report.diagnostics), feedback };
      if (report.planHash !== undefined) structured.planHash = report.planHash;
      return { structured, text: report.valid ? `${file}: valid (${report.steps} steps, plan hash ${report.planHash ?? "none"})` : feedback };
    }
    case "plan_hash": {
      only(args, ["text", "file"]);
      const text = str(args, "text", true)!;
      const file = str(args, "file", false) ?? "plan.json";
      const max = ctx.setup.policy.limits.maxFileBytes;
      const bytes = Buffer.from(text, "utf8");
      let input: Uint8Array | Diagnostic = bytes;
      if (bytes.byteLength > max) input = inputTooLarge({ max, size: bytes.byteLength, file, split: true });
      const h = await hashResult(file, input, { now: ctx.now });
      return { structured: h.result, text: h.ok ? h.planHash! : h.diagnostics.map((d) => `${d.message} [${d.rule}]`).join("\n") };
    }
    case "explain_rule": {
      only(args, ["rule"]);
      const id = str(args, "rule", true)!;
      const [{ explainText }, { RULES, findRule }] = await Promise.all([import("../rules/explain.js"), import("../rules/index.js")]);
      const rule = findRule(id);
      const text = rule ? explainText(id) : undefined;
      if (!rule || !text) {
        const near = closest(id, RULES.map((r) => r.meta.id));
        throw new ToolError(`unknown rule "${id.slice(0, 100)}"${near ? `; did you mean "${near}"?` : ""}`);
      }
      const m = rule.meta;
      return {
        structured: { id: m.id, defaultSeverity: m.defaultSeverity, phase: m.phase, dialects: m.dialects ? [...m.dialects] : null, summary: m.summary, description: m.docs.description, rationale: m.docs.rationale, fix: m.docs.fix, text },
        text,
      };
    }
    case "list_allowed_tools": {
      only(args, []);
      const { policy, tools, host } = ctx.setup;
      const structured = {
        constrained: tools !== undefined,
        source: tools?.source ?? null,
        tools: tools ? [...tools.names].sort() : [],
        patterns: tools ? [...tools.patterns] : [],
        denied: [...policy.tools.deny].sort(),
        host: host.name,
      };
      const text = tools
        ? `allowed (${structured.source}): ${[...structured.tools, ...structured.patterns].join(", ") || "none"}; denied: ${structured.denied.join(", ")}`
        : "no tool registry or allow list: every plan is refused as unconstrained until the policy names its tools";
      return { structured, text };
    }
    case "check_return": {
      only(args, ["text", "sessionId", "maxSummaryTokens"]);
      const text = str(args, "text", true)!;
      const sessionId = str(args, "sessionId", false);
      const maxTokens = args.maxSummaryTokens;
      if (maxTokens !== undefined && (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 0)) throw new ToolError("maxSummaryTokens must be a whole number of at least 0");
      const [{ checkReturn }, { createFileProbe }] = await Promise.all([import("../node/check-return.js"), import("../node/file-probe.js")]);
      const { policy } = ctx.setup;
      const bytes = Buffer.from(text, "utf8");
      if (bytes.byteLength > policy.limits.maxFileBytes) throw new ToolError(`the return is over the ${policy.limits.maxFileBytes}-byte limit (limits.maxFileBytes)`);
      let result;
      try {
        result = await checkReturn(bytes, {
          file: "return.json",
          workspace: policy.workspace,
          policy,
          files: createFileProbe(),
          ...(sessionId !== undefined ? { expectedSessionId: sessionId } : {}),
          ...(maxTokens !== undefined ? { maxSummaryTokens: maxTokens as number } : {}),
        });
      } catch (err) {
        const { TokenizerMissing } = await import("../orchestration/tokens.js");
        if (err instanceof TokenizerMissing) throw new ToolError(err.message);
        throw err;
      }
      const r = result.return;
      const ret = r ? { status: r.status ?? null, sessionId: r.sessionId ?? null, summaryTokens: r.summaryTokens ?? null, encoding: r.encoding, artifacts: r.artifacts } : null;
      const structured = { valid: result.valid, return: ret, diagnostics: diagnosticsOf(result.diagnostics) };
      const shown = result.diagnostics.map((d) => `${d.severity}: ${d.message} [${d.rule}]${d.hint ? ` (${d.hint})` : ""}`);
      return { structured, text: result.valid && shown.length === 0 ? "the return is valid" : [result.valid ? "the return is valid" : "the return is refused", ...shown].join("\n") };
    }
    case "check_delegation": {
      only(args, ["target", "path", "depth", "sessionId"]);
      const target = str(args, "target", true)!;
      const path = args.path;
      if (!Array.isArray(path) || path.length > 64 || !path.every((a) => typeof a === "string")) throw new ToolError("path must be a list of at most 64 agent names");
      const depth = args.depth;
      if (depth !== undefined && (typeof depth !== "number" || !Number.isInteger(depth) || depth < 0)) throw new ToolError("depth must be a whole number of at least 0");
      const sessionId = str(args, "sessionId", false);
      const { checkDelegation, checkDelegationIn } = await import("../orchestration/delegation.js");
      const options = {
        target,
        path: path as string[],
        now: ctx.now(),
        policy: ctx.setup.policy,
        ...(depth !== undefined ? { depth: depth as number } : {}),
        ...(sessionId !== undefined ? { sessionId } : {}),
      };
      const sessions = ctx.sessions;
      // With a registry the id is looked up (an active one is refused); nothing is ever registered here.
      const readOnly = sessions && {
        lookupSession: (id: string, now: Date) => sessions.lookupSession(id, now),
        registerSession: () => Promise.reject(new Error("check_delegation registers nothing")),
      };
      let result;
      try {
        result = readOnly ? await checkDelegationIn(readOnly, { ...options, register: false }) : checkDelegation(options);
      } catch (err) {
        throw new ToolError(`the session registry ${sessions?.location ?? ""} cannot be read: ${(err as Error).message}`);
      }
      const structured = { valid: result.valid, depth: result.depth, maxDepth: result.maxDepth, diagnostics: diagnosticsOf(result.diagnostics) };
      const shown = result.diagnostics.map((d) => `${d.severity}: ${d.message} [${d.rule}]${d.hint ? ` (${d.hint})` : ""}`);
      return { structured, text: [result.valid ? `the delegation may start (depth ${result.depth} of ${result.maxDepth})` : "the delegation is refused", ...shown].join("\n") };
    }
    default:
      throw new ToolError(`unknown tool "${String(name).slice(0, 100)}" (tools: ${TOOLS.map((t) => t.name).join(", ")})`);
  }
}

/** Why the MCP tools cannot be served: the SDK is an optional peer dependency. */
export const SDK_MISSING =
  "plangate mcp (and /mcp of plangate serve) needs the optional package @modelcontextprotocol/sdk, which is not installed: run `npm install @modelcontextprotocol/sdk` where plangate is installed (npm install -g @modelcontextprotocol/sdk for a global plangate)";

type Importer = (specifier: string) => Promise<unknown>;
let sdkImporter: Importer = (specifier) => import(specifier);

/** Imports a module of the MCP SDK, or throws MissingDependency saying how to install it. */
export async function importSdk<T>(specifier: string): Promise<T> {
  try {
    return (await sdkImporter(specifier)) as T;
  } catch (err) {
    if (isModuleNotFound(err)) throw new MissingDependency(SDK_MISSING);
    throw err;
  }
}

/** Replaces how the SDK is imported (tests: a missing package), returning the previous importer. */
export function setSdkImporter(next: Importer): Importer {
  const prev = sdkImporter;
  sdkImporter = next;
  return prev;
}

/** A new MCP server (the SDK's low-level Server) answering tools/list and tools/call. */
export async function createMcpServer(ctx: McpContext): Promise<Server> {
  const [{ Server }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([
    importSdk<typeof import("@modelcontextprotocol/sdk/server/index.js")>("@modelcontextprotocol/sdk/server/index.js"),
    importSdk<typeof import("@modelcontextprotocol/sdk/types.js")>("@modelcontextprotocol/sdk/types.js"),
  ]);
  const server = new Server(
    { name: "plangate", version: VERSION },
    { capabilities: { tools: {} }, instructions: "plangate checks agent plans before they run. Validate a plan with validate_plan and revise it by the feedback until it is valid; a person approves it outside this server." },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => ({ ...t, inputSchema: t.inputSchema as never, outputSchema: t.outputSchema as never })) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      const r = await callTool(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, ctx);
      return { content: [{ type: "text" as const, text: r.text }], structuredContent: r.structured };
    } catch (err) {
      const message = err instanceof ToolError ? err.message : `internal error: ${(err as Error)?.message ?? String(err)}`;
      return { content: [{ type: "text" as const, text: `plangate: ${message}` }], isError: true };
    }
  });
  return server;
}
