// Runs every bench/*.bench.mjs in name order (each prints a Markdown table) after `npm run build`.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const dir = new URL("./", import.meta.url);
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const f of files) {
  const r = spawnSync(process.execPath, ["--expose-gc", new URL(f, dir).pathname], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
