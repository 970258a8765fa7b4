import { wordOf } from "../core/place.js";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GuardRefusal, ExecutionGuard } from "../node/guard.js";
import { decideHook, startRun } from "../store/runs.js";
import { parseHookInput } from "../node/hook.js";
import { advance, START } from "../approval/match.js";
import { matchArgument } from "../core/constraints.js";
import { createRecord, toolsHash } from "../approval/record.js";
import { keyId } from "../node/keys.js";
import { registryFromNames } from "../core/tools.js";
import { validatePlan } from "../node/validate-plan.js";
import { planHash } from "../ops/hash.js";
import { defaultPolicy } from "../policy/defaults.js";
import type { Policy } from "../core/policy.js";
import { approvalKit, DEFAULT_POLICY_HASH } from "../../test/approval-kit.js";
import { NOW } from "../../test/helpers.js";
import { createFileProbe } from "../node/file-probe.js";
import { loadProfile, parseProfile } from "../node/profile-file.js";
import {
  BUILTIN_PROFILES,
  callIdentity,
  compileCalls,
  contextFor,
  expectedCalls,
  GENERIC,
  globReachesOut,
  type HostProfile,
  HostMappingError,
  HostProfileError,
  isHostTool,
  isOutsideMarker,
  outsideScope,
  outsideScopeDiagnostic,
  profileAllowList,
  profileHash,
  profileProblem,
  scopedPath,
} from "./profile.js";

/** The real file system: a symlinked alias of the scope is resolved on it. */
const FILES = createFileProbe();

const CC = loadProfile("claude-code");

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh real temp folder (its real path). */
function tmp(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "plangate-profile-")));
  made.push(d);
  return d;
}

/** The message of the HostProfileError a function throws. */
function profileError(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(HostProfileError);
    return (err as Error).message;
  }
  throw new Error("no HostProfileError was thrown");
}

const minimal = (over: Record<string, unknown> = {}) => JSON.stringify({ name: "mine", tools: { Bash: { incidental: ["description"], commands: ["command"] }, Read: { paths: ["file_path"] } }, free: [], ...over });


/** outsideScope and globReachesOut with their reasons in words (core/place.ts words them). */
function outsideWords(identity: Parameters<typeof outsideScope>[0]) {
  return outsideScope(identity).map((b) => ({ ...b, why: wordOf(b.why) }));
}
function globWords(glob: string): string | undefined {
  const r = globReachesOut(glob);
  return r === undefined ? undefined : wordOf(r);
}

describe("loadProfile and parseProfile", () => {
  it.each(BUILTIN_PROFILES.map((n) => [n]))("loads the built-in profile %s, checked and cached", (name) => {
    const p = loadProfile(name);
    expect(p.name).toBe(name);
    expect(profileProblem(p)).toBeUndefined();
    expect(loadProfile(name)).toBe(p);
  });

  it("the generic file and the GENERIC constant are the same profile", () => {
    expect(profileHash(loadProfile("generic"))).toBe(profileHash(GENERIC));
  });

  it.each([["Claude-Code"], ["claude_code"], ["nope"], [""], ["claude-code "], ["../profiles/claude-code"]].filter(([n]) => !n!.includes("/")))(
    "refuses the unknown name %j, naming the known ones",
    (name) => {
      expect(profileError(() => loadProfile(name))).toMatch(/unknown host profile .*known: claude-code, generic/);
    },
  );

  it("loads a profile file by relative path (a `/` or `.json`), against cwd, not cached", () => {
    const d = tmp();
    writeFileSync(join(d, "mine.json"), minimal());
    const a = loadProfile("mine.json", d);
    const b = loadProfile("./mine.json", d);
    expect(a.name).toBe("mine");
    expect(a).not.toBe(b);
    expect(profileHash(a)).toBe(profileHash(b));
    writeFileSync(join(d, "mine.json"), minimal({ description: "changed" }));
    expect(profileHash(loadProfile("mine.json", d))).not.toBe(profileHash(a));
  });

  it("says why a profile file cannot be read", () => {
    const d = tmp();
    expect(profileError(() => loadProfile("missing.json", d))).toMatch(/cannot read host profile missing\.json: ENOENT/);
    mkdirSync(join(d, "dir.json"));
    expect(profileError(() => loadProfile("dir.json", d))).toMatch(/cannot read host profile dir\.json/);
    execFileSync("mkfifo", [join(d, "fifo.json")]);
    expect(profileError(() => loadProfile("fifo.json", d))).toMatch(/cannot read host profile fifo\.json: it is a/);
    writeFileSync(join(d, "huge.json"), " ".repeat(16 * 1024 * 1024 + 1));
    expect(profileError(() => loadProfile("huge.json", d))).toMatch(/cannot read host profile huge\.json: it is over \d+ bytes/);
  });

  it.each([
    ["{", /^p\.json:1:2: /],
    ['{"name": "x",\n  "tools": {}, "free": [],}', /^p\.json:2:/],
    ['{"name": "x", "name": "y", "tools": {}, "free": []}', /^p\.json:1:\d+: .*name/],
    ['{"name": "x", "tools": {"constructor": {}}, "free": []}', /^p\.json:1:\d+: key "constructor"/],
    ['{"name": "x", "tools": {"__proto__": {}}, "free": []}', /^p\.json:1:\d+: key "__proto__"/],
    ["", /^p\.json:/],
  ])("refuses bad JSON %j with its line and column", (text, message) => {
    expect(profileError(() => parseProfile(text, "p.json"))).toMatch(message);
  });

  it("reads a profile with a BOM", () => {
    expect(parseProfile("\ufeff" + minimal(), "p.json").name).toBe("mine");
  });

  it.each([
    [{ name: "Mine" }, /\/name must match/],
    [{ tools: [] }, /\/tools .*object/],
    [{ free: "TodoWrite" }, /\/free .*array/],
    [{ extra: 1 }, /the profile unknown key "extra"/],
    [{ tools: { Bash: { incidentals: ["description"] } } }, /\/tools\/Bash unknown key "incidentals"/],
    [{ tools: { "Bad Name": { paths: 5 } } }, /\/tools unknown key "Bad Name"/],
    [{ tools: { Bash: { paths: "command" } } }, /\/tools\/Bash\/paths must be array/],
    [{ teddy: { EXECUTE: [{ tool: "Bash", args: { command: "shell" } }] } }, /\/teddy\/EXECUTE/],
    [{ teddy: { EXECUTE: { skip: true } } }, /\/teddy\/EXECUTE/],
    [{ teddy: { EXECUTE: [] } }, /\/teddy\/EXECUTE/],
    [{ teddy: { execute: { skip: true, reason: "r" } } }, /\/teddy unknown key "execute"/],
    [{ teddy: { "EXECUTE ": [{ tool: "Bash", args: { command: "command" } }] } }, /\/teddy unknown key "EXECUTE "/],
  ])("refuses a profile the schema refuses (%j), naming the place", (over, message) => {
    const m = profileError(() => parseProfile(minimal(over), "p.json"));
    expect(m).toMatch(/^p\.json: /);
    expect(m).toMatch(message);
    expect(m).toContain("schemas/host-profile.schema.json");
  });

  it.each([
    [{ tools: { Bash: { incidental: ["command"], commands: ["command"] } } }, 'tools.Bash: "command" is incidental and also identity, a path, a command or a glob'],
    [{ tools: { Read: { incidental: ["file_path"], paths: ["file_path"] } } }, 'tools.Read: "file_path" is incidental'],
    [{ tools: { Bash: { identity: ["timeout"], incidental: ["timeout"] } } }, 'tools.Bash: "timeout" is incidental'],
    [{ free: ["TodoWrite"] }, 'free: "TodoWrite" is not one of the profile\'s tools'],
    [{ teddy: { EXECUTE: [{ tool: "Shell", args: { command: "command" } }] } }, 'teddy.EXECUTE: "Shell" is not one of the profile\'s tools'],
    [{ teddy: { EXECUTE: [{ tool: "Bash", args: { description: "command" } }] } }, 'teddy.EXECUTE: "description" is incidental for Bash, so the plan cannot bind it'],
    [{ teddy: { EDIT: [{ tool: "Read", args: { file_path: "path", old: "find" } }] } }, 'teddy.EDIT: find, replace and query need "each"'],
  ])("refuses an inconsistent profile (%j)", (over, message) => {
    expect(profileError(() => parseProfile(minimal(over), "p.json"))).toContain(`p.json: ${message}`);
  });
});

