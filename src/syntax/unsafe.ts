import type { ReadIssue } from "../core/document.js";
import { INVISIBLE } from "../core/lookalike.js";

/** Why a key is unsafe, or undefined. */
export function unsafeKeyReason(key: string): string | undefined {
  if (key === "__proto__" || key === "constructor" || key === "prototype")
    return "can pollute object prototypes in JavaScript consumers";
  if (INVISIBLE.test(key)) return "contains invisible or bidi control characters";
  return undefined;
}

/** Most problems a reader lists for one file: a hostile file could otherwise hold millions, each a diagnostic. */
export const MAX_ISSUES = 1000;

/** The issue that stands for every problem past MAX_ISSUES. */
export function tooManyIssues(start: number): ReadIssue {
  return {
    rule: "limit-exceeded",
    message: `The file has more than ${MAX_ISSUES} problems; the rest are not listed.`,
    start,
    end: start,
    hint: "fix the problems listed, then validate again",
  };
}

/** Adds an issue unless the list is full; the first one over the limit becomes a tooManyIssues note. */
export function addIssue(issues: ReadIssue[], issue: ReadIssue): void {
  if (issues.length < MAX_ISSUES) issues.push(issue);
  else if (issues.length === MAX_ISSUES) issues.push(tooManyIssues(issue.start));
}
