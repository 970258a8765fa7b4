import type { Command } from "commander";
import { type CliIO, EXIT } from "../io.js";
import { strayHookBlock, toolHookEvent, type Wrap } from "../main.js";
import { type PlanFlags, resolveSetup } from "../setup.js";
import { isAbsolute, join, resolve } from "node:path";
import { FileSessionRegistry } from "../../store/file-registry.js";
import type { McpContext } from "../../service/mcp.js";
import { FileStore } from "../../store/file.js";
import { closeStore, storeFrom } from "../store-flag.js";

/** `plangate mcp`: the MCP tools over standard input and output (the SDK is loaded by this command only). */
export function registerMcp(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("mcp")
    .description("serve plangate's MCP tools on standard input/output: validate_plan, plan_hash, explain_rule, list_allowed_tools, check_return, check_delegation (no approval)")
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--workspace <dir>", "workspace root (default: the policy's, else the current directory)")
    .option("--tools <file>", "tool registry: one tool a line, or an MCP tools/list result")
    .option("--host <name|file>", "agent host profile (claude-code, generic, or a profile file; default: the policy's host, else generic)")
    .option("--store <url>", "session registry check_delegation reads: file:DIR (its registry/) or postgres://… (default: as check-delegation: delegation.registry, else the policy's store, else .plangate/sessions in the workspace)")
    .action(
      wrap(async (flags: PlanFlags & { store?: string }) => {
        const setup = await resolveSetup(flags, io);
        const { policy } = setup;
        // The registry check-delegation would use, read-only.
        const spec = flags.store ?? (policy.delegation.registry === undefined ? policy.store : undefined);
        const shared = spec === undefined ? undefined : await storeFrom({ store: spec }, undefined, io);
        let sessions: McpContext["sessions"];
        if (shared !== undefined && typeof shared !== "string") sessions = shared;
        else {
          const folder = typeof shared === "string" ? new FileStore(shared).registryDir : (policy.delegation.registry ?? join(policy.workspace, ".plangate", "sessions"));
          const registry = new FileSessionRegistry(isAbsolute(folder) ? folder : resolve(io.cwd, folder));
          sessions = { lookupSession: async (id, now) => registry.lookup(id, now), location: registry.folder };
        }
        const { createMcpServer, importSdk } = await import("../../service/mcp.js");
        const { StdioServerTransport } = await importSdk<typeof import("@modelcontextprotocol/sdk/server/stdio.js")>("@modelcontextprotocol/sdk/server/stdio.js");
        const server = await createMcpServer({ setup, now: io.now, cwd: io.cwd, sessions });
        const transport = new StdioServerTransport();
        // A host's tool-call hook event as the first message: `plangate mcp` was put in the hook's place,
        // where its exit 0 would let the call run. It is looked at, as the transport reads it, up to its
        // first line's end (at most 1 MiB), or standard input's end.
        let stray: string | undefined;
        let head = Buffer.alloc(0);
        let watching = true;
        const look = (bytes: Uint8Array, complete: boolean) => {
          watching = false;
          process.stdin.off("data", onData);
          const event = toolHookEvent(bytes, complete);
          if (event !== undefined) {
            stray = strayHookBlock(["mcp"], event);
            void server.close();
          }
        };
        const onData = (chunk: Buffer) => {
          head = Buffer.concat([head, chunk]);
          const end = head.indexOf(10);
          if (end >= 0) look(head.subarray(0, end), true);
          else if (head.byteLength > 1024 * 1024) look(head, false);
        };
        process.stdin.on("data", onData);
        // Standard output is the protocol's channel: nothing else is written to it until the client leaves.
        await new Promise<void>((done) => {
          server.onclose = () => done();
          process.stdin.once("end", () => {
            if (watching) look(head, true);
            void server.close();
          });
          void server.connect(transport);
        });
        await closeStore(shared);
        if (stray === undefined) return EXIT.ok;
        io.stderr(`plangate: ${stray}\n`);
        return EXIT.usage;
      }),
    );
}
