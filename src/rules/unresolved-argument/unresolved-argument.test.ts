import { commandCase, ruleTester } from "../../../test/rule-tester.js";

const plan = (args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool: "t", arguments: args, intent: "do it" }] });


ruleTester("unresolved-argument", {
  valid: [
    { name: "pushd and popd a few folders deep", code: plan({ command: "pushd src && pushd lib && make && popd && popd && ls" }) },
    {
      name: "concrete values, and templates inside file content",
      code: plan({ path: "src/app.ts", content: "const x = `$" + "{a}`; // TODO later\n<div>{{ name }}</div>", count: 3, flag: true, note: "a < b > c", pattern: "<title>" }),
    },
    {
      name: "a dollar sign in a value that is not a path, or before no name",
      code: plan({ price: "$5/month", pattern: "^a$b/c", url: "https://example.com/$x/y", note: "pay $USD later" }),
    },
    {
      name: "a marker a search program looks for, or in text, is no stand-in in a command line",
      code: plan({ command: 'rg TODO src && grep -rn "FIXME" . && git grep TBD && git log --grep=TODO && git commit -m "fix the TODO in main" && echo TODO >> notes.md' }),
    },
    { name: "a marker a search program looks for, in an argument vector", code: plan({ command: ["rg", "-n", "TODO", "src"] }) },
    { name: "a marker a search program run by a wrapper looks for", code: plan({ command: "timeout 10 grep -c TODO src/app.ts" }) },
    { name: "percent-escapes in a path are no Windows variables", code: plan({ path: "docs/caf%C3%A9.md", out: "100%/a%20b", location: "%2e%2e%2fx" }) },
  ],
  invalid: [
    {
      name: "an angle-bracket placeholder, with the argument and what it holds",
      code: plan({ path: "<path>" }),
      errors: [{ line: 1, column: 43, endLine: 1, endColumn: 51, step: 1, pointer: "/steps/0/arguments/path", message: 'Step 1: argument "path" holds the placeholder "<path>": the executor would have to infer the value.', messageId: "placeholder" }],
    },
    { code: plan({ path: "reports/{{name}}.html" }), errors: [{ line: 1, column: 43, endLine: 1, endColumn: 66, step: 1, pointer: "/steps/0/arguments/path", messageId: "templateInside", message: 'Step 1: argument "path" holds a {{template}} placeholder ("{{name}}"): the executor would have to infer the value.' }] },
    { code: plan({ url: "https://x/$" + "{HOST}/a" }), errors: [{ step: 1, pointer: "/steps/0/arguments/url", messageId: "variableInside", message: 'Step 1: argument "url" holds a $' + '{variable} placeholder ("$' + '{HOST}"): the executor would have to infer the value.' }] },
    { code: plan({ title: "Report for <client>" }), errors: [{ step: 1, pointer: "/steps/0/arguments/title", messageId: "angleInside", message: 'Step 1: argument "title" holds an <angle-bracket> placeholder ("<client>"): the executor would have to infer the value.' }] },
    { code: plan({ title: "Report ??? final" }), errors: [{ step: 1, pointer: "/steps/0/arguments/title", messageId: "questionMarksInside", message: 'Step 1: argument "title" holds "???" ("???"): the executor would have to infer the value.' }] },
    { code: plan({ title: "Report TODO name" }), errors: [{ step: 1, pointer: "/steps/0/arguments/title", messageId: "markerInside", message: 'Step 1: argument "title" holds a TODO/TBD marker ("TODO"): the executor would have to infer the value.', hint: "write the actual value into the plan" }] },
    { code: plan({ command: "cp a $" + "{TARGET}" }), errors: [{ line: 1, column: 46, endLine: 1, endColumn: 62, step: 1, pointer: "/steps/0/arguments/command", messageId: "valueAtRunTime", message: "Step 1: the command in \"command\" passes $" + "{TARGET}, a value decided at run time.", hint: "write the value into the plan" }] },
    {
      name: "a marker as a word of its own in a command line",
      code: plan({ command: "deploy --version TODO" }),
      errors: [{ line: 1, column: 46, endLine: 1, endColumn: 69, step: 1, pointer: "/steps/0/arguments/command", messageId: "markerInside", message: 'Step 1: argument "command" holds a TODO/TBD marker ("TODO"): the executor would have to infer the value.' }],
    },
    { name: "a marker as an option's value", code: plan({ command: "make release TAG=TBD" }), errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "markerInside", message: 'Step 1: argument "command" holds a TODO/TBD marker ("TBD"): the executor would have to infer the value.' }] },
    { name: "a marker as a file a program is given", code: plan({ command: "cp FIXME out/" }), errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "markerInside" }] },
    { name: "a command line that is only a marker", code: plan({ command: "TODO" }), errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "markerInside" }] },
    { name: "a marker in an argument vector", code: plan({ command: ["deploy", "--version", "TODO"] }), errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "markerInside" }] },
    { name: "a marker given to a wrapper, not to the search it runs", code: plan({ command: "timeout TODO grep -c x src/app.ts" }), errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "markerInside" }] },
    commandCase("words xargs reads from its input", { command: "xargs -0 rm -f" }, "inputWords", "gives rm words xargs reads from its input, which are decided at run time", "write the files into the plan, or run find … -exec … {} + on a folder, whose files plangate can bound"),
    ...(
      [
        ["export SIMPLE_BACKUP_SUFFIX=.orig; cp -b a b", "for the commands after it"],
        ["SIMPLE_BACKUP_SUFFIX=.orig; cp -b a b", "for the commands after it"],
        ["read SIMPLE_BACKUP_SUFFIX; cp -b a b", "for the commands after it"],
        ["SIMPLE_BACKUP_SUFFIX=$X cp -b a b", "to a value decided at run time"],
        ["SIMPLE_BACKUP_SUFFIX=/../../x cp --backup a b", "to a value holding /"],
        ["env SIMPLE_BACKUP_SUFFIX=/../x patch -b", "to a value holding /"],
      ] as const
    ).map(([command, how]) =>
      commandCase(`the backups' suffix set where plangate does not follow it: ${command}`, { command }, "backupSuffixVariable", `sets SIMPLE_BACKUP_SUFFIX ${how}, which names the backups cp, mv, ln, install and patch make of the files they replace`, "give the suffix on the command that makes the backup, without a /: cp -b -S .bak a b", { allowCompound: true }),
    ),
    commandCase("entr's /_, the name of the file that changed", { command: "entr -p cat /_" }, "valueAtRunTime", "passes /_, a value decided at run time", "write the value into the plan"),
    ...(
      [
        ["awk '{ print > $1 }' src/a.txt", "print > ..."],
        ["awk '{ print > ($1 \".txt\") }' src/a.txt", "print > ..."],
        ["awk 'BEGIN { getline l < f }'", "getline < ..."],
        ["awk -i inplace 'BEGIN { ARGV[1] = \".env\" } { print }' src/a.txt", "ARGV"],
      ] as const
    ).map(([command, how]) =>
      commandCase(`an awk program's file decided at run time: ${command}`, { command }, "awkFileAtRunTime", `gives awk a program that writes or reads a file decided at run time (${how})`, "write each file the program prints to or reads with getline as a string literal"),
    ),
    commandCase("a redirection to a file decided at run time", { command: "ls > $OUT" }, "redirectAtRunTime", "redirects to $OUT, a file decided at run time", "write the file name into the plan"),
    commandCase("a CDPATH setting", { command: "CDPATH=/ cd etc" }, "setsCdpath", "sets CDPATH, which makes the folder a later cd moves to depend on a search list (cd etc may go to /etc)", "remove the CDPATH setting and write the folders cd moves to as paths from the workspace"),
    commandCase("a folder change eval runs in the shell", { command: "eval cd src; make" }, "folderNotFollowed", "changes folder in a way plangate does not follow (cd run by eval), so the folder later commands run in is not known", "move with cd as a command of its own, by a path written into the plan"),
    commandCase("a rotation of pushd's stack", { command: "pushd src && pushd +1" }, "folderNotFollowed", "changes folder in a way plangate does not follow (pushd +1), so the folder later commands run in is not known", "move with cd as a command of its own, by a path written into the plan"),
    commandCase("more folders on pushd's stack than plangate follows", { command: "set -e; " + "pushd a; ".repeat(33) + "ls" }, "folderNotFollowed", "changes folder in a way plangate does not follow (more than 32 folders on pushd's stack), so the folder later commands run in is not known", "move with cd as a command of its own, by a path written into the plan"),
    commandCase("a relative path in package folders a runner picks", { command: "pnpm -r exec rm -rf dist" }, "packageFolders", "runs a program in package folders its configuration names (pnpm exec -r), so the files its relative paths name are not known", "run the program in the package's folder (cd, or the runner's folder option), written into the plan"),
    commandCase("arithmetic on a variable", { command: "let x+1" }, "arithmeticVariable", "evaluates x+1 as arithmetic, which reads a variable whose value bash also evaluates (array subscripts run commands)", "write numbers, or compute the value in a separate, checked step"),
    { code: plan({ query: "???" }), errors: [{ line: 1, column: 44, endLine: 1, endColumn: 49, step: 1, pointer: "/steps/0/arguments/query", messageId: "placeholder" }] },
    { code: plan({ mode: "TBD" }), errors: [{ line: 1, column: 43, endLine: 1, endColumn: 48, step: 1, pointer: "/steps/0/arguments/mode", messageId: "placeholder" }] },
    { code: plan({ n: "..." }), errors: [{ line: 1, column: 40, endLine: 1, endColumn: 45, step: 1, pointer: "/steps/0/arguments/n", messageId: "placeholder" }] },
    { code: plan({ files: ["a.txt", "<second file>"] }), errors: [{ line: 1, column: 53, endLine: 1, endColumn: 68, step: 1, pointer: "/steps/0/arguments/files/1", messageId: "placeholder" }] },
    {
      name: "an environment variable in a value under another name that looks like a path",
      code: plan({ location: "$HOME/.bashrc" }),
      errors: [{ line: 1, column: 47, endLine: 1, endColumn: 62, step: 1, pointer: "/steps/0/arguments/location", messageId: "environmentInPath", message: 'Step 1: argument "location" holds an environment variable, which the executor would expand: the executor would have to infer the value.' }],
    },
    {
      name: "a Windows %NAME% in a path",
      code: plan({ path: "%APPDATA%/app/config.json" }),
      errors: [{ line: 1, column: 43, endLine: 1, endColumn: 70, step: 1, pointer: "/steps/0/arguments/path", messageId: "environmentInPath", message: 'Step 1: argument "path" holds an environment variable, which the executor would expand: the executor would have to infer the value.' }],
    },
    { code: plan({ location: "%ProgramFiles(x86)%\\App\\app.ini" }), errors: [{ step: 1, pointer: "/steps/0/arguments/location", messageId: "environmentInPath" }] },
    { code: plan({ options: { out: "$XDG_CONFIG_HOME/app/rc" } }), errors: [{ line: 1, column: 53, endLine: 1, endColumn: 78, step: 1, pointer: "/steps/0/arguments/options/out", messageId: "environmentInPath" }] },
    { code: plan({ path: "$HOME/notes.txt" }), errors: [{ line: 1, column: 43, endLine: 1, endColumn: 60, step: 1, pointer: "/steps/0/arguments/path", messageId: "environmentInPath" }] },
    { code: plan({ content: "TODO" }), errors: [{ line: 1, column: 46, endLine: 1, endColumn: 52, step: 1, pointer: "/steps/0/arguments/content", messageId: "placeholder" }] },
    { code: plan({ options: { dest: "out/<name>.csv" } }), errors: [{ line: 1, column: 54, endLine: 1, endColumn: 70, step: 1, pointer: "/steps/0/arguments/options/dest", messageId: "angleInside" }] },
    { name: "scQC params", code: '[{"tool": "load_data", "params": {"path": "<data file>"}}]', errors: [{ line: 1, column: 43, endLine: 1, endColumn: 56, pointer: "/0/params/path", messageId: "placeholder" }] },
  ],
  docs: { file: "plan.yaml", wrap: (example) => `steps:\n  - tool: write_file\n    intent: write the report\n    ${example}\n` },
});
