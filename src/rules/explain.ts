import { findRule } from "./index.js";

function dialectsOf(id: string): string {
  const d = findRule(id)?.meta.dialects;
  return d ? d.join(", ") : "all";
}

/** The doc of a rule as `plangate explain` prints it (also SARIF's help text). */
export function explainText(id: string): string | undefined {
  const rule = findRule(id);
  if (!rule) return undefined;
  const m = rule.meta;
  const parts = [
    `${m.id} (${m.defaultSeverity}; dialects: ${dialectsOf(m.id)})`,
    "",
    m.docs.description,
    "",
    `Why: ${m.docs.rationale}`,
    "",
    `Fix: ${m.docs.fix}`,
  ];
  if (m.docs.bad) parts.push("", "Reported:", `  ${m.docs.bad}`);
  if (m.docs.good) parts.push("", "Accepted:", `  ${m.docs.good}`);
  parts.push("", `Change its severity in plangate.yaml: rules: { ${m.id}: off | warning | error }`);
  return parts.join("\n") + "\n";
}
