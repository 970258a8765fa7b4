import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

const action = "### READ\n- Resource: https://example.com\n";

ruleTester("md-missing-section", {
  valid: [
    { name: "Rationale with Action Plan, a backticked heading and an extra section", code: `# T\n\n## Rationale\nx\n\n## Memos\ny\n\n## \`Action Plan\`\n${action}`, file: "plan.md" },
    { name: "Rationale with Message, CRLF", code: "# T\r\n\r\n## Rationale\r\nx\r\n\r\n## Message\r\nHi.\r\n", file: "plan.md" },
  ],
  invalid: [
    { name: "no ## Rationale", code: `# T\n\n## Action Plan\n${action}`, file: "plan.md", errors: [{ line: 1, column: 1, endLine: 6, endColumn: 1, message: /Rationale/, messageId: "noRationale" }] },
    {
      name: "a section that is not ## Rationale, CRLF",
      code: `# Überblick\r\n\r\n## Begründung\r\nx\r\n\r\n## Action Plan\r\n${action}`,
      file: "plan.md",
      errors: [{ line: 1, column: 1, endLine: 9, endColumn: 1, message: /Rationale/, messageId: "noRationale" }],
    },
    { name: "neither ## Action Plan nor ## Message", code: "# T\n\n## Rationale\nWhy.\n", file: "plan.md", errors: [{ line: 1, column: 1, endLine: 5, endColumn: 1, message: /neither an `## Action Plan` nor a `## Message`/, messageId: "noActionPlan" }] },
    {
      name: "a heading inside a code block is no section",
      code: "# T\n\n```\n## Rationale\n```\n\n## Action Plan\n" + action,
      file: "plan.md",
      errors: [{ line: 1, column: 1, endLine: 10, endColumn: 1, message: /Rationale/, messageId: "noRationale" }],
    },
    {
      name: "a second ## Action Plan, and ## Message next to ## Action Plan",
      code: `# T\n\n## Rationale\nx\n\n## Action Plan\n${action}\n## Action Plan\n${action}\n## Message\nHi.\n`,
      file: "plan.md",
      errors: [
        { line: 10, column: 1, endLine: 10, endColumn: 15, pointer: "/sections/10", message: /a second `## Action Plan` section/, messageId: "secondSection" },
        { line: 14, column: 1, endLine: 14, endColumn: 11, pointer: "/sections/both", message: /both/, messageId: "bothSections" },
      ],
    },
  ],
  docs: { file: "plan.md" },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("md-missing-section", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "md-missing-section", messageId: "noRationale", start: 9, end: 17, at: "" }] },
      errors: [{ messageId: "noRationale", line: 2, column: 1, endLine: 2, endColumn: 9, message: "The plan has no `## Rationale` section.", hint: "add `## Rationale` after the title, with the reasoning behind the plan", pointer: "" }],
    },
  ],
});
