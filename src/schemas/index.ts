import type { TSchema } from "typebox";
import { ApprovalRecordSchema } from "./approval.js";
import { HostProfileSchema } from "./host-profile.js";
import { IkomaPlanSchema } from "./ikoma.js";
import { IntakePlanSchema } from "./intake.js";
import { PublishedPolicySchema } from "./policy.js";
import { ReportSchema } from "./report.js";
import { ScqcEnvelopeSchema, ScqcLegacySchema } from "./scqc.js";
import { SubagentReturnSchema } from "./subagent-return.js";

/** A published format: its name (also the end of its `$id`), the file `plangate schema` writes, and the schema. */
export interface SchemaEntry {
  name: string;
  file: string;
  schema: TSchema;
}

export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

const entry = (name: string, schema: TSchema): SchemaEntry => ({ name, file: `${name}.schema.json`, schema });

/** Every format plangate reads or writes, in the order `plangate schema` lists them (one line each). */
export const SCHEMAS: readonly SchemaEntry[] = [
  entry("scqc-legacy", ScqcLegacySchema),
  entry("scqc-envelope", ScqcEnvelopeSchema),
  entry("intake", IntakePlanSchema),
  entry("ikoma", IkomaPlanSchema),
  entry("policy", PublishedPolicySchema),
  entry("approval", ApprovalRecordSchema),
  entry("subagent-return", SubagentReturnSchema),
  entry("host-profile", HostProfileSchema),
  entry("report", ReportSchema),
];

/** The JSON document of a schema as published: `$schema` first, then the definition, plain JSON. */
export function publishedSchema(e: SchemaEntry): Record<string, unknown> {
  const { $id, title, description, examples, ...rest } = JSON.parse(JSON.stringify(e.schema)) as Record<string, unknown>;
  // Identity first and examples last, so a reader of the file sees what it is before how it is built.
  return { $schema: DRAFT_2020_12, $id, title, description, ...rest, examples };
}

/** The file text of a published schema (2-space JSON, final newline). */
export function schemaText(e: SchemaEntry): string {
  return `${JSON.stringify(publishedSchema(e), null, 2)}\n`;
}

/** The published schema with this name (the dialect id for plan formats), if any. */
export function findSchema(name: string): SchemaEntry | undefined {
  return SCHEMAS.find((s) => s.name === name);
}

export { ApprovalRecordSchema } from "./approval.js";
export { HostProfileSchema } from "./host-profile.js";
export { IkomaPlanSchema, IkomaStepSchema } from "./ikoma.js";
export { IntakePlanSchema } from "./intake.js";
export { PublishedPolicySchema } from "./policy.js";
export { ReportSchema } from "./report.js";
export { ScqcEnvelopeSchema, ScqcLegacySchema } from "./scqc.js";
export { SubagentReturnSchema } from "./subagent-return.js";
