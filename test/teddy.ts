import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import type { Diagnostic } from "../src/core/diagnostic.js";
import type { PlanReport } from "../src/core/plan-report.js";
import type { ValidateOptions } from "../src/engine.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import type { Policy } from "../src/core/policy.js";
import { run } from "./helpers.js";

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A real temporary workspace holding the given files (path → content). Removed after the test file. */
export function workspace(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), "plangate-teddy-"));
  made.push(root);
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return root;
}

/** A plan.md with a title, a rationale and the given action blocks, separated by `---`. */
export function planMd(...actions: string[]): string {
  return `# Test plan\n\n## Rationale\n\`\`\`text\nBecause.\n\`\`\`\n\n## Action Plan\n\n${actions.join("\n\n---\n\n")}\n`;
}

export interface TeddyOptions extends ValidateOptions {
  policyPatch?: (p: Policy) => void;
}

/** Validates a Markdown plan against a workspace, with the default policy rooted there. */
export function runMd(text: string, ws: string, options: TeddyOptions = {}): Promise<PlanReport> {
  const policy = defaultPolicy(ws);
  options.policyPatch?.(policy);
  return run(text, { file: "plan.md", workspace: ws, policy, ...options });
}

/** The diagnostics of one rule for a Markdown plan. */
export async function mdDiagnostics(rule: string, text: string, ws: string, options: TeddyOptions = {}): Promise<Diagnostic[]> {
  return (await runMd(text, ws, options)).diagnostics.filter((d) => d.rule === rule);
}
