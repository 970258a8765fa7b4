/**
 * An agent name as compared for cycles: Unicode-compatible, case-folded, separators unified, so
 * "Planner", "planner " and "planner_agent"/"planner-agent" cannot slip past as different agents.
 */
export function normaliseAgent(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u200B-\u200F\u2060\uFEFF]/g, "")
    .trim()
    .replace(/^[@/]+/, "")
    .replace(/[\s_\-.]+/g, "-");
}
