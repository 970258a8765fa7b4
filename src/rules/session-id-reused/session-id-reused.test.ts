import { existsSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDelegation } from "../../orchestration/delegation.js";
import { MemorySessionRegistry, sessionIdProblem } from "../../orchestration/registry.js";
import { FileSessionRegistry } from "../../store/file-registry.js";
import { NOW } from "../../../test/helpers.js";
import { rules, tempWorkspace } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { delegationInput } from "../../../test/kind-inputs.js";

const later = (s: number) => new Date(NOW.getTime() + s * 1000);

describe("session-id-reused", () => {
  for (const [name, make] of [
    ["file registry", () => new FileSessionRegistry(join(tempWorkspace(), "sessions"))],
    ["memory registry", () => new MemorySessionRegistry()],
  ] as const) {
    describe(name, () => {
      it("registers when every check passes, then refuses the same id", () => {
        const registry = make();
        const first = checkDelegation({ target: "planner", path: ["orchestrator"], sessionId: "sess_1", registry, register: true, now: NOW });
        expect(first.valid).toBe(true);
        expect(first.registered?.session_id).toBe("sess_1");
        const again = checkDelegation({ target: "coder", path: ["orchestrator"], sessionId: "sess_1", registry, now: NOW });
        expect(rules(again)).toEqual(["session-id-reused"]);
        expect(again.diagnostics[0]!.message).toContain('Session id "sess_1" is already active (delegated to "planner"');
      });
      it("does not register when another check fails", () => {
        const registry = make();
        const r = checkDelegation({ target: "a", path: ["orchestrator", "a"], sessionId: "sess_2", registry, register: true, now: NOW });
        expect(rules(r)).toEqual(["delegation-cycle"]);
        expect(registry.lookup("sess_2", NOW)).toBeUndefined();
      });
      it("frees an id after its TTL and after release", () => {
        const registry = make();
        expect(registry.register("sess_3", { now: NOW, ttlSeconds: 60 }).ok).toBe(true);
        expect(registry.register("sess_3", { now: later(59), ttlSeconds: 60 }).ok).toBe(false);
        expect(registry.lookup("sess_3", later(61))).toBeUndefined();
        expect(registry.register("sess_3", { now: later(61), ttlSeconds: 60 }).ok).toBe(true);
        expect(registry.release("sess_3")).toBe(true);
        expect(registry.release("sess_3")).toBe(false);
        expect(registry.register("sess_3", { now: later(62), ttlSeconds: 60 }).ok).toBe(true);
      });
      it("treats ids that differ only in case as one", () => {
        const registry = make();
        registry.register("Sess_4", { now: NOW, ttlSeconds: 60 });
        expect(rules(checkDelegation({ target: "x", path: ["o"], sessionId: "sess_4", registry, now: NOW }))).toEqual(["session-id-reused"]);
      });
    });
  }

  it.each(["../etc/passwd", "a/b", "a\\b", "..", ".hidden", "", "x".repeat(129), "sess 1", "séss", "a\0b"])(
    "refuses the unsafe id %j without touching the file system",
    (id) => {
      const dir = join(tempWorkspace(), "sessions");
      const registry = new FileSessionRegistry(dir);
      expect(sessionIdProblem(id)).toBeDefined();
      const r = checkDelegation({ target: "x", path: ["o"], sessionId: id, registry, register: true, now: NOW });
      expect(rules(r)).toEqual(["session-id-reused"]);
      expect(existsSync(dir)).toBe(false);
      expect(() => registry.register(id, { now: NOW, ttlSeconds: 1 })).toThrow();
    },
  );

  it("stores one JSON file per id with the entry's fields and leaves no temp files", () => {
    const dir = join(tempWorkspace(), "sessions");
    const registry = new FileSessionRegistry(dir);
    registry.register("sess_5", { now: NOW, ttlSeconds: 3600, agent: "planner" });
    expect(readdirSync(dir)).toEqual(["sess_5.json"]);
    const entry = JSON.parse(readFileSync(join(dir, "sess_5.json"), "utf8"));
    expect(entry).toMatchObject({ session_id: "sess_5", registered_at: NOW.toISOString(), expires_at: later(3600).toISOString(), agent: "planner" });
    expect(typeof entry.pid).toBe("number");
  });

  it("fails closed on an unreadable entry until it is older than the TTL", () => {
    const dir = join(tempWorkspace(), "sessions");
    const registry = new FileSessionRegistry(dir);
    registry.register("sess_6", { now: NOW, ttlSeconds: 60 });
    const file = join(dir, "sess_6.json");
    writeFileSync(file, "{ garbage");
    utimesSync(file, NOW, NOW);
    const strict = new FileSessionRegistry(dir, { ttlSeconds: 60 });
    expect(strict.register("sess_6", { now: later(30), ttlSeconds: 60 }).ok).toBe(false);
    expect(strict.lookup("sess_6", later(30))).toBeDefined();
    expect(strict.lookup("sess_6", later(61))).toBeUndefined();
    expect(registry.lookup("sess_6", later(61))).toBeDefined();
    expect(strict.register("sess_6", { now: later(61), ttlSeconds: 60 }).ok).toBe(true);
  });

  it("refuses a takeover while another holds the lock", () => {
    const dir = join(tempWorkspace(), "sessions");
    const registry = new FileSessionRegistry(dir);
    registry.register("sess_7", { now: NOW, ttlSeconds: 1 });
    writeFileSync(join(dir, "sess_7.json.lock"), "123\n");
    const r = registry.register("sess_7", { now: later(10), ttlSeconds: 1 });
    expect(r.ok).toBe(false);
  });

  it("does not follow a symlinked entry out of the folder when releasing", () => {
    const ws = tempWorkspace({ "outside.txt": "keep" });
    const dir = join(ws, "sessions");
    const registry = new FileSessionRegistry(dir);
    registry.register("sess_8", { now: NOW, ttlSeconds: 60 });
    registry.release("sess_8");
    symlinkSync(join(ws, "outside.txt"), join(dir, "sess_8.json"));
    expect(registry.release("sess_8")).toBe(true);
    expect(readFileSync(join(ws, "outside.txt"), "utf8")).toBe("keep");
  });
});

