import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

ruleTester("duplicate-key", {
  valid: ['[{"tool": "a", "params": {"x": 1, "y": 2}}]'],
  invalid: [
    {
      name: "the second key is reported",
      code: '[{"tool": "plot_qc",\n  "tool": "run_scar"}]',
      errors: [{ line: 2, column: 3, endLine: 2, endColumn: 9, pointer: "/0/tool", severity: "error", message: /^Duplicate key "tool" in one object \(first at line 1\)/, messageId: "jsonDuplicateKeyFirstAt" }],
    },
    { name: "a duplicate in nested params", code: '[{"tool": "a", "params": {"x": 1, "x": 2}}]', errors: [{ line: 1, column: 35, endLine: 1, endColumn: 38, pointer: "/0/params/x", message: /Duplicate key "x"/, messageId: "jsonDuplicateKeyFirstAt" }] },
    // TeDDy reads a READ's `File Path` as its `Resource`: the two in one action are two paths for one parameter.
    ...(
      [
        ["- **Resource:** [a.txt](/a.txt)\n- **File Path:** [.env](/.env)", "File Path", 12],
        ["- **File Path:** [.env](/.env)\n- **Resource:** [a.txt](/a.txt)", "Resource", 12],
      ] as const
    ).map(([items, key, first]) => ({
      name: `a TeDDy READ given ${key} after the other path key`,
      file: "plan.md",
      code: `# T\n- **Agent:** x\n\n## Rationale\n\`\`\`text\nwhy\n\`\`\`\n\n## Action Plan\n\n### \`READ\`\n${items}\n`,
      errors: [{ line: 13, messageId: "teddyPathTwice", message: new RegExp(`^Step 1 \\(READ\\): "${key}" gives the action a second path \\(the first on line ${first}\\)`) }],
    })),
    {
      name: "a TeDDy key given twice",
      file: "plan.md",
      code: "# T\n- **Agent:** x\n\n## Rationale\n```text\nwhy\n```\n\n## Action Plan\n\n### `READ`\n- **Resource:** [a.txt](/a.txt)\n- **Resource:** [b.txt](/b.txt)\n",
      errors: [{ line: 13, messageId: "teddyMetadata" }],
    },
  ],
  docs: { file: "plan.json" },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("duplicate-key", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "duplicate-key", messageId: "yamlDuplicateKey", data: { name: "tool", line: 1 }, start: 9, end: 17, at: "/tool" }] },
      errors: [{ messageId: "yamlDuplicateKey", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Duplicate key \"tool\" in one mapping (first at line 1): JSON and YAML consumers disagree on which wins.", hint: "keep exactly one", pointer: "/tool" }],
    },
  ],
});
