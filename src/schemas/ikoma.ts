import Type, { type Static } from "typebox";
import { ArgumentValueSchema, stepControlSchemas } from "./constraints.js";

const PositiveInteger = (description: string) => Type.Integer({ minimum: 1, description });

const stepProperties = {
  step: PositiveInteger("Step number: 1 for the first step, 2 for the next… (plangate's step-numbering rule checks the order)."),
  tool_name: Type.String({ description: "Name of the tool to execute; must be in the tool registry." }),
  args: Type.Record(Type.String(), ArgumentValueSchema, { description: "Arguments for the tool (constraint objects only when the policy allows them)." }),
  description: Type.String({ description: "What this step accomplishes, for a human reader." }),
  citations: Type.Optional(
    Type.Array(PositiveInteger("A citation id."), { description: "Optional citation ids (positive integers) of the sources this step uses." }),
  ),
  ...stepControlSchemas,
};

/** A step a subagent runs, inside a Task or Agent step (no further nesting), numbered within its list. */
export const IkomaNestedStepSchema = Type.Object(stepProperties, { additionalProperties: false, title: "iKOMA nested step" });

/** One iKOMA step. `additionalProperties: false` as iKOMA's committed schema says (its runtime drops extras silently). */
export const IkomaStepSchema = Type.Object(
  {
    ...stepProperties,
    steps: Type.Optional(
      Type.Array(IkomaNestedStepSchema, { minItems: 1, description: "Only on a Task or Agent step: the calls the subagent makes, in order (one level deep)." }),
    ),
  },
  { additionalProperties: false, title: "iKOMA plan step", description: "A single step: which tool to run, with which arguments, and why." },
);

/** iKOMA's plan contract (iKOMA's contract). */
export const IkomaPlanSchema = Type.Object(
  {
    plan: Type.Array(IkomaStepSchema, { minItems: 1, description: "The steps, at least one, numbered 1, 2, 3… in order." }),
    reasoning: Type.String({ description: "Why this plan will achieve the user's goal." }),
  },
  {
    additionalProperties: false,
    $id: "urn:plangate:schema:ikoma",
    title: "iKOMA plan",
    description: "An iKOMA agent's plan: a list of tool steps and the reasoning behind it (plangate dialect `ikoma`).",
    examples: [
      {
        plan: [
          { step: 1, tool_name: "search_web", args: { query: "Python best practices 2025" }, description: "Search for current Python best practices [[1]]", citations: [1] },
          { step: 2, tool_name: "create_text_file", args: { filename_and_content: "best_practices.txt|||Content here" }, description: "Create file with researched practices [[1]]", citations: [1] },
        ],
        reasoning: "This plan searches for current information and documents it properly",
      },
    ],
  },
);

export type IkomaStep = Static<typeof IkomaStepSchema>;
export type IkomaPlan = Static<typeof IkomaPlanSchema>;