kindRuleTester("session-id-reused", "delegation", {
  valid: [
    { name: "a free session id", input: delegationInput("researcher", ["orchestrator"], { sessionId: "sess_1" }) },
    { name: "no session id", input: delegationInput("researcher", ["orchestrator"]) },
  ],
  invalid: [
    {
      name: "an active session",
      input: delegationInput("researcher", ["orchestrator"], { sessionId: "sess_1", active: { agent: "planner", expiresAt: "2026-01-01T00:00:00.000Z" } }),
      errors: [
        {
          messageId: "active",
          message: 'Session id "sess_1" is already active (delegated to "planner", expires 2026-01-01T00:00:00.000Z); give the new delegation a fresh session id.',
          actual: "sess_1",
        },
      ],
    },
    {
      name: "taken, with nothing known of the holder",
      input: delegationInput("researcher", ["orchestrator"], { sessionId: "sess_1", active: {} }),
      errors: [{ messageId: "active", message: 'Session id "sess_1" is already active; give the new delegation a fresh session id.' }],
    },
    {
      name: "blocked by an unreadable entry",
      input: delegationInput("researcher", ["orchestrator"], { sessionId: "sess_1", active: { unreadable: "its entry is a symlink" } }),
      errors: [{ messageId: "blocked", message: 'Session id "sess_1" is blocked: its entry is a symlink.' }],
    },
    {
      name: "a malformed id is refused, not skipped",
      input: delegationInput("researcher", ["orchestrator"], { sessionId: "../x", sessionIdProblem: "it contains a path separator" }),
      errors: [{ messageId: "malformed", message: 'Session id "../x" cannot be checked against the active registry: it contains a path separator.', actual: "../x" }],
    },
  ],
});
