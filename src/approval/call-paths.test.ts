import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { NOW } from "../../test/helpers.js";
import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import { callPathProblem } from "./call-paths.js";
import { type ApprovedPlan, decideStep } from "../node/guard.js";
import { createFileProbe } from "../node/file-probe.js";

const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-call-paths-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let ws: string;
let n = 0;
beforeEach(() => {
  ws = join(root, `ws${++n}`);
  mkdirSync(join(ws, "src"), { recursive: true });
  mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
  mkdirSync(join(root, "outside"), { recursive: true });
  writeFileSync(join(root, "outside", "secret.txt"), "s\n");
  writeFileSync(join(ws, "src", "a.txt"), "a\n");
});

const PLAN_BYTES = Buffer.from("the approved plan");
function approved(steps: { tool: string; args: Record<string, unknown> }[], withPaths = true): ApprovedPlan {
  const ap: ApprovedPlan = { file: "plan.json", planHash: "sha256:x", rawHash: sha256Hex(PLAN_BYTES), steps: steps.map((s) => ({ tool: s.tool, args: canonicalJson(s.args) })) };
  if (withPaths) ap.paths = { workspace: ws };
  return ap;
}

describe("paths resolved at the moment of the call", () => {
  it("refuses a write through a symlink an earlier step made (ln -s /etc out)", async () => {
    const steps = [
      // A script the plan runs makes the link (ln -s /etc out): nothing in the plan names /etc.
      { tool: "run_command", args: { command: "sh setup.sh" } },
      { tool: "write_file", args: { path: "out/cron.d/job", content: "* * * * * root sh /tmp/x" } },
    ];
    const ap = approved(steps);
    expect((await decideStep(ap, 0, PLAN_BYTES, steps[0]!.tool, steps[0]!.args, NOW)).allow).toBe(true);
    symlinkSync("/etc", join(ws, "out")); // what the approved step did
    const d = await decideStep(ap, 1, PLAN_BYTES, steps[1]!.tool, steps[1]!.args, NOW);
    expect(d.allow).toBe(false);
    if (d.allow) return;
    expect(d.diagnostic.rule).toBe("path-outside-workspace");
    expect(d.diagnostic.step).toBe(2);
    expect(d.diagnostic.message).toContain("resolves through a symlink to /etc/cron.d/job");
    expect(d.diagnostic.message).toContain("checked when the call was made");
    expect(d.diagnostic.hint).toBe("use a path inside the workspace, relative to its root");
  });

  it("allows the same call when no link was made, and does not check without a workspace", async () => {
    const steps = [{ tool: "write_file", args: { path: "out/cron.d/job", content: "x" } }];
    expect((await decideStep(approved(steps), 0, PLAN_BYTES, "write_file", steps[0]!.args, NOW)).allow).toBe(true);
    symlinkSync("/etc", join(ws, "out"));
    expect((await decideStep(approved(steps, false), 0, PLAN_BYTES, "write_file", steps[0]!.args, NOW)).allow).toBe(true);
    expect((await decideStep(approved(steps), 0, PLAN_BYTES, "write_file", steps[0]!.args, NOW)).allow).toBe(false);
  });

  it.each([
    ["a relative link out", () => symlinkSync("../outside", join(ws, "data")), "write_file", { file_path: "data/secret.txt" }, "path-outside-workspace"],
    ["a link chain", () => (symlinkSync("../outside", join(ws, "c")), symlinkSync("c", join(ws, "b"))), "text_editor", { path: "b/secret.txt" }, "path-outside-workspace"],
    ["a hard link made at run time", () => linkSync(join(root, "outside", "secret.txt"), join(ws, "src", "h.txt")), "sed", { file: "src/h.txt" }, "path-outside-workspace"],
    ["a link into .git", () => symlinkSync(".git/hooks", join(ws, "h")), "write_file", { path: "h/pre-commit" }, "protected-path-write"],
    ["a command line through a link made at run time", () => symlinkSync("/etc", join(ws, "out")), "run_command", { command: "cp src/a.txt out/cron.d/job" }, "path-outside-workspace"],
    ["a command line redirect through a link", () => symlinkSync("../outside", join(ws, "logs")), "run_command", { command: "echo x > logs/secret.txt" }, "path-outside-workspace"],
    ["a command line into .git through a link", () => symlinkSync(".git", join(ws, "g")), "run_command", { command: "cp src/a.txt g/hooks/pre-commit" }, "protected-path-write"],
    ["a reader given content, through a link into .git", () => symlinkSync(".git/hooks", join(ws, "h")), "read_file", { path: "h/pre-commit", content: "x" }, "protected-path-write"],
    ["a folder swapped for a link", () => (rmSync(join(ws, "src"), { recursive: true }), symlinkSync("../outside", join(ws, "src"))), "edit_file", { path: "src/secret.txt" }, "path-outside-workspace"],
  ] as const)("refuses %s", async (_name, make, tool, args, rule) => {
    expect(await callPathProblem(1, tool, args, { workspace: ws }, createFileProbe)).toBeUndefined();
    make();
    expect((await callPathProblem(1, tool, args, { workspace: ws }, createFileProbe))?.rule).toBe(rule);
  });

  it("lets a reader read through a hard link; a policy that turns path-outside-workspace off is overruled", async () => {
    linkSync(join(root, "outside", "secret.txt"), join(ws, "src", "h.txt"));
    expect(await callPathProblem(1, "read_file", { path: "src/h.txt" }, { workspace: ws }, createFileProbe)).toBeUndefined();
    const { defaultPolicy } = await import("../policy/defaults.js");
    const policy = defaultPolicy(ws);
    expect((await callPathProblem(1, "write_file", { path: "src/h.txt" }, { workspace: ws, policy }, createFileProbe))?.rule).toBe("path-outside-workspace");
    policy.rules["path-outside-workspace"] = "off";
    expect((await callPathProblem(1, "write_file", { path: "src/h.txt" }, { workspace: ws, policy }, createFileProbe))?.rule).toBe("path-outside-workspace");
  });
});

