import { resolve } from "node:path";
import { Option, type Command } from "commander";
import { checkReturn } from "../../node/check-return.js";
import type { ReturnCheckResult } from "../../orchestration/return.js";
import { ENCODINGS } from "../../orchestration/tokens.js";
import { isValid, toDiagnostics } from "../../orchestration/common.js";
import { createFileProbe } from "../../node/file-probe.js";
import { readFileBounded } from "../../node/read-bounded.js";
import { type CliIO, EXIT } from "../io.js";
import { type Wrap, outputOption, useColor } from "../main.js";
import { resolveSetup } from "../setup.js";
import { CHECK_OUTPUTS, type CheckOutput, formatCheckOutputs, intFlag } from "./check-output.js";
import { ruleText } from "../../rules/read-text.js";

interface ReturnFlags {
  sessionId?: string;
  maxSummaryTokens?: string;
  encoding?: string;
  policy?: string;
  workspace?: string;
  output: string;
}

/** `plangate check-return <file|-> [--session-id ID] [--workspace DIR] [--max-summary-tokens N]`. */
export function registerCheckReturn(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("check-return")
    .description("check a subagent's return: JSON, fields, status, session id, summary length, artifacts (the orchestrator validation strategy)")
    .argument("<file...>", "the returns ('-' reads standard input)")
    .option("--session-id <id>", "the session id the subagent was given")
    .option("--workspace <dir>", "workspace root that artifact paths are relative to")
    .option("--max-summary-tokens <n>", "summary must stay under this many tokens; 0: not measured (default: returns.maxSummaryTokens, 100)")
    .addOption(new Option("--encoding <name>", "tokenizer encoding (default: returns.encoding, o200k_base)").choices([...ENCODINGS]))
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .addOption(outputOption([...CHECK_OUTPUTS, "feedback"]))
    .action(
      wrap(async (files: string[], flags: ReturnFlags) => {
        const { policy } = await resolveSetup(flags, io);
        const maxSummaryTokens = intFlag(flags.maxSummaryTokens, "--max-summary-tokens", 0);
        const out: CheckOutput[] = [];
        for (const file of files) {
        const options = {
          file,
          expectedSessionId: flags.sessionId,
          workspace: policy.workspace,
          maxSummaryTokens,
          encoding: flags.encoding,
          policy,
          files: createFileProbe(),
        };
        let result: ReturnCheckResult;
        // Standard input and the file are read up to limits.maxFileBytes: an endless or huge input is refused, never buffered whole.
        const max = policy.limits.maxFileBytes;
        const read = file === "-" ? { ok: true as const, bytes: await io.readStdin(max) } : readFileBounded(resolve(io.cwd, file), max);
        if (read.ok && read.bytes.byteLength <= max) result = await checkReturn(read.bytes, options);
        else {
          const tooLarge = read.ok || read.reason === "too-large";
          const problem = read.ok ? "" : read.reason === "error" ? read.code : read.reason === "not-a-file" ? read.kind : "";
          const finding = tooLarge
            ? { rule: "limit-exceeded" as const, ...ruleText("limit-exceeded", "returnTooLarge", { max }) }
            : { rule: "return-json" as const, message: `Return file ${file} cannot be read (${problem}).`, hint: "check the path the subagent wrote its return to" };
          const diagnostics = toDiagnostics([finding], policy.rules, file);
          result = { file, valid: isValid(diagnostics), diagnostics };
        }
        out.push(returnOutput(result));
        }
        io.stdout(formatCheckOutputs(out, flags.output, useColor(io), io.cwd));
        return out.every((o) => o.result.valid) ? EXIT.ok : EXIT.rejected;
      }),
    );
}

/** A return check's result as the report shows it: the `return` member and the text line. */
export function returnOutput(result: ReturnCheckResult): CheckOutput {
  const r = result.return;
  const ret = r ? { status: r.status ?? null, sessionId: r.sessionId ?? null, summaryTokens: r.summaryTokens ?? null, encoding: r.encoding, artifacts: r.artifacts } : null;
  const what = r?.status !== undefined ? `return "${r.status}"${r.sessionId ? ` (${r.sessionId})` : ""}` : "return";
  return { result, extra: { return: ret }, what };
}