describe("profileHash", () => {
  it("is the same for the same profile however it is written, and changes with any content", () => {
    const a = parseProfile(minimal(), "a");
    const reordered = parseProfile(`{\n  "free": [],\n  "tools": {"Read": {"paths": ["file_path"]}, "Bash": {"commands": ["command"], "incidental": ["description"]}},\n  "name": "mine"\n}`, "b");
    expect(profileHash(reordered)).toBe(profileHash(a));
    expect(profileHash(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(profileHash(loadProfile("claude-code"))).toBe(profileHash(JSON.parse(JSON.stringify(CC)) as HostProfile));
    for (const over of [{ description: "d" }, { free: ["Read"] }, { tools: { Bash: { incidental: ["description", "timeout"], commands: ["command"] }, Read: { paths: ["file_path"] } } }])
      expect(profileHash(parseProfile(minimal(over), "c"))).not.toBe(profileHash(a));
    expect(profileHash(CC)).not.toBe(profileHash(GENERIC));
  });
});

describe("callIdentity (claude-code, scope /ws)", () => {
  const id = (tool: string, args: Record<string, unknown>) => callIdentity(CC, { tool, args }, "/ws", FILES);
  it.each([
    ["Bash", { command: "ls", description: "list", timeout: 5000 }, { command: "ls", run_in_background: false }],
    ["Bash", { command: "ls", run_in_background: true }, { command: "ls", run_in_background: true }],
    ["Read", { file_path: "/ws/a.txt", offset: 10, limit: 20 }, { file_path: "a.txt" }],
    ["Read", { file_path: "/ws/a.pdf", pages: "1-3" }, { file_path: "a.pdf", pages: "1-3" }],
    ["Write", { file_path: "./src//a.py/", content: "x" }, { file_path: "src/a.py", content: "x" }],
    ["Write", { file_path: "/ws/./src/a.py", content: "x" }, { file_path: "src/a.py", content: "x" }],
    ["Write", { file_path: "src/a.py", content: "x", mode: "0777" }, { file_path: "src/a.py", content: "x", mode: "0777" }],
    ["Edit", { file_path: "/ws/a", old_string: "o", new_string: "n" }, { file_path: "a", old_string: "o", new_string: "n", replace_all: false }],
    ["Edit", { file_path: "/ws/a", old_string: "o", new_string: "n", replace_all: true }, { file_path: "a", old_string: "o", new_string: "n", replace_all: true }],
    ["NotebookEdit", { notebook_path: "/ws/n.ipynb", new_source: "x" }, { notebook_path: "n.ipynb", new_source: "x" }],
    ["Grep", { pattern: "x", path: "/ws" }, { pattern: "x", path: "" }],
    ["WebFetch", { url: "https://example.com/", prompt: "p" }, { url: "https://example.com/", prompt: "p" }],
    ["mcp__fs__write", { path: "/etc/passwd", description: "kept" }, { path: "/etc/passwd", description: "kept" }],
    ["write", { file_path: "/ws/a", timeout: 1 }, { file_path: "/ws/a", timeout: 1 }],
  ])("%s %j reads as %j", (tool, args, want) => {
    const r = id(tool, args);
    expect(r).toEqual({ tool, args: want });
    expect(outsideWords(r)).toEqual([]);
  });

  it("never changes the call it reads", () => {
    const args = { command: "ls", description: "d" };
    id("Bash", args);
    expect(args).toEqual({ command: "ls", description: "d" });
  });

  it.each([
    ["/etc/passwd", /outside the approved scope \/ws/],
    ["/ws-evil/a.txt", /outside the approved scope \/ws/],
    ["/w", /outside the approved scope/],
    ["/", /outside the approved scope/],
    ["/ws/../etc/passwd", /"\.\."/],
    ["a/../b", /"\.\."/],
    ["..", /"\.\."/],
    ["a\\b", /backslash/],
    ["..\\..\\x", /backslash/],
    ["~/x", /~/],
    ["~root", /~/],
    ["https://example.com/a", /URL/],
    ["file:///ws/a.txt", /URL/],
    ["FILE:/ws/a.txt", /URL/],
    ["a\u0000b", /NUL/],
    ["a\nb", /control/],
    ["", /empty/],
    ["C:/x", /URL|drive/],
    ["//server/share/x", /UNC/],
    ["\u2024\u2024/x", /./],
  ])("a path %j never matches: %s", (path, why) => {
    const r = id("Write", { file_path: path, content: "x" });
    expect(isOutsideMarker(r.args.file_path)).toBe(true);
    const bad = outsideWords(r);
    expect(bad).toHaveLength(1);
    expect(bad[0]!.key).toBe("file_path");
    expect(bad[0]!.why).toMatch(why);
    // No plan value can equal it, not even the same call read twice.
    expect(matchArgument(path, r.args.file_path)).toBe(false);
    expect(matchArgument(id("Write", { file_path: path, content: "x" }).args.file_path, r.args.file_path)).toBe(false);
  });

  it.each([[42], [null], [["a.txt"]], [{ $glob: "**" }], [true]])("a path that is not a string (%j) never matches", (v) => {
    const r = id("Read", { file_path: v });
    expect(outsideWords(r)).toEqual([{ key: "file_path", path: expect.any(String), why: "is not a string" }]);
  });

  it("the outside diagnostic names the tool, the key and the path, rule path-outside-workspace", () => {
    const d = outsideScopeDiagnostic(id("Write", { file_path: "/etc/cron.d/job", content: "x" }), 3)!;
    expect(d).toMatchObject({ rule: "path-outside-workspace", messageId: "callOutsideScope", severity: "error", step: 3, actual: { tool: "Write", arguments: { file_path: "/etc/cron.d/job" } } });
    expect(d.message).toContain('"file_path" "/etc/cron.d/job" is outside the approved scope /ws');
    expect(outsideScopeDiagnostic(id("Write", { file_path: "a", content: "x" }), 1)).toBeUndefined();
  });

  it("clips a long outside path in the message", () => {
    const long = "/etc/" + "x".repeat(1000);
    const [bad] = outsideWords(id("Read", { file_path: long }));
    expect(bad!.path.length).toBeLessThanOrEqual(200);
  });

  it("the generic profile keeps every call as it is", () => {
    const call = { tool: "Write", args: { file_path: "/etc/passwd", description: "d" } };
    expect(callIdentity(GENERIC, call, "/ws", FILES)).toEqual(call);
  });
});

describe("globs a search tool matches from its folder (Glob pattern, Grep glob)", () => {
  it.each([
    "**/*.py",
    "src/**/*.{ts,tsx}",
    "{src,tests}/**",
    "*.md",
    "a..b/*",
    "src/[a-z]*.py",
    "!(*.min).js",
  ])("%s stays inside the folder it searches", (glob) => {
    expect(globWords(glob)).toBeUndefined();
    const r = callIdentity(CC, { tool: "Glob", args: { pattern: glob, path: "/ws" } }, "/ws", FILES);
    expect(outsideWords(r)).toEqual([]);
  });
  it.each([
    ["/etc/*", "absolute"],
    ["~/.ssh/*", "absolute"],
    ["C:/Windows/*", "absolute"],
    ["{/etc/*,x}", "absolute"],
    ["{x, /etc/*}", "absolute"],
    ["@(/etc)/*", "absolute"],
    ["[/]etc/passwd", "character class"],
    ["../*", '".."'],
    ["../../**/*.key", '".."'],
    ["src/../../*", '".."'],
    ["**/..", '".."'],
    ["{..,x}/*", '".."'],
    ["src\\..\\..\\*", "backslash"],
    ["a\nb", "control character"],
  ])("%s reaches outside: never matches, denied as outside the scope", (glob, why) => {
    expect(globWords(glob)).toContain(why);
    for (const [tool, args] of [
      ["Glob", { pattern: glob, path: "/ws" }],
      ["Grep", { pattern: "secret", glob, path: "/ws" }],
    ] as const) {
      const r = callIdentity(CC, { tool, args }, "/ws", FILES);
      expect(outsideScopeDiagnostic(r, 1)?.rule, `${tool} ${glob}`).toBe("path-outside-workspace");
    }
  });
  it("a non-string glob never matches", () => {
    expect(outsideScopeDiagnostic(callIdentity(CC, { tool: "Glob", args: { pattern: ["/etc/*"] } }, "/ws", FILES), 1)?.rule).toBe("path-outside-workspace");
  });
});

describe("scopedPath on a real file system", () => {
  it("reads an absolute path through a symlink to the scope as the scope's relative path", () => {
    const root = tmp();
    const real = join(root, "data", "proj");
    mkdirSync(real, { recursive: true });
    symlinkSync(real, join(root, "alias"));
    expect(scopedPath(join(root, "alias", "src", "a.py"), real, FILES)).toEqual({ rel: "src/a.py" });
    expect(scopedPath(join(root, "alias"), real, FILES)).toEqual({ rel: "" });
    // The scope given through its alias is normalised to the same relative paths.
    expect(scopedPath(join(real, "src", "a.py"), real, FILES)).toEqual({ rel: "src/a.py" });
    // A sibling of the alias is not the scope.
    mkdirSync(join(root, "alias-evil"));
    expect(scopedPath(join(root, "alias-evil", "a.py"), real, FILES)).toHaveProperty("outside");
    expect(scopedPath(join(root, "data", "a.py"), real, FILES)).toHaveProperty("outside");
  });

  it("keeps a symlinked subfolder as written (the guard resolves it again when the call runs)", () => {
    const ws = tmp();
    mkdirSync(join(ws, "sub"));
    symlinkSync(join(ws, "sub"), join(ws, "link"));
    expect(scopedPath(join(ws, "link", "a.txt"), ws, FILES)).toEqual({ rel: "link/a.txt" });
    expect(scopedPath("link/a.txt", ws, FILES)).toEqual({ rel: "link/a.txt" });
    expect(scopedPath(join(ws, "sub", "a.txt"), ws, FILES)).toEqual({ rel: "sub/a.txt" });
  });

  it("a symlink to somewhere else is not the scope", () => {
    const root = tmp();
    mkdirSync(join(root, "ws"));
    mkdirSync(join(root, "other"));
    symlinkSync(join(root, "other"), join(root, "to-other"));
    expect(scopedPath(join(root, "to-other", "a"), join(root, "ws"), FILES)).toHaveProperty("outside");
  });

  it("a scope that does not exist has no aliases", () => {
    expect(scopedPath("/nonexistent-plangate-scope-x/a", "/nonexistent-plangate-scope", FILES)).toHaveProperty("outside");
  });
});

// ---------------------------------------------------------------------------------------------------
// Plans → host calls

const teddyPlan = (...actions: string[]) => `# Test plan\n\n## Rationale\n\`\`\`text\nBecause.\n\`\`\`\n\n## Action Plan\n\n${actions.join("\n\n---\n\n")}\n`;
const fence = (text: string, lang = "") => "```" + lang + "\n" + text + "\n```";

function policyFor(ws: string, patch?: (p: Policy) => void): Policy {
  const p = defaultPolicy(ws);
  patch?.(p);
  return p;
}

async function validated(text: string, file: string, ws: string, host: HostProfile = CC, patch?: (p: Policy) => void) {
  return validatePlan(text, { file, workspace: ws, policy: policyFor(ws, patch), host, now: NOW });
}

describe("compileCalls: intake plans", () => {
  it("maps each step to its host call: incidental keys dropped, paths read against the scope, defaults filled, repeat/optional/confirm/substeps kept", async () => {
    const ws = tmp();
    const plan = {
      steps: [
        { tool: "Read", arguments: { file_path: `${ws}/in.txt`, offset: 5 }, intent: "read", repeat: 2 },
        { tool: "Bash", arguments: { command: "ls", description: "list", timeout: 10 }, intent: "list", optional: true },
        { tool: "Write", arguments: { file_path: "./out//a.txt", content: "x" }, intent: "write", confirm: true },
        { tool: "Task", arguments: { description: "d", prompt: "p", subagent_type: "general" }, intent: "delegate", steps: [{ tool: "Edit", arguments: { file_path: "a.txt", old_string: "a", new_string: "b" }, intent: "edit" }] },
        { tool: "mcp__srv__do", arguments: { thing: 1 }, intent: "mcp" },
      ],
    };
    const r = await validated(JSON.stringify(plan), "plan.json", ws);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const compiled = compileCalls(CC, r.plan!, ws, FILES);
    expect(compiled).toEqual({
      calls: [
        { step: 1, tool: "Read", args: { file_path: "in.txt" }, repeat: 2, optional: false, confirm: false },
        { step: 2, tool: "Bash", args: { command: "ls", run_in_background: false }, repeat: 1, optional: true, confirm: false },
        { step: 3, tool: "Write", args: { file_path: "out/a.txt", content: "x" }, repeat: 1, optional: false, confirm: true },
        {
          step: 4,
          tool: "Task",
          args: { description: "d", prompt: "p", subagent_type: "general" },
          repeat: 1,
          optional: false,
          confirm: false,
          steps: [{ step: 4, tool: "Edit", args: { file_path: "a.txt", old_string: "a", new_string: "b", replace_all: false }, repeat: 1, optional: false, confirm: false }],
        },
        { step: 5, tool: "mcp__srv__do", args: { thing: 1 }, repeat: 1, optional: false, confirm: false },
      ],
    });
    expect(expectedCalls(CC, r.plan!, ws, FILES)).toEqual((compiled as { calls: unknown }).calls);
  });

  it.each([
    ["write", "/steps/0/tool"],
    ["WRITE", "/steps/0/tool"],
    ["Shell", "/steps/0/tool"],
    ["mcp_srv_do", "/steps/0/tool"],
  ])("refuses a step whose tool %j is not a claude-code tool (unknown-tool, at %s)", async (tool, pointer) => {
    const ws = tmp();
    const r = await validated(JSON.stringify({ steps: [{ tool, arguments: { file_path: "a" }, intent: "x" }] }), "plan.json", ws, CC, (p) => (p.tools.allow = ["*"]));
    const c = compileCalls(CC, r.plan!, ws, FILES);
    expect(c).toHaveProperty("diagnostics");
    const [d] = (c as { diagnostics: { rule: string; step: number; pointer: string; message: string }[] }).diagnostics;
    expect(d).toMatchObject({ rule: "unknown-tool", messageId: "hostNotATool", step: 1, pointer });
    expect(d!.message).toContain(`"${tool}" is not a claude-code tool`);
    expect(r.diagnostics.find((x) => x.rule === "unknown-tool" && x.severity === "error")).toMatchObject({ step: 1, pointer });
    expect(() => expectedCalls(CC, r.plan!, ws, FILES)).toThrow(HostMappingError);
  });

  it.each([
    ["/etc/passwd", /outside the approved scope/],
    ["~/.ssh/authorized_keys", /~/],
    ["a\\b", /backslash/],
    ["file:///etc/passwd", /URL/],
  ])("refuses a plan path %j no host call can match, at the argument", async (path, why) => {
    const ws = tmp();
    const r = await validated(JSON.stringify({ steps: [{ tool: "Write", arguments: { file_path: path, content: "x" }, intent: "w" }] }), "plan.json", ws);
    const c = compileCalls(CC, r.plan!, ws, FILES) as { diagnostics: { rule: string; step: number; pointer: string; message: string }[] };
    expect(c.diagnostics).toHaveLength(1);
    expect(c.diagnostics[0]).toMatchObject({ rule: "unknown-tool", messageId: "hostPathRefused", step: 1, pointer: "/steps/0/arguments/file_path" });
    expect(c.diagnostics[0]!.message).toMatch(why);
  });

  it("wraps `$`-keyed values in $literal when constraints are off, and keeps them as constraints when on", async () => {
    const ws = tmp();
    const plan = JSON.stringify({ steps: [{ tool: "Bash", arguments: { command: { $regex: "ls( -la)?" }, description: { $any: true } }, intent: "list" }] });
    const off = await validated(plan, "plan.json", ws, CC, (p) => (p.rules["argument-constraint"] = "off"));
    const literal = compileCalls(CC, off.plan!, ws, FILES) as { calls: { args: Record<string, unknown> }[] };
    expect(literal.calls[0]!.args).toEqual({ command: { $literal: { $regex: "ls( -la)?" } }, run_in_background: false });
    // As a literal it matches only the very object, never a command line.
    expect(matchArgument(literal.calls[0]!.args.command, "ls")).toBe(false);
    expect(matchArgument(literal.calls[0]!.args.command, { $regex: "ls( -la)?" })).toBe(true);
    const on = await validated(plan, "plan.json", ws, CC, (p) => (p.plan.constraints = "allow"));
    const constrained = compileCalls(CC, on.plan!, ws, FILES, { constraints: true }) as { calls: { args: Record<string, unknown> }[] };
    expect(constrained.calls[0]!.args).toEqual({ command: { $regex: "ls( -la)?" }, run_in_background: false });
  });

  it("with constraints allowed, validation reads a constraint on a path key as the guard will (no refusal)", async () => {
    const ws = tmp();
    const plan = JSON.stringify({ steps: [{ tool: "Write", arguments: { file_path: { $glob: "src/[a-z]*.py" }, content: "x" }, intent: "w" }, { tool: "Read", arguments: { file_path: { $enum: ["a.txt", `${ws}/b.txt`] } }, intent: "r" }] });
    const r = await validated(plan, "plan.json", ws, CC, (p) => (p.plan.constraints = "allow"));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect((compileCalls(CC, r.plan!, ws, FILES, { constraints: true }) as { calls: { args: unknown }[] }).calls.map((c) => c.args)).toEqual([
      { file_path: { $glob: "src/[a-z]*.py" }, content: "x" },
      { file_path: { $enum: ["a.txt", "b.txt"] } },
    ]);
  });

  it.each([
    [["a.txt", "/etc/passwd"], 'lists "/etc/passwd", which is outside the approved scope'],
    [["a.txt", "../b.txt"], 'lists "../b.txt", which holds ".."'],
    [["a.txt", 7], "lists 7, which is not a path"],
    [[{ $glob: "*" }], 'lists {"$glob":"*"}, which is not a path'],
  ])("refuses a path $enum listing %j, at the argument", async (values, why) => {
    const ws = tmp();
    const plan = JSON.stringify({ steps: [{ tool: "Read", arguments: { file_path: { $enum: values } }, intent: "r" }] });
    const r = await validated(plan, "plan.json", ws, CC, (p) => (p.plan.constraints = "allow"));
    const c = compileCalls(CC, r.plan!, ws, FILES, { constraints: true }) as { diagnostics: { rule: string; step: number; pointer: string; message: string }[] };
    expect(c.diagnostics).toHaveLength(1);
    expect(c.diagnostics[0]).toMatchObject({ rule: "unknown-tool", step: 1, pointer: "/steps/0/arguments/file_path" });
    expect(c.diagnostics[0]!.message).toContain(`the Read path "file_path" ${why}`);
  });

  it("with constraints off, a `$` object on a path key is refused at validation: it could never be a path", async () => {
    const ws = tmp();
    const plan = JSON.stringify({ steps: [{ tool: "Write", arguments: { file_path: { $glob: "src/*.py" }, content: "x" }, intent: "w" }] });
    const r = await validated(plan, "plan.json", ws, CC, (p) => (p.rules["argument-constraint"] = "off"));
    expect(r.diagnostics.find((d) => d.rule === "unknown-tool" && d.severity === "error")).toMatchObject({ step: 1, pointer: "/steps/0/arguments/file_path", message: 'Step 1: the Write path "file_path" is not a string, so no call of the host can match it.' });
  });
});

describe("compileCalls: TeDDy plans", () => {
  const edit2 = `### EDIT\n- **File Path:** [src/a.py](/src/a.py)\n\n#### FIND:\n${fence("x = 1")}\n#### REPLACE:\n${fence("x = 2")}\n#### FIND:\n${fence("y = 1")}\n#### REPLACE:\n${fence("y = 2")}`;
  const editAll = `### EDIT\n- **File Path:** [src/a.py](/src/a.py)\n- **Match All:** true\n\n#### FIND:\n${fence("z")}\n#### REPLACE:\n${fence("w")}`;
  const create = `### CREATE\n- **File Path:** [docs/new.md](/docs/new.md)\n- **Description:** a doc\n\n${fence("# New\nText", "markdown")}`;
  const read = `### READ\n- **Resource:** [src/a.py](/src/a.py)`;
  const readUrl = `### READ\n- **Resource:** [the docs](https://example.com/docs)`;
  const execute = `### EXECUTE\n- **Description:** list\n- **Expected Outcome:** files\n- **Timeout:** 30\n\n${fence("ls -la", "shell")}`;
  const chat = `### CHAT_WITH_USER\nHello there.`;
  const prune = `### PRUNE\n- **Resource:** [src/b.py](/src/b.py)`;

  function ws() {
    const d = tmp();
    mkdirSync(join(d, "src"));
    writeFileSync(join(d, "src", "a.py"), "x = 1\ny = 1\nz z\n");
    writeFileSync(join(d, "src", "b.py"), "b\n");
    return d;
  }

  it("maps CREATE, EDIT (one Edit per pair, Match All), READ (a path, a URL) and EXECUTE; skips CHAT_WITH_USER and PRUNE", async () => {
    const d = ws();
    const r = await validated(teddyPlan(create, edit2, editAll, read, readUrl, execute, chat, prune), "plan.md", d);
    expect(r.diagnostics.filter((x) => x.severity === "error")).toEqual([]);
    const c = compileCalls(CC, r.plan!, d, FILES) as { calls: { step: number; tool: string; args: Record<string, unknown> }[] };
    expect(c.calls.map(({ step, tool, args }) => ({ step, tool, args }))).toEqual([
      { step: 1, tool: "Write", args: { file_path: "docs/new.md", content: { $enum: ["# New\nText", "# New\nText\n"] } } },
      { step: 2, tool: "Edit", args: { file_path: "src/a.py", old_string: "x = 1", new_string: "x = 2", replace_all: false } },
      { step: 2, tool: "Edit", args: { file_path: "src/a.py", old_string: "y = 1", new_string: "y = 2", replace_all: false } },
      { step: 3, tool: "Edit", args: { file_path: "src/a.py", old_string: "z", new_string: "w", replace_all: true } },
      { step: 4, tool: "Read", args: { file_path: "src/a.py" } },
      { step: 5, tool: "WebFetch", args: { url: "https://example.com/docs", prompt: { $any: true } } },
      { step: 6, tool: "Bash", args: { command: "ls -la", run_in_background: false } },
    ]);
  });

  it.each([
    ["cwd", "sub"],
    ["env", "A=1"],
  ])("refuses an EXECUTE that sets %s, at its metadata line", async (key, value) => {
    const d = ws();
    mkdirSync(join(d, "sub"));
    const text = teddyPlan(read, `### EXECUTE\n- **Description:** run\n- **${key}:** ${value}\n\n${fence("ls", "shell")}`);
    const r = await validated(text, "plan.md", d);
    const c = compileCalls(CC, r.plan!, d, FILES) as { diagnostics: { rule: string; step: number; pointer: string; message: string; line?: number }[] };
    expect(c.diagnostics).toHaveLength(1);
    expect(c.diagnostics[0]).toMatchObject({ rule: "unknown-tool", step: 2, pointer: `/actions/1/params/${key}` });
    expect(c.diagnostics[0]!.message).toContain(`sets "${key}"`);
    const shown = r.diagnostics.find((x) => x.rule === "unknown-tool")!;
    expect(shown).toMatchObject({ severity: "error", step: 2, pointer: `/actions/1/params/${key}` });
    expect(shown.line).toBe(text.split("\n").findIndex((l) => l.includes(`**${key}:**`)) + 1);
  });

  it("refuses an action the profile does not map (INVOKE), with its step and heading", async () => {
    const d = ws();
    const text = teddyPlan(read, `### INVOKE\n- **Agent:** helper\n\nPlease help.`);
    const r = await validated(text, "plan.md", d);
    const shown = r.diagnostics.filter((x) => x.rule === "unknown-tool" && x.severity === "error");
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ step: 2, pointer: "/actions/1/type", line: text.split("\n").indexOf("### INVOKE") + 1 });
    expect(shown[0]!.message).toContain("the INVOKE action maps to no claude-code tool call");
    expect(r.valid).toBe(false);
  });

  it("the generic profile matches TeDDy steps as they are read (no mapping, no diagnostic)", async () => {
    const d = ws();
    const r = await validated(teddyPlan(read, execute), "plan.md", d, GENERIC);
    expect(r.diagnostics.filter((x) => x.rule === "unknown-tool")).toEqual([]);
    const c = compileCalls(GENERIC, r.plan!, d, FILES) as { calls: { tool: string }[] };
    expect(c.calls.map((x) => x.tool)).toEqual(["READ", "EXECUTE"]);
  });

  it("refuses a READ of a URL on a profile that maps READ only for paths", async () => {
    const d = ws();
    const only = parseProfile(JSON.stringify({ name: "paths-only", tools: { Read: { paths: ["file_path"] } }, free: [], teddy: { READ: [{ tool: "Read", when: "path", args: { file_path: "path" } }] } }), "p");
    const r = await validated(teddyPlan(readUrl), "plan.md", d, only);
    const c = compileCalls(only, r.plan!, d, FILES) as { diagnostics: { rule: string; step: number; message: string }[] };
    expect(c.diagnostics[0]).toMatchObject({ rule: "unknown-tool", messageId: "teddyUrlNoCall", step: 1 });
    expect(c.diagnostics[0]!.message).toContain("a READ of a URL maps to no paths-only tool call");
  });
});

