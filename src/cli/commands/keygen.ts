import { resolve } from "node:path";
import type { Command } from "commander";
import { generateKeyFiles, KeyError } from "../../node/keys.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";

/** `plangate keygen --out DIR`. */
export function registerKeygen(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("keygen")
    .description("write an Ed25519 key pair for signing approvals: NAME.key (private, mode 0600) and NAME.pub")
    .requiredOption("--out <dir>", "folder for the key files (keep it outside every workspace)")
    .option("--name <name>", "file name stem", "plangate")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (flags: { out: string; name: string; output: string }) => {
        if (!/^[A-Za-z0-9._-]+$/.test(flags.name) || flags.name.startsWith(".")) throw new UsageError(`--name must be a plain file name, not "${flags.name}"`);
        let made: ReturnType<typeof generateKeyFiles>;
        try {
          made = generateKeyFiles(resolve(io.cwd, flags.out), flags.name);
        } catch (err) {
          if (err instanceof KeyError) throw new UsageError(err.message);
          throw err;
        }
        if (flags.output === "json") io.stdout(JSON.stringify(made, null, 2) + "\n");
        else io.stdout(`private key ${made.privateFile}\npublic key  ${made.publicFile}\nkey id      ${made.keyid}\n`);
        return EXIT.ok;
      }),
    );
}
