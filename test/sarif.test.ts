import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { artifactUri, sarifLog } from "../src/formatters/sarif.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import { RULES } from "../src/rules/index.js";
import { explainText } from "../src/rules/explain.js";
import { cli } from "./cli-io.js";
import { run, tools } from "./helpers.js";

function sarifValidator() {
  const schema = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures/sarif/sarif-schema-2.1.0-rtm.5.json"), "utf8"));
  delete schema.$schema;
  delete schema.id;
  // The schema has a pattern that is not valid in Unicode mode ("…-[a-zA-Z]{2}]?$").
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv.compile(schema);
}

const dir = mkdtempSync(join(tmpdir(), "plangate-sarif-"));
writeFileSync(join(dir, "tools.txt"), "search_web\ncreate_text_file\n");
writeFileSync(join(dir, "bad plan.json"), '{"plan": [{"step": 1, "tool_name": "serch_web", "args": {}, "description": "d"}], "reasoning": "r", "x": 1}');
writeFileSync(join(dir, "ok.json"), '{"plan": [{"step": 1, "tool_name": "search_web", "args": {}, "description": "d"}], "reasoning": "r"}');
writeFileSync(join(dir, "stale.json"), '{"version": "1.0", "created_at": "2020-01-01T00:00:00", "plan": [{"tool": "search_web"}]}');

describe("--output sarif", () => {
  it("is valid SARIF 2.1.0 for valid, rejected, unreadable and missing plans", async () => {
    writeFileSync(join(dir, "broken.json"), '{"plan": [');
    const r = await cli(["validate", "bad plan.json", "ok.json", "stale.json", "broken.json", "missing.json", "--tools", "tools.txt", "--output", "sarif"], { cwd: dir });
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const results = log.runs[0].results;
    expect(results.map((x: { ruleId: string }) => x.ruleId).sort()).toEqual(["checksum-missing", "file-not-found", "parse-error", "stale-plan", "unknown-key", "unknown-tool"].sort());
    // Every result has a location; files with spaces are percent-encoded, relative, forward slashes.
    for (const x of results) expect(x.locations[0].physicalLocation.artifactLocation.uri).toMatch(/^[^/\\]/);
    const tool = results.find((x: { ruleId: string }) => x.ruleId === "unknown-tool");
    expect(tool).toMatchObject({
      level: "error",
      locations: [{ physicalLocation: { artifactLocation: { uri: "bad%20plan.json" }, region: { startLine: 1, startColumn: 36, endLine: 1, endColumn: 47 } } }],
      properties: { step: 1, pointer: "/plan/0/tool_name" },
    });
    expect(tool.message.text).toContain('did you mean "search_web"');
    expect(log.runs[0].tool.driver.rules[tool.ruleIndex].id).toBe("unknown-tool");
    const missing = results.find((x: { ruleId: string }) => x.ruleId === "file-not-found");
    expect(missing.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: "missing.json" } });
    expect(results.find((x: { ruleId: string }) => x.ruleId === "stale-plan").level).toBe("warning");
  });
  it("describes every rule that reported, in catalogue order, with its summary, doc and explain text as help", async () => {
    const log = sarifLog([await run("[]", {})]);
    const rules = log.runs[0]!.tool.driver.rules;
    const reported = new Set(log.runs[0]!.results.map((r) => r.ruleId as string));
    expect(rules.map((r) => r.id)).toEqual(RULES.map((r) => r.meta.id).filter((id) => reported.has(id)));
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) {
      expect(r.shortDescription.text.length).toBeGreaterThan(5);
      expect(r.help.text).toBe(explainText(r.id));
      expect(["error", "warning", "note"]).toContain(r.defaultConfiguration.level);
    }
  });
  it("maps warnings to warning and info to note", async () => {
    const plan = '{"plan": [{"step": 1, "tool_name": "a", "args": {}, "description": "d"}], "reasoning": "r"}';
    // Without a registry, unknown-tool warns once (it cannot be lowered: it is a protection); a policy may lower unknown-key to info.
    expect(sarifLog([await run(plan)]).runs[0]!.results).toMatchObject([{ ruleId: "unknown-tool", level: "warning" }]);
    const policy = defaultPolicy("/workspace");
    policy.rules["unknown-key"] = "info";
    const log = sarifLog([await run(plan.replace('"reasoning"', '"extra": 1, "reasoning"'), { policy, tools: tools("a") })]);
    expect(log.runs[0]!.results).toMatchObject([{ ruleId: "unknown-key", level: "note" }]);
    expect(sarifValidator()(log)).toBe(true);
  });
  it("is accepted with a registry too (no results for a valid plan)", async () => {
    const log = sarifLog([await run('{"plan": [{"step": 1, "tool_name": "a", "args": {}, "description": "d"}], "reasoning": "r"}', { tools: tools("a") })]);
    expect(log.runs[0]!.results).toEqual([]);
  });
});

describe("artifactUri", () => {
  it.each([
    ["plans/a.json", undefined, "plans/a.json"],
    ["./plans/a.json", undefined, "plans/a.json"],
    ["plans\\sub\\a b.json", undefined, "plans/sub/a%20b.json"],
    ["/repo/plans/a.json", "/repo", "plans/a.json"],
    ["/elsewhere/a.json", "/repo", "file:///elsewhere/a.json"],
    ["C:\\repo\\a.json", "C:\\repo", "a.json"],
    ["-", "/repo", "stdin"],
    ["plans/100%#.json", undefined, "plans/100%25%23.json"],
  ])("%s (cwd %s) → %s", (file, cwd, uri) => {
    expect(artifactUri(file, cwd)).toBe(uri);
  });
});
