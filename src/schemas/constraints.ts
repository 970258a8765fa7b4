import Type from "typebox";

/*
 * Argument values of intake and iKOMA steps: a literal, or (with `plan.constraints: allow` in the policy) a
 * constraint object with exactly one `$` key. A literal object that has a `$` key must be wrapped in
 * `{"$literal": …}`. The reader (src/core/constraints.ts) and this schema say the same.
 */
const one = (key: string, value: Record<string, unknown>, description: string) =>
  Type.Unsafe<Record<string, unknown>>({ type: "object", properties: { [key]: value }, required: [key], additionalProperties: false, description });

/** Any value that is not an object with a `$` key. */
const PlainValue = Type.Unsafe<unknown>({
  not: { type: "object", not: { propertyNames: { not: { pattern: "^\\$" } } } },
  description: "A literal value (an object with a key that starts with \"$\" must be a constraint or {\"$literal\": …}).",
});

/** A step argument: a literal value, or one constraint object. */
export const ArgumentValueSchema = Type.Unsafe<unknown>({
  anyOf: [
    PlainValue,
    one("$glob", { type: "string", minLength: 1, maxLength: 1024 }, "A glob: on a path, workspace-relative (picomatch, dot files matched); on a command, each simple command."),
    one("$regex", { type: "string", minLength: 1, maxLength: 1024 }, "A regular expression the whole value must match (RE2, linear time)."),
    one("$enum", { type: "array", minItems: 1 }, "One of these values."),
    one("$schema", { type: ["object", "boolean"] }, "A JSON Schema (no remote $ref) the value must satisfy."),
    one("$any", { const: true }, "Any value (needs plan.allowOpenArguments for a write tool's path or a command)."),
    one("$literal", {}, "The value itself, even when it is an object with a \"$\" key."),
  ],
});

/** The keys that say how a step's call runs. */
export const stepControlSchemas = {
  repeat: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Times the call runs in a row (default 1)." })),
  optional: Type.Optional(Type.Boolean({ description: "The call may be skipped." })),
  confirm: Type.Optional(Type.Boolean({ description: "The call needs the user's confirmation when it runs." })),
};
