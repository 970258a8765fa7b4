import type { RuleMeta } from "../core/rule.js";
import { PROTECTION_RULES, STRUCTURAL_RULES } from "../policy/defaults.js";

function dialects(meta: RuleMeta): string {
  if (meta.phase === "orchestration") return "none (an orchestration check: `check-task`, `check-delegation`, `check-return`)";
  if (meta.phase === "approval") return "none (an approval check: `verify`, `guard`, `audit verify`)";
  return meta.dialects ? meta.dialects.map((d) => `\`${d}\``).join(", ") : "all";
}

/** The README.md of a rule's folder, generated from its catalogue entry so the two never drift. */
export function ruleReadme(meta: RuleMeta): string {
  const lines = [
    `# \`${meta.id}\``,
    "",
    `Default severity: **${meta.defaultSeverity}**. Dialects: ${dialects(meta)}. Phase: ${meta.phase}.`,
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
  if (meta.phase === "approval") {
    lines.push("", "## Configure", "", "Its severity cannot be changed in the policy: a policy edited to lower it would itself be the attack.", "");
    return lines.join("\n");
  }
  if (STRUCTURAL_RULES.has(meta.id)) {
    lines.push("", "## Configure", "", "It is always an error: a policy that lowers it or switches it off is a usage error, since a plan that cannot be read, or reads two ways, would otherwise be valid.", "");
    return lines.join("\n");
  }
  const protection = PROTECTION_RULES.get(meta.id);
  if (protection !== undefined) {
    lines.push("", "## Configure", "", `It is always an error: a policy that lowers it or switches it off is a usage error, since ${protection.why}. Instead, ${protection.instead}.`, "");
    return lines.join("\n");
  }
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
