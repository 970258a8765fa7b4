/**
 * A small JSON Schema checker for plangate's own formats (policy, approval record, subagent return).
 * Their schemas are generated from one typebox definition at build time; checking them at run time
 * with this subset keeps schema machinery out of the CLI's start-up.
 * Supported: type, properties, required, additionalProperties, patternProperties, items, const, enum,
 * anyOf, minimum, maximum, minLength, maxLength, minItems, pattern.
 */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

type Schema = Record<string, unknown> | boolean;

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function hasType(v: unknown, t: string): boolean {
  switch (t) {
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "object":
      return v !== null && typeof v === "object" && !Array.isArray(v);
    default:
      return typeOf(v) === t;
  }
}

function esc(k: string): string {
  return k.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Every error of a value against a schema (the subset above), depth-first. */
export function schemaErrors(schema: Schema, value: unknown, path = "", out: SchemaError[] = []): SchemaError[] {
  if (schema === true) return out;
  if (schema === false) {
    out.push({ instancePath: path, keyword: "false", message: "is not allowed", params: {} });
    return out;
  }
  const s = schema;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => hasType(value, t))) {
      out.push({ instancePath: path, keyword: "type", message: `must be ${types.join(" or ")}`, params: { type: types } });
      return out;
    }
  }
  if (s.const !== undefined && value !== s.const)
    out.push({ instancePath: path, keyword: "const", message: `must be ${JSON.stringify(s.const)}`, params: { allowedValue: s.const } });
  if (Array.isArray(s.enum) && !s.enum.includes(value))
    out.push({ instancePath: path, keyword: "enum", message: `must be one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}`, params: { allowedValues: s.enum } });
  if (Array.isArray(s.anyOf)) {
    const ok = (s.anyOf as Schema[]).some((sub) => schemaErrors(sub, value, path).length === 0);
    if (!ok) {
      const consts = (s.anyOf as Record<string, unknown>[]).map((x) => x.const).filter((c) => c !== undefined);
      out.push({
        instancePath: path,
        keyword: "anyOf",
        message: consts.length === (s.anyOf as unknown[]).length ? `must be one of ${consts.map((c) => JSON.stringify(c)).join(", ")}` : "does not match any allowed form",
        params: {},
      });
    }
  }
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum)
      out.push({ instancePath: path, keyword: "minimum", message: `must be >= ${s.minimum}`, params: { limit: s.minimum } });
    if (typeof s.maximum === "number" && value > s.maximum)
      out.push({ instancePath: path, keyword: "maximum", message: `must be <= ${s.maximum}`, params: { limit: s.maximum } });
  }
  if (typeof value === "string") {
    const len = [...value].length;
    if (typeof s.minLength === "number" && len < s.minLength)
      out.push({ instancePath: path, keyword: "minLength", message: `must have at least ${s.minLength} characters`, params: { limit: s.minLength } });
    if (typeof s.maxLength === "number" && len > s.maxLength)
      out.push({ instancePath: path, keyword: "maxLength", message: `must have at most ${s.maxLength} characters`, params: { limit: s.maxLength } });
    if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value))
      out.push({ instancePath: path, keyword: "pattern", message: `must match ${s.pattern}`, params: { pattern: s.pattern } });
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === "number" && value.length < s.minItems)
      out.push({ instancePath: path, keyword: "minItems", message: `must have at least ${s.minItems} items`, params: { limit: s.minItems } });
    if (s.items !== undefined) value.forEach((v, i) => schemaErrors(s.items as Schema, v, `${path}/${i}`, out));
  }
  if (hasType(value, "object")) {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const r of (s.required ?? []) as string[])
      if (!Object.hasOwn(obj, r)) out.push({ instancePath: path, keyword: "required", message: `must have required property '${r}'`, params: { missingProperty: r } });
    const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, Schema>).map(([p, sub]) => [new RegExp(p, "u"), sub] as const);
    for (const [k, v] of Object.entries(obj)) {
      const p = `${path}/${esc(k)}`;
      let matched = false;
      if (Object.hasOwn(props, k)) {
        matched = true;
        schemaErrors(props[k]!, v, p, out);
      }
      for (const [re, sub] of patterns)
        if (re.test(k)) {
          matched = true;
          schemaErrors(sub, v, p, out);
        }
      if (!matched && s.additionalProperties !== undefined) {
        if (s.additionalProperties === false)
          out.push({ instancePath: path, keyword: "additionalProperties", message: "must not have additional properties", params: { additionalProperty: k } });
        else schemaErrors(s.additionalProperties as Schema, v, p, out);
      }
    }
  }
  return out;
}
