import type { Command } from "commander";
import { closest } from "../../core/tools.js";
import { dialectsOf, explainText } from "../../rules/explain.js";
import { RULES, findRule } from "../../rules/index.js";
import { type CliIO, EXIT } from "../io.js";
import { type Wrap, outputOption } from "../main.js";

/** `plangate rules`. */
export function registerRules(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("rules")
    .description("list every rule with its id, default severity and dialects")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (flags: { output: string }) => {
        if (flags.output === "json") {
          const rules = RULES.map((r) => ({
            id: r.meta.id,
            defaultSeverity: r.meta.defaultSeverity,
            dialects: r.meta.dialects ?? null,
            phase: r.meta.phase,
            summary: r.meta.summary,
          }));
          io.stdout(JSON.stringify({ version: 1, rules }, null, 2) + "\n");
          return EXIT.ok;
        }
        const idW = Math.max(...RULES.map((r) => r.meta.id.length));
        const dW = Math.max(...RULES.map((r) => dialectsOf(r.meta.id).length));
        const lines = RULES.map(
          (r) => `${r.meta.id.padEnd(idW)}  ${r.meta.defaultSeverity.padEnd(8)}  ${dialectsOf(r.meta.id).padEnd(dW)}  ${r.meta.summary}`,
        );
        io.stdout(`${"rule".padEnd(idW)}  ${"severity".padEnd(8)}  ${"dialects".padEnd(dW)}  summary\n${lines.join("\n")}\n`);
        return EXIT.ok;
      }),
    );
}

// Lives beside the rules so the SARIF formatter can use it too.
export { explainText };

/** `plangate explain <rule-id>`. */
export function registerExplain(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("explain")
    .description("print a rule's doc: what it catches, why, and how to fix it")
    .argument("<rule-id>", "a rule id, as listed by `plangate rules`")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (id: string, flags: { output: string }) => {
        const text = explainText(id);
        const rule = findRule(id);
        if (!text || !rule) {
          const near = closest(id, RULES.map((r) => r.meta.id));
          io.stderr(`plangate: unknown rule "${id}"${near ? `; did you mean "${near}"?` : ""} (run \`plangate rules\` for the list)\n`);
          return EXIT.usage;
        }
        if (flags.output === "json") io.stdout(JSON.stringify({ ...rule.meta }, null, 2) + "\n");
        else io.stdout(text);
        return EXIT.ok;
      }),
    );
}
