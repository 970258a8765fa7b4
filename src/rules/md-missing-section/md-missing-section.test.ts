import { describe, expect, it } from "vitest";
import { mdDiagnostics, workspace } from "../../../test/teddy.js";

const ws = workspace();
const action = "### READ\n- Resource: https://example.com\n";

describe("md-missing-section", () => {
  it("reports a missing ## Rationale", async () => {
    const d = await mdDiagnostics("md-missing-section", `# T\n\n## Action Plan\n${action}`, ws);
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain("Rationale");
    expect(await mdDiagnostics("md-missing-section", `# Überblick\r\n\r\n## Begründung\r\nx\r\n\r\n## Action Plan\r\n${action}`, ws)).toHaveLength(1);
  });
  it("reports a plan with neither ## Action Plan nor ## Message", async () => {
    const d = await mdDiagnostics("md-missing-section", "# T\n\n## Rationale\nWhy.\n", ws);
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain("Action Plan");
  });
  it("does not take a heading inside a code block for a section", async () => {
    const d = await mdDiagnostics("md-missing-section", "# T\n\n```\n## Rationale\n```\n\n## Action Plan\n" + action, ws);
    expect(d).toHaveLength(1);
  });
  it("accepts Rationale with Action Plan, with Message, backticked headings and extra sections", async () => {
    expect(await mdDiagnostics("md-missing-section", `# T\n\n## Rationale\nx\n\n## Memos\ny\n\n## \`Action Plan\`\n${action}`, ws)).toHaveLength(0);
    expect(await mdDiagnostics("md-missing-section", "# T\r\n\r\n## Rationale\r\nx\r\n\r\n## Message\r\nHi.\r\n", ws)).toHaveLength(0);
  });
});

describe("md-missing-section: one of each", () => {
  it("reports a second ## Action Plan, and ## Message next to ## Action Plan", async () => {
    const d = await mdDiagnostics("md-missing-section", `# T\n\n## Rationale\nx\n\n## Action Plan\n${action}\n## Action Plan\n${action}\n## Message\nHi.\n`, ws);
    expect(d.map((x) => x.line)).toEqual([10, 14]);
    expect(d[0]!.message).toContain("a second `## Action Plan` section");
    expect(d[1]!.message).toContain("both");
  });
});
