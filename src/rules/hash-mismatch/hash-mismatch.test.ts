import { createHash } from "node:crypto";
import { planHash } from "../../ops/hash.js";
import { RULES } from "../index.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

const text = '[{"tool": "a", "params": {"x": 1}}]';
const hash = (await planHash(text))!;
// The doc examples are read under the hash of the good one (the approved plan).
const approved = (await planHash(RULES.find((r) => r.meta.id === "hash-mismatch")!.meta.docs.good!, { file: "plan.yaml" }))!;

ruleTester("hash-mismatch", {
  valid: [
    { name: "the plan hash", code: text, options: { expectedHash: hash } },
    { name: "the raw file's SHA-256", code: text, options: { expectedHash: createHash("sha256").update(text).digest("hex") } },
  ],
  invalid: [
    {
      name: "a plan whose hash differs",
      code: text,
      options: { expectedHash: "sha256:" + "0".repeat(64) },
      // The whole plan against a hash given from outside: the diagnostic has no position in the text.
      errors: [{ severity: "error", message: /differs from the expected sha256:0{64}/, expected: "sha256:" + "0".repeat(64), actual: hash, messageId: "differs" }],
    },
  ],
  docs: { file: "plan.yaml", options: { expectedHash: approved } },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("hash-mismatch", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "hash-mismatch", messageId: "unreadable", data: { expected: "sha256:00" }, start: 9, end: 17 }] },
      errors: [{ messageId: "unreadable", line: 2, column: 1, endLine: 2, endColumn: 9, message: "The plan could not be read, so it cannot have the expected hash sha256:00.", hint: "validate the plan you meant, or compute its hash with `plangate hash FILE`" }],
    },
  ],
});
