import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIO } from "../src/cli/io.js";
import { resolveSetup } from "../src/cli/setup.js";
import { loadPolicy } from "../src/node/policy.js";
import { createService, type Service } from "../src/service/server.js";
import { FileStore } from "../src/store/file.js";
import { NOW } from "./helpers.js";

const bin = join(import.meta.dirname, "../bin/plangate.js");
const built = existsSync(join(import.meta.dirname, "../dist/cli/main.js"));

const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-mcp-")));
const workspace = join(root, "ws");
mkdirSync(workspace);
mkdirSync(join(root, "cfg"));
const policy = join(root, "cfg", "plangate.yaml");
writeFileSync(policy, "tools:\n  allow: [read_file, write_file]\n");

const VALID = JSON.stringify({ steps: [{ tool: "read_file", arguments: { path: "in.txt" }, intent: "read the input" }] }, null, 2);
const INVALID = JSON.stringify({ steps: [{ tool: "delete_everything", arguments: {}, intent: "oops" }] }, null, 2);

type Text = { type: string; text: string }[];

/** Lists and calls every tool through a connected client; the SDK client checks each structuredContent against its outputSchema. */
async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["check_delegation", "check_return", "explain_rule", "list_allowed_tools", "plan_hash", "validate_plan"]);
  for (const t of tools) {
    expect(t.inputSchema.type).toBe("object");
    expect(t.outputSchema?.type).toBe("object");
    expect(t.name).not.toMatch(/approv|sign|start/);
  }

  const valid = await client.callTool({ name: "validate_plan", arguments: { text: VALID, file: "plan.json" } });
  expect(valid.isError).toBeFalsy();
  expect(valid.structuredContent).toMatchObject({ file: "plan.json", valid: true, dialect: "intake", steps: 1, diagnostics: [], feedback: "", planHash: expect.stringMatching(/^sha256:/) });

  const invalid = await client.callTool({ name: "validate_plan", arguments: { text: INVALID } });
  const sc = invalid.structuredContent as { valid: boolean; diagnostics: { rule: string; line?: number }[]; feedback: string };
  expect(sc.valid).toBe(false);
  expect(sc.diagnostics).toContainEqual(expect.objectContaining({ rule: "unknown-tool", severity: "error", line: 4, column: 15 }));
  expect(sc.feedback).toMatch(/Plan validation failed/);
  expect((invalid.content as Text)[0]!.text).toBe(sc.feedback);

  const teddy = await client.callTool({ name: "validate_plan", arguments: { text: "# T\n", dialect: "teddy" } });
  expect(teddy.structuredContent).toMatchObject({ file: "plan.md", dialect: "teddy", valid: false });

  const hash = await client.callTool({ name: "plan_hash", arguments: { text: VALID, file: "plan.json" } });
  expect(hash.structuredContent).toMatchObject({ valid: true, planHash: (valid.structuredContent as { planHash: string }).planHash, fileSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  const unreadable = await client.callTool({ name: "plan_hash", arguments: { text: "{", file: "plan.json" } });
  expect(unreadable.structuredContent).toMatchObject({ valid: false, diagnostics: [expect.objectContaining({ rule: "parse-error" })] });

  const explain = await client.callTool({ name: "explain_rule", arguments: { rule: "unknown-tool" } });
  expect(explain.structuredContent).toMatchObject({ id: "unknown-tool", defaultSeverity: expect.any(String), description: expect.any(String), fix: expect.any(String) });
  const typo = await client.callTool({ name: "explain_rule", arguments: { rule: "unknown-tol" } });
  expect([typo.isError, (typo.content as Text)[0]!.text]).toEqual([true, expect.stringMatching(/did you mean "unknown-tool"/)]);

  const allowed = await client.callTool({ name: "list_allowed_tools", arguments: {} });
  expect(allowed.structuredContent).toMatchObject({ constrained: true, tools: ["read_file", "write_file"], host: "generic", denied: expect.any(Array) });

  const ret = await client.callTool({ name: "check_return", arguments: { text: JSON.stringify({ status: "partial", summary: "half done", artifacts: [], metadata: {}, session_id: "s1" }), sessionId: "s1", maxSummaryTokens: 0 } });
  expect(ret.structuredContent).toMatchObject({ valid: true, return: { status: "partial", sessionId: "s1" } });
  const wrong = await client.callTool({ name: "check_return", arguments: { text: JSON.stringify({ status: "completed", summary: "done", artifacts: [], metadata: {}, session_id: "s2" }), sessionId: "s1" } });
  expect((wrong.structuredContent as { valid: boolean }).valid).toBe(false);

  const delegation = await client.callTool({ name: "check_delegation", arguments: { target: "coder", path: ["orchestrator", "planner"] } });
  expect(delegation.structuredContent).toMatchObject({ valid: true, depth: 2, maxDepth: 3, diagnostics: [] });
  const cycle = await client.callTool({ name: "check_delegation", arguments: { target: "Planner", path: ["orchestrator", "planner"] } });
  expect((cycle.structuredContent as { valid: boolean }).valid).toBe(false);
  const deep = await client.callTool({ name: "check_delegation", arguments: { target: "e", path: ["a", "b", "c", "d"] } });
  expect((deep.structuredContent as { valid: boolean; depth: number }).valid).toBe(false);

  // Unknown tools and arguments are errors the model reads, not crashes; there is no approve tool.
  const approve = await client.callTool({ name: "approve_plan", arguments: { text: VALID } });
  expect([approve.isError, (approve.content as Text)[0]!.text]).toEqual([true, expect.stringMatching(/unknown tool "approve_plan"/)]);
  const extra = await client.callTool({ name: "plan_hash", arguments: { text: VALID, path: "/etc/passwd" } });
  expect([extra.isError, (extra.content as Text)[0]!.text]).toEqual([true, expect.stringMatching(/unknown argument "path"/)]);
}

describe("plangate mcp", () => {
  it.skipIf(!built)("over stdio: lists and calls every tool with the SDK's client", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "--policy", policy], cwd: workspace, stderr: "pipe" });
    const client = new Client({ name: "plangate-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe("plangate");
      await exercise(client);
    } finally {
      await client.close();
    }
  }, 60_000);

  const services: Service[] = [];
  afterAll(async () => {
    for (const s of services) await s.close();
  });

  it("without the optional SDK: a missing-dependency error saying how to install it, and /mcp answers 501", async () => {
    const { createMcpServer, setSdkImporter, SDK_MISSING } = await import("../src/service/mcp.js");
    const { MissingDependency } = await import("../src/core/missing-dependency.js");
    const missing = Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk'"), { code: "ERR_MODULE_NOT_FOUND" });
    const prev = setSdkImporter(async () => {
      throw missing;
    });
    try {
      const io = { cwd: workspace, env: {}, now: () => NOW } as unknown as CliIO;
      const setup = await resolveSetup({ policy }, io);
      const err = await createMcpServer({ setup, now: () => NOW, cwd: workspace }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MissingDependency);
      expect((err as Error).message).toBe(SDK_MISSING);
      expect(SDK_MISSING).toContain("npm install @modelcontextprotocol/sdk");
      const service = createService({ loaded: await loadPolicy({ file: policy, cwd: workspace }), setup, stateDir: join(root, "state"), trustedKeys: [], cwd: workspace, env: {}, now: () => NOW, mcp: true, log: () => undefined });
      services.push(service);
      const { port } = await service.listen("127.0.0.1", 0);
      const r = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(r.status).toBe(501);
      expect(await r.json()).toEqual({ version: 1, error: { code: "missing-dependency", message: SDK_MISSING } });
    } finally {
      setSdkImporter(prev);
    }
  });

  it("over streamable HTTP at /mcp of plangate serve, behind the same token", async () => {
    const io = { cwd: workspace, env: {}, now: () => NOW } as unknown as CliIO;
    const token = "k".repeat(40);
    const service = createService({
      loaded: await loadPolicy({ file: policy, cwd: workspace }),
      setup: await resolveSetup({ policy }, io),
      stateDir: join(root, "state"),
      trustedKeys: [],
      cwd: workspace,
      env: {},
      now: () => NOW,
      mcp: true,
      token,
      log: () => undefined,
    });
    services.push(service);
    const { port } = await service.listen("127.0.0.1", 0);
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const refused = new Client({ name: "no-token", version: "1.0.0" });
    await expect(refused.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow();
    const client = new Client({ name: "plangate-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  }, 60_000);

  it.skipIf(!built)("check_delegation looks the session id up in the registry check-delegation uses, and registers nothing", async () => {
    const dir = join(root, "registry-state");
    const store = new FileStore(dir);
    expect((await store.registerSession("busy-1", { now: new Date(), ttlSeconds: 3600, agent: "coder" })).ok).toBe(true);
    const ask = async (client: Client, id: string) => {
      const r = await client.callTool({ name: "check_delegation", arguments: { target: "coder", path: ["orchestrator"], sessionId: id } });
      return (r.structuredContent as { diagnostics: { rule: string }[] }).diagnostics.map((d) => d.rule);
    };
    const stdio = new Client({ name: "plangate-test", version: "1.0.0" });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "--policy", policy, "--store", `file:${dir}`], cwd: workspace, stderr: "pipe" }));
    const io = { cwd: workspace, env: {}, now: () => new Date() } as unknown as CliIO;
    const service = createService({ loaded: await loadPolicy({ file: policy, cwd: workspace }), setup: await resolveSetup({ policy }, io), stateDir: dir, trustedKeys: [], cwd: workspace, env: {}, now: () => new Date(), mcp: true, log: () => undefined });
    services.push(service);
    const { port } = await service.listen("127.0.0.1", 0);
    const http = new Client({ name: "plangate-test", version: "1.0.0" });
    await http.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    try {
      for (const client of [stdio, http]) {
        expect(await ask(client, "busy-1")).toEqual(["session-id-reused"]);
        expect(await ask(client, "free-1")).toEqual([]);
      }
      // Read-only: the free id is still free.
      expect(await store.lookupSession("free-1", new Date())).toBeUndefined();
    } finally {
      await stdio.close();
      await http.close();
    }
  }, 60_000);
});
