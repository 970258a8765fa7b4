import { describe, expect, it } from "vitest";
import { diagnosticsOf, tools } from "../../../test/helpers.js";
import { defaultPolicy } from "../../policy/defaults.js";

const plan = (...names: string[]) =>
  JSON.stringify({ steps: names.map((tool) => ({ tool, arguments: {}, intent: "do it" })) });

describe("disallowed-tool", () => {
  it("denies reasoning and planning tools by default", async () => {
    const d = await diagnosticsOf("disallowed-tool", plan("read_file", "think", "sequential_thinking"));
    expect(d.map((x) => [x.step, x.pointer])).toEqual([
      [2, "/steps/1/tool"],
      [3, "/steps/2/tool"],
    ]);
    expect(d[0]!.message).toBe('Step 2: the tool "think" is denied by the policy (reasoning and planning tools, and tools.deny, may not run in an approved plan).');
  });
  it("denies case and homoglyph variants of a denied name", async () => {
    expect(await diagnosticsOf("disallowed-tool", plan("Think", "th\u0456nk", "pl\u200ban"))).toHaveLength(3);
  });
  it.each([
    ["ExitPlanMode", "exit_plan_mode", "exit-plan-mode", "EXITPLANMODE"],
    ["EnterPlanMode", "enter_plan_mode", "Enter.Plan.Mode"],
    ["plan_mode", "PlanMode", "plan-mode", "plan mode"],
    ["think", "THINK", "t_h_i_n_k"],
    ["sequential-thinking", "sequential_thinking", "sequentialthinking", "SequentialThinking", "sequential.thinking"],
    ["mcp__sequential-thinking__sequentialthinking", "mcp__sequential_thinking__sequential_thinking", "MCP__Sequential-Thinking__SequentialThinking", "mcp:sequential-thinking/sequentialthinking"],
  ])("denies the host planning and thinking tool %s in every spelling", async (...names) => {
    const d = await diagnosticsOf("disallowed-tool", plan("read_file", ...names));
    expect(d.map((x) => [x.step, x.pointer])).toEqual(names.map((_, i) => [i + 2, `/steps/${i + 1}/tool`]));
  });
  it("leaves names that merely contain a denied word alone", async () => {
    expect(await diagnosticsOf("disallowed-tool", plan("read_file", "planets", "rethink_cache", "exit", "thinking_cap_store"))).toEqual([]);
  });
  it("folds separators in the policy's globs too", async () => {
    const policy = defaultPolicy("/workspace");
    policy.tools.deny.push("mcp__memory__*");
    const d = await diagnosticsOf("disallowed-tool", plan("mcp__memory__store", "mcp-memory-store", "MCP.Memory.Forget", "mcp__files__read"), { policy });
    expect(d.map((x) => x.step)).toEqual([1, 2, 3]);
  });
  it("applies the policy's deny list, globs included", async () => {
    const policy = defaultPolicy("/workspace");
    policy.tools.deny.push("rm_*", "shell");
    const d = await diagnosticsOf("disallowed-tool", plan("rm_rf", "shell", "read_file"), { policy });
    expect(d.map((x) => x.step)).toEqual([1, 2]);
  });
  it("reports a mixed-script look-alike of a known tool", async () => {
    const d = await diagnosticsOf("disallowed-tool", plan("r\u0435ad_file"), { tools: tools("read_file") });
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain("mixes scripts (Cyrillic and Latin)");
    expect(d[0]!.message).toContain('of "read_file"');
  });
  it("reports invisible characters disguising a known tool, and full-width letters", async () => {
    expect(await diagnosticsOf("disallowed-tool", plan("read\u200d_file"), { tools: tools("read_file") })).toHaveLength(1);
    // Without a tool it imitates, an invisible character is unsafe-value's finding alone.
    expect(await diagnosticsOf("disallowed-tool", plan("odd\u200d_tool"))).toEqual([]);
    expect(await diagnosticsOf("disallowed-tool", plan("\uff52ead_file"))).toHaveLength(1);
  });
  it("reports an all-Cyrillic spelling of a known tool", async () => {
    expect(await diagnosticsOf("disallowed-tool", plan("\u0455\u04bb\u0435ll"), { tools: tools("shell") })).toHaveLength(1);
  });
  it("accepts plain allowed tools, and tools that merely contain a denied word", async () => {
    expect(await diagnosticsOf("disallowed-tool", plan("read_file", "plan_route", "write_file"), { tools: tools("read_file", "write_file", "plan_route") })).toHaveLength(0);
  });
  it("applies to scQC steps too", async () => {
    expect(await diagnosticsOf("disallowed-tool", '[{"tool": "think"}]')).toHaveLength(1);
  });
});
