import type { IncomingMessage, ServerResponse } from "node:http";
import { createMcpServer, importSdk, type McpContext } from "./mcp.js";

/*
 * /mcp on `plangate serve`: the same tools over MCP's streamable HTTP transport, stateless (a new
 * server and transport per request, JSON answers, no session), with the body read and bounded here.
 * The SDK is loaded on the first /mcp request only.
 */
export async function mcpHttpHandler(ctx: McpContext & { maxRequestBytes: number }): Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> {
  const { StreamableHTTPServerTransport } = await importSdk<typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js")>("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const error = (res: ServerResponse, status: number, message: string) => {
    if (res.headersSent) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
  };
  return async (req, res) => {
    if (req.method !== "POST") {
      req.resume();
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      res.setHeader("allow", "POST");
      return error(res, 405, "POST JSON-RPC messages to /mcp (stateless: no GET stream, no sessions)");
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).byteLength;
      if (size > ctx.maxRequestBytes) {
        res.setHeader("connection", "close");
        return error(res, 413, `the request body is over ${ctx.maxRequestBytes} bytes`);
      }
      chunks.push(c as Buffer);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return error(res, 400, "the request body is not JSON");
    }
    const server = await createMcpServer(ctx);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
}
