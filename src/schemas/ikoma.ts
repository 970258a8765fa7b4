import Type, { type Static } from "typebox";

const PositiveInteger = (description: string) => Type.Integer({ minimum: 1, description });

/** One iKOMA step. `additionalProperties: false` as iKOMA's committed schema says (its runtime drops extras silently). */
export const IkomaStepSchema = Type.Object(
  {
    step: PositiveInteger("Step number: 1 for the first step, 2 for the next… (plangate's step-numbering rule checks the order)."),
    tool_name: Type.String({ description: "Name of the tool to execute; must be in the tool registry." }),
    args: Type.Record(Type.String(), Type.Unknown(), { description: "Arguments for the tool." }),
    description: Type.String({ description: "What this step accomplishes, for a human reader." }),
    citations: Type.Optional(
      Type.Array(PositiveInteger("A citation id."), { description: "Optional citation ids (positive integers) of the sources this step uses." }),
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
