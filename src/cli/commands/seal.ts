import { resolve } from "node:path";
import type { Command } from "commander";
import { sha256Hex } from "../../core/canonical/jcs.js";
import type { Diagnostic } from "../../core/diagnostic.js";
import type { PlanReport } from "../../core/plan-report.js";
import { validatePlan } from "../../node/validate-plan.js";
import { diagnosticJson, resultsJson } from "../../formatters/json.js";
import { writeFileAtomic } from "../../node/atomic-write.js";
import { inputTooLarge, planFileNotFound, readFileBounded } from "../../node/read-bounded.js";
import { type EditResult, migrateLegacy, sealEnvelope } from "../../ops/seal.js";
import { defaultPolicy } from "../../policy/defaults.js";
import type { Policy } from "../../core/policy.js";
import { CliError, type CliIO, EXIT, UsageError } from "../io.js";
import { type Wrap, outputOption } from "../main.js";

/** Reads a command's input file ('-' = stdin); a missing file is a file-not-found diagnostic, not a usage error. */
async function readInput(file: string, io: CliIO): Promise<Uint8Array | Diagnostic> {
  const max = defaultPolicy(io.cwd).limits.maxFileBytes;
  const read = file === "-" ? { ok: true as const, bytes: await io.readStdin(max) } : readFileBounded(resolve(io.cwd, file), max);
  if (read.ok && read.bytes.byteLength <= max) return read.bytes;
  if (read.ok || read.reason === "too-large") {
    return inputTooLarge({ max, file, split: true, ...(read.ok ? {} : { size: read.size }) });
  }
  return planFileNotFound(file, read, { file });
}

function printDiagnostics(io: CliIO, file: string, diagnostics: readonly Diagnostic[], output: string): void {
  if (output === "json") {
    io.stdout(JSON.stringify(resultsJson([{ file, valid: false, diagnostics: diagnostics.map((d) => ({ ...d, file })) }]), null, 2) + "\n");
    return;
  }
  for (const d of diagnostics) {
    const where = d.line !== undefined ? `${file}:${d.line}:${d.column}` : file;
    io.stderr(`${where}: ${d.severity}: ${d.message} [${d.rule}]${d.hint ? `\n  = hint: ${d.hint}` : ""}\n`);
  }
}

interface WriteFlags {
  out?: string;
  inPlace?: boolean;
  output: string;
}

