import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { parseToolsText } from "../../node/tools-file.js";
import { defaultPolicy } from "../../policy/defaults.js";
import { type Expected, type InvalidCase, ruleTester } from "../../../test/rule-tester.js";
import { planMd } from "../../../test/teddy.js";

const plan = (args: Record<string, unknown>, tool = "write_file") => JSON.stringify({ steps: [{ tool, arguments: args, intent: "do it" }] });

// The real-file-system tree below, in memory: the workspace /ws beside /outside.
const files = {
  "data/in.csv": "a\n",
  "/outside/secret.txt": "s\n",
  "out-link": { link: "/outside" },
  "secret-link": { link: "/outside/secret.txt" },
  dangling: { link: "/nowhere/x" },
  "data-link": { link: "data" },
  "loop-a": { link: "/ws/loop-b" },
  "loop-b": { link: "/ws/loop-a" },
  "data/hard.txt": { file: "s\n", nlink: 2 },
  "data/deep-link": { link: "/outside" },
  "r\u00e9sum\u00e9": { link: "/outside" },
} as const;
const lastString = (v: unknown): string => (typeof v === "string" ? v : Object.values(v as object).map(lastString).filter(Boolean).pop() ?? "");
/** The diagnostic at the offending string (the arguments' last string leaf), on the plan's one line. */
const at = (code: string, value: string): Expected => {
  const column = code.indexOf(JSON.stringify(value)) + 1;
  return { line: 1, column, endLine: 1, endColumn: column + JSON.stringify(value).length, step: 1 };
};
const escape = (s: string) => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
const reported = (args: Record<string, unknown>, message?: string, tool?: string, messageId = "outsideWorkspace"): InvalidCase => {
  const code = plan(args, tool);
  return { name: `${tool ?? "write_file"} ${JSON.stringify(args)}`, code, files, errors: [{ ...at(code, lastString(args)), messageId, ...(message ? { message: escape(message) } : {}) }] };
};
const allowConstraints = (() => {
  const policy = defaultPolicy("/ws");
  policy.plan.constraints = "allow";
  return { policy };
})();

