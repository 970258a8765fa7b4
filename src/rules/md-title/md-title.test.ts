import { describe, expect, it } from "vitest";
import { mdDiagnostics, workspace } from "../../../test/teddy.js";

const ws = workspace();
const body = "## Rationale\nWhy.\n\n## Action Plan\n\n### READ\n- Resource: https://example.com\n";

describe("md-title", () => {
  it("reports a plan without an H1", async () => {
    const d = await mdDiagnostics("md-title", body, ws);
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain("no `# Title`");
  });
  it("reports every H1 after the first, at its line", async () => {
    const d = await mdDiagnostics("md-title", `# One\n\n# Two\n\n${body}`, ws);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ line: 3, severity: "error" });
  });
  it("accepts one H1, H1s inside code blocks, a Unicode title and CRLF line endings", async () => {
    const md = `# Ajouter l’éditeur ✏️\n\n${body}\n\`\`\`\`md\n# inside a fence\n\`\`\`\`\n`;
    expect(await mdDiagnostics("md-title", md, ws)).toHaveLength(0);
    expect(await mdDiagnostics("md-title", md.replace(/\n/g, "\r\n"), ws)).toHaveLength(0);
  });
});
