// The shell reader: cold load of tree-sitter-bash (a fresh process each time, CPU time) and the cost of
// reading and checking one command line, over a mix of real-looking commands.
import { spawnSync } from "node:child_process";

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

const loadScript = `const { loadShellReader } = await import(${JSON.stringify(new URL("../dist/syntax/shell/parse.js", import.meta.url).href)}); (await loadShellReader()).parse("python -m pytest tests/test_greet.py");`;
const cli = new URL("../bin/plangate.js", import.meta.url).pathname;
const example = new URL("../examples/teddy.valid.md", import.meta.url).pathname;
const policy = new URL("../examples/plangate.yaml", import.meta.url).pathname;
// Whole-process CPU time (wait4), so the engine's background compiler threads count: V8's optimising
// compiler spends about a second on the grammar's lexer after the load, and Node waits for it at exit.
const CMDS = {
  "node -e 0": { argv: [process.execPath, "-e", "0"] },
  "load + one command, V8 defaults (a library's host)": { argv: [process.execPath, "--input-type=module", "-e", loadScript] },
  "load + one command, baseline compiler only (the CLI)": { argv: [process.execPath, "--liftoff-only", "--input-type=module", "-e", loadScript] },
  "CLI: validate a TeDDy plan with one command": { argv: [process.execPath, cli, "validate", example, "--policy", policy] },
};
const names = Object.keys(CMDS);
const list = [];
for (let i = 0; i < 9; i++) for (const n of names) list.push(CMDS[n]);
const r = spawnSync("python3", [new URL("./cputime.py", import.meta.url).pathname], { input: JSON.stringify(list) });
if (r.status !== 0) throw new Error(String(r.stderr));
const times = JSON.parse(String(r.stdout));
const by = {};
times.forEach((t, i) => (by[names[i % names.length]] ??= []).push(t * 1000));

// Reading and checking one command line, in a fresh process under each compiler setting.
const perScript = `
  const { analyseCommand } = await import(${JSON.stringify(new URL("../dist/commands/analyse.js", import.meta.url).href)});
  const { loadShellReader } = await import(${JSON.stringify(new URL("../dist/syntax/shell/parse.js", import.meta.url).href)});
  const COMMANDS = ${JSON.stringify(COMMANDS)};
  const reader = await loadShellReader();
  const policy = { allow: [], deny: ["rm"], allowCompound: false };
  const per = [];
  for (let round = 0; round < 15; round++) {
    const c = process.cpuUsage();
    for (let i = 0; i < 100; i++) for (const cmd of COMMANDS) analyseCommand(reader, cmd, "chain", policy);
    const d = process.cpuUsage(c);
    per.push((d.user + d.system) / (100 * COMMANDS.length));
  }
  per.sort((a, b) => a - b);
  console.log(per[per.length >> 1]);
`;
const perCommand = (flags) => {
  const out = spawnSync(process.execPath, [...flags, "--input-type=module", "-e", perScript], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(out.stderr);
  return Number(out.stdout.trim());
};
const perDefault = perCommand([]);
const perLiftoff = perCommand(["--liftoff-only"]);

console.log("\n### Shell reader (tree-sitter-bash, WebAssembly)\n");
console.log("| what | CPU time (median) |");
console.log("|---|---|");
for (const n of names) console.log(`| ${n} (whole process) | ${median(by[n]).toFixed(0)} ms |`);
console.log(`| read and check one command line (mix of ${COMMANDS.length}), V8 defaults | ${perDefault.toFixed(0)} µs |`);
console.log(`| read and check one command line (mix of ${COMMANDS.length}), baseline compiler only | ${perLiftoff.toFixed(0)} µs |`);
