import { defaultPolicy } from "../../policy/defaults.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";
import { planMd } from "../../../test/teddy.js";

ruleTester("unsafe-value", {
  valid: [
    { name: "ordinary numbers and a surrogate pair", code: '[{"tool": "a", "params": {"n": 1e300, "s": "\\ud83d\\ude00"}}]' },
    {
      name: "plain tool names, non-Latin text, and such characters outside paths",
      code: '[{"tool": "read_file", "description": "read \\u202e", "params": {"path": "données/é.txt", "note": "\\u200b"}}]',
    },
    {
      name: "accents written with combining marks, and spaces and invisible characters outside paths and keys",
      code: JSON.stringify([{ tool: "write_file", params: { path: "donne\u0301es/caf\u00e9.txt", content: "a\u00a0b \u2764\ufe0f \u00ad" }, description: "no\u00a0break" }]),
    },
    {
      name: "paths of one script a word, scripts that pass for no Latin letter, full-width names, look-alikes outside paths",
      code: JSON.stringify([
        { tool: "write_file", params: { path: "\u043e\u0442\u0447\u0451\u0442/report-\u043e\u0442\u0447\u0451\u0442.md", content: "\u0441\u043e\u0440\u0443 .\u0435nv" } },
        { tool: "write_file", params: { path: "docs/\u8a2d\u5b9a\u30d5\u30a1\u30a4\u30ebv2.md" } },
        { tool: "write_file", params: { path: "\uff21\uff30\uff29\u4ed5\u69d8.md" } },
        { tool: "write_file", params: { path: "\u03b1\u03b2\u03b3/caf\u00e9.txt" } },
        { tool: "write_file", params: { path: "\u043c\u043e\u0441\u0442/\u0441\u043e\u0440.txt" } },
      ]),
    },
  ],
  invalid: [
    { name: "a number that overflows to infinity", code: '[{"tool": "a", "params": {"n": 1e400}}]', errors: [{ line: 1, column: 32, endLine: 1, endColumn: 37, pointer: "/0/params/n", message: /Infinity/, messageId: "jsonNumberOverflow" }] },
    { name: "a lone surrogate", code: '[{"tool": "a", "description": "\\ud800"}]', errors: [{ line: 1, column: 31, endLine: 1, endColumn: 39, pointer: "/0/description", message: /lone UTF-16 surrogate/, messageId: "jsonStringLoneSurrogate" }] },
    { name: "a __proto__ key", code: '[{"tool": "a", "params": {"__proto__": {"x": 1}}}]', errors: [{ line: 1, column: 27, endLine: 1, endColumn: 38, pointer: "/0/params/__proto__", message: /prototype/, messageId: "jsonPrototypeKey" }] },
    { name: "a bidi control in a key", code: '[{"tool": "a", "params": {"pa\u202eth": 1}}]', errors: [{ line: 1, column: 27, endLine: 1, endColumn: 34, message: /Key "pa\\u202eth" contains invisible/, messageId: "jsonInvisibleKey" }] },
    {
      name: "bidi and zero-width controls in a tool name and a path (intake)",
      code: JSON.stringify({ steps: [{ tool: "read\u200b_file", arguments: { path: "a\u202etxt.exe" }, intent: "x" }] }),
      errors: [
        { line: 1, column: 19, endLine: 1, endColumn: 31, pointer: "/steps/0/tool", step: 1, message: /U\+200B/, messageId: "hiddenInToolName" },
        { line: 1, column: 52, endLine: 1, endColumn: 63, pointer: "/steps/0/arguments/path", step: 1, message: /U\+202E/, messageId: "hiddenInPath" },
      ],
    },
    { name: "an isolate in a legacy file_path", code: '[{"tool": "load_data", "params": {"file_path": "data\u2066.h5ad"}}]', errors: [{ line: 1, column: 48, endLine: 1, endColumn: 60, pointer: "/0/params/file_path", message: /U\+2066/, messageId: "hiddenInPath" }] },
    {
      name: "a bidi override in a tool name, at the name",
      code: '[{"tool": "read_file\\u202e"}]',
      errors: [{ line: 1, column: 11, endLine: 1, endColumn: 28, pointer: "/0/tool", step: 1, message: /\\u202e/, messageId: "hiddenInToolName" }],
    },
    {
      name: "zero-width and control characters in tool names",
      code: '[{"tool": "read\\u200bfile"}, {"tool": "read_file\\u0000"}]',
      errors: [
        { line: 1, column: 11, endLine: 1, endColumn: 27, pointer: "/0/tool", step: 1, message: /U\+200B/, messageId: "hiddenInToolName" },
        { line: 1, column: 39, endLine: 1, endColumn: 56, pointer: "/1/tool", step: 2, message: /U\+0000/, messageId: "hiddenInToolName" },
      ],
    },
    {
      name: "a Cyrillic letter among Latin ones in a path (intake JSON)",
      code: '{"steps": [{"tool": "write_file", "arguments": {"path": ".\\u0435nv", "content": "x"}, "intent": "w"}]}',
      errors: [{ line: 1, column: 57, endLine: 1, endColumn: 68, pointer: "/steps/0/arguments/path", step: 1, messageId: "mixedScriptInPath", message: 'Step 1: the path "path" ".\u0435nv" mixes Latin and Cyrillic letters in "\u0435nv": a reviewer reads it as ".env", which is another file.', hint: /one script/ }],
    },
    {
      name: "a Cyrillic letter in a path's word (YAML)",
      code: "steps:\n  - tool: write_file\n    arguments: {path: \"src/\\u0441opy.py\", content: x}\n    intent: w\n",
      file: "plan.yaml",
      errors: [{ line: 3, column: 23, pointer: "/steps/0/arguments/path", step: 1, messageId: "mixedScriptInPath", message: /mixes Latin and Cyrillic letters in "\u0441opy": a reviewer reads it as "src\/copy.py"/ }],
    },
    {
      // Go's yaml.v2 removes every `_` and hands the rest to strconv, which reads prefixes in either case:
      // text to PyYAML and to YAML 1.2, the integer 15 there.
      name: "a plain value Go's yaml.v2 reads as a number, for a Go executor",
      code: "steps:\n  - tool: read_file\n    arguments: {path: a.txt, mode: 0O17}\n    intent: r\n",
      file: "plan.yaml",
      options: { policy: { ...defaultPolicy("/ws"), yaml: { executor: "go-yaml-v2" } } },
      errors: [{ line: 3, column: 36, endLine: 3, endColumn: 40, pointer: "/steps/0/arguments/mode", messageId: "yamlGoReads", message: 'The value 0O17 is the string "0O17" to plangate (YAML 1.2) but the integer 15 to Go\'s yaml.v2 (yaml.executor: go-yaml-v2): a Go executor would run a different plan.', hint: 'quote it: "0O17"' }],
    },
    {
      name: "a full-width letter beside plain ones in a path",
      code: '[{"tool": "write_file", "params": {"path": "\\uff53rc/a.py"}}]',
      errors: [{ line: 1, column: 44, pointer: "/0/params/path", step: 1, messageId: "mixedScriptInPath", message: /full-width or styled character in "\uff53rc".*reads it as "src\/a.py"/ }],
    },
    {
      name: "a Greek omicron in a TeDDy path written bare",
      code: planMd("### CREATE\n- **File Path:** src/c\u03bfnfig.py\n- **Description:** x\n```text\nA=1\n```"),
      file: "plan.md",
      errors: [{ line: 11, column: 18, step: 1, messageId: "mixedScriptInPath", message: /mixes Latin and Greek letters in "c\u03bfnfig"/ }],
    },
    ...[
      ["a soft hyphen", "\\u00ad", "U+00AD"],
      ["a no-break space", "\\u00a0", "U+00A0"],
      ["an ideographic space", "\\u3000", "U+3000"],
      ["a Hangul filler", "\\u3164", "U+3164"],
      ["a variation selector", "\\ufe0f", "U+FE0F"],
      ["a combining grapheme joiner", "\\u034f", "U+034F"],
      ["a blank braille pattern", "\\u2800", "U+2800"],
      ["a tag character", "\\udb40\\udc41", "U+E0041"],
    ].map(([what, escape, code]) => ({
      name: `${what} in a path argument, which shows nothing (or a plain space)`,
      code: `[{"tool": "write_file", "params": {"path": "out/report${escape}.md"}}]`,
      errors: [{ line: 1, column: 44, endColumn: 59 + escape!.length, pointer: "/0/params/path", step: 1, messageId: "hiddenInPath", message: new RegExp(`"out/report${escape!.replace(/\\/g, "\\\\")}\\.md" contains an invisible, bidi, control or non-ASCII space character \\(${code!.replace("+", "\\+")}\\)`) }],
    })),
    { name: "a soft hyphen in a key", code: '[{"tool": "a", "params": {"pa\\u00adth": 1}}]', errors: [{ line: 1, column: 27, endLine: 1, endColumn: 39, pointer: "/0/params/pa\u00adth", messageId: "jsonInvisibleKey", message: /Key "pa\\u00adth" contains invisible/ }] },
    { name: "a bidi control in a path argument", code: '[{"tool": "read_file", "params": {"path": "src/\\u202etxt.exe"}}]', errors: [{ line: 1, column: 43, endLine: 1, endColumn: 62, pointer: "/0/params/path", message: /U\+202E/, messageId: "hiddenInPath" }] },
  ],
  docs: { file: "plan.json" },
});

