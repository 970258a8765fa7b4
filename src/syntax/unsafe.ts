import type { ReadIssue } from "../core/document.js";
import { INVISIBLE } from "../core/lookalike.js";

/** Why a key is unsafe (it names a prototype, or holds an invisible character), or undefined. */
export function unsafeKey(key: string): "prototype" | "invisible" | undefined {
  if (key === "__proto__" || key === "constructor" || key === "prototype") return "prototype";
  if (INVISIBLE.test(key)) return "invisible";
  return undefined;
}

/** Most problems a reader lists for one file: a hostile file could otherwise hold millions, each a diagnostic. */
export const MAX_ISSUES = 1000;

/** The issue that stands for every problem past MAX_ISSUES. */
export function tooManyIssues(start: number): ReadIssue {
  return {
    rule: "limit-exceeded",
    messageId: "tooManyIssues",
    data: { max: MAX_ISSUES },
    start,
    end: start,
  };
}

/** Adds an issue unless the list is full; the first one over the limit becomes a tooManyIssues note. */
export function addIssue(issues: ReadIssue[], issue: ReadIssue): void {
  if (issues.length < MAX_ISSUES) issues.push(issue);
  else if (issues.length === MAX_ISSUES) issues.push(tooManyIssues(issue.start));
}
