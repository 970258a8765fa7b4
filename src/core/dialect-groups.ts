import type { DialectId } from "./plan.js";

/**
 * Dialects whose steps name one tool with a JSON arguments object. Markdown (teddy) actions are not
 * tools in that sense: their tool is the action type and an EXECUTE command is a shell line.
 */
export const TOOL_CALL_DIALECTS: readonly DialectId[] = ["scqc-legacy", "scqc-envelope", "intake", "ikoma"];