ruleTester("path-outside-workspace", {
  valid: [
    // At the longest path resolved: 4,096 characters.
    { code: plan({ path: `data/${"a/".repeat(2045)}x` }), files },
    // Relative paths read from a folder the step names that stay inside.
    { code: plan({ cwd: "data", path: "in.csv", content: "x" }), files },
    { code: plan({ dir: "data", name: "link", format: "csv" }), files },
    { code: plan({ command: "cat in.csv > out.csv", workingDirectory: "data" }, "run_command"), files },
    ...["data/in.csv", "./data/../data/in.csv", "data-link/in.csv", "/ws/data/new.txt", "new/folder/file.txt", ".", "https://example.com/a/../../b"].map((path) => ({ code: plan({ path }), files })),
    // A pattern matches only what is there: `*/in.csv` names data/in.csv, not out-link/in.csv, which is not.
    ...["cat */in.csv", "cat data/*.csv", "echo x > ou?-link/new", "ls data-l*/in.csv"].map((command) => ({ name: `run_command ${command}`, code: plan({ command }, "run_command"), files })),
    { name: "a file URL inside the workspace", code: plan({ url: "file:///ws/data/in.csv" }), files },
    { name: "a relative file URL inside the workspace", code: plan({ uri: "file:data/in.csv" }), files },
    { name: "a read of a hard link", code: plan({ path: "data/hard.txt" }, "read_file"), files },
    { name: "a folder, which has several links of its own", code: plan({ path: "data" }), files },
    ...[{ output: "out/x.txt" }, { command: "/usr/bin/make all" }, { url: "/api/v1" }, { note: "see ../README for details" }, { content: "../x" }].map((args) => ({
      name: `the argument ${JSON.stringify(args)}, not a path that escapes`,
      code: plan(args),
      files,
    })),
    // A relative path under any name is resolved; inside the workspace it passes, whatever the name.
    ...[{ what: "data/in.csv" }, { name: "data-link/in.csv" }, { mime: "application/json" }, { input: ".cache/x" }, { p: "data%2fin.csv" }, { name: "data-link" }, { mode: "data" }, { "out-link": 1 }].map((args) => ({
      name: `a relative path inside the workspace under ${JSON.stringify(args)}`,
      code: plan(args, "upload"),
      files,
    })),
    // Prose is no path: a value with spaces counts only where it climbs out as a whole.
    ...[{ note: "see ../README for details" }, { title: "read/write access for a/b" }, { note: "compare a/../b with c" }].map((args) => ({ name: `prose ${JSON.stringify(args)}`, code: plan(args, "upload"), files })),
    { name: "a path with spaces inside the workspace", code: plan({ path: " data/in.csv ", b: "my data/../data/in.csv" }), files },
    { name: "structured text and URLs that stay inside", code: plan({ path: "data/in.csv", options: '{"output": "data/out.csv", "n": 2}', flags: "--log-file=data/x.log", note: "Note: see http://example.com/a", open: "vscode://file/ws/data/in.csv:3" }), files },
    // A patch inside the workspace; a patch written as a file's content is that file's text, not applied.
    { name: "a patch of workspace files", code: plan({ patch: "--- a/data/in.csv\n+++ b/data/in.csv\n@@ -1 +1 @@\n-a\n+b\n" }, "apply_patch"), files },
    { name: "a patch of a new file (from /dev/null)", code: plan({ input: "--- /dev/null\n+++ b/data/new.txt\n@@ -0,0 +1 @@\n+b\n" }, "apply_patch"), files },
    { name: "a patch as a file's content", code: plan({ path: "fix.patch", content: "--- a/../../etc/passwd\n+++ b/../../etc/passwd\n" }), files },
    // git and make read each -C from the folder before it: `..` after `-C data` is the workspace root.
    ...["git -C data -C .. status", "git -C data -C.. log", "make -C data --directory=.. all"].map((command) => ({ name: `successive folder options: ${command}`, code: plan({ command }, "run_command"), files })),
    // An ACL is setfacl's option value, not a Windows drive path.
    ...["setfacl -m u:x:rwx data/in.csv", "setfacl -Rm u:x:rwx,g:y:r data", "setfacl --modify=u:x:rwx -x g:staff data/in.csv", "setfacl --set u::rw,g::r,o::- data/in.csv"].map((command) => ({ name: `setfacl's ACL: ${command}`, code: plan({ command }, "run_command"), files })),
    ...["cp -r -tdata data/in.csv", "mv -tdata x", "install -m644 -tdata x", "ln -stdata x"].map((command) => ({ name: `a target folder glued to -t: ${command}`, code: plan({ command }, "run_command"), files })),
    // Names that fold to no entry, and new files beside a link: nothing a name-folding file system reads otherwise.
    ...["data/IN2.csv", "Data2/x.txt", "out-links/x.txt", "data/new.txt", "DATA/in.csv", "DATA-LINK/in.csv", "Data-Link./new/x.txt"].map((path) => ({ name: `a new or differently spelt path that names no link: ${path}`, code: plan({ path }), files })),
    // go's package patterns name the folder they start in (`./...` is no file named `...`).
    ...["go test ./...", "go vet ./data/... && go test -run TestX -count=1 ./...", "go build ..."].map((command) => ({ name: `a go package pattern: ${command}`, code: plan({ command }, "run_command"), files })),
    // Registry defaults inside the workspace, of arguments the step gives, or nested under an object it leaves out.
    ...(
      [
        [{ path: "data/in.csv" }, { output: { type: "string", default: "out/report.txt" }, root: { default: "." } }],
        [{ path: "data/in.csv", output: "out/x.txt" }, { output: { type: "string", default: "/etc/cron.d/x" } }],
        [{ path: "data/in.csv" }, { format: { default: "%d/%m/%Y" }, url: { default: "https://example.com/a" } }],
        [{ path: "data/in.csv" }, { output: { anyOf: [{ const: "/etc/x" }, { type: "string" }] } }],
      ] as const
    ).map(([args, properties]) => ({
      name: `read_file ${JSON.stringify(args)} with the registry defaults ${JSON.stringify(properties)}`,
      code: plan(args, "read_file"),
      files,
      options: { tools: parseToolsText(JSON.stringify({ tools: [{ name: "read_file", inputSchema: { type: "object", properties } }] }), "t.json") },
    })),
  ],
  invalid: [
    // A registry default of an argument the step leaves out is used as if given: a path there outside the
    // workspace is reported, for a read as for a write, through $ref, const, anyOf and object arguments given.
    ...(
      [
        [{ path: "data/in.csv" }, { output: { type: "string", default: "/etc/cron.d/x" } }, "output", "/etc/cron.d/x"],
        [{ path: "data/in.csv" }, { key: { type: "string", default: "~/.ssh/id_rsa" } }, "key", "~/.ssh/id_rsa"],
        [{ path: "data/in.csv" }, { log: { type: "string", default: "../../x" } }, "log", "../../x"],
        [{ path: "data/in.csv" }, { extra_paths: { type: "array", default: ["data", "/etc/passwd"] } }, "extra_paths", "/etc/passwd"],
        [{ path: "data/in.csv" }, { out: { $ref: "#/$defs/Out" }, $$defs: { Out: { type: "string", default: "/tmp/x" } } }, "out", "/tmp/x"],
        [{ path: "data/in.csv" }, { target: { const: "/etc/hosts" } }, "target", "/etc/hosts"],
        [{ path: "data/in.csv" }, { cache: { anyOf: [{ type: "null" }, { type: "string", default: "~/.cache/x" }] } }, "cache", "~/.cache/x"],
        [{ path: "data/in.csv", opts: {} }, { opts: { type: "object", properties: { dump: { type: "string", default: "/var/tmp/d" } } } }, "opts.dump", "/var/tmp/d"],
        [{ path: "data/in.csv" }, { cfg: { type: "string", default: "out-link/x.txt" } }, "cfg", "out-link/x.txt"],
        [{ path: "data/in.csv" }, { opts: { type: "object", properties: { output: { default: "/etc/cron.d/x" } } } }, "opts.output", "/etc/cron.d/x"],
        [{ path: "data/in.csv" }, { opts: { type: "object", default: {}, properties: { log: { type: "string", default: "~/x.log" } } } }, "opts.log", "~/x.log"],
        [{ path: "data/in.csv" }, { target: { oneOf: [{ const: "/etc/hosts" }] } }, "target", "/etc/hosts"],
        [{ path: "data/in.csv" }, { log: { if: { type: "string" }, then: { default: "/var/log/x" } } }, "log", "/var/log/x"],
      ] as const
    ).map(([args, props, argument, path]) => {
      const { $$defs, ...properties } = props as Record<string, unknown>;
      const schema = { type: "object", properties, ...($$defs ? { $defs: $$defs } : {}) };
      return {
        name: `read_file ${JSON.stringify(args)} with the registry schema ${JSON.stringify(schema)}`,
        code: plan(args, "read_file"),
        files,
        options: { tools: parseToolsText(JSON.stringify({ tools: [{ name: "read_file", inputSchema: schema, annotations: { readOnlyHint: true } }] }), "t.json") },
        errors: [{ step: 1, pointer: "/steps/0/arguments", messageId: "outsideDefault", message: new RegExp(`"read_file" leaves out its argument "${argument.replace(".", "\\.")}", which the tool's registry schema defaults to "${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}": that path .*, outside the workspace`) }],
      };
    }),
    // Paths inside structured text an executor parses, and URLs of other schemes that name a local file.
    ...(
      [
        [{ options: '{"output": "/etc/passwd"}' }, "/steps/0/arguments/options"],
        [{ options: "out_dir: ../x\nverbose: true" }, "/steps/0/arguments/options"],
        [{ flags: "--log-file=/outside/x.log" }, "/steps/0/arguments/flags"],
        [{ open: "vscode://file/etc/passwd" }, "/steps/0/arguments/open"],
        [{ url: "git+file:///outside/repo" }, "/steps/0/arguments/url"],
      ] as const
    ).map(([args, pointer]) => ({ name: `${JSON.stringify(args)}: a path inside text`, code: plan(args), files, errors: [{ step: 1, pointer, messageId: "outsideWorkspace" }] })),
    // A link named in another case, Unicode normalization or with a trailing dot: macOS and Windows open the
    // link (and follow it out), where the name as written is missing here.
    reported({ path: "OUT-LINK/x.txt" }, 'path "OUT-LINK/x.txt" (read as "out-link/x.txt") in "path" resolves through a symlink to /outside/x.txt, outside the workspace /ws.'),
    reported({ path: "Out-Link./new/x.txt" }, '(read as "out-link/new/x.txt") in "path" resolves through a symlink to /outside/new/x.txt'),
    reported({ path: "Data/DEEP-LINK/x" }, '(read as "data/deep-link/x") in "path" resolves through a symlink to /outside/x'),
    reported({ path: "re\u0301sume\u0301/secret.txt" }, '(read as "r\u00e9sum\u00e9/secret.txt") in "path" resolves through a symlink to /outside/secret.txt'),
    reported({ command: "cp data/in.csv OUT-LINK/x" }, 'names "OUT-LINK/x", a path that resolves through a symlink to /outside/x', "run_command", "commandPathOutside"),
    // A map keyed by paths: its keys are path arguments, and its values are checked as values too.
    reported({ files: { "notes.txt": "../../../etc/passwd" } }, 'path "../../../etc/passwd" in "notes.txt" resolves to /etc/passwd', "copy_files"),
    {
      name: "a parent path, at the argument, naming the workspace",
      code: plan({ path: "../x" }),
      files,
      errors: [{ line: 1, column: 52, endLine: 1, endColumn: 58, step: 1, pointer: "/steps/0/arguments/path", message: 'Step 1: path "../x" in "path" resolves to /x, outside the workspace /ws.' }],
    },
    // A relative path read from a folder the step names lands where the joined path resolves.
    ...(
      [
        [{ cwd: "data", path: "link/secret.txt" }, "link/secret.txt", "path", "data", "cwd", "/outside/secret.txt"],
        [{ working_directory: "data", name: "link" }, "link", "name", "data", "working_directory", "/outside"],
        [{ options: { root: "data" }, files: ["in.csv", "link/x"] }, "link/x", "files", "data", "root", "/outside/x"],
      ] as const
    ).map(([args, path, argument, folder, folderArgument, target]) => ({
      name: `${JSON.stringify(args)}: read from the folder`,
      code: plan(args),
      files: { ...files, "data/link": { link: "/outside" } },
      errors: [{ step: 1, messageId: "outsideInFolder", message: `Step 1: path "${path}" in "${argument}", read from the folder "${folder}" in "${folderArgument}", resolves through a symlink to ${target}, outside the workspace /ws.` }],
    })),
    {
      name: "more folders than plangate reads paths from",
      code: plan(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`dir_${i}`, `d${i}`]))),
      files,
      errors: [{ step: 1, pointer: "/steps/0/arguments/dir_0", messageId: "tooManyFolderPaths", message: "Step 1: the step names 65 folders and 65 paths that may be read from them, more than plangate checks (64 folders, 65536 pairs)." }],
    },
    {
      name: "a command read from a folder the step names under another name",
      code: plan({ command: "cat link/secret.txt", workingDirectory: "data" }, "run_command"),
      files: { ...files, "data/link": { link: "/outside" } },
      errors: [{ step: 1, messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "link/secret.txt" (after cd data), a path that resolves through a symlink to /outside/secret.txt; the workspace is /ws.' }],
    },
    reported({ path: "../outside/secret.txt" }, "resolves to /outside/secret.txt"),
    reported({ path: "data/../../outside" }, "resolves to /outside"),
    reported({ path: "/etc/passwd" }, "resolves to /etc/passwd"),
    reported({ path: "~/.ssh/id_rsa" }, "starts with ~"),
    reported({ path: "%2e%2e/outside/secret.txt" }, 'read as "../outside/secret.txt"'),
    reported({ path: "%252e%252e/x" }, "read as"),
    reported({ path: "data/in.csv\u0000.txt" }, "NUL byte"),
    reported({ path: "C:\\Windows\\system32" }, "Windows drive"),
    reported({ path: "..\\outside" }, "resolves to"),
    reported({ file_path: "out-link/secret.txt" }, "through a symlink"),
    reported({ path: "secret-link" }, "through a symlink"),
    reported({ path: "out-link/new/dir/file.txt" }, "through a symlink"),
    reported({ path: "dangling" }, "through a symlink"),
    reported({ path: "loop-a/x" }, "symlink loop"),
    reported({ path: "file:///etc/hosts" }, "resolves to /etc/hosts"),
    reported({ database: "sqlite:////etc/app.db" }, "resolves to /etc/app.db"),
    reported({ db: "jdbc:sqlite:../app.db" }, "resolves to"),
    reported({ options: { cwd: "/tmp" } }, "resolves to /tmp"),
    reported({ sources: { src: ["data/in.csv", "../x"] } }, "resolves to"),
    // A path argument that looks like a URL is still a path to a file-system executor: `ftp:` is a folder.
    reported({ path: "ftp://../../etc/passwd" }, "resolves to /etc/passwd"),
    reported({ dest: "https://../../../etc/cron.d/job" }, "resolves to /etc/cron.d/job", "download"),
    // Spaces: an executor may trim a path (strip(), trim()), and a folder's name may hold spaces.
    reported({ path: " /etc/passwd" }, 'path " /etc/passwd" (read as "/etc/passwd") in "path" resolves to /etc/passwd'),
    reported({ path: "\u3000../outside/secret.txt" }, "resolves to /outside/secret.txt"),
    reported({ where: " ../outside/secret.txt " }, "resolves to /outside/secret.txt", "upload"),
    reported({ a: "data/in.csv", b: "x /../../../etc/cron.d/job" }, "resolves to /etc/cron.d/job", "mcp__fs__move"),
    reported({ b: "my dir/../../outside/secret.txt" }, "resolves to /outside/secret.txt", "mcp__fs__move"),
    // A patch names the files it writes in its headers, whatever its argument is called.
    reported({ input: "*** Begin Patch\n*** Update File: ../../etc/passwd\n@@\n-a\n+b\n*** End Patch\n" }, 'path "../../etc/passwd" in "input" resolves to /etc/passwd', "apply_patch"),
    reported({ patch: "--- a/data/in.csv\n+++ b/../outside/secret.txt\n@@ -1 +1 @@\n-a\n+b\n" }, "resolves to /outside/secret.txt", "patch"),
    reported({ changes: "diff --git a/x b/x\nrename from data/in.csv\nrename to /etc/cron.d/job\n" }, "resolves to /etc/cron.d/job", "edit"),
    reported({ diff: 'diff --git "a/x" "b/y"\n--- "a/x"\n+++ "b/..\\057..\\057etc\\057passwd"\n' }, "resolves to /etc/passwd", "git_apply"),
    reported({ content: "--- out-link/secret.txt\t2020-01-01 00:00:00\n+++ out-link/secret.txt\t2020-01-02 00:00:00\n" }, "through a symlink", "apply_diff"),
    // A symbolic link a patch creates points where later writes through it go.
    reported({ patch: "diff --git a/out b/out\nnew file mode 120000\n--- /dev/null\n+++ b/out\n@@ -0,0 +1 @@\n+/etc\n\\ No newline at end of file\n" }, 'path "/etc" in "patch" resolves to /etc', "apply_patch"),
    // File URLs are paths.
    ...[
      { path: "file:/etc/passwd" },
      { path: "FILE:/etc/passwd" },
      { path: "file:///etc/passwd" },
      { path: "File://localhost/etc/passwd" },
      { path: "file:../outside/secret.txt" },
      { url: "file:///etc/passwd" },
      { url: "FILE:/etc/shadow" },
      { uri: "file:/root/.ssh/id_rsa" },
      { href: "file://localhost/etc/hosts" },
      { uri: "file:out-link/secret.txt" },
      { url: "file://server/share/x" },
      { url: "file:///C:/Windows/win.ini" },
      { path: "file%3A%2F%2F%2Fetc%2Fpasswd" },
    ].map((args) => reported(args)),
    // Symlinks are followed under every path-like name.
    ...[
      { notebook_path: "out-link/secret.txt" },
      { to: "out-link/x" },
      { output: "secret-link" },
      { out: "dangling" },
      { dst: "out-link/a/b" },
      { outputPath: "out-link/x" },
      { log_file: "secret-link" },
      { cache_dir: "out-link" },
    ].map((args) => reported(args, "through a symlink")),
    // A write to a hard link, whatever the tool is called.
    ...["write_file", "text_editor", "sed", "unknown_tool"].map((tool) => reported({ path: "data/hard.txt" }, "is a hard link (the file has 2 names", tool, "hardLink")),
    reported({ file_path: "data/../data/hard.txt" }, "is a hard link", "edit_file", "hardLink"),
    // Arguments not named as paths: a relative path through a symbolic link, or spelt with percent escapes,
    // leaves the workspace as surely as `../x` does.
    ...[
      { what: "out-link/secret.txt" },
      { name: "secret-link/" },
      { input: "out-link/new/file" },
      { notebook: "dangling/x" },
      { items: ["data/in.csv", "out-link/secret.txt"] },
      { nested: { resource: "out-link/secret.txt" } },
      { p1: "out-link%2fsecret.txt" },
    ].map((args) => reported(args, "through a symlink", "upload")),
    // A bare word that is a symbolic link in the workspace, for a reader too.
    ...[{ name: "out-link" }, { p1: "secret-link" }].flatMap((args) => [reported(args, "through a symlink", "upload"), reported(args, "through a symlink", "read_file")]),
    reported({ p1: "%2e%2e%2fetc%2fpasswd" }, 'read as "../etc/passwd"', "upload"),
    reported({ p1: "..%2fx" }, 'read as "../x"', "upload"),
    // Arguments not named as paths, when they hold an escaping path.
    ...[{ output: "../x.txt" }, { report_to: "/etc/cron.d/job" }, { where: "~/x" }, { nested: { save_as: "a/../../x" } }].map((args) => reported(args)),
    {
      name: "an argument the schema gives format: path",
      code: plan({ what: "out-link/secret.txt" }, "upload"),
      files,
      options: { tools: parseToolsText(JSON.stringify({ tools: [{ name: "upload", inputSchema: { properties: { what: { type: "string", format: "path" } } } }] }), "t.json") },
      errors: [{ line: 1, column: 48, endLine: 1, endColumn: 69, step: 1, pointer: "/steps/0/arguments/what", message: /through a symlink/ }],
    },
    { name: "scQC params", code: '[{"tool": "load_data", "params": {"file_path": "/data/x.h5ad"}}]', files, errors: [{ line: 1, column: 48, endLine: 1, endColumn: 62, pointer: "/0/params/file_path", messageId: "outsideWorkspace" }] },
    {
      name: "a $regex on a path that admits a path outside, and one that cannot be bounded",
      code: plan({ path: { $regex: ".*" }, file_path: { $regex: "[a-z]+/[a-z]+\\.txt" } }),
      files,
      options: allowConstraints,
      errors: [
        { step: 1, messageId: "regexEscapes", message: 'Step 1: the $regex in "path" admits "../x", a path outside the workspace.', hint: 'bound the path with {"$glob": "folder/**"} or list the paths with {"$enum": […]}' },
        { step: 1, messageId: "regexUnbounded", message: 'Step 1: the $regex in "file_path" cannot be shown to admit only paths inside the workspace.' },
      ],
    },
    {
      name: "a file-URL pattern that admits a file outside",
      code: plan({ url: { $glob: "*" } }, "fetch"),
      files,
      options: allowConstraints,
      errors: [{ step: 1, messageId: "urlOutside", message: 'Step 1: the $glob in "url" admits "file:///etc/passwd", a file outside the workspace.', hint: 'start the pattern with the scheme it allows (https://host/…), or list the values with {"$enum": […]}' }],
    },
    {
      name: "a command line that names a path outside",
      code: plan({ command: "cat /etc/passwd" }, "run_command"),
      files,
      errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "/etc/passwd", a path that resolves to /etc/passwd; the workspace is /ws.', hint: "use paths inside the workspace, relative to its root" }],
    },
    ...(
      [
        ["awk 'BEGIN { system(\"rm -rf ../x\") }'", "../x", "/x"],
        ["awk '{ print > \"/etc/cron.d/job\" }' src/a.txt", "/etc/cron.d/job", "/etc/cron.d/job"],
        ["awk 'BEGIN { while ((\"cat /etc/passwd\" | getline l) > 0) print l }'", "/etc/passwd", "/etc/passwd"],
        ["socat - OPEN:/etc/cron.d/job,creat", "/etc/cron.d/job", "/etc/cron.d/job"],
      ] as const
    ).map(([command, named, resolved]) => ({
      name: `an awk program that names a path outside: ${command}`,
      code: plan({ command }, "run_command"),
      files,
      errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "commandPathOutside", message: `Step 1: the command in "command" names "${named}", a path that resolves to ${resolved}; the workspace is /ws.` }],
    })),
    {
      name: "a go package pattern that starts outside",
      code: plan({ command: "go test ../../..." }, "run_command"),
      files,
      errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "../..", a path that resolves to /; the workspace is /ws.' }],
    },
    {
      name: "a command line's operand after -- that starts with -",
      code: plan({ command: "cp notes.txt -- -/../../etc/cron.d/job" }, "run_command"),
      files,
      errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "-/../../etc/cron.d/job", a path that resolves to /etc/cron.d/job; the workspace is /ws.' }],
    },
    {
      name: "a path outside in the argument vector beside a command: at the list's member",
      code: plan({ cmd: "cat", args: ["-n", "/etc/passwd"] }, "run_command"),
      files,
      errors: [
        // The list's member is a path-looking value of its own, and a word of the command line.
        { step: 1, pointer: "/steps/0/arguments/args/1", column: 71, endColumn: 84, messageId: "outsideWorkspace" },
        { step: 1, pointer: "/steps/0/arguments/args/1", column: 71, endColumn: 84, messageId: "commandPathOutside", message: 'Step 1: the command in "cmd" names "/etc/passwd", a path that resolves to /etc/passwd; the workspace is /ws.' },
      ],
    },
    {
      name: "successive git -C folders that leave the workspace",
      code: plan({ command: "git -C data -C ../.. rm x" }, "run_command"),
      files,
      errors: [
        { step: 1, pointer: "/steps/0/arguments/command", messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "../.." (after cd data), a path that resolves to /; the workspace is /ws.' },
        { step: 1, pointer: "/steps/0/arguments/command", messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "rm" (after cd data/../..), a path that resolves to /rm; the workspace is /ws.' },
        { step: 1, pointer: "/steps/0/arguments/command", messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "x" (after cd data/../..), a path that resolves to /x; the workspace is /ws.' },
      ],
    },
    {
      name: "env keeps its last -C, read from where it started",
      code: plan({ command: "env -C data -C .. cat x" }, "run_command"),
      files,
      errors: [
        { step: 1, messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "x" (after cd ..), a path that resolves to /x; the workspace is /ws.' },
        { step: 1, messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "..", a path that resolves to /; the workspace is /ws.' },
      ],
    },
    ...["pnpm dlx cowsay@1 -C data ../x", "pkgx node@20 -C data ../x"].map((command) => ({
      name: `a -C among the arguments of a program a runner renames is the program's: ${command}`,
      code: plan({ command }, "run_command"),
      files,
      errors: [{ step: 1, messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "../x", a path that resolves to /x; the workspace is /ws.' }],
    })),
    {
      name: "a Windows drive path beside setfacl's ACL",
      code: plan({ command: "setfacl -m u:x:rwx C:x" }, "run_command"),
      files,
      errors: [{ step: 1, messageId: "commandPathOutside" }],
    },
    ...["cp -r -tout-link data", "cp -rtout-link data", "mv -tout-link data", "install -tout-link x", "ln -tout-link x"].map((command) => ({
      name: `a target folder glued to -t, a link out of the workspace: ${command}`,
      code: plan({ command }, "run_command"),
      files,
      errors: [{ step: 1, messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "out-link", a path that resolves through a symlink to /outside; the workspace is /ws.' }],
    })),
    ...[
      ["cat out-l*/secret.txt", "out-l*/secret.txt", "out-link/secret.txt", "/outside/secret.txt"],
      ["echo x > ou?-link/secret.txt", "ou?-link/secret.txt", "out-link/secret.txt", "/outside/secret.txt"],
      ["cp notes.txt */", "*/", "out-link", "/outside"],
      ["chmod -R 777 secret-*", "secret-*", "secret-link", "/outside/secret.txt"],
    ].map(([command, named, match, target]) => ({
      name: `a pattern that matches a link out of the workspace: ${command}`,
      code: plan({ command }, "run_command"),
      files: { "data/in.csv": "a\n", "/outside/secret.txt": "s\n", "out-link": { link: "/outside" }, "secret-link": { link: "/outside/secret.txt" } },
      errors: [{ step: 1, messageId: "commandPathOutside", message: `Step 1: the command in "command" names "${named}", a path that is a pattern that matches ${match}, which resolves through a symlink to ${target}; the workspace is /ws.` }],
    })),
    {
      name: "a path outside in the command beside an argument vector: at the command",
      code: plan({ cmd: "cat /etc/passwd", args: ["-n"] }, "run_command"),
      files,
      errors: [{ step: 1, pointer: "/steps/0/arguments/cmd", messageId: "commandPathOutside" }],
    },
    {
      // Resolving 60 paths of 1 MiB (520,000 names each) took 35 s and 2.6 GB; the message quotes the start of the path.
      name: "a path longer than any a system opens, refused unread",
      code: plan({ path: `data/${"a/".repeat(2045)}xy` }),
      files,
      errors: [{ step: 1, messageId: "outsideWorkspace", message: `Step 1: path "data/${"a/".repeat(253)}a... (4097 characters)" in "path" is 4097 characters long, longer than the 4096 of any path a system opens, outside the workspace /ws.` }],
    },
    {
      name: "arguments nested too deep to walk",
      code: plan({ deep: JSON.parse("[".repeat(80) + '"x"' + "]".repeat(80)) as unknown }),
      files,
      errors: [{ step: 1, messageId: "tooNested", message: 'Step 1: the arguments under "deep" are nested more than 64 levels deep in the arguments, too deep to check; a path there could point anywhere.', hint: "flatten the arguments to at most 64 levels" }],
    },
  ],
  docs: { file: "plan.yaml", files: { "data/input.csv": "a\n" }, wrap: (example) => `steps:\n  - tool: read_file\n    intent: read the input\n    ${example}\n` },
});

// A TeDDy EXECUTE runs its command in its `cwd` (text, whatever it spells: `123`, `true`), or in the
// workspace root: TeDDy reads no other folder key, so a `Workdir` item does not move where it runs.
const execute = (meta: string, command: string) => planMd(`### EXECUTE\n${meta}\n\`\`\`shell\n${command}\n\`\`\``);
const teddyFiles = { "123": { link: "/outside" }, true: { link: "/outside" }, "-1": { link: "/outside" }, "a/b/c/x.txt": "x\n", "/outside/secret.txt": "s\n" } as const;
ruleTester("path-outside-workspace", {
  valid: [
    { name: "TeDDy: a cwd inside the workspace", code: execute("- **cwd:** a/b", "cat c/x.txt"), file: "plan.md", files: teddyFiles },
    { name: "TeDDy: a command read from its cwd", code: execute("- **cwd:** a/b/c", "cat ../../../a/b/c/x.txt"), file: "plan.md", files: teddyFiles },
  ],
  invalid: [
    ...["123", "true", "-1"].map((cwd) => ({
      name: `TeDDy: a cwd that reads as a number or a flag (${cwd}) is a folder`,
      code: execute(`- **cwd:** ${cwd}`, "cat secret.txt"),
      file: "plan.md",
      files: teddyFiles,
      errors: [
        { line: 11, column: 12, endLine: 11, endColumn: 12 + cwd.length, step: 1, messageId: "outsideWorkspace", message: `Step 1: path "${cwd}" in "cwd" resolves through a symlink to /outside, outside the workspace /ws.` },
        { line: 12, column: 1, step: 1, messageId: "commandPathOutside", message: `Step 1: the command in "command" names "secret.txt" (after cd ${cwd}), a path that resolves through a symlink to /outside/secret.txt; the workspace is /ws.` },
      ],
    })),
    ...["Workdir", "Working Directory", "working_dir"].map((key) => ({
      name: `TeDDy: a ${key} item TeDDy does not read leaves the command in the root`,
      code: execute(`- **${key}:** a/b/c`, "rm ../../../x.txt"),
      file: "plan.md",
      files: teddyFiles,
      errors: [{ line: 12, column: 1, step: 1, messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "../../../x.txt", a path that resolves to /x.txt; the workspace is /ws.' }],
    })),
  ],
});

// A package manager's write outside the workspace that no word of the line names (src/commands/installs.ts):
// refused at the command's string, or at the piece of a joined argument vector that decides it.
const shellStep = (args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool: "bash", intent: "why", arguments: args }] });
const installs = (command: string, how: string, where: string | RegExp, options?: InvalidCase["options"]): InvalidCase => {
  const code = shellStep({ command });
  const message = typeof where === "string" ? `Step 1: the command in "command" writes outside the workspace /ws without naming it: "${how}" writes to ${where}.` : where;
  return { name: `installs outside: ${command}`, code, ...(options ? { options } : {}), errors: [{ ...at(code, command), pointer: "/steps/0/arguments/command", messageId: "commandInstallsOutside", message }] };
};
const installsAs = (command: string, how: string): InvalidCase => installs(command, how, new RegExp(`: "${how.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}" writes to `));
const installPolicy = (installOutside: string[], allowCompound = false) => {
  const policy = defaultPolicy("/ws");
  policy.commands = { allow: [], deny: [], allowCompound, installOutside };
  return { policy };
};
const compound = installPolicy([], true);
const NPM_GLOBAL = "npm's global prefix (its lib/node_modules, and its bin folder on the user's PATH)";
ruleTester("path-outside-workspace", {
  valid: [
    // Installs into the workspace, and programs that are no package manager, pass.
    ...[
      "npm install", "npm ci", "npm install left-pad", "npm i -D vitest", "npm ls -g", "npm root -g", "npm list -g --depth=0", "npm run build -- -g",
      "npm install -g --prefix ./tools left-pad", "npm i --global --prefix=tools x", "npm_config_prefix=./tools npm i -g x", "PREFIX=tools npm install -g x",
      "npm config get registry", "npm config set --location=project registry https://registry.example", "npm install --global=false x", "pnpm install", "pnpm add -D x",
      "PNPM_HOME=./.pnpm pnpm add -g x", "yarn add x", "yarn global list", "yarn link ./lib", "bun add x", "bun pm ls -g", "deno install --global --root ./tools jsr:@std/x",
      "corepack enable --install-directory ./bin", "corepack pnpm install", ".venv/bin/pip install requests", "venv/bin/pip3 install -r requirements.txt", "./.venv/bin/pip install -e .",
      "pip install --target ./vendor x", "pip install -t vendor x", "pip install -t./vendor x", "PIP_TARGET=vendor pip install x", "PIP_USER=0 .venv/bin/pip install x",
      ".venv/bin/pip install x", ".venv/bin/python -m pip install -U pip", "python3 -m venv .venv", "pip config list", "pip config set --site global.timeout 5",
      "pip download x", "pip wheel -w dist .", "pip list", "pip freeze", "pip install --dry-run x", "pip --python .venv install x", "pip --python=.venv/bin/python install x",
      "/ws/.venv/bin/pip install x", "uv pip install --python .venv/bin/python x", "uv pip install -p .venv x",
      "pipx run black .", "uv sync", "uv pip install x", "uv add --dev ruff", "uvx ruff check", "uv pip install --target vendor x", "uv python list",
      "UV_TOOL_DIR=.uv/tools UV_TOOL_BIN_DIR=.uv/bin uv tool install ruff", "poetry config --list", "poetry config --local virtualenvs.in-project true",
      // Python's project managers: what runs or only locks, an environment the line keeps in the project, PDM's own .venv.
      "POETRY_VIRTUALENVS_IN_PROJECT=true poetry install", "POETRY_VIRTUALENVS_PATH=.venvs poetry add x", "poetry run pytest", "poetry lock", "poetry add --lock x", "poetry install --dry-run",
      "python -m poetry run pytest", "poetry config --local virtualenvs.create true", "PIPENV_VENV_IN_PROJECT=1 pipenv install", "WORKON_HOME=.venvs pipenv sync", "pipenv run pytest", "pipenv lock", "pipenv graph",
      "HATCH_DATA_DIR=.hatch hatch run test", "hatch --data-dir ./.hatch test", "HATCH_ENV_TYPE_VIRTUAL_PATH=.venv hatch run x", "hatch env show", "hatch version", "hatch python install --dir ./.py --private 3.12",
      "pdm install", "pdm add -d pytest", "pdm run pytest", "pdm config", "pdm config --local venv.in_project true", "PDM_VENV_IN_PROJECT=true pdm sync", "pdm venv list",
      "rye sync", "rye tools list", "RYE_HOME=./.rye rye install ruff", "pixi add x", "pixi run test", "pixi global list", "PIXI_HOME=./.pixi pixi global install ruff",
      "conda install -p ./env numpy", "conda create -p ./env python=3.12", "mamba install --prefix ./env numpy", "conda list", "conda install --dry-run numpy", "gem list", "gem install -i ./vendor/gems rails", "GEM_HOME=vendor/gems gem install rails", "bundle install",
      "bundle config set --local path vendor/bundle", "cargo build --release", "cargo install --root ./tools ripgrep", "CARGO_INSTALL_ROOT=tools cargo install ripgrep",
      "cargo install --list", "GOBIN=./bin go install example.com/x@latest", "GOPATH=./.go go install example.com/x@latest", "go build ./...", "go get example.com/x@v1",
      "go env GOPATH", "rustup show", "rustup default", "RUSTUP_HOME=./.rustup rustup toolchain install nightly", "brew list", "brew info jq", "brew tap", "brew services list",
      "apt-get -s install jq", "apt-get install --simulate jq", "apt list --installed", "apt-cache search jq", "dnf list installed", "apk info", "pacman -Q", "pacman -Ss jq",
      "yay -Si jq", "rpm -qa", "dpkg -l", "pyenv versions", "pyenv local 3.12", "nvm ls", "mise exec -- node -v", "gh extension list", "gh pr list", "code --list-extensions",
      "kubectl krew list", "pkg index.js", "make install DESTDIR=./stage", "cat package.json", "npm install -g x --dry-run", "pip install --user --dry-run x", "brew install --dry-run jq",
      "helm install release ./chart", "port 8080", "gh extension create gh-x", "snap download jq", "flatpak build-init build org.x org.Sdk org.Platform", "yarn set version stable", "conda run -n base python x.py", "nvm use 20", "pyenv install --list",
    ].map((command) => ({ name: `stays in the workspace: ${command}`, code: shellStep({ command }) })),
    // A package manager the policy names may install outside.
    { name: "commands.installOutside names the manager", code: shellStep({ command: "cargo install ripgrep" }), options: installPolicy(["cargo"]) },
    { name: "commands.installOutside by a glob", code: shellStep({ command: "apt-get install -y jq" }), options: installPolicy(["apt*"]) },
    { name: "commands.installOutside by the name the command spells", code: shellStep({ command: "pip3 install --user x" }), options: installPolicy(["pip3"]) },
    { name: "an install into the workspace through a wrapper that passes its environment on", code: shellStep({ command: "GOBIN=./bin nice go install x" }), options: compound },
    { name: "a variable a wrapper sets", code: shellStep({ command: "env GOBIN=./bin go install x" }), options: compound },
    { name: "a nested shell gets the variables it was started with", code: shellStep({ command: "GOBIN=./bin sh -c 'go install x'" }), options: compound },
    { name: "a variable set for the program by sudo", code: shellStep({ command: "sudo GOBIN=./bin go install x" }), options: compound },
    { name: "a virtual environment's pip under sudo", code: shellStep({ command: "sudo .venv/bin/pip install x" }), options: compound },
    { name: "a variable in env's split string", code: shellStep({ command: "env -S 'GOBIN=./bin go install x'" }), options: compound },
  ],
  invalid: [
    installs("npm install -g left-pad", "npm install -g", NPM_GLOBAL),
    installs("npm i --global x", "npm i --global", NPM_GLOBAL),
    installs("npm link", "npm link", NPM_GLOBAL),
    installs("npm link ./lib", "npm link", NPM_GLOBAL),
    installs("npm unlink", "npm unlink", NPM_GLOBAL),
    installs("npm install --location=global x", "npm install --location=global", NPM_GLOBAL),
    installs("NPM.cmd i -g x", "npm i -g", NPM_GLOBAL),
    installs("npm config set prefix tools", "npm config set", "npm's user configuration (~/.npmrc)"),
    installs("npm set registry https://registry.example", "npm set", "npm's user configuration (~/.npmrc)"),
    installs("npm login", "npm login", "npm's user configuration (~/.npmrc)"),
    installs("npm config set -g registry https://registry.example", "npm config set -g", "npm's global configuration (etc/npmrc under npm's prefix)"),
    installs("yarn global add x", "yarn global add", "Yarn's global folder and its bin folder (on the user's PATH)"),
    installs("yarn link", "yarn link", "Yarn 1's link registry (~/.config/yarn/link)"),
    installsAs("yarn config set registry x", "yarn config set"),
    installs("pnpm add -g x", "pnpm add -g", "pnpm's global folder and PNPM_HOME (on the user's PATH)"),
    installsAs("pnpm setup", "pnpm setup"),
    installsAs("pnpm config set store-dir x", "pnpm config set"),
    installsAs("bun add -g x", "bun add -g"),
    installsAs("bun upgrade", "bun upgrade"),
    installsAs("deno install -g jsr:@std/x", "deno install -g"),
    installsAs("corepack enable", "corepack enable"),
    installsAs("corepack install -g pnpm@9", "corepack install -g"),
    installsAs("volta install node", "volta install"),
    installs("pip install --user requests", "pip install --user", "Python's user site-packages and ~/.local/bin (on the user's PATH)"),
    // A pip that is not the workspace's, named by its path: whatever environment is in force where it runs.
    installs(
      "pip install -r requirements.txt",
      "pip install",
      "the Python environment in force where it runs, which the line does not show: with no virtual environment active, the user's site-packages (~/.local, its bin folder on the user's PATH) or the system's",
    ),
    ...[
      ["pip install requests", "pip install"],
      ["pip3 install -e .", "pip3 install"],
      ["pip uninstall -y x", "pip uninstall"],
      ["PIP_USER=0 pip install x", "pip install"],
      ["python -m pip install -U pip", "python -m pip install"],
      ["python3 -m pip install x", "python3 -m pip install"],
      ["py -3 -m pip install x", "py -m pip install"],
      ["/opt/venv/bin/pip install x", "pip install"],
      ["env pip install x", "pip install"],
      ["pip --python python3.12 install x", "pip install --python python3.12"],
      ["uv pip install -p 3.12 x", "uv pip install -p 3.12"],
      ["uv pip install -p3.12 x", "uv pip install -p 3.12"],
      ["uv pip install --python python3 x", "uv pip install --python python3"],
    ].map(([c, how]) => installsAs(c!, how!)),
    installs("conda install numpy", "conda install", "the conda environment active where it runs, which the line does not show: conda's base environment in its own folder unless one in the workspace is active"),
    ...["mamba install -y numpy", "micromamba install x", "conda update --all", "conda remove x", "conda env update -f environment.yml"].map((c) => installsAs(c, c.split(" ").slice(0, c.includes(" env ") ? 3 : 2).join(" "))),
    installsAs("pip3 install --user x", "pip3 install --user"),
    installsAs("pip3.12 install --user x", "pip3.12 install --user"),
    installsAs("python -m pip install --user x", "python -m pip install --user"),
    installsAs("python3 -I -m pip install --user x", "python3 -m pip install --user"),
    installsAs("py -3.12 -m pip install --user x", "py -m pip install --user"),
    installsAs("PIP_USER=1 pip install x", "PIP_USER=1 pip install"),
    installsAs("pip install --break-system-packages x", "pip install --break-system-packages"),
    installsAs("pip install --break x", "pip install --break-system-packages"),
    installsAs("/usr/bin/pip3 install x", "pip3 install"),
    installsAs("/usr/bin/python3 -m pip install x", "python3 -m pip install"),
    installsAs("pip config set global.index-url x", "pip config set"),
    installsAs("pipx install black", "pipx install"),
    installsAs("pipx ensurepath", "pipx ensurepath"),
    installsAs("python -m pipx install black", "python -m pipx install"),
    installsAs("uv tool install ruff", "uv tool install"),
    installsAs("uv python install 3.12", "uv python install"),
    installsAs("uv pip install --system x", "uv pip install --system"),
    installsAs("UV_SYSTEM_PYTHON=1 uv pip install x", "UV_SYSTEM_PYTHON=1 uv pip install"),
    installsAs("uv self update", "uv self update"),
    installsAs("poetry config virtualenvs.in-project true", "poetry config"),
    installsAs("poetry self add poetry-plugin-export", "poetry self add"),
    // Python's project managers keep the project's environment in a folder of their own unless the project keeps it in .venv.
    installs("poetry install", "poetry install", "Poetry's virtual environments folder (~/.cache/pypoetry/virtualenvs), as the project keeps no environment of its own (.venv)"),
    ...["poetry add requests", "poetry update", "poetry sync", "poetry remove x", "poetry -C app install", "poetry --no-interaction install --no-root", "python3 -m poetry install"].map((c) => installsAs(c, c.replace(/ (?:requests|x|--no-root)$/, "").replace(/ -C app| --no-interaction/, "").replace(/^python3 -m poetry/, "python3 -m poetry"))),
    installs("POETRY_VIRTUALENVS_CREATE=false poetry install", "POETRY_VIRTUALENVS_CREATE=false poetry install", /the Python environment in force where it runs/),
    installsAs("POETRY_VIRTUALENVS_IN_PROJECT=false poetry install", "POETRY_VIRTUALENVS_IN_PROJECT=false poetry install"),
    installsAs("poetry config --local virtualenvs.create false", "poetry config --local virtualenvs.create"),
    installsAs("poetry config --local virtualenvs.path venvs", "poetry config --local virtualenvs.path"),
    installs("pipenv install", "pipenv install", "pipenv's virtual environments folder (WORKON_HOME, ~/.local/share/virtualenvs), as the project keeps no environment of its own (.venv)"),
    ...["pipenv sync", "pipenv uninstall x", "pipenv update", "pipenv --rm", "python -m pipenv install"].map((c) => installsAs(c, c.replace(/ x$/, ""))),
    installsAs("pipenv install --system", "pipenv install --system"),
    installsAs("PIPENV_SYSTEM=1 pipenv install", "PIPENV_SYSTEM=1 pipenv install"),
    installsAs("PIPENV_PIPFILE=app/Pipfile PIPENV_VENV_IN_PROJECT=1 pipenv install", "PIPENV_PIPFILE=app/Pipfile pipenv install"),
    installs("hatch run test", "hatch run", "Hatch's environments folder (~/.local/share/hatch/env), where it makes the environment and installs the project's dependencies"),
    ...["hatch test", "hatch shell", "hatch fmt", "hatch build", "hatch -e docs run build"].map((c) => installsAs(c, c.replace(/ -e docs/, "").split(" ").slice(0, 2).join(" "))),
    installsAs("hatch env create", "hatch env create"),
    installsAs("hatch python install 3.12", "hatch python install"),
    installsAs("pdm install -g black", "pdm install --global"),
    installsAs("pdm add --global x", "pdm add --global"),
    installsAs("pdm config venv.in_project false", "pdm config"),
    installsAs("PDM_VENV_IN_PROJECT=false pdm install", "PDM_VENV_IN_PROJECT=false pdm install"),
    installsAs("pdm self update", "pdm self update"),
    installsAs("rye install ruff", "rye install"),
    installsAs("rye tools install ruff", "rye tools install"),
    installsAs("pixi global install ruff", "pixi global install"),
    installsAs("conda install -n base numpy", "conda install -n"),
    installsAs("conda env create -f environment.yml", "conda env create"),
    installsAs("conda init bash", "conda init"),
    installs("cargo install ripgrep", "cargo install", "cargo's bin folder (~/.cargo/bin, on the user's PATH)"),
    installsAs("cargo +nightly install x", "cargo install"),
    installsAs("cargo install --path .", "cargo install"),
    installsAs("cargo uninstall ripgrep", "cargo uninstall"),
    installsAs("cargo binstall x", "cargo binstall"),
    installs("go install example.com/x@latest", "go install", "go's bin folder (GOBIN, or ~/go/bin, on the user's PATH)"),
    installsAs("go -C tools install ./cmd/x", "go install"),
    installsAs("GO111MODULE=off go get example.com/x", "go get"),
    installsAs("go env -w GOPROXY=direct", "go env -w"),
    installsAs("go1.22.3 download", "go1.22.3 download"),
    installsAs("gem install rails", "gem install"),
    installsAs("gem inst rails", "gem inst"),
    installsAs("gem install --user-install rails", "gem install --user-install"),
    installsAs("gem update --system", "gem update --system"),
    installsAs("bundle install --system", "bundle install --system"),
    installsAs("bundle config set path vendor/bundle", "bundle config set"),
    installsAs("rustup toolchain install nightly", "rustup toolchain install"),
    installsAs("rustup install stable", "rustup install"),
    installsAs("rustup target add wasm32-unknown-unknown", "rustup target add"),
    installsAs("rustup default nightly", "rustup default"),
    installsAs("RUSTUP_HOME=./.rustup rustup update", "rustup update"),
    installsAs("rustup-init -y", "rustup-init"),
    installs("brew install jq", "brew install", "Homebrew's prefix (/opt/homebrew, /usr/local or /home/linuxbrew; its bin folder is on the user's PATH)"),
    installsAs("brew --verbose upgrade", "brew upgrade"),
    installsAs("brew tap user/repo", "brew tap user/repo"),
    installsAs("brew services start postgresql", "brew services start"),
    installs("apt-get install -y jq", "apt-get install", "the system's packages (/usr, /etc, /var)"),
    installsAs("apt-get -o Debug::pkgProblemResolver=1 install jq", "apt-get install"),
    installsAs("apt update", "apt update"),
    installsAs("apt-get -d install jq", "apt-get install"),
    installsAs("dnf install -y jq", "dnf install"),
    installsAs("yum -y install jq", "yum install"),
    installsAs("dnf history undo 3", "dnf history undo"),
    installsAs("apk add jq", "apk add"),
    installsAs("zypper in jq", "zypper in"),
    installsAs("pacman -S jq", "pacman -S"),
    installsAs("pacman -Syu", "pacman -Syu"),
    installsAs("yay", "yay"),
    installsAs("dpkg -i x.deb", "dpkg -i"),
    installsAs("rpm -Uvh x.rpm", "rpm -Uvh"),
    installsAs("snap install jq", "snap install"),
    installsAs("flatpak install flathub x", "flatpak install"),
    installsAs("port install jq", "port install"),
    installsAs("nix-env -iA nixpkgs.jq", "nix-env -iA"),
    installsAs("nix profile install nixpkgs#jq", "nix profile install"),
    installsAs("pkg install jq", "pkg install"),
    installsAs("pyenv install 3.12", "pyenv install"),
    installsAs("pyenv global 3.12", "pyenv global"),
    installsAs("nvm install 20", "nvm install"),
    installsAs("mise use -g node@20", "mise use -g"),
    installsAs("asdf install", "asdf install"),
    installsAs("gh extension install owner/gh-x", "gh extension install"),
    installsAs("code --install-extension ms-python.python", "code --install-extension"),
    installsAs("kubectl krew install ctx", "kubectl krew install"),
    // Through the wrappers and runners plangate reads, and under another user.
    installs("env npm i -g x", "npm i -g", NPM_GLOBAL, compound),
    installs("npx npm i -g x", "npm i -g", NPM_GLOBAL),
    installs("nice -n 5 npm i -g x", "npm i -g", NPM_GLOBAL, compound),
    installs("timeout 600 npm i -g x", "npm i -g", NPM_GLOBAL, compound),
    installs("command npm i -g x", "npm i -g", NPM_GLOBAL, compound),
    installs("bash -c 'npm i -g x'", "npm i -g", NPM_GLOBAL, compound),
    installs("corepack npm i -g x", "npm i -g", NPM_GLOBAL),
    { ...installsAs("sudo pip install x", "pip install (as another user)"), options: compound },
    { ...installsAs("uv run pip install --user x", "pip install --user") },
    // A variable that would point the install into the workspace, but does not reach the program.
    { ...installsAs("GOBIN=./bin env -i go install x", "go install"), options: compound },
    { ...installsAs("GOBIN=./bin env -u GOBIN go install x", "go install"), options: compound },
    { ...installsAs("GOBIN=./bin sudo go install x", "go install"), options: compound },
    { ...installsAs("export GOBIN=./bin; go install x", "go install"), options: compound },
    { ...installsAs("GOBIN=./bin; go install x", "go install"), options: compound },
    // A variable set through a wrapper is a path too: pointing out, it is reported as one.
    ...["nice GOBIN=/etc go install x", "env -S 'GOBIN=/etc go install x'", "flatpak-spawn --env=GOBIN=/etc go install x", "nice TMPDIR=/etc mktemp"].map((command) => {
      const code = shellStep({ command });
      return { name: `a wrapper's variable outside: ${command}`, code, options: compound, errors: [{ ...at(code, command), messageId: "commandPathOutside", message: 'Step 1: the command in "command" names "/etc", a path that resolves to /etc; the workspace is /ws.' }] };
    }),
    // An empty folder names none: the default holds.
    installs("npm i -g --prefix '' x", "npm i -g", NPM_GLOBAL),
    installsAs("cargo install --root= x", "cargo install"),
    // Flags in a cluster, versioned names, settings that make later installs global.
    installsAs("deno install -gA jsr:@std/http", "deno install -gA"),
    installsAs("bun add -gd x", "bun add -gd"),
    installsAs("python3.13t -m pip install --user x", "python3.13t -m pip install --user"),
    installsAs("npm config set --location=project global true", "npm config set global"),
    installsAs("npm config set --location=project location=global", "npm config set location"),
    installsAs("nala install jq", "nala install"),
    // The policy's list names another manager.
    { ...installsAs("cargo install ripgrep", "cargo install"), options: installPolicy(["npm"]) },
    {
      name: "installs outside: at the piece of an argument vector that decides it, with what to change",
      code: shellStep({ cmd: "npm", args: ["install", "-g", "left-pad"] }),
      errors: [
        {
          line: 1,
          column: 84,
          endColumn: 88,
          pointer: "/steps/0/arguments/args/1",
          messageId: "commandInstallsOutside",
          message: `Step 1: the command in "cmd" writes outside the workspace /ws without naming it: "npm install -g" writes to ${NPM_GLOBAL}.`,
          hint: `install it in the workspace (npm install without -g, then npx), or give --prefix ./tools; or, if the plan may change the machine, list "npm" in the policy's commands.installOutside`,
        },
      ],
    },
    {
      name: "installs outside: a TeDDy EXECUTE",
      code: planMd("### EXECUTE\n- **Description:** tools\n```shell\ncargo install ripgrep\n```"),
      file: "plan.md",
      errors: [{ line: 12, column: 1, step: 1, messageId: "commandInstallsOutside", hint: /^give --root \.\/tools/ }],
    },
  ],
});

// A path hidden in a compound word: the value after any `=`, a TOML string, a package specifier's local source.
ruleTester("path-outside-workspace", {
  valid: [
    ...[
      "go mod edit -replace example.com/x=./vendor/x", "go mod edit -replace=example.com/x=data", "go mod edit -replace example.com/x=example.com/y@v1.2.0", "go work use data",
      "GOWORK=off go build ./...", "GOWORK=go.work go build ./...", "cargo --config 'patch.crates-io.x.path=\"data\"' build", "cargo build --config 'patch.crates-io.x = { path = \"data/x\" }'",
      "npm install x@file:data", "npm i lodash@~4.17.0", "npm i lodash@^4", "npm i x@github:a/b", "pnpm add link:./data", "npm pkg set dependencies.x=link:data",
      "uv add 'x @ file:///ws/data'", "foo --config=key=data/x", "mvn -Dkey=a=data/x package",
      // Prose, URLs and remote paths are no local paths.
      "git commit -m 'set x = /usr/bin'", "curl 'https://example.com/?a=/b&c=../d'", "curl --url=https://example.com/?a=/b", "scp user@host:/etc/x data/", "npm i x@https://example.com/x.tgz",
      "yarn add 'x@patch:y@npm%3A1.0.0#./.yarn/patches/y.patch::version=1.0.0&hash=abc'",
    ].map((command) => ({ name: `run_command ${command}`, code: plan({ command }, "run_command"), files })),
  ],
  invalid: (
    [
      // go: a module replaced by, or a workspace file naming, code from outside.
      ["go mod edit -replace example.com/x=../y", "../y", "/y"],
      ["go mod edit -replace=example.com/x=../y", "../y", "/y"],
      ["go mod edit -replace example.com/x@v1.0.0=/opt/y", "/opt/y", "/opt/y"],
      ["GOWORK=../go.work go build ./...", "../go.work", "/go.work"],
      // cargo: a patch or a source from outside, as a TOML value of --config.
      ["cargo --config 'patch.crates-io.x.path=\"../y\"' build", "../y", "/y"],
      ["cargo build --config 'patch.crates-io.x = { path = \"/opt/y\" }'", "/opt/y", "/opt/y"],
      ["cargo build --config=source.vendored.directory='\"../v\"'", "../v", "/v"],
      // npm, pnpm, Yarn, bun, deno: a package from a local folder or archive outside.
      ["npm install x@file:../y", "file:../y", "/y"],
      ["npm install \"x@link:../y\"", "../y", "/y"],
      ["pnpm add link:../y", "../y", "/y"],
      ["yarn add x@portal:../y", "../y", "/y"],
      ["npm i @scope/x@../y", "../y", "/y"],
      ["deno add npm:x@file:/opt/y", "file:/opt/y", "/opt/y"],
      ["npm pkg set 'dependencies.x=link:../y'", "../y", "/y"],
      ["npm install git+file:///opt/repo", "git+file:///opt/repo", "/opt/repo"],
      ["npm install git+FILE:///opt/repo", "git+FILE:///opt/repo", "/opt/repo"],
      // Yarn: a script run to make the package, a patch file, the source a patch applies to.
      ["yarn add x@exec:../gen.js", "../gen.js", "/gen.js"],
      ["yarn add x@patch:y@npm:1.0.0#../p.patch", "../p.patch", "/p.patch"],
      ["yarn add 'x@patch:y@file%3A../y#./p.patch'", "file:../y", "/y"],
      // uv: a PEP 508 direct reference.
      ["uv add 'x @ file:///opt/y'", "file:///opt/y", "/opt/y"],
      // Any option whose value is itself a setting.
      ["foo --config=key=../x", "../x", "/x"],
      ["foo --set a.b=/etc/x", "/etc/x", "/etc/x"],
      ["mvn -Dkey=a=/etc/x package", "/etc/x", "/etc/x"],
    ] as const
  ).map(([command, named, resolved]) => ({
    name: `run_command ${command}`,
    code: plan({ command }, "run_command"),
    files,
    errors: [{ ...at(plan({ command }, "run_command"), command), messageId: "commandPathOutside", message: escape(`names "${named}", a path that resolves to ${resolved};`) }],
  })),
});

let root: string;
let ws: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-paths-")));
  ws = join(root, "ws");
  mkdirSync(join(ws, "data"), { recursive: true });
  mkdirSync(join(root, "outside"));
  writeFileSync(join(ws, "data", "in.csv"), "a\n");
  writeFileSync(join(root, "outside", "secret.txt"), "s\n");
  symlinkSync(join(root, "outside"), join(ws, "out-link"));
  symlinkSync(join(root, "outside", "secret.txt"), join(ws, "secret-link"));
  symlinkSync(join(root, "nowhere", "x"), join(ws, "dangling"));
  symlinkSync("data", join(ws, "data-link"));
  symlinkSync(join(ws, "loop-b"), join(ws, "loop-a"));
  symlinkSync(join(ws, "loop-a"), join(ws, "loop-b"));
  // A second name, inside the workspace, for a file outside it.
  linkSync(join(root, "outside", "secret.txt"), join(ws, "data", "hard.txt"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const check = (args: Record<string, unknown>, tool?: string) => diagnosticsOf("path-outside-workspace", plan(args, tool), { workspace: ws });

describe("path-outside-workspace on a real file system", () => {
  it.each([
    [{ path: "../outside/secret.txt" }, "resolves to"],
    [{ path: "data/../../outside" }, "resolves to"],
    [{ path: "/etc/passwd" }, "resolves to /etc/passwd"],
    [{ path: "~/.ssh/id_rsa" }, "starts with ~"],
    [{ path: "%2e%2e/outside/secret.txt" }, 'read as "../outside/secret.txt"'],
    [{ path: "%252e%252e/x" }, "read as"],
    [{ path: "data/in.csv\u0000.txt" }, "NUL byte"],
    [{ path: "C:\\Windows\\system32" }, "Windows drive"],
    [{ path: "..\\outside" }, "resolves to"],
    [{ file_path: "out-link/secret.txt" }, "through a symlink"],
    [{ path: "secret-link" }, "through a symlink"],
    [{ path: "out-link/new/dir/file.txt" }, "through a symlink"],
    [{ path: "dangling" }, "through a symlink"],
    [{ path: "loop-a/x" }, "symlink loop"],
    [{ path: "file:///etc/hosts" }, "resolves to /etc/hosts"],
    [{ options: { cwd: "/tmp" } }, "resolves to /tmp"],
    [{ sources: { src: ["data/in.csv", "../x"] } }, "resolves to"],
    // The link under another spelling: a file system that folds names (macOS, Windows) follows it.
    [{ path: "OUT-LINK/new.txt" }, 'read as "out-link/new.txt"'],
    [{ path: "Out-Link./secret.txt" }, 'read as "out-link/secret.txt"'],
    [{ path: "SECRET-LINK" }, 'read as "secret-link"'],
    [{ path: "DATA-LINK/../OUT-LINK/x" }, 'read as "out-link/x"'],
  ])("reports %j", async (args, why) => {
    const d = await check(args);
    expect(d, JSON.stringify(args)).toHaveLength(1);
    expect(d[0]!.message).toContain(why);
    expect(d[0]!.step).toBe(1);
  });
  it.each([
    [{ path: "file:/etc/passwd" }],
    [{ path: "FILE:/etc/passwd" }],
    [{ path: "file:///etc/passwd" }],
    [{ path: "File://localhost/etc/passwd" }],
    [{ path: "file:../outside/secret.txt" }],
    [{ url: "file:///etc/passwd" }],
    [{ url: "FILE:/etc/shadow" }],
    [{ uri: "file:/root/.ssh/id_rsa" }],
    [{ href: "file://localhost/etc/hosts" }],
    [{ uri: "file:out-link/secret.txt" }],
    [{ url: "file://server/share/x" }],
    [{ url: "file:///C:/Windows/win.ini" }],
    [{ path: "file%3A%2F%2F%2Fetc%2Fpasswd" }],
  ])("treats the file URL in %j as a path", async (args) => {
    expect(await check(args), JSON.stringify(args)).toHaveLength(1);
  });
  it("reads a command's relative paths from the step's cwd, as its shell does", async () => {
    // data-link is data; from data, out-link is not there, but ../out-link is the link out of the workspace.
    const d = await check({ command: "cat ../out-link/secret.txt", cwd: "data" }, "run_command");
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain("through a symlink");
    // From the root, "../out-link" would be outside; from data it is the workspace's out-link.
    expect(await check({ command: "cat in.csv", cwd: "data" }, "run_command")).toEqual([]);
    expect(await check({ command: "cat in.csv", workdir: "data-link" }, "run_command")).toEqual([]);
    // A cd inside the command goes on from the step's folder.
    expect(await check({ command: "cd .. && cat out-link/secret.txt", cwd: "data" }, "run_command")).toHaveLength(1);
  });
  it("accepts a file URL inside the workspace", async () => {
    expect(await check({ url: `file://${ws}/data/in.csv` })).toEqual([]);
    expect(await check({ uri: "file:data/in.csv" })).toEqual([]);
  });
  it.each([
    [{ notebook_path: "out-link/secret.txt" }],
    [{ to: "out-link/x" }],
    [{ output: "secret-link" }],
    [{ out: "dangling" }],
    [{ dst: "out-link/a/b" }],
    [{ outputPath: "out-link/x" }],
    [{ log_file: "secret-link" }],
    [{ cache_dir: "out-link" }],
  ])("follows symlinks under the path-like name in %j", async (args) => {
    expect(await check(args), JSON.stringify(args)).toHaveLength(1);
  });
  it("reports a write to a hard link, whatever the tool is called, and lets reads through", async () => {
    for (const tool of ["write_file", "text_editor", "sed", "unknown_tool"]) {
      const d = await check({ path: "data/hard.txt" }, tool);
      expect(d, tool).toHaveLength(1);
      expect(d[0]!.message).toContain("is a hard link (the file has 2 names");
    }
    expect(await check({ file_path: "data/../data/hard.txt" }, "edit_file")).toHaveLength(1);
    expect(await check({ path: "data/hard.txt" }, "read_file")).toEqual([]);
    expect(await check({ path: "data/in.csv" }, "write_file")).toEqual([]);
    // A folder has several links of its own (`.` and its subfolders' `..`): never a hard-link report.
    expect(await check({ path: "data" }, "write_file")).toEqual([]);
  });
  it("points at the argument and names the workspace", async () => {
    const d = await check({ path: "../x" });
    expect(d[0]!.pointer).toBe("/steps/0/arguments/path");
    expect(d[0]!.message).toBe(`Step 1: path "../x" in "path" resolves to ${root}/x, outside the workspace ${ws}.`);
  });
  it("accepts paths inside, through symlinks that stay inside, and new files", async () => {
    for (const path of ["data/in.csv", "./data/../data/in.csv", "data-link/in.csv", `${ws}/data/new.txt`, "new/folder/file.txt", ".", "https://example.com/a/../../b"])
      expect(await check({ path }), path).toEqual([]);
  });
  it("checks arguments not named as paths when they hold an escaping path", async () => {
    for (const args of [{ output: "../x.txt" }, { report_to: "/etc/cron.d/job" }, { where: "~/x" }, { nested: { save_as: "a/../../x" } }])
      expect(await check(args), JSON.stringify(args)).toHaveLength(1);
    for (const args of [{ output: "out/x.txt" }, { command: "/usr/bin/make all" }, { url: "/api/v1" }, { note: "see ../README for details" }, { content: "../x" }])
      expect(await check(args), JSON.stringify(args)).toEqual([]);
  });
  it("uses the schema's format: path to find path arguments", async () => {
    const tools = parseToolsText(JSON.stringify({ tools: [{ name: "upload", inputSchema: { properties: { what: { type: "string", format: "path" } } } }] }), "t.json");
    const d = await diagnosticsOf("path-outside-workspace", plan({ what: "out-link/secret.txt" }, "upload"), { workspace: ws, tools });
    expect(d).toHaveLength(1);
    // Without the schema, a relative path in an argument not named as a path is followed all the same.
    expect(await check({ what: "out-link/secret.txt" }, "upload")).toHaveLength(1);
    expect(await check({ what: "data/in.csv" }, "upload")).toEqual([]);
  });
  it("checks scQC params too", async () => {
    const d = await diagnosticsOf("path-outside-workspace", '[{"tool": "load_data", "params": {"file_path": "/data/x.h5ad"}}]', { workspace: ws });
    expect(d).toHaveLength(1);
    expect(d[0]!.pointer).toBe("/0/params/file_path");
  });
  it("follows a symlinked workspace root", async () => {
    const alias = join(root, "ws-alias");
    symlinkSync(ws, alias);
    expect(await diagnosticsOf("path-outside-workspace", plan({ path: `${ws}/data/in.csv` }), { workspace: alias })).toEqual([]);
  });
});

// What the guard reports under this rule when a call is made: a host's shell call (Claude Code's Bash) that
// names a path outside, and a call whose paths resolve outside on the file system as it is then.
describe("path-outside-workspace: name folding in a folder too large to list", () => {
  // A link `out` among more entries than a listing holds: `OUT/x` is that link where names fold (macOS,
  // Windows), and it went unseen past 4,096 entries. Past the bound such a name is refused, not let by.
  const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-fold-")));
  const ws = join(root, "ws");
  beforeAll(async () => {
    const { MAX_LISTING } = await import("../../core/file-probe.js");
    for (const [d, n] of [["huge", MAX_LISTING + 1], ["big", 5000]] as const) {
      mkdirSync(join(ws, d), { recursive: true });
      for (let i = 0; i < n - 1; i++) writeFileSync(join(ws, d, `f${i}`), "");
      symlinkSync("/etc", join(ws, d, "out"));
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string) => diagnosticsOf("path-outside-workspace", plan({ path, content: "x" }), { workspace: ws });

  it("refuses a missing name that folding changes, at validation and at the call", async () => {
    for (const path of ["huge/OUT/passwd", "huge/New.txt", "huge/Sub/deeper/x"]) {
      const d = await write(path);
      expect(d, path).toHaveLength(1);
      expect(d[0]!.message).toContain("in a folder (huge) that holds more than 65536 entries or cannot be listed");
    }
    const [{ callPathProblem }, { createFileProbe }] = await Promise.all([import("../../approval/call-paths.js"), import("../../node/file-probe.js")]);
    const d = await callPathProblem(1, "write_file", { path: "huge/OUT/passwd" }, { workspace: ws }, createFileProbe);
    expect(d).toMatchObject({ rule: "path-outside-workspace", pointer: "/arguments/path" });
  });

  it("reads the folders of deep paths by name: a twin under 1,300 folders is found, and 200 such paths pass (250 took 1.9 s)", async () => {
    const deep = "ab/".repeat(1300);
    const d = await write(`big/OUT/${deep}x`);
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain('(read as "big/out/ab/ab/');
    expect(d[0]!.message).toContain("resolves through a symlink to /etc/ab/ab/");
    const steps = Array.from({ length: 200 }, (_, i) => ({ tool: "write_file", arguments: { path: `new${i}/${deep}x`, content: "x" }, intent: "write" }));
    expect(await diagnosticsOf("path-outside-workspace", JSON.stringify({ scope: ".", steps }), { workspace: ws })).toEqual([]);
  });

  it("still finds the link in a folder within the bound, and lets names folding leaves alone through", async () => {
    expect((await write("big/OUT/passwd"))[0]?.message).toContain('(read as "big/out/passwd") in "path" resolves through a symlink to /etc/passwd');
    expect(await write("big/New.txt")).toEqual([]);
    expect(await write("huge/new.txt")).toEqual([]);
    expect(await write("huge/f1")).toEqual([]);
  });
});

describe("path-outside-workspace: the guard's messages for a call", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-pow-call-")));
  const ws = join(root, "ws");
  beforeAll(() => {
    mkdirSync(join(ws, "src"), { recursive: true });
    mkdirSync(join(root, "outside"));
    writeFileSync(join(root, "outside", "secret"), "s");
    symlinkSync("../outside", join(ws, "out"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const shell = async (command: unknown) => {
    const [{ hostCommandRefusal }, { createFileProbe }, { DEFAULT_PROTECTED_PATHS }] = await Promise.all([
      import("../../approval/host-command.js"),
      import("../../node/file-probe.js"),
      import("../../policy/defaults.js"),
    ]);
    return hostCommandRefusal("Bash", { command }, { workspace: ws, commands: { allow: [], deny: [], allowCompound: false }, protected: DEFAULT_PROTECTED_PATHS }, createFileProbe);
  };
  it.each([
    ["hostCommandPathOutside", "cat ../x", () => `The Bash command names "../x", which resolves to ${root}/x, outside the workspace ${ws}.`],
    ["hostCommandPathOutside", "cat out/secret", () => `The Bash command names "out/secret", which resolves to ${root}/outside/secret, outside the workspace ${ws}.`],
    ["hostCommandPathOutside", "cat -- -/../../x", () => `The Bash command names "-/../../x", which resolves to ${root}/x, outside the workspace ${ws}.`],
    ["hostCommandUnsafePath", "cat ~root/x", () => 'The Bash command names "~root/x", a path that starts with ~, which a shell expands to a home folder outside the workspace.'],
    // A pattern names what it matches: a link out of the workspace among them.
    ["hostCommandPathOutside", "cat o?t/secret", () => `The Bash command names "out/secret", which resolves to ${root}/outside/secret, outside the workspace ${ws}.`],
  ])("%s: %j", async (messageId, command, message) => {
    const { ruleText } = await import("../read-text.js");
    const d = await shell(command);
    expect(d).toEqual({ rule: "path-outside-workspace", severity: "error", message: message(), hint: "use paths inside the workspace", actual: command, messageId });
    expect(ruleText("path-outside-workspace", messageId, { tool: "Bash", path: "p", why: "w", resolved: "r", workspace: "ws" }).hint).toBe(d!.hint);
  });
  it("hostCommandInstallsOutside: a package manager's install outside the workspace, with what to change", async () => {
    expect(await shell("cd src && npm install -g left-pad")).toEqual({
      rule: "path-outside-workspace",
      severity: "error",
      message: `The Bash command writes outside the workspace ${ws} without naming it: "npm install -g" writes to ${NPM_GLOBAL}.`,
      hint: `install it in the workspace (npm install without -g, then npx), or give --prefix ./tools; or, if the plan may change the machine, list "npm" in the policy's commands.installOutside`,
      actual: "cd src && npm install -g left-pad",
      messageId: "hostCommandInstallsOutside",
    });
    expect(await shell("npm install --prefix ./tools -g left-pad")).toBeUndefined();
  });
  it("commandInstallsOutside, checked when an approved step's call is made", async () => {
    const [{ callPathProblem }, { createFileProbe }] = await Promise.all([import("../../approval/call-paths.js"), import("../../node/file-probe.js")]);
    const d = await callPathProblem(2, "run_command", { command: "cargo install ripgrep" }, { workspace: ws }, createFileProbe);
    expect(d).toMatchObject({ rule: "path-outside-workspace", step: 2, pointer: "/arguments/command" });
    expect(d!.message).toBe(`Step 2: the command in "command" writes outside the workspace ${ws} without naming it: "cargo install" writes to cargo's bin folder (~/.cargo/bin, on the user's PATH). (checked when the call was made)`);
  });
  it("checkedAtCall: a call's path that resolves outside when the call is made", async () => {
    const [{ callPathProblem }, { createFileProbe }] = await Promise.all([import("../../approval/call-paths.js"), import("../../node/file-probe.js")]);
    const { ruleText } = await import("../read-text.js");
    expect(ruleText("path-outside-workspace", "checkedAtCall", { message: "Step 1: the finding." }).message).toBe("Step 1: the finding. (checked when the call was made)");
    const d = await callPathProblem(3, "write_file", { path: "out/x" }, { workspace: ws }, createFileProbe);
    expect(d).toMatchObject({ rule: "path-outside-workspace", step: 3, pointer: "/arguments/path", hint: "use a path inside the workspace, relative to its root" });
    expect(d!.message).toBe(`Step 3: path "out/x" in "path" resolves through a symlink to ${root}/outside/x, outside the workspace ${ws}. (checked when the call was made)`);
  });
});

// A path a command line names is quoted as written, then how it was read, then the folder a `cd` moved to
// (namedPathText, src/rules/command-paths.ts).
describe("path-outside-workspace: a command's path in words", () => {
  it.each([
    ["cat .?/x", '".?/x" (read as "../x"), a path that resolves to /x'],
    ["cd src && cat ../../x", '"../../x" (after cd src), a path that resolves to /x'],
    ["cd src && cat .[.]/../x", '".[.]/../x" (read as "../../x") (after cd src), a path that resolves to /x'],
    ["cat '../x'", '"../x", a path that resolves to /x'],
  ])("%j", async (command, words) => {
    const code = JSON.stringify({ steps: [{ tool: "run_command", arguments: { command }, intent: "run" }] });
    expect((await diagnosticsOf("path-outside-workspace", code, { workspace: "/ws" })).map((d) => d.message)).toEqual([`Step 1: the command in "command" names ${words}; the workspace is /ws.`]);
  });
});

// A host call whose paths are outside the approved scope (src/host/profile.ts; profile.test.ts makes real ones).
describe("path-outside-workspace: a host call outside the approved scope", () => {
  it("callOutsideScope: names the tool and each path with why", async () => {
    const { ruleText } = await import("../read-text.js");
    expect(ruleText("path-outside-workspace", "callOutsideScope", { tool: "Write", paths: '"file_path" "/etc/x" is outside the approved scope /ws' })).toEqual({
      message: 'The "Write" call reaches outside the approved scope: "file_path" "/etc/x" is outside the approved scope /ws. It matches no approved step.',
      hint: "use a path inside the workspace, as the approved step names it, and work from the workspace folder",
    });
  });
});
