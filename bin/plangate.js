#!/usr/bin/env node
import { main } from "../dist/cli/main.js";
import { processIO } from "../dist/cli/io.js";

main(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`plangate: internal error: ${err?.message ?? err}\n`);
    process.exitCode = 1;
  },
);
