import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";

const ws = workspace({ "docs/spec.md": "# Spec\n" });

describe("missing-resource", () => {
  it("reports a READ and a PRUNE without Resource", async () => {
    const d = await mdDiagnostics("missing-resource", planMd("### READ\n- Description: x", "### PRUNE\n- **Description:** y"), ws);
    expect(d.map((x) => [x.step, x.message.slice(0, 17)])).toEqual([
      [1, "Step 1 (READ): no"],
      [2, "Step 2 (PRUNE): n"],
    ]);
  });
  it("accepts a local path, a URL and CRLF", async () => {
    const md = planMd("### READ\n- **Resource:** [docs/spec.md](/docs/spec.md)", "### READ\n- Resource: [page](https://example.com/ü)", "### PRUNE\n- Resource: docs/spec.md");
    expect(await mdDiagnostics("missing-resource", md, ws)).toHaveLength(0);
    expect(await mdDiagnostics("missing-resource", md.replace(/\n/g, "\r\n"), ws)).toHaveLength(0);
  });
});
