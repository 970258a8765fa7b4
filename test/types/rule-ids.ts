// Type tests, checked by `tsc --noEmit -p .` (npm run lint): `RuleId` is the union of the ids registered in
// src/rules/index.ts, neither `string` nor `never`, so a misspelt id anywhere is a type error.
import type { ReadFact } from "../../src/core/document.js";
import type { Diagnostic } from "../../src/core/diagnostic.js";
import type { RuleId, RuleIdOf } from "../../src/core/rule-ids.js";
import { isRuleId } from "../../src/core/rule-ids.js";
import { ruleDiagnostic } from "../../src/rules/read-text.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(): T | undefined => undefined;

// @ts-expect-error RuleId is not every string
expectType<Equal<RuleId, string>>();
// @ts-expect-error RuleId is not empty
expectType<Equal<RuleId, never>>();

export const known: RuleId = "parse-error";
// @ts-expect-error a misspelt id
export const misspelt: RuleId = "pars-error";

export const diagnostic: Pick<Diagnostic, "rule"> = { rule: "missing-intent" };
// @ts-expect-error a diagnostic of an unknown rule
export const unknownDiagnostic: Pick<Diagnostic, "rule"> = { rule: "missing-intnet" };

export const fact: Pick<ReadFact, "rule" | "messageId"> = { rule: "parse-error", messageId: "syntax" };
// @ts-expect-error a fact of an unknown rule
export const misspeltFact: Pick<ReadFact, "rule" | "messageId"> = { rule: "pars-error", messageId: "syntax" };
// @ts-expect-error a fact of a rule that is not a read rule
export const planFact: Pick<ReadFact, "rule" | "messageId"> = { rule: "missing-intent", messageId: "missing" };

export const readRule: RuleIdOf<"read"> = "md-title";
// @ts-expect-error an approval rule is not a task rule
export const taskRule: RuleIdOf<"task"> = "approval-expired";

// @ts-expect-error a diagnostic worded by a rule names a known rule
export const made = () => ruleDiagnostic("approval-expird", "m", undefined);

export function narrowed(id: string): RuleId | undefined {
  return isRuleId(id) ? id : undefined;
}