describe("a hook call read in the host's working folder (the single-file state guard)", () => {
  const where = (cwd: string): string => (cwd === "ws" ? ws : cwd === "sub" ? join(ws, "src") : cwd === "outside" ? join(root, "outside") : cwd);
  it.each([
    // [the hook input's cwd, tool, arguments, the rule of the refusal (undefined: allowed)]
    ["ws", "read_file", { path: "src/a.txt" }, undefined],
    ["outside", "read_file", { path: "src/a.txt" }, "path-outside-workspace"],
    ["sub", "read_file", { path: "src/a.txt" }, "path-outside-workspace"],
    ["/etc", "read_file", { options: { path: "./passwd" } }, "path-outside-workspace"],
    ["/etc", "Bash", { command: "cat passwd" }, "path-outside-workspace"],
    ["ws", "Bash", { command: "cat src/a.txt" }, undefined],
    // An absolute path names the same file wherever the host works.
    ["outside", "read_file", { path: "ABS" }, undefined],
    // No cwd in the input: a tool the generic profile does not describe is kept as it is, as in a run.
    [undefined, "read_file", { path: "src/a.txt" }, undefined],
  ] as const)("cwd %s, %s %j: %s", async (cwd, tool, args, rule) => {
    const call = JSON.parse(JSON.stringify(args).replace('"ABS"', JSON.stringify(join(ws, "src", "a.txt")))) as Record<string, unknown>;
    const ap = approved([{ tool, args: call }]);
    const d = await decideStep(ap, 0, PLAN_BYTES, tool, call, NOW, { cwd: cwd === undefined ? undefined : where(cwd) });
    expect(d.allow ? undefined : [d.diagnostic.rule, d.diagnostic.step]).toEqual(rule === undefined ? undefined : [rule, 1]);
    // A call that does not come from a hook is made in the workspace.
    expect((await decideStep(ap, 0, PLAN_BYTES, tool, call, NOW)).allow).toBe(true);
  });
});
