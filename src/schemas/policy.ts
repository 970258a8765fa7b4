import type { TSchema } from "typebox";
import { PolicyFileSchema } from "../policy/schema.js";

/** The policy file's schema as published: the one definition in policy/schema.ts, with an example added. */
export const PublishedPolicySchema: TSchema = {
  ...PolicyFileSchema,
  examples: [
    {
      workspace: ".",
      tools: { registry: "tools.json", deny: ["think", "plan"], write: ["write_file", "edit_file"] },
      paths: { protected: [".git/**", ".env*", "**/*.pem"] },
      plan: { maxAgeDays: 30, requireChecksum: true },
      rules: { "stale-plan": "error", "unknown-key": "warning" },
    },
  ],
};
