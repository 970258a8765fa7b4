// The shell reader: cold load of tree-sitter-bash (a fresh process each time, CPU time) and the cost of
// reading and checking one command line, over a mix of real-looking commands.
import { spawnSync } from "node:child_process";
import { analyseCommand } from "../dist/commands/analyse.js";
import { loadShellReader } from "../dist/syntax/shell/parse.js";

const COMMANDS = [
  "ls -la",
  "git commit -m 'fix: a && b'",
  "npm test 2>&1",
  "poetry run pytest tests/suites/unit/test_auth_service.py -q",
  "cat <<'EOF' > notes.txt\nhello $x\nEOF",
  "find . -name '*.py' -exec rm {} \\;",
  'grep -rn "a|b" src | wc -l',
  "FOO=1 make install",
  "cd src && make && make test | tee build.log || true",
  "sudo -u ci env -i timeout 60 xargs -n1 sh -c 'echo $0'",
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const script = `const c = process.cpuUsage(); const { loadShellReader } = await import(${JSON.stringify(new URL("../dist/syntax/shell/parse.js", import.meta.url).href)}); (await loadShellReader()).parse("ls"); const d = process.cpuUsage(c); console.log((d.user + d.system) / 1000);`;
const loads = [];
for (let i = 0; i < 7; i++) {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  loads.push(Number(r.stdout.trim()));
}

const reader = await loadShellReader();
const policy = { allow: [], deny: ["rm"], allowCompound: false };
const per = [];
for (let round = 0; round < 15; round++) {
  const c = process.cpuUsage();
  for (let i = 0; i < 100; i++) for (const cmd of COMMANDS) analyseCommand(reader, cmd, "chain", policy);
  const d = process.cpuUsage(c);
  per.push((d.user + d.system) / (100 * COMMANDS.length));
}
console.log("\n### Shell reader (tree-sitter-bash, WebAssembly)\n");
console.log("| what | CPU time (median) |");
console.log("|---|---|");
console.log(`| load on first use (web-tree-sitter + bash grammar, fresh process) | ${median(loads).toFixed(1)} ms |`);
console.log(`| read and check one command line (mix of ${COMMANDS.length}) | ${median(per).toFixed(0)} µs |`);
