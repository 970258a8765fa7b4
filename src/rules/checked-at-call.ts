import type { Report } from "../core/rule.js";

/**
 * The message the path rules (path-outside-workspace, protected-path-write) give a finding of theirs that
 * the guard made on a call's paths at the moment the call was made (src/approval/call-paths.ts), rather
 * than on the plan: the finding's own sentence, said to be checked then.
 */
export const checkedAtCallMessages = {
  checkedAtCall: "{{message}} (checked when the call was made)",
} as const;

/** A path rule's report, worded (`text`, with its hint), as a finding of the check made when the call was made. */
export function checkedAtCall(text: { message: string; hint?: string }): Report {
  const report: Report = { messageId: "checkedAtCall", data: { message: text.message } };
  if (text.hint !== undefined) report.hint = text.hint;
  return report;
}