// ---------------------------------------------------------------------------------------------------
// ExecutionGuard with a host profile

type Kit = ReturnType<typeof approvalKit>;

/** Writes a plan into the kit's workspace and signs an approval of it for the host `approvedFor`. */
async function approve(k: Kit, plan: unknown, approvedFor: HostProfile = CC): Promise<{ file: string; approval: string }> {
  const file = join(k.workspace, "plan.json");
  writeFileSync(file, JSON.stringify(plan, null, 2));
  const allow = profileAllowList(approvedFor);
  const tools = allow.length ? registryFromNames(allow, `the ${approvedFor.name} host profile`) : k.tools;
  const record = createRecord({
    planHash: (await planHash(JSON.stringify(plan, null, 2), { file: "plan.json" }))!,
    scope: k.workspace,
    policyHash: DEFAULT_POLICY_HASH,
    toolsHash: toolsHash(tools),
    steps: 1,
    now: NOW,
    keyid: keyId(k.privateKey),
    ...(approvedFor === GENERIC ? {} : { host: { name: approvedFor.name, hash: profileHash(approvedFor) } }),
  });
  return { file, approval: k.sign(record) };
}

/** Opens a guard on a plan written into the kit's workspace, approved for `approvedFor`, run with `host`. */
async function guardOn(k: Kit, plan: unknown, o: { host?: HostProfile | string; approvedFor?: HostProfile; policy?: Policy } = {}) {
  const { file, approval } = await approve(k, plan, o.approvedFor ?? CC);
  return ExecutionGuard.open({
    plan: file,
    approval,
    workspace: k.workspace,
    policyHash: DEFAULT_POLICY_HASH,
    ...(o.policy ? { policy: o.policy } : {}),
    ...(o.host === GENERIC || o.host === "generic" ? { tools: k.tools } : {}),
    host: o.host ?? "claude-code",
    trustedKeys: k.trustedKeys,
    consumedDir: join(k.guardDir, "consumed"),
    audit: join(k.guardDir, "audit.log"),
    now: () => NOW,
  });
}

