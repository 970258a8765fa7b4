import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../../src/node/policy.js";
import { checkReturn } from "../../src/node/check-return.js";
import { checkTask } from "../../src/orchestration/task.js";
import { realPlan } from "../real-plans.js";
import { rules, tempWorkspace } from "./fixtures.js";

// Real ProofChecker files, read in place from the shared folder (never copied into this repository).
const DIR = realPlan("proofchecker");
const EXAMPLES = join(import.meta.dirname, "../../examples");
const read = (f: string) => readFileSync(join(DIR, f), "utf8");

/** A workspace holding every artifact the return names, non-empty: what the project's disk holds. */
function workspaceFor(file: string): string {
  const value = JSON.parse(read(file)) as { artifacts?: unknown[] };
  const files: Record<string, string> = {};
  for (const a of value.artifacts ?? []) {
    const p = typeof a === "string" ? a : (a as { path: string }).path;
    files[p] = "content\n";
  }
  return tempWorkspace(files);
}

async function check(file: string, policyFile: string, withArtifacts = true) {
  const workspace = withArtifacts ? workspaceFor(file) : tempWorkspace();
  const { policy } = await loadPolicy({ file: join(EXAMPLES, policyFile), cwd: workspace, workspace });
  return checkReturn(read(file), { file, policy, workspace });
}

describe.skipIf(!existsSync(DIR))("ProofChecker's real orchestration files", () => {
  it("finds tasks in TODO.md and skips front matter and the numbered Task Order sections", () => {
    const todo = { text: read("TODO.md"), file: "TODO.md" };
    expect(checkTask("81", { todo }).task).toEqual({
      number: 81,
      title: "F/P Witness Representation Theorem Research",
      status: "planned",
      language: "formal",
    });
    for (const n of ["0", "1", "2", "3", "4"]) expect(rules(checkTask(n, { todo }))).toEqual(["task-not-found"]);
    expect(checkTask("999", { todo }).diagnostics[0]!.message).toBe("Task 999 not found in TODO.md");
    expect(rules(checkTask("81", { todo, operation: "implement" }))).toEqual([]);
    expect(rules(checkTask("81", { todo, operation: "research" }))).toEqual(["task-status"]);
  });
  it("reads state.json's active_projects", () => {
    const state = { text: read("state.json"), file: "state.json" };
    expect(checkTask("58", { state }).task).toMatchObject({ status: "researched", language: "lean4" });
    expect(rules(checkTask("58", { state, todo: { text: read("TODO.md"), file: "TODO.md" } }))).toEqual([]);
  });
  it("reads the .opencode-era TODO.md that the orchestrator validation strategy describes", () => {
    const todo = { text: read("opencode-2026-01-05__TODO.md"), file: "TODO.md" };
    expect(checkTask("312", { todo }).task).toMatchObject({ status: "revised", language: "meta" });
  });

  describe("v2 metadata files with examples/proofchecker-policy.yaml", () => {
    it.each(["task009__.return-meta.json", "specs__.meta-builder-return.json", "task035__.return-meta.json"])(
      "accepts %s (valid for the project)",
      async (file) => {
        expect(rules(await check(file, "proofchecker-policy.yaml"))).toEqual([]);
      },
    );
    it("rejects task925: metadata lacks delegation_depth and delegation_path", async () => {
      const r = await check("task925__.return-meta.json", "proofchecker-policy.yaml");
      expect(r.diagnostics.map((d) => d.expected)).toEqual(["metadata.delegation_depth", "metadata.delegation_path"]);
    });
    it("rejects task394: completed is forbidden in v2, metadata missing, artifacts are strings", async () => {
      const r = await check("task394__research-return-meta.json", "proofchecker-policy.yaml");
      expect(new Set(rules(r))).toEqual(new Set(["return-status", "return-missing-field"]));
      expect(r.diagnostics.some((d) => d.message.includes("bare path"))).toBe(true);
    });
    it("rejects task052: status done, a ~130-token summary, artifacts as strings", async () => {
      const r = await check("task052__.return-meta.json", "proofchecker-policy.yaml");
      expect(new Set(rules(r))).toEqual(new Set(["return-status", "summary-too-long", "return-missing-field"]));
    });
    it("rejects task048 only for its bare-path artifacts", async () => {
      const r = await check("task048__.return-meta.json", "proofchecker-policy.yaml");
      expect(rules(r)).toEqual(["return-missing-field"]);
    });
    it("rejects the /spawn protocol's own file: it is not a subagent return", async () => {
      const r = await check("task018__.spawn-return.json", "proofchecker-policy.yaml");
      expect(rules(r).every((x) => x === "return-missing-field")).toBe(true);
      expect(r.valid).toBe(false);
    });
    it("needs the artifacts on disk for a success", async () => {
      const r = await check("task009__.return-meta.json", "proofchecker-policy.yaml", false);
      expect(rules(r)).toEqual(["artifact-missing", "artifact-missing"]);
    });
  });

  describe("v1 returns with examples/proofchecker-v1-policy.yaml", () => {
    it.each(["task502__implementation-result.json", "subagent-return-format-v1__completed_plan.json"])("accepts %s", async (file) => {
      expect(rules(await check(file, "proofchecker-v1-policy.yaml"))).toEqual([]);
    });
    it("rejects task502 when its artifacts are not on disk", async () => {
      const r = await check("task502__implementation-result.json", "proofchecker-v1-policy.yaml", false);
      expect(rules(r)).toEqual(["artifact-missing", "artifact-missing"]);
    });
    it("rejects task394: no metadata", async () => {
      expect(rules(await check("task394__research-return-meta.json", "proofchecker-v1-policy.yaml"))).toContain("return-missing-field");
    });
  });
});
