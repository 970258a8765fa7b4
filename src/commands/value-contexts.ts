import type { ValueContexts } from "../core/constraints.js";

let contexts: Promise<ValueContexts> | undefined;

/**
 * The default ValueContexts, loading the JSON Schema checker and the shell parser once. A guard that
 * matches calls against an approved plan uses these, so a constraint means to it what it meant to
 * validation.
 */
export function defaultValueContexts(): Promise<ValueContexts> {
  contexts ??= (async () => {
    const [{ checkSchema }, analyse] = await Promise.all([import("../core/constraint-schema.js"), import("./analyse.js")]);
    await analyse.prepareSimpleCommands();
    return {
      value: { schema: checkSchema },
      path: { path: true, schema: checkSchema },
      command: { simpleCommands: analyse.simpleCommandsOf, schema: checkSchema },
    };
  })().catch((err: unknown) => {
    contexts = undefined;
    throw err;
  });
  return contexts;
}
