import type { Command } from "commander";
import { resolve } from "node:path";
import { closest } from "../../core/tools.js";
import { checkSchemas, writeSchemas } from "../../node/schema-files.js";
import { SCHEMAS, findSchema, publishedSchema } from "../../schemas/index.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { type Wrap, outputOption } from "../main.js";

interface SchemaFlags {
  out?: string;
  check?: string;
  output: string;
}

/** `plangate schema [name] [--out DIR] [--check DIR]`. */
export function registerSchema(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("schema")
    .description("print, write or check the JSON Schemas (draft 2020-12) of the formats plangate reads and writes")
    .argument("[name]", `print one schema: ${SCHEMAS.map((s) => s.name).join(", ")}`)
    .option("--out <dir>", "write every schema as <name>.schema.json into DIR")
    .option("--check <dir>", "exit 1 when a schema file in DIR is missing or differs (parsed JSON) from what plangate publishes")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (name: string | undefined, flags: SchemaFlags) => {
        const modes = [name !== undefined, flags.out !== undefined, flags.check !== undefined].filter(Boolean).length;
        if (modes > 1) throw new UsageError("schema: give one of NAME, --out DIR or --check DIR");
        if (flags.check !== undefined) return check(io, flags.check, flags.output);
        if (flags.out !== undefined) {
          const files = writeSchemas(resolve(io.cwd, flags.out));
          if (flags.output === "json") io.stdout(`${JSON.stringify({ version: 1, written: files }, null, 2)}\n`);
          else io.stdout(`wrote ${files.length} schemas to ${flags.out}: ${files.join(", ")}\n`);
          return EXIT.ok;
        }
        if (name !== undefined) {
          const e = findSchema(name);
          if (!e) {
            const near = closest(name, SCHEMAS.map((s) => s.name));
            throw new UsageError(`unknown schema "${name}"${near ? `; did you mean "${near}"?` : ""} (known: ${SCHEMAS.map((s) => s.name).join(", ")})`);
          }
          io.stdout(`${JSON.stringify(publishedSchema(e), null, 2)}\n`);
          return EXIT.ok;
        }
        const all = Object.fromEntries(SCHEMAS.map((e) => [e.file, publishedSchema(e)]));
        io.stdout(`${JSON.stringify(all, null, 2)}\n`);
        return EXIT.ok;
      }),
    );
}

function check(io: CliIO, dir: string, output: string): number {
  const drift = checkSchemas(resolve(io.cwd, dir));
  if (output === "json") {
    io.stdout(`${JSON.stringify({ version: 1, dir, upToDate: drift.length === 0, drift }, null, 2)}\n`);
  } else if (drift.length === 0) {
    io.stdout(`${dir}: all ${SCHEMAS.length} schemas up to date\n`);
  } else {
    for (const d of drift) io.stdout(`${dir}/${d.message}\n`);
    io.stdout(`${dir}: schema drift in ${drift.length} file${drift.length === 1 ? "" : "s"}; run \`plangate schema --out ${dir}\` and commit the result\n`);
  }
  return drift.length === 0 ? EXIT.ok : EXIT.rejected;
}
