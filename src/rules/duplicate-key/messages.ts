import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of duplicate-key, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // JSON (src/syntax/json.ts)
  jsonDuplicateKey: { message: "duplicate key {{key}} in one object: JSON and YAML consumers disagree on which wins; keep one", hint: "remove or rename one of the members" },
  jsonDuplicateKeyFirstAt: { message: "duplicate key {{key}} in one object (first at line {{line}}): JSON and YAML consumers disagree on which wins; keep one", hint: "remove or rename one of the members" },
  // YAML (src/syntax/yaml.ts)
  yamlDuplicateKey: { message: 'Duplicate key "{{name}}" in one mapping (first at line {{line}}): JSON and YAML consumers disagree on which wins.', hint: "keep exactly one" },
  // TeDDy action metadata (src/dialects/teddy/action.ts)
  teddyMetadata: { message: 'Step {{step}} ({{type}}): "{{key}}" is given twice (first on line {{line}}); readers disagree on which one wins.', hint: 'keep one "{{key}}"' },
  teddyPathTwice: {
    message: 'Step {{step}} ({{type}}): "{{key}}" gives the action a second path (the first on line {{line}}); TeDDy reads "File Path" and "Resource" as one parameter and runs one of them, where a reviewer may read the other.',
    hint: 'keep one of "File Path" and "Resource"',
  },
} as const satisfies RuleMessages;
