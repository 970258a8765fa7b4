import type { Dialect } from "../core/dialect.js";
import type { DialectId } from "../core/plan.js";
import ikoma from "./ikoma/index.js";
import intake from "./intake/index.js";
import scqcEnvelope from "./scqc/envelope.js";
import scqcLegacy from "./scqc/legacy.js";
import teddy from "./teddy/index.js";

/** Every dialect plangate reads. */
export const DIALECTS: readonly Dialect[] = [scqcLegacy, scqcEnvelope, intake, ikoma, teddy];

/** The dialect with this id, if it is built in. */
export function findDialect(id: DialectId): Dialect | undefined {
  return DIALECTS.find((d) => d.id === id);
}
