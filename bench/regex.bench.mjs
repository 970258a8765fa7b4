// Times every regular-expression literal in src/ (tests aside) on long runs of the characters such
// expressions name, to find the ones a backtracking engine scans quadratically (`/\s+$/` on 20,000 spaces
// followed by a letter: hundreds of ms; a megabyte: hours). A linear expression takes well under a
// millisecond on these. Prints the slow ones and exits 1 when there are any. Expressions made at run time
// (`new RegExp`) are not seen here; patterns from plans and policies go through RE2 (core/regex.ts).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const root = new URL("../src/", import.meta.url).pathname;
const files = [];
const walk = (d) => {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith(".ts") && !p.endsWith(".test.ts")) files.push(p);
  }
};
walk(root);
const literals = [];
for (const f of files) {
  const src = ts.createSourceFile(f, readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (n) => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) literals.push({ file: f.slice(root.length), line: src.getLineAndCharacterOfPosition(n.getStart()).line + 1, text: n.getText() });
    ts.forEachChild(n, visit);
  };
  visit(src);
}
const RUNS = [" ", "\n", "\t", ".", "a", "0", "-", "/", "\\", "*", "_", "#", "`", "~", "|", ":", "=", "\r\n", "ab", " .", '"', "'", "[", "(", "<", "%2e", "${", "$", "!", "@", ",", ";", "+", "é", "\u200b", "A",
  // Words and pairs that the expressions name: "add … there", " or ", hex and base numbers, options, paths.
  "add ", "or ", "there ", "0x", "1#", "--", "a.", "a/", "[a", "$(", "a=", "# ", "- ", "> ", "**", "`a", "~a", "\\n"];
const ENDS = ["\u0000", "x", "!", " ", "\n", ""];
const LENGTH = 20_000;
const SLOW_MS = 50;
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const slow = [];
for (const l of literals) {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(l.text);
  if (!m) continue;
  let re;
  try {
    re = new RegExp(m[1], m[2].replace("g", ""));
  } catch {
    continue;
  }
  let worst = 0;
  let on = "";
  for (const c of RUNS)
    for (const end of ENDS)
      for (const before of ["", "x"]) {
        const s = before + c.repeat(Math.ceil(LENGTH / c.length)) + end;
        re.lastIndex = 0;
        const t = cpu();
        re.test(s);
        const d = cpu() - t;
        if (d > worst) [worst, on] = [d, JSON.stringify(before + c + "…" + end)];
      }
  if (worst > SLOW_MS) slow.push(`| \`${l.file}:${l.line}\` | \`${l.text.slice(0, 60).replace(/\|/g, "\\|")}\` | ${on} | ${worst.toFixed(0)} ms |`);
}
console.log(`\n### Regular expressions on long runs (${literals.length} literals in src/, runs of ${LENGTH.toLocaleString("en")} characters)\n`);
if (slow.length === 0) console.log(`none takes more than ${SLOW_MS} ms of CPU`);
else {
  console.log("| where | expression | input | CPU time |\n|---|---|---|---|");
  for (const s of slow) console.log(s);
  process.exitCode = 1;
}
