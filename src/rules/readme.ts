import type { RuleMeta } from "../core/rule.js";

/** The README.md of a rule's folder, generated from its catalogue entry so the two never drift. */
export function ruleReadme(meta: RuleMeta): string {
  const lines = [
    `# \`${meta.id}\``,
    "",
    `Default severity: **${meta.defaultSeverity}**. Dialects: ${meta.dialects ? meta.dialects.map((d) => `\`${d}\``).join(", ") : "all"}. Phase: ${meta.phase}.`,
    "",
    meta.summary,
    "",
    "## What it catches",
    "",
    meta.docs.description,
    "",
    "## Why",
    "",
    meta.docs.rationale,
    "",
    "## How to fix",
    "",
    meta.docs.fix,
  ];
  if (meta.docs.bad) lines.push("", "## Reported", "", "```", meta.docs.bad, "```");
  if (meta.docs.good) lines.push("", "## Accepted", "", "```", meta.docs.good, "```");
  lines.push(
    "",
    "## Configure",
    "",
    "```yaml",
    "# plangate.yaml",
    "rules:",
    `  ${meta.id}: ${meta.defaultSeverity === "error" ? "warning" : "error"}   # or off`,
    "```",
    "",
  );
  return lines.join("\n");
}