describe("ExecutionGuard with host claude-code", () => {
  const plan = (ws: string) => ({
    steps: [
      { tool: "Write", arguments: { file_path: "out.txt", content: "hello" }, intent: "write" },
      { tool: "Edit", arguments: { file_path: "out.txt", old_string: "hello", new_string: "bye" }, intent: "edit" },
      { tool: "Bash", arguments: { command: "ls" }, intent: "list" },
      { tool: "Read", arguments: { file_path: `${ws}/out.txt` }, intent: "read" },
    ],
  });

  it("allows the plan's calls as the host makes them: absolute paths, Bash with description and timeout, Read with offset; TodoWrite takes no step", async () => {
    const k = approvalKit();
    const g = await guardOn(k, plan(k.workspace));
    expect(g.profile.name).toBe("claude-code");
    expect(await g.before("TodoWrite", { todos: [{ content: "x", status: "pending" }] })).toEqual({ allow: true, step: 0, free: true });
    expect(await g.before("Write", { file_path: join(k.workspace, "out.txt"), content: "hello" })).toEqual({ allow: true, step: 1 });
    expect(await g.before("TodoWrite", { todos: [] })).toEqual({ allow: true, step: 0, free: true });
    expect(await g.before("Edit", { file_path: join(k.workspace, "out.txt"), old_string: "hello", new_string: "bye", replace_all: false })).toEqual({ allow: true, step: 2 });
    expect(await g.before("Bash", { command: "ls", description: "List the files", timeout: 120000 })).toEqual({ allow: true, step: 3 });
    expect(await g.before("Read", { file_path: "out.txt", offset: 1, limit: 5 })).toEqual({ allow: true, step: 4 });
    expect(g.done).toBe(true);
  });

  it.each([
    ["Write", { file_path: "out.txt", content: "hello!" }, 1, ["content"]],
    ["Write", { file_path: "out.txt", content: "hello", mode: "0777" }, 1, ["mode"]],
    ["Write", { file_path: "other.txt", content: "hello" }, 1, ["file_path"]],
  ])("denies %s %j at step %i, naming the differing keys %j", async (tool, args, step, keys) => {
    const k = approvalKit();
    const g = await guardOn(k, plan(k.workspace));
    const d = await g.before(tool, args);
    expect(d.allow).toBe(false);
    if (d.allow) return;
    expect(d.step).toBe(step);
    expect(d.diagnostic.rule).toBe("guard-step-mismatch");
    expect(d.diagnostic.message).toContain(`differs from the approved one in ${keys.map((x) => `"${x}"`).join(", ")}`);
  });

  it("denies a changed new_string or command, naming the key, and takes no step", async () => {
    const k = approvalKit();
    const g = await guardOn(k, plan(k.workspace));
    expect((await g.before("Write", { file_path: join(k.workspace, "out.txt"), content: "hello" })).allow).toBe(true);
    const edit = await g.before("Edit", { file_path: join(k.workspace, "out.txt"), old_string: "hello", new_string: "rm -rf" });
    expect(edit).toMatchObject({ allow: false, step: 2, diagnostic: { rule: "guard-step-mismatch" } });
    expect(!edit.allow && edit.diagnostic.message).toContain('in "new_string" (new_string: expected "bye", got "rm -rf")');
    expect((await g.before("Edit", { file_path: join(k.workspace, "out.txt"), old_string: "hello", new_string: "bye", replace_all: true })).allow).toBe(false);
    expect((await g.before("Edit", { file_path: join(k.workspace, "out.txt"), old_string: "hello", new_string: "bye" })).allow).toBe(true);
    const bash = await g.before("Bash", { command: "ls -la", description: "ls" });
    expect(bash).toMatchObject({ allow: false, step: 3 });
    expect(!bash.allow && bash.diagnostic.message).toContain('in "command"');
    const bg = await g.before("Bash", { command: "ls", run_in_background: true });
    expect(!bg.allow && bg.diagnostic.message).toContain('in "run_in_background"');
    const sandbox = await g.before("Bash", { command: "ls", dangerouslyDisableSandbox: true });
    expect(!sandbox.allow && sandbox.diagnostic.message).toContain('in "dangerouslyDisableSandbox"');
    const pages = await g.before("Bash", { command: "ls" });
    expect(pages.allow).toBe(true);
    const pdf = await g.before("Read", { file_path: join(k.workspace, "out.txt"), pages: "1-2" });
    expect(!pdf.allow && pdf.diagnostic.message).toContain('in "pages"');
    expect(g.cursor).toEqual({ index: 2, count: 1 });
  });

  it.each([["/etc/passwd"], ["../out.txt"], ["~/out.txt"]])("denies a path outside the workspace (%s) with rule path-outside-workspace", async (path) => {
    const k = approvalKit();
    const g = await guardOn(k, plan(k.workspace));
    const d = await g.before("Write", { file_path: path, content: "hello" });
    expect(d).toMatchObject({ allow: false, step: 1, diagnostic: { rule: "path-outside-workspace" } });
    expect(g.cursor).toEqual({ index: 0, count: 0 });
  });

  it("denies a sibling folder sharing the workspace's name as a prefix", async () => {
    const k = approvalKit();
    const g = await guardOn(k, plan(k.workspace));
    const d = await g.before("Write", { file_path: `${k.workspace}-evil/out.txt`, content: "hello" });
    expect(d).toMatchObject({ allow: false, diagnostic: { rule: "path-outside-workspace" } });
  });

  it("denies a TodoWrite whose call is otherwise fine but comes as a lower-case tool name", async () => {
    const k = approvalKit();
    const g = await guardOn(k, plan(k.workspace));
    const d = await g.before("todowrite", { todos: [] });
    expect(d).toMatchObject({ allow: false, diagnostic: { rule: "guard-step-mismatch" } });
    const w = await g.before("write", { file_path: "out.txt", content: "hello" });
    expect(w).toMatchObject({ allow: false, diagnostic: { rule: "guard-step-mismatch" } });
  });

  it("refuses an approval made for generic when run under claude-code, and one for claude-code under generic", async () => {
    const genericPlan = { steps: [{ tool: "read_file", arguments: { path: "in.txt" }, intent: "read" }] };
    const k1 = approvalKit();
    const e1 = await guardOn(k1, { steps: [{ tool: "Read", arguments: { file_path: "in.txt" }, intent: "read" }] }, { approvedFor: GENERIC, host: "claude-code" }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(GuardRefusal);
    const r1 = (e1 as GuardRefusal).diagnostics;
    expect(r1.map((d) => d.rule)).toContain("approval-policy-mismatch");
    expect(r1.map((d) => d.message)).toContainEqual(expect.stringContaining('is for host "generic", but the host in force is "claude-code"'));
    const k2 = approvalKit();
    const e2 = await guardOn(k2, genericPlan, { approvedFor: CC, host: "generic" }).catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(GuardRefusal);
    expect((e2 as GuardRefusal).diagnostics.filter((d) => d.rule === "approval-policy-mismatch").map((d) => d.message)).toContainEqual(expect.stringContaining('is for host "claude-code", but the host in force is "generic"'));
    // The same plans, approved for the host they run with, open.
    await expect(guardOn(approvalKit(), genericPlan, { approvedFor: GENERIC, host: "generic" })).resolves.toBeInstanceOf(ExecutionGuard);
  });

  it("refuses a profile whose content changed since approval (same name, other hash)", async () => {
    const k = approvalKit();
    const changed: HostProfile = { ...CC, free: [...CC.free, "Read"] };
    const e = await guardOn(k, plan(k.workspace), { approvedFor: CC, host: changed }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GuardRefusal);
    expect((e as GuardRefusal).diagnostics.filter((d) => d.rule === "approval-policy-mismatch").map((d) => d.message)).toContainEqual(expect.stringContaining("the profile changed since approval"));
  });

  it("refuses to open on a plan with a step the host cannot make", async () => {
    const k = approvalKit();
    const e = await guardOn(k, { steps: [{ tool: "write_file", arguments: { path: "a" }, intent: "w" }] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GuardRefusal);
    expect((e as GuardRefusal).diagnostics.map((d) => d.rule)).toContain("unknown-tool");
  });

  it("denies a call through a subfolder that became a symlink out of the workspace after approval", async () => {
    const k = approvalKit();
    mkdirSync(join(k.workspace, "sub"));
    const g = await guardOn(k, { steps: [{ tool: "Write", arguments: { file_path: "sub/x.txt", content: "x" }, intent: "w" }] });
    rmSync(join(k.workspace, "sub"), { recursive: true });
    const outside = join(k.root, "elsewhere");
    mkdirSync(outside);
    symlinkSync(outside, join(k.workspace, "sub"));
    const d = await g.before("Write", { file_path: join(k.workspace, "sub", "x.txt"), content: "x" });
    expect(d).toMatchObject({ allow: false, diagnostic: { rule: "path-outside-workspace" } });
  });
});

// ---------------------------------------------------------------------------------------------------
// Hostile calls and profiles: where the plan's reading and the host's could part

describe("hostile profiles and calls", () => {
  it.each([
    [{ tools: { Read: { paths: ["file_path"] } }, free: ["constructor"] }, 'free: "constructor" is not one of the profile\'s tools'],
    [{ tools: { Read: { paths: ["file_path"] } }, free: ["toString"] }, 'free: "toString" is not one of the profile\'s tools'],
    [{ tools: { Read: { paths: ["file_path"] } }, free: [], teddy: { READ: [{ tool: "hasOwnProperty", args: { file_path: "path" } }] } }, 'teddy.READ: "hasOwnProperty" is not one of the profile\'s tools'],
  ])("a free tool or TeDDy target must be the profile's own tool, not an inherited name (%j)", (over, message) => {
    expect(profileError(() => parseProfile(JSON.stringify({ name: "mine", ...over }), "p.json"))).toBe(`p.json: ${message}`);
  });

  it("the built-in profiles cannot be changed in the process (a change would not change any recorded hash)", () => {
    const cc = loadProfile("claude-code");
    expect(() => (cc.free as string[]).push("Bash")).toThrow(TypeError);
    expect(() => ((cc.tools.Bash!.incidental as string[]).length = 0)).toThrow(TypeError);
    expect(() => ((GENERIC.tools as Record<string, unknown>).Bash = {})).toThrow(TypeError);
    expect(loadProfile("claude-code").free).toEqual(["TodoWrite"]);
  });

  it.each([['{"file_path": "/ws/a", "content": "x", "__proto__": {"replace_all": true}}'], ['{"file_path": "/ws/a", "content": "x", "__proto__": null}'], ['{"file_path": "/ws/a", "content": "x", "constructor": "y"}']])(
    "a call key named like a prototype member (%s) stays in the identity, so it differs from the plan",
    (json) => {
      const args = JSON.parse(json) as Record<string, unknown>;
      const r = callIdentity(CC, { tool: "Write", args }, "/ws", FILES);
      const extra = Object.keys(args).find((k) => k !== "file_path" && k !== "content")!;
      expect(Object.keys(r.args).sort()).toEqual(["content", "file_path", extra].sort());
      expect(Object.getPrototypeOf(r.args)).toBe(Object.prototype);
    },
  );

  it("the library guard denies a Write with an own __proto__ key the plan does not have", async () => {
    const k = approvalKit();
    const g = await guardOn(k, { steps: [{ tool: "Write", arguments: { file_path: "out.txt", content: "x" }, intent: "w" }] });
    const d = await g.before("Write", JSON.parse(`{"file_path": ${JSON.stringify(join(k.workspace, "out.txt"))}, "content": "x", "__proto__": {"x": 1}}`));
    expect(d).toMatchObject({ allow: false, diagnostic: { rule: "guard-step-mismatch" } });
    expect(!d.allow && d.diagnostic.message).toContain('"__proto__"');
  });

  it("never follows a per-process link (/proc/self/cwd, /proc/self/root, /dev/fd) to the scope: plangate and the host are different processes", () => {
    const here = realpathSync(process.cwd());
    for (const path of [`/proc/self/cwd/a.txt`, `/proc/thread-self/cwd/a.txt`, `/proc/${process.pid}/cwd/a.txt`, `/proc/self/root${here}/a.txt`, `/dev/fd/0/a.txt`])
      expect(scopedPath(path, here, FILES), path).toHaveProperty("outside");
    expect(scopedPath(`${here}/a.txt`, here, FILES)).toEqual({ rel: "a.txt" });
  });

  describe("the host's working folder (a hook input's cwd)", () => {
    const ws = () => {
      const d = tmp();
      mkdirSync(join(d, "sub"));
      symlinkSync(d, join(tmp(), "alias"));
      return d;
    };
    it("a relative path or a command line is read as usual when the host works in the scope, under any name", () => {
      const d = ws();
      const alias = join(made[made.length - 1]!, "alias");
      for (const cwd of [d, `${d}/`, alias, undefined]) {
        const ctx = cwd === undefined ? {} : { cwd };
        expect(callIdentity(CC, { tool: "Write", args: { file_path: "a.txt", content: "x" } }, d, FILES, ctx).args).toEqual({ file_path: "a.txt", content: "x" });
        expect(callIdentity(CC, { tool: "Bash", args: { command: "make" } }, d, FILES, ctx).args).toEqual({ command: "make", run_in_background: false });
        expect(callIdentity(CC, { tool: "Grep", args: { pattern: "x" } }, d, FILES, ctx).args).toEqual({ pattern: "x" });
      }
    });
    it.each([
      ["a subfolder", (d: string) => join(d, "sub"), /working folder, which is ".*\/sub", a folder inside the approved scope/],
      ["a folder outside", () => "/tmp", /working folder, which is "\/tmp", outside the approved scope/],
      ["unknown", () => null, /working folder, which the host did not say/],
    ])("when it is %s, a relative path and a command line never match; an absolute path still does", (_what, cwdOf, why) => {
      const d = ws();
      const cwd = cwdOf(d);
      const rel = callIdentity(CC, { tool: "Write", args: { file_path: "a.txt", content: "x" } }, d, FILES, { cwd });
      expect(outsideWords(rel)).toEqual([{ key: "file_path", path: "a.txt", why: expect.stringMatching(why) }]);
      expect(outsideWords(rel)[0]!.why).toContain("give the absolute path");
      const bash = callIdentity(CC, { tool: "Bash", args: { command: "rm config", description: "d" } }, d, FILES, { cwd });
      expect(outsideWords(bash)).toEqual([{ key: "command", path: '"rm config"', why: expect.stringMatching(why) }]);
      expect(outsideScopeDiagnostic(bash, 2)).toMatchObject({ rule: "path-outside-workspace", step: 2 });
      expect(callIdentity(CC, { tool: "Write", args: { file_path: join(d, "a.txt"), content: "x" } }, d, FILES, { cwd }).args).toEqual({ file_path: "a.txt", content: "x" });
      // A path input left out is the host's working folder.
      const grep = callIdentity(CC, { tool: "Grep", args: { pattern: "x" } }, d, FILES, { cwd });
      expect(outsideWords(grep)).toEqual([{ key: "path", path: "(absent)", why: expect.stringMatching(/is left out, so the host uses its working folder/) }]);
      expect(outsideWords(callIdentity(CC, { tool: "Grep", args: { pattern: "x", path: d } }, d, FILES, { cwd }))).toEqual([]);
      // Tools without paths or commands do not depend on it.
      expect(callIdentity(CC, { tool: "WebFetch", args: { url: "https://x/", prompt: "p" } }, d, FILES, { cwd }).args).toEqual({ url: "https://x/", prompt: "p" });
    });
  });
});

describe("hostile plans: what the host would not do as the plan says", () => {
  it.each([
    ["Bash", { command: "rm -rf *", cwd: "build" }, "cwd"],
    ["Bash", { command: "make", env: { PATH: "/tmp" } }, "env"],
    ["Write", { file_path: "a.txt", content: "x", mode: "0777" }, "mode"],
    ["Read", { File_Path: "a.txt" }, "File_Path"],
    ["Edit", { file_path: "a.txt", old_string: "a", new_string: "b", "replace_all\u200b": true }, "replace_all\u200b"],
    ["Edit", { file_path: "a.txt", old_string: "a", new_string: "b", replaceAll: true }, "replaceAll"],
  ])("refuses a %s step binding %j: %s is no input of the host's tool", async (tool, args, key) => {
    const ws = tmp();
    const r = await validated(JSON.stringify({ steps: [{ tool, arguments: args, intent: "x" }] }), "plan.json", ws);
    const c = compileCalls(CC, r.plan!, ws, FILES) as { diagnostics: { rule: string; step: number; pointer: string; message: string }[] };
    expect(c.diagnostics).toHaveLength(1);
    expect(c.diagnostics[0]).toMatchObject({ rule: "unknown-tool", messageId: "hostUnknownInput", step: 1, pointer: `/steps/0/arguments/${key}` });
    expect(c.diagnostics[0]!.message).toContain(`"${key}" is not an input of the claude-code ${tool} tool`);
    expect(r.valid).toBe(false);
  });

  it("a tool the profile lists no inputs for, and MCP tools, take any key", async () => {
    const ws = tmp();
    const only = parseProfile(JSON.stringify({ name: "loose", tools: { Bash: { incidental: ["description"] } }, toolPatterns: ["mcp__*"], free: [] }), "p");
    const r = await validated(JSON.stringify({ steps: [{ tool: "Bash", arguments: { command: "ls", cwd: "x" }, intent: "x" }, { tool: "mcp__a__b", arguments: { cwd: "x" }, intent: "x" }] }), "plan.json", ws, only);
    expect(compileCalls(only, r.plan!, ws, FILES)).toHaveProperty("calls");
    const r2 = await validated(JSON.stringify({ steps: [{ tool: "mcp__a__b", arguments: { cwd: "x" }, intent: "x" }] }), "plan.json", ws);
    expect(compileCalls(CC, r2.plan!, ws, FILES)).toHaveProperty("calls");
  });

  it("a profile cannot map a TeDDy action to an input its tool does not have", () => {
    const text = JSON.stringify({ name: "mine", tools: { Bash: { identity: ["command"] } }, free: [], teddy: { EXECUTE: [{ tool: "Bash", args: { cmd: "command" } }] } });
    expect(profileError(() => parseProfile(text, "p.json"))).toBe('p.json: teddy.EXECUTE: "cmd" is not one of Bash\'s inputs (command)');
  });

  it.each([
    ["### EXECUTE\n- **Description:** clean\n- **Working Directory:** build\n\n" + fence("rm -rf dist", "shell"), "working_directory", "EXECUTE"],
    ["### EXECUTE\n- **Description:** run\n- **Shell:** /tmp/evil-sh\n\n" + fence("ls", "shell"), "shell", "EXECUTE"],
    ["### CREATE\n- **File Path:** [run.sh](/run.sh)\n- **Mode:** 0755\n\n" + fence("echo hi", "shell"), "mode", "CREATE"],
    ["### READ\n- **Resource:** [src/a.py](/src/a.py)\n- **Encoding:** latin-1", "encoding", "READ"],
  ])("refuses TeDDy metadata that TeDDy does not read and no host call carries (%#: %s)", async (action, key, type) => {
    const d = tmp();
    mkdirSync(join(d, "src"));
    writeFileSync(join(d, "src", "a.py"), "x\n");
    const text = teddyPlan(action);
    const r = await validated(text, "plan.md", d);
    const shown = r.diagnostics.filter((x) => x.rule === "unknown-tool" && x.severity === "error");
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ step: 1, pointer: `/actions/0/params/${key}` });
    expect(shown[0]!.line).toBe(text.split("\n").findIndex((l) => l.toLowerCase().includes(key.split("_")[0]!) && l.startsWith("- **")) + 1);
    expect(shown[0]!.message).toContain(`"${key}" is not a setting TeDDy reads for ${type}`);
  });

  it("refuses an EDIT with an empty FIND even when its own rule is off: the host's Edit would create the file", async () => {
    const d = tmp();
    writeFileSync(join(d, "a.py"), "x\n");
    const text = teddyPlan(`### EDIT\n- **File Path:** [a.py](/a.py)\n\n#### FIND:\n${fence("")}\n#### REPLACE:\n${fence("print(1)")}`);
    const r = await validated(text, "plan.md", d, CC, (p) => (p.rules["edit-missing-find-replace"] = "off"));
    const shown = r.diagnostics.filter((x) => x.rule === "unknown-tool" && x.severity === "error");
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ step: 1, pointer: "/actions/0" });
    expect(shown[0]!.message).toContain("a FIND of the EDIT action is empty");
  });

  it("refuses a MultiEdit, or an Edit of another pair, in place of the approved EDIT pair", async () => {
    const d = tmp();
    writeFileSync(join(d, "a.py"), "x = 1\ny = 1\n");
    const text = teddyPlan(`### EDIT\n- **File Path:** [a.py](/a.py)\n\n#### FIND:\n${fence("x = 1")}\n#### REPLACE:\n${fence("x = 2")}`);
    const r = await validated(text, "plan.md", d);
    const calls = expectedCalls(CC, r.plan!, d, FILES);
    const ctx = contextFor(CC);
    const decide = (tool: string, args: Record<string, unknown>) => advance(calls, START, callIdentity(CC, { tool, args }, d, FILES), ctx).allow;
    expect(decide("Edit", { file_path: join(d, "a.py"), old_string: "x = 1", new_string: "x = 2" })).toBe(true);
    expect(decide("MultiEdit", { file_path: join(d, "a.py"), edits: [{ old_string: "x = 1", new_string: "x = 2" }] })).toBe(false);
    expect(decide("Edit", { file_path: join(d, "a.py"), old_string: "y = 1", new_string: "x = 2" })).toBe(false);
    expect(decide("Write", { file_path: join(d, "a.py"), content: "x = 2\ny = 1\n" })).toBe(false);
    expect(decide("NotebookEdit", { notebook_path: join(d, "a.py"), new_source: "x = 2" })).toBe(false);
  });

  it("duplicate keys in a hook input are refused before any profile reads them", () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    expect(() => parseHookInput(enc('{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/w/a","content":"x","file_path":"/etc/passwd"}}'))).toThrow(/duplicate|twice/i);
    expect(() => parseHookInput(enc('{"session_id":"s","cwd":"/w","tool_name":"Write","tool_name":"TodoWrite","tool_input":{}}'))).toThrow(/duplicate|twice/i);
    expect(() => parseHookInput(enc('{"session_id":"s","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/a","content":"x","__proto__":{}}}'))).toThrow(/__proto__/);
  });

  it.each([["mcp__srv__tool", true], ["mcp__", true], ["MCP__srv__tool", false], ["mcp_srv_tool", false], ["xmcp__srv", false], ["Mcp__x", false]])("isHostTool(claude-code, %j) is %s", (tool, want) => {
    expect(isHostTool(CC, tool)).toBe(want);
  });
});