// A TeDDy EXECUTE's settings the command's text does not show: an `env` (variables for the command) and a
// folder item TeDDy does not read (it runs the command in the workspace root, or in `cwd`).
const execute = (meta: string, command = "npm test") => planMd(`### EXECUTE\n${meta}\n\`\`\`shell\n${command}\n\`\`\``);
ruleTester("unsafe-value", {
  valid: [
    { name: "TeDDy: an EXECUTE with cwd, Timeout and Expected Outcome", code: execute("- **Description:** test\n- **cwd:** src\n- **Timeout:** 60\n- **Expected Outcome:** passes"), file: "plan.md", files: { "src/a.txt": "a\n" } },
    {
      name: "TeDDy: a path in one code span, with spaces in it or around it, and a bare path",
      code: planMd("### CREATE\n- **File Path:** `src/my file.py`\n- **Description:** x\n```text\nA=1\n```", "### CREATE\n- **File Path:**  `src/b.py` \n- **Description:** x\n```text\nA=1\n```", "### CREATE\n- **File Path:** src/c.py\n- **Description:** a `code` span in a description\n```text\nA=1\n```"),
      file: "plan.md",
    },
    { name: "TeDDy: EXECUTE items whose words may name a folder elsewhere, but not where the command runs", code: execute("- **Description:** test\n- **Root Cause:** a stale cache\n- **Location:** CI\n- **Base:** main"), file: "plan.md" },
  ],
  invalid: [
    {
      name: "TeDDy: env as TeDDy reads it, a list nested under the item",
      code: execute("- **env:**\n  - PATH: bin"),
      file: "plan.md",
      errors: [
        { line: 11, column: 1, endLine: 11, endColumn: 11, step: 1, pointer: "/actions/0/params/env", messageId: "teddyExecuteEnv", message: /^Step 1 \(EXECUTE\): `env` sets environment variables for the command/, hint: /NAME=value command/ },
        { line: 12, column: 1, messageId: "readingIndented" },
      ],
    },
    {
      name: "TeDDy: env on one line",
      code: execute("- **env:** LD_PRELOAD=./x.so"),
      file: "plan.md",
      errors: [{ line: 11, column: 12, endLine: 11, endColumn: 29, step: 1, messageId: "teddyExecuteEnv" }],
    },
    {
      name: "TeDDy: a tab after an item's dash, whose lazy line TeDDy joins to the item (the cwd \"xcwd: sub\")",
      code: execute("-\tFoo: x\ncwd: sub"),
      file: "plan.md",
      errors: [
        { line: 11, column: 1, endLine: 11, endColumn: 9, pointer: "/reading/11", messageId: "readingListTab", message: 'Line 11: a list item whose "-" is followed by a tab; the two parsers measure the item, and join the lines under it, differently.' },
        { line: 12, column: 1, messageId: "readingLazyContinuation" },
      ],
    },
    ...["`src/a.py` and `src/b.py`", "`src/a.py` `../x`", "src/a.py `x`", "`src/a.py`.bak"].map((value) => ({
      name: `TeDDy: a path value with text beside its code span: ${value}`,
      code: planMd(`### CREATE\n- **File Path:** ${value}\n- **Description:** x\n\`\`\`text\nA=1\n\`\`\``),
      file: "plan.md",
      errors: [
        {
          line: 11,
          column: 1,
          pointer: "/reading/11",
          messageId: "metadataPathSpans",
          message: "Line 11: a path value with text beside its code span (or several spans); TeDDy drops the backticks and reads it all as one path.",
          hint: "write the path alone, in one code span or without backticks",
        },
      ],
    })),
    ...["Working Directory", "Workdir", "Dir", "working_dir", "Folder"].map((key) => ({
      name: `TeDDy: a ${key} item, which TeDDy does not read`,
      code: execute(`- **${key}:** build`, "rm -rf dist"),
      file: "plan.md",
      errors: [
        {
          line: 11,
          column: key.length + 9,
          endLine: 11,
          endColumn: key.length + 14,
          step: 1,
          pointer: `/actions/0/params/${key}`,
          messageId: "teddyExecuteFolder",
          message: `Step 1 (EXECUTE): TeDDy does not read "${key}"; it runs the command in the workspace root, or in the folder \`cwd\` names, not in "build".`,
          hint: "write `- **cwd:** build` to run the command there, or remove the item",
        },
      ],
    })),
  ],
});

