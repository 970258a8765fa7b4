import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRun } from "../src/approval/runs.js";
import { approvalKit, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";

describe("guard repair after the last step", () => {
  it("a guard killed between the last step's allow line and its complete line leaves a run that repair completes", async () => {
    const k = approvalKit();
    const dir = join(k.root, "state");
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const started = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state-dir", dir, "--trusted-keys", k.keys.publicFile, "--session", "s", "-o", "json"], { cwd: k.workspace });
    const run = (JSON.parse(started.stdout) as { results: { run: string }[] }).results[0]!.run;
    const call = (i: number) =>
      cli(["guard", "--state-dir", dir, "--no-policy"], { stdin: JSON.stringify({ session_id: "s", cwd: k.workspace, hook_event_name: "PreToolUse", tool_name: PLAN[i]!.tool, tool_input: PLAN[i]!.params }) });
    expect((await call(0)).code).toBe(0);
    expect((await call(1)).code).toBe(0);
    const file = join(dir, "runs", `${run}.json`);
    copyFileSync(file, join(k.root, "before.json"));
    expect((await call(2)).code).toBe(0);
    expect(readRun(dir, run).status).toBe("complete");
    // As if killed right after the allow line: the run file of before, the trail without its complete line.
    const trail = readRun(dir, run).audit;
    const lines = readFileSync(trail, "utf8").trimEnd().split("\n");
    expect(JSON.parse(lines.at(-1)!).event).toBe("complete");
    writeFileSync(trail, lines.slice(0, -1).join("\n") + "\n");
    copyFileSync(join(k.root, "before.json"), file);
    expect(readRun(dir, run).status).toBe("active");
    const r = await cli(["guard", "repair", run, "--state-dir", dir]);
    expect([r.code, r.stdout]).toEqual([0, expect.stringMatching(/rolled forward: 1 audit line/)]);
    expect(readRun(dir, run)).toMatchObject({ status: "complete", progress: { cursor: { index: 2, count: 1 } } });
    const after = await call(0);
    expect([after.code, after.stderr]).toEqual([2, expect.stringMatching(/All 3 approved steps have run/)]);
  });
});