describe("a claude-code run in the hook (decideHook)", () => {
  async function run() {
    const k = approvalKit();
    const dir = join(k.root, "state");
    const plan = {
      steps: [
        { tool: "Bash", arguments: { command: "ls" }, intent: "list" },
        { tool: "Write", arguments: { file_path: "sub/out.txt", content: "x" }, intent: "write" },
      ],
    };
    mkdirSync(join(k.workspace, "sub"));
    const { file, approval } = await approve(k, plan);
    await startRun(dir, { plan: file, approval, workspace: k.workspace, policyHash: DEFAULT_POLICY_HASH, host: "claude-code", trustedKeys: k.trustedKeys, session: "s1", now: () => NOW });
    const ctx = { now: NOW, mode: "claude" as const, noRunPolicy: async () => defaultPolicy(k.workspace), files: createFileProbe };
    const call = (cwd: string | undefined, tool: string, args: Record<string, unknown>) => decideHook(dir, { session: "s1", cwd, tool, args }, ctx);
    return { k, call };
  }

  it("allows the calls from the workspace folder, relative or absolute", async () => {
    const { k, call } = await run();
    expect(await call(k.workspace, "Bash", { command: "ls", description: "List", timeout: 5000 })).toMatchObject({ decision: "allow" });
    expect(await call(k.workspace, "TodoWrite", { todos: [] })).toMatchObject({ decision: "allow" });
    expect(await call(k.workspace, "Write", { file_path: "sub/out.txt", content: "x" })).toMatchObject({ decision: "allow" });
  });

  it("denies a command line or a relative path once the session works in a subfolder (Bash keeps a cd for later calls)", async () => {
    const { k, call } = await run();
    const sub = join(k.workspace, "sub");
    const bash = await call(sub, "Bash", { command: "ls" });
    expect(bash).toMatchObject({ decision: "deny", rule: "path-outside-workspace" });
    expect(bash.reason).toContain(`"${sub}", a folder inside the approved scope`);
    expect(await call(k.workspace, "Bash", { command: "ls" })).toMatchObject({ decision: "allow" });
    // From sub, "out.txt" is sub/out.txt to the host but would be out.txt to a reading against the scope.
    expect(await call(sub, "Write", { file_path: "out.txt", content: "x" })).toMatchObject({ decision: "deny", rule: "path-outside-workspace" });
    expect(await call(undefined, "Write", { file_path: "sub/out.txt", content: "x" })).toMatchObject({ decision: "deny", rule: "path-outside-workspace" });
    expect(await call(sub, "Write", { file_path: join(sub, "out.txt"), content: "x" })).toMatchObject({ decision: "allow" });
  });
});
