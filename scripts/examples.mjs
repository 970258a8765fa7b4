// Validates the bundled examples: every *.valid.* plan must pass and every *.invalid.* plan must be rejected.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";

const dir = new URL("../examples/", import.meta.url);
const files = readdirSync(dir).filter((f) => /\.(valid|invalid)\.(json|ya?ml|md)$/.test(f)).sort();
const bin = new URL("../bin/plangate.js", import.meta.url).pathname;
let wrong = 0;
for (const kind of ["valid", "invalid"]) {
  const group = files.filter((f) => f.includes(`.${kind}.`)).map((f) => `examples/${f}`);
  // The turn context applies to the Markdown (TeDDy) examples only.
  const flags = ["--policy", "examples/plangate.yaml", "--context", "examples/teddy.context.txt"];
  console.log(`\n$ plangate validate ${flags.join(" ")} ${group.join(" ")}`);
  const r = spawnSync(process.execPath, [bin, "validate", ...flags, ...group], {
    cwd: new URL("..", import.meta.url),
    stdio: "inherit",
  });
  const expected = kind === "valid" ? 0 : 1;
  if (r.status !== expected) {
    console.error(`expected exit ${expected} for the ${kind} examples, got ${r.status}`);
    wrong++;
  }
  // Each file on its own verdict: one rejected plan must not hide an invalid example that passes.
  const j = spawnSync(process.execPath, [bin, "validate", ...flags, ...group, "--output", "json"], { cwd: new URL("..", import.meta.url), encoding: "utf8" });
  let results = [];
  try {
    results = JSON.parse(j.stdout).results;
  } catch {
    console.error(`the JSON report of the ${kind} examples could not be read (exit ${j.status})`);
    wrong++;
  }
  for (const f of group) {
    const res = results.find((x) => x.file === f);
    if (!res || res.valid !== (kind === "valid")) {
      console.error(`${f}: expected ${kind === "valid" ? "accepted" : "rejected"}, got ${res ? (res.valid ? "accepted" : "rejected") : "no result"}`);
      wrong++;
    }
  }
}
console.log(wrong === 0 ? "\nexamples: every verdict as expected" : "\nexamples: unexpected verdicts");
process.exitCode = wrong === 0 ? 0 : 1;
