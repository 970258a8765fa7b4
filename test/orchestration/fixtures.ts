import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { checkReturn } from "../../src/node/check-return.js";
import type { ReturnCheckOptions, ReturnCheckResult } from "../../src/orchestration/return.js";
import { checkTask, type TaskCheckOptions, type TaskCheckResult } from "../../src/orchestration/task.js";

/** A fresh temp folder with the given files (path → content). */
export function tempWorkspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "plangate-orch-"));
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}

/** A TODO.md in ProofChecker's shape: front matter, numbered section titles, then tasks. */
export const TODO = `---
next_project_number: 13
task_counts:
  active: 3
---

# TODO

## Task Order

### 0. Phase A (section title, not a task)

- **12** [PLANNED] — parser

### 1. Phase B

\`\`\`
### 7. inside a fence: not a heading
- **Status**: [PLANNED]
\`\`\`

## Tasks

### 12. Fix the parser
- **Effort**: 2 hours
- **Status**: [PLANNED]
- **Language**: lean4

**Description**: Fix it.

---

### 12.5 A subsection that is not task 12

### 5. Write the docs
- **Status**: [NOT STARTED]
- **Language**: markdown

### 3. Old work
**Status:** [COMPLETED]
`;

export const STATE = JSON.stringify({
  active_projects: [
    { project_number: 12, project_name: "fix_the_parser", status: "planned", language: "lean4" },
    { project_number: 5, project_name: "write_docs", status: "researched", language: "markdown" },
  ],
});

/** Checks a task against the fixture TODO.md (and state.json when asked). */
export function task(n: string, options: Partial<TaskCheckOptions> & { withState?: boolean } = {}): TaskCheckResult {
  const { withState, ...rest } = options;
  return checkTask(n, {
    todo: { text: TODO, file: "TODO.md" },
    ...(withState ? { state: { text: STATE, file: "state.json" } } : {}),
    ...rest,
  });
}

/** A return that passes every check in `workspace` (which must hold reports/r.md). */
export function goodReturn(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    status: "completed",
    summary: "Wrote the research report.",
    artifacts: [{ type: "report", path: "reports/r.md" }],
    metadata: { session_id: "sess_1", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research"] },
    session_id: "sess_1",
    ...extra,
  };
}

/** Checks a return value (serialised) with a workspace holding a non-empty reports/r.md. */
export async function ret(value: unknown, options: ReturnCheckOptions = {}): Promise<ReturnCheckResult> {
  const workspace = options.workspace ?? tempWorkspace({ "reports/r.md": "# Report\n" });
  return checkReturn(typeof value === "string" ? value : JSON.stringify(value, null, 2), { workspace, ...options });
}

/** The rule ids reported. */
export function rules(r: { diagnostics: { rule: string }[] }): string[] {
  return r.diagnostics.map((d) => d.rule);
}
