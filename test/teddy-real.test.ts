import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateFile } from "../src/node/validate-file.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import { NOW } from "./helpers.js";
import { realPlan, realPlansPresent } from "./real-plans.js";

// Real TeDDy plans (../shared/real-plans/teddy), read where they are; never copied into the repo.
const dir = realPlan("teddy");
const provenance = realPlan("provenance.json");
const present = realPlansPresent;

interface Row {
  file: string;
  source_valid: boolean | null;
  dialect: string | null;
}

/**
 * Where the recorded verdict is the parser's (a unit test of TeDDy's parser, or a spec example run in
 * no workspace), the targets the plan names do not exist anywhere: the file-system rules are turned
 * off for those, and only the reading and structure verdict is compared.
 */
const PARSER_ONLY = new Set([
  "teddy/new-plan-format-2026-02__example.md",
  "teddy/test_parser_normalizes_windows_style_paths.md",
  "teddy/test_read_action_with_trailing_symbols.md",
]);
/** The rule each rejected plan must be rejected by (the reason the source gives). */
const REASON: Record<string, string> = {
  "teddy/manual_plan.md": "find-no-match",
  "teddy/fail_labels.md": "find-no-match",
  "teddy/test_edit_ambiguity_tie_fail.md": "find-ambiguous",
  "teddy/test_read_fails_if_file_missing.md": "read-file-missing",
  "teddy/test_unknown_action_error_shows_ast.md": "md-action-heading",
  "teddy/test_edit_content_error_shows_ast.md": "edit-missing-find-replace",
  "teddy/test_parser_highlights_multiple_mismatches.md": "parse-error",
  "teddy/test_bug_17__message_under_action_plan.md": "md-action-heading",
  "teddy/test_create_fails_if_file_exists.md": "create-target-exists",
};

/**
 * Plans of a coding agent that write code and then run its tests: the test runner loads the code the
 * plan writes, which plangate does not read, so the policy must trust the language (commands.inlineCode).
 */
const TRUSTS: Record<string, string[]> = {
  "teddy/developer_xml__example.md": ["python"],
};

const empty = mkdtempSync(join(tmpdir(), "plangate-teddy-real-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const rows: Row[] = present ? (JSON.parse(readFileSync(provenance, "utf8")) as Row[]).filter((r) => r.file.startsWith("teddy/") && r.dialect !== "workspace fixture") : [];

describe.skipIf(!present)("real TeDDy plans", () => {
  it("covers every plan of the folder", () => {
    expect(rows.length).toBeGreaterThanOrEqual(19);
  });
  for (const row of rows) {
    const verdict = row.dialect === null ? "unknown-format (a legacy YAML plan, no dialect of plangate)" : row.source_valid === null ? "reads without a crash" : row.source_valid ? "valid" : "invalid";
    it(`${row.file}: ${verdict}`, async () => {
      const path = join(dir, "..", row.file);
      const text = readFileSync(path, "utf8");
      const caseDir = join(dir, "workspaces", row.file.replace(/^teddy\//, "").replace(/\.md$/, ""));
      const ws = existsSync(caseDir) ? caseDir : empty;
      const policy = defaultPolicy(ws);
      if (!/^\s*---\s*$/m.test(text)) policy.markdown.requireSeparators = false;
      if (PARSER_ONLY.has(row.file))
        for (const id of ["edit-target-missing", "read-file-missing", "find-no-match", "find-ambiguous"]) policy.rules[id] = "off";
      const trusts = TRUSTS[row.file];
      if (trusts !== undefined) {
        const untrusted = await validateFile(path, { policy, workspace: ws, now: NOW });
        expect(untrusted.diagnostics.filter((d) => d.severity === "error").map((d) => d.messageId)).toEqual(["writtenCode"]);
        policy.commands.writtenCode = trusts;
      }
      const report = await validateFile(path, { policy, workspace: ws, now: NOW });
      const errors = report.diagnostics.filter((d) => d.severity === "error").map((d) => d.rule);
      if (row.dialect === null) {
        expect(errors).toEqual(["unknown-format"]);
        return;
      }
      if (row.source_valid === true) expect(errors).toEqual([]);
      if (row.source_valid === false) expect(errors).toContain(REASON[row.file]);
      if (row.file.endsWith(".md")) expect(report.dialect).toBe("teddy");
    });
  }
});