// Paths TeDDy's executor opens otherwise than its parser reads them. Its file system adapter takes the first two
// characters of a relative path whose second character is ":" for a Windows drive and drops them; its READ fetches
// every resource that starts with "http" from the web, as its parser has rewritten it.
const fence = "```";
const createAt = (value: string, more = "") => planMd(`### CREATE\n- **File Path:** ${value}${more}\n${fence}text\nx\n${fence}`);
const readOf = (value: string, key = "Resource") => planMd(`### READ\n- **${key}:** ${value}`);
ruleTester("unsafe-value", {
  valid: [
    { name: "TeDDy: a colon later in a path", code: createAt("[docs/a:b.txt](/docs/a:b.txt)"), file: "plan.md" },
    { name: "TeDDy: a READ of a web page written as its URL", code: readOf("[https://example.com/a](https://example.com/a)"), file: "plan.md" },
    { name: "TeDDy: a READ of a bare URL, under File Path too", code: readOf("https://example.com/a", "File Path"), file: "plan.md" },
    { name: "TeDDy: a link to a web page whose text is words", code: readOf("[the spec](https://example.com/spec)"), file: "plan.md" },
    { name: "TeDDy: a READ of a file whose name starts with http, written with ./", code: readOf("[./httpd.conf](/./httpd.conf)"), file: "plan.md", files: { "httpd.conf": "x\n" } },
  ],
  invalid: [
    ...[
      [".:.git/config", ".git/config"],
      ["::.env", ".env"],
      ["_:plangate.yaml", "plangate.yaml"],
      ["-:.github/workflows/ci.yml", ".github/workflows/ci.yml"],
      ["1:../outside.txt", "../outside.txt"],
    ].map(([path, stripped]) => ({
      name: `TeDDy: the link "${path}", which TeDDy opens as "${stripped}"`,
      code: createAt(`[${path}](/${path})`, "\n- **Overwrite:** true"),
      file: "plan.md",
      errors: [
        {
          line: 11,
          column: 21 + path!.length,
          endLine: 11,
          endColumn: 22 + 2 * path!.length,
          step: 1,
          pointer: "/actions/0/params/File Path",
          messageId: "teddyPathDrive",
          message: `Step 1 (CREATE): TeDDy takes the first two characters of "${path}" for a Windows drive (its second character is ":") and drops them: it would open "${stripped}", not the path checked here.`,
          hint: `write the path as TeDDy opens it ("${stripped}"), or a path whose second character is not ":"`,
        },
      ],
    })),
    {
      name: "TeDDy: a bare path with a drive-like start, a code span, and a letter (also a Windows drive to the path rules)",
      code: planMd(`### CREATE\n- **File Path:** \`.:.env\`\n${fence}text\nx\n${fence}`, `### EDIT\n- **File Path:** C:.env\n#### FIND:\n${fence}\na\n${fence}\n#### REPLACE:\n${fence}\nb\n${fence}`),
      file: "plan.md",
      errors: [
        { line: 11, step: 1, messageId: "teddyPathDrive", message: /"\.:\.env".*open "\.env"/ },
        { line: 19, step: 2, messageId: "teddyPathDrive", message: /"C:\.env".*open "\.env"/ },
      ],
    },
    {
      name: "TeDDy: a READ resource TeDDy rewrites into a web address (a backslash, a leading slash)",
      code: planMd(`### READ\n- **Resource:** [x](http:/\\evil.example/x)`, `### READ\n- **Resource:** [http:/\\x](/http:/\\x)`),
      file: "plan.md",
      errors: [
        {
          line: 11,
          step: 1,
          pointer: "/actions/0/params/Resource",
          messageId: "teddyResourceHttpRewritten",
          message: 'Step 1 (READ): TeDDy reads "http:/\\evil.example/x" as "http://evil.example/x" (backslashes turned into slashes, a leading / dropped), which starts with "http", and fetches that from the web.',
          hint: "write a web page exactly as its URL (http://... or https://..., forward slashes, no leading /); a file whose name starts with http as ./name",
        },
        { line: 16, step: 2, messageId: "teddyResourceHttpRewritten", message: /reads "\/http:\/\\x" as "http:\/\/x"/ },
        { line: 16, step: 2, messageId: "teddyLinkUrlMismatch", message: /shows "http:\/\\x" but TeDDy fetches "http:\/\/x"/ },
      ],
    },
    {
      name: "TeDDy: a link to a web page whose text names a file or another address",
      code: planMd(`### READ\n- **Resource:** [docs/a.md](https://evil.example/x)`, `### READ\n- **Resource:** [https://example.com/a](https://evil.example/a)`),
      file: "plan.md",
      errors: [
        {
          line: 11,
          column: 29,
          endLine: 11,
          endColumn: 51,
          step: 1,
          pointer: "/actions/0/params/Resource",
          messageId: "teddyLinkUrlMismatch",
          message: 'Step 1 (READ): the link shows "docs/a.md" but TeDDy fetches "https://evil.example/x"; the reader and the executor would see different resources.',
          hint: "write the address as the link's text too: [https://evil.example/x](https://evil.example/x)",
        },
        { line: 16, step: 2, messageId: "teddyLinkUrlMismatch" },
      ],
    },
    {
      name: "TeDDy: a READ of a file whose name starts with http, which TeDDy fetches from the web",
      code: readOf("[httpd.conf](/httpd.conf)"),
      file: "plan.md",
      files: { "httpd.conf": "x\n" },
      errors: [
        {
          line: 11,
          step: 1,
          messageId: "teddyResourceHttpFile",
          message: 'Step 1 (READ): TeDDy fetches from the web every READ resource that starts with "http", so it would not read the file "httpd.conf".',
          hint: "write the file as ./httpd.conf",
        },
      ],
    },
  ],
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("unsafe-value", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "unsafe-value", messageId: "yamlMergeKey", start: 9, end: 17, at: "/steps/0" }] },
      errors: [{ messageId: "yamlMergeKey", line: 2, column: 1, endLine: 2, endColumn: 9, message: "The merge key << means a merge to YAML 1.1 readers and a key named \"<<\" to YAML 1.2 readers: consumers would run different plans.", hint: "write the merged members out in full", pointer: "/steps/0" }],
    },
  ],
});
