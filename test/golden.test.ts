import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./cli-io.js";

// Whole runs of `plangate validate` over shared fixture plans, one expected file per output format.
// Regenerate after an intended change with UPDATE_GOLDEN=1 npx vitest run test/golden.test.ts, and review the diff.
const root = join(import.meta.dirname, "golden");
const inputs = readdirSync(join(root, "inputs")).sort();
// Expected files end in .out: they start with the exit code, so they are not JSON for linters to parse.
const FORMATS = ["text", "json", "sarif", "feedback"] as const;
const update = process.env.UPDATE_GOLDEN === "1";

describe("golden outputs", () => {
  for (const input of inputs) {
    for (const format of FORMATS) {
      it(`${input} --output ${format}`, async () => {
        const r = await cli(["validate", `inputs/${input}`, "--tools", "tools.txt", "--output", format], { cwd: root });
        const out = `exit ${r.code}\n${r.stdout}`;
        const file = join(root, "expected", `${input.replace(/\.[^.]+$/, "")}.${format}.out`);
        if (update || !existsSync(file)) {
          mkdirSync(join(root, "expected"), { recursive: true });
          writeFileSync(file, out);
          if (!update) throw new Error(`wrote missing golden file ${file}; review it and run again`);
        }
        expect(out).toBe(readFileSync(file, "utf8"));
        expect(r.stdout).not.toMatch(/\u001b\[/);
      });
    }
  }
});
