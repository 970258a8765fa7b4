import Type, { type Static } from "typebox";
import { ArgumentValueSchema, stepControlSchemas } from "./constraints.js";

const stepProperties = {
  tool: Type.String({ minLength: 1, description: "The one tool this step calls; must be in the registry or allow list." }),
  arguments: Type.Record(Type.String(), ArgumentValueSchema, { description: "Every argument, fully specified: nothing left for the executor to infer (constraint objects only when the policy allows them)." }),
  intent: Type.String({ minLength: 1, pattern: "\\S", description: "Why the step runs, in a sentence; never blank." }),
  scope: Type.Optional(Type.String({ description: "Folder the step works in: the workspace root or inside it." })),
  timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "Seconds the step may run." })),
  continue_on_error: Type.Optional(Type.Boolean({ description: "Run the next step even if this one fails." })),
  ...stepControlSchemas,
};

/** A step a subagent runs, inside a Task or Agent step (no further nesting). */
export const IntakeNestedStepSchema = Type.Object(stepProperties, { additionalProperties: false });

/** One step of an intake plan (the intake protocol). */
export const IntakeStepSchema = Type.Object(
  {
    ...stepProperties,
    steps: Type.Optional(
      Type.Array(IntakeNestedStepSchema, { minItems: 1, description: "Only on a Task or Agent step: the calls the subagent makes, in order (one level deep)." }),
    ),
  },
  { additionalProperties: false },
);

/** The intake plan: a root object with `steps` and an optional `scope` (SPEC §2). */
export const IntakePlanSchema = Type.Object(
  {
    steps: Type.Array(IntakeStepSchema, { minItems: 1, description: "The steps, run in this order." }),
    scope: Type.Optional(Type.String({ description: "Workspace the plan was written for: the workspace root or inside it." })),
  },
  {
    additionalProperties: false,
    $id: "urn:plangate:schema:intake",
    title: "plangate intake plan",
    description: "The intake protocol's plan intake format, in JSON or YAML: the steps an executor runs, each one tool with fully specified arguments and a clear intent.",
    examples: [
      {
        scope: ".",
        steps: [
          { tool: "read_file", arguments: { path: "src/app.py" }, intent: "Read the module before changing it" },
          { tool: "write_file", arguments: { path: "src/app.py", content: "print('hi')\n" }, intent: "Write the fixed module", timeout: 30 },
        ],
      },
    ],
  },
);

export type IntakePlan = Static<typeof IntakePlanSchema>;
