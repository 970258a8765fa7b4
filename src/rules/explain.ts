import { PROTECTION_RULES, STRUCTURAL_RULES } from "../policy/defaults.js";
import { findRule } from "./index.js";

/** What `rules` and `explain` say a rule applies to. */
export function dialectsOf(id: string): string {
  const meta = findRule(id)?.meta;
  if (meta?.phase === "orchestration") return "none (an orchestration check)";
  if (meta?.phase === "approval") return "none (an approval and guard check)";
  return meta?.dialects ? meta.dialects.join(", ") : "all";
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
  parts.push(
    "",
    m.phase === "approval"
      ? "Its severity cannot be changed: a policy edited to lower it would itself be the attack."
      : STRUCTURAL_RULES.has(m.id)
        ? "Its severity cannot be changed: without it a plan that cannot be read, or reads two ways, would be valid."
        : PROTECTION_RULES.has(m.id)
          ? `Its severity cannot be changed: ${PROTECTION_RULES.get(m.id)!.why}; ${PROTECTION_RULES.get(m.id)!.instead}.`
          : `Change its severity in plangate.yaml: rules: { ${m.id}: off | warning | error }`,
  );
  return parts.join("\n") + "\n";
}
