import type { InputKind } from "./rule.js";

/**
 * The rule catalogue as a type: one member per registered rule, its id to its input kind. It is empty
 * here and filled by `src/rules/index.ts` (module augmentation) from its own list of rules, so a rule is
 * its folder and its line there, and `RuleId` is the union of the registered ids: a misspelt id anywhere
 * is a type error instead of a silently new rule.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface RuleIdRegistry {}

/** The id of a registered rule. */
export type RuleId = keyof RuleIdRegistry & string;

/** The ids of the registered rules of one input kind. */
export type RuleIdOf<K extends InputKind> = { [I in RuleId]: RuleIdRegistry[I] extends K ? I : never }[RuleId];

let known: ReadonlySet<string> | undefined;

/**
 * Records the ids of the rule catalogue for `isRuleId`: called once, by `src/rules/index.ts` as it loads.
 * A second catalogue that differs from the first is a bug (two copies of the rules in one process), and
 * throws rather than letting one of them decide which ids are known.
 */
export function registerRuleIds(ids: readonly RuleId[]): void {
  const next = new Set<string>(ids);
  if (known && (known.size !== next.size || [...next].some((id) => !known!.has(id)))) throw new Error("the rule catalogue is registered twice, with different ids");
  known = next;
}

/**
 * Is this string a rule id (for ids read from input: a policy's `rules:`, a stored audit line)? The ids
 * are those of the loaded rule catalogue; before it is loaded no string is one, so a check that runs too
 * early rejects every id rather than accepting an unknown one.
 */
export function isRuleId(id: string): id is RuleId {
  return known?.has(id) ?? false;
}