function emit(io: CliIO, file: string, result: EditResult, flags: WriteFlags): number {
  if (!result.ok) {
    printDiagnostics(io, file, result.diagnostics, flags.output);
    return EXIT.rejected;
  }
  const target = flags.inPlace ? file : flags.out;
  if (target !== undefined) {
    try {
      writeFileAtomic(resolve(io.cwd, target), result.text);
    } catch (err) {
      throw new CliError(`cannot write ${target} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, "io");
    }
    if (flags.output === "json") io.stdout(JSON.stringify(resultsJson([{ file, valid: true, extra: { written: target, checksum: result.checksum }, diagnostics: [] }]), null, 2) + "\n");
    else io.stderr(`wrote ${target} (checksum ${result.checksum})\n`);
  } else if (flags.output === "json") {
    io.stdout(JSON.stringify(resultsJson([{ file, valid: true, extra: { checksum: result.checksum, text: result.text }, diagnostics: [] }]), null, 2) + "\n");
  } else {
    io.stdout(result.text);
  }
  return EXIT.ok;
}

function checkWriteFlags(file: string, flags: WriteFlags): void {
  if (flags.inPlace && flags.out !== undefined) throw new UsageError("use either --in-place or --out, not both");
  if (flags.inPlace && file === "-") throw new UsageError("--in-place needs a file, not standard input");
}

/** One file's entry of `plangate hash -o json`: its plan hash and raw SHA-256, or the diagnostics that stop it. */
export async function hashResult(
  file: string,
  input: Uint8Array | Diagnostic,
  options: { now: () => Date; policy?: Policy },
): Promise<{ ok: boolean; planHash?: string; diagnostics: Diagnostic[]; result: Record<string, unknown> }> {
  let diagnostics: Diagnostic[] = [];
  let report: PlanReport | undefined;
  if (!(input instanceof Uint8Array)) diagnostics = [input];
  else {
    report = await validatePlan(input, { file, now: options.now, ...(options.policy ? { policy: options.policy } : {}) });
    const readErrors = report.diagnostics.filter((d) => d.rule === "parse-error" || d.rule === "limit-exceeded");
    if (report.planHash === undefined || readErrors.length > 0) diagnostics = readErrors.length ? readErrors : report.diagnostics;
  }
  const ok = diagnostics.length === 0 && report?.planHash !== undefined;
  const r: Record<string, unknown> = { file, dialect: report?.dialect ?? null, valid: ok };
  if (ok) {
    r.planHash = report!.planHash;
    r.fileSha256 = sha256Hex(input as Uint8Array);
  }
  r.diagnostics = diagnostics.map((d) => diagnosticJson({ ...d, file }));
  return { ok, diagnostics, result: r, ...(ok ? { planHash: report!.planHash! } : {}) };
}

/** The `plangate hash -o json` document of some files' results. */
export function hashDocument(results: readonly Record<string, unknown>[]): string {
  const valid = results.filter((r) => r.valid === true).length;
  const errors = results.reduce((n, r) => n + (r.diagnostics as { severity: string }[]).filter((d) => d.severity === "error").length, 0);
  return JSON.stringify({ version: 1, results, summary: { files: results.length, valid, errors, warnings: 0 } }, null, 2) + "\n";
}

/** `plangate hash <file...>`. */
export function registerHash(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("hash")
    .description("print the plan hash (sha256: of the RFC 8785 canonical JSON; Markdown: of the text)")
    .argument("<file...>", "plan files, or - for standard input")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (files: string[], flags: { output: string }) => {
        const results: Record<string, unknown>[] = [];
        const lines: string[] = [];
        let failed = 0;
        for (const file of files) {
          const input = await readInput(file, io);
          const h = await hashResult(file, input, { now: io.now });
          if (!h.ok) failed++;
          results.push(h.result);
          if (flags.output !== "json") {
            if (h.ok) lines.push(files.length === 1 ? h.planHash! : `${h.planHash}  ${file}`);
            else printDiagnostics(io, file, h.diagnostics, "text");
          }
        }
        if (flags.output === "json") io.stdout(hashDocument(results));
        else if (lines.length > 0) io.stdout(lines.join("\n") + "\n");
        return failed === 0 ? EXIT.ok : EXIT.rejected;
      }),
    );
}

/** `plangate seal <file>`. */
export function registerSeal(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("seal")
    .description("recompute a v1.0 envelope's checksum after a legitimate edit, changing nothing else")
    .argument("<file>", "envelope file, or - for standard input")
    .option("--out <file>", "write the sealed plan to this file (atomically)")
    .option("--in-place", "replace the file (atomically)")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (file: string, flags: WriteFlags) => {
        checkWriteFlags(file, flags);
        const input = await readInput(file, io);
        if (!(input instanceof Uint8Array)) return emit(io, file, { ok: false, diagnostics: [input] }, flags);
        return emit(io, file, sealEnvelope(input), flags);
      }),
    );
}

/** `plangate migrate <file>`. */
export function registerMigrate(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("migrate")
    .description("wrap a legacy plan (a bare list) in a sealed v1.0 envelope with created_at and checksum")
    .argument("<file>", "legacy plan file, or - for standard input")
    .option("--message <text>", "the envelope's message (the request the plan answers)")
    .option("--intent <text>", "the envelope's intent")
    .option("--out <file>", "write the envelope to this file (atomically)")
    .option("--in-place", "replace the file (atomically)")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (file: string, flags: WriteFlags & { message?: string; intent?: string }) => {
        checkWriteFlags(file, flags);
        const input = await readInput(file, io);
        if (!(input instanceof Uint8Array)) return emit(io, file, { ok: false, diagnostics: [input] }, flags);
        return emit(io, file, migrateLegacy(input, { now: io.now(), message: flags.message, intent: flags.intent }), flags);
      }),
    );
}
