// Regenerates src/rules/<id>/README.md from the rule catalogue (run after `npm run build`).
import { writeFileSync, existsSync } from "node:fs";
import { RULES } from "../dist/rules/index.js";
import { ruleReadme } from "../dist/rules/readme.js";

for (const rule of RULES) {
  const dir = new URL(`../src/rules/${rule.meta.id}/`, import.meta.url);
  if (!existsSync(dir)) continue;
  writeFileSync(new URL("README.md", dir), ruleReadme(rule.meta));
}
console.log(`wrote ${RULES.length} rule READMEs`);
