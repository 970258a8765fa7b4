import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";

const bin = join(import.meta.dirname, "../bin/plangate.js");
const built = existsSync(join(import.meta.dirname, "../dist/cli/main.js"));

// A module resolve hook that reports every specifier naming the MCP SDK on stderr.
const hook = 'export async function resolve(s, c, n) { if (s.includes("@modelcontextprotocol")) process.stderr.write("SDK-LOADED " + s + "\\n"); return n(s, c); }';
const register = `data:text/javascript,${encodeURIComponent(`import { register } from "node:module"; register(${JSON.stringify("data:text/javascript," + encodeURIComponent(hook))});`)}`;

describe("the MCP SDK loads lazily", () => {
  it.skipIf(!built)("plangate serve answers hooks and health without loading it; plangate mcp and validate as expected", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-lazy-")));
    const ws = join(root, "ws");
    mkdirSync(ws);
    const p = spawn(process.execPath, ["--import", register, bin, "serve", "--no-policy", "--listen", "127.0.0.1:0", "--state-dir", join(root, "state")], { cwd: ws });
    let stderr = "";
    const port = await new Promise<number>((done, fail) => {
      p.stderr.on("data", (c) => {
        stderr += c;
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
        if (m) done(Number(m[1]));
      });
      p.on("close", () => fail(new Error(stderr)));
    });
    onTestFinished(() => {
      if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
    });
    const post = (path: string, body?: string) =>
      new Promise<string>((done) => {
        const req = request({ host: "127.0.0.1", port, path, method: body === undefined ? "GET" : "POST", headers: { "content-type": "application/json" } }, (res) => {
          let t = "";
          res.on("data", (c) => (t += c));
          res.on("end", () => done(t));
        });
        req.end(body);
      });
    expect(await post("/healthz")).toMatch(/"ok":true/);
    expect(await post("/v1/hooks/claude-code", JSON.stringify({ session_id: "s", cwd: ws, tool_name: "Read", tool_input: {} }))).toMatch(/"deny"/);
    expect(await post("/v1/hash", JSON.stringify({ text: "[]", file: "plan.json" }))).toMatch(/"version": 1/);
    await new Promise((done) => {
      p.on("close", done);
      p.kill("SIGTERM");
    });
    expect(stderr).not.toMatch(/SDK-LOADED/);
    const validate = spawnSync(process.execPath, ["--import", register, bin, "hash", "-"], { input: "[]", cwd: ws, encoding: "utf8" });
    expect(validate.stderr).not.toMatch(/SDK-LOADED/);
    // The hook itself works: the mcp command loads the SDK.
    const mcp = spawnSync(process.execPath, ["--import", register, bin, "mcp", "--no-policy"], { input: "", cwd: ws, encoding: "utf8", timeout: 20_000 });
    expect(mcp.stderr).toMatch(/SDK-LOADED @modelcontextprotocol\/sdk\/server\/stdio\.js/);
    // And it ends, exit 0, when the client closes its input.
    expect(mcp.status).toBe(0);
  }, 60_000);
});
