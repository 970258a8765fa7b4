import { writeFileSync } from "node:fs";
import { PolicyFileSchema } from "../dist/policy/schema.js";
writeFileSync(new URL("../schemas/policy.schema.json", import.meta.url), JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", ...PolicyFileSchema }, null, 2) + "\n");
