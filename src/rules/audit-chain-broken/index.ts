import type { AuditHeadFacts, TrailTampering } from "../../core/input/approval.js";
import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the audit trail, the evidence of what an approval let run: its
 * lines, chain, MACs and head as src/node/audit.ts reads them. Its input is the "audit" step of
 * the approval input because the trail is part of enforcing an approval: the anchor (head, key,
 * first line) comes from the approved run. Always an error: the policy cannot lower an approval
 * check.
 */
export default defineRule({
  meta: {
    id: "audit-chain-broken",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      unreadable: { message: "The audit trail {{file}} {{why}}.", hint: "check the path; a missing log is a broken trail" },
      tampered: { message: "The audit trail {{file}} {{why}}: it was changed outside the guard.", hint: "restore the log from a copy" },
      resized: { message: "The audit trail {{file}} {{why}}, but the guard left it at {{bytes}} bytes: it was changed outside the guard.", hint: "restore the log from a copy" },
      unterminated: { message: "Line {{line}} is not terminated: the log was cut or written by something else.", hint: "keep the log append-only; restore it from a copy" },
      notObject: { message: "Line {{line}} is not a JSON object.", hint: "restore the log from a copy" },
      sequence: { message: "Line {{line}} has sequence number {{seq}}, expected {{expected}}: a line was deleted, inserted or moved.", hint: "restore the log from a copy" },
      firstPrev: { message: "Line {{line}} does not chain to line {{before}}: the first line must have prev null.", hint: "restore the log from a copy" },
      prev: { message: "Line {{line}} does not chain to line {{before}}: the line before it was edited.", hint: "restore the log from a copy" },
      noMac: {
        message: "Line {{line}} has no MAC, but the guard wrote every line of this run with one: the line was replaced or its MAC removed.",
        hint: "restore the log from a copy",
      },
      badMac: {
        message: "Line {{line}}'s MAC does not verify under the run's key: the line was edited (and the chain recomputed) or written by something other than the guard.",
        hint: "restore the log from a copy; investigate who can write it",
      },
      head: {
        message: "The log ends at line {{count}}, but the guard's state says it wrote {{expectedCount}} lines ending in {{expectedHash}}: lines were removed from the end or the log was replaced.",
        hint: "restore the log from a copy",
      },
      cut: { message: "The guard's run starts at line {{start}}, but the log has {{count}} lines: the log was cut or replaced.", hint: "restore the log from a copy" },
    },
    summary: "The audit trail was edited, reordered or cut.",
    docs: {
      description:
        "Reports, for `plangate audit verify LOG`, a line that is not JSON, a sequence number out of order (a line deleted, inserted or moved), a `prev` that is not the SHA-256 of the line before (a line edited), an unterminated last line, and with `--state` a line of the run whose MAC does not verify under the run's secret key (a line edited with the chain recomputed, a MAC removed or made with another key, a log copied from another run) and a log that does not end where the guard last wrote (a cut tail, an appended line). The guard refuses to append to a broken trail. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "The intake protocol asks that the audit trail be preserved; a hash chain makes a silent edit or deletion visible.",
      fix: "Restore the log from a copy; never edit it. Investigate why it changed.",
      bad: "{\"seq\":0,…,\"prev\":null}\n{\"seq\":2,…}   # line 1 deleted",
      good: "{\"seq\":0,…,\"prev\":null}\n{\"seq\":1,…,\"prev\":\"sha256:<hash of line 0>\"}",
    },
  },
  check(input, ctx) {
    if (input.step !== "audit") return;
    const file = input.file ?? "";
    const u = input.unreadable;
    if (u) ctx.report({ messageId: "unreadable", data: { file, why: u.kind === "error" ? `cannot be read (${u.code})` : u.kind === "not-a-file" ? `is ${u.what}` : `is over ${u.max} bytes` } });
    const t = input.tampered;
    // With the head the guard recorded, the last line was compared too; without it, only the size.
    if (t?.head) ctx.report({ messageId: "tampered", data: { file, why: tailWhy(t.found, t.bytes, t.head) }, expected: { bytes: t.bytes, head: t.head } });
    else if (t) ctx.report({ messageId: "resized", data: { file, why: sizeWhy(t.found, t.bytes), bytes: t.bytes }, expected: t.bytes });
    if (!input.lines || !input.head) return;
    if (input.unterminated !== undefined) ctx.report({ messageId: "unterminated", data: { line: input.unterminated }, line: input.unterminated });
    for (const l of input.lines) {
      const at = { line: l.line };
      if (!l.object) ctx.report({ messageId: "notObject", data: at, ...at });
      else if (l.seq !== l.line - 1) ctx.report({ messageId: "sequence", data: { ...at, seq: String(l.seq), expected: l.line - 1 }, ...at, expected: l.line - 1, actual: l.seq });
      else if (l.prev !== l.prevHash)
        ctx.report({ messageId: l.line === 1 ? "firstPrev" : "prev", data: { ...at, before: l.line - 1 }, ...at, expected: l.prevHash, actual: l.prev });
      else if (l.mac === "absent") ctx.report({ messageId: "noMac", data: at, ...at });
      else if (l.mac === "invalid") ctx.report({ messageId: "badMac", data: at, ...at });
    }
    const head = input.head;
    const want = input.anchoredHead;
    if (want && (want.count !== head.count || want.hash !== head.hash))
      ctx.report({ messageId: "head", data: { count: head.count, expectedCount: want.count, expectedHash: want.hash ?? "(none)" }, expected: want, actual: head });
    if (input.from !== undefined && input.from > head.count) ctx.report({ messageId: "cut", data: { start: input.from + 1, count: head.count }, expected: input.from + 1, actual: head.count });
  },
});

/** How a trail differs from the size and last line the guard recorded, in words. */
function tailWhy(t: TrailTampering, bytes: number, head: AuditHeadFacts): string {
  const left = `, but the guard left it at ${bytes} bytes`;
  switch (t.kind) {
    case "unreadable":
      return `cannot be read (${t.code})${left}`;
    case "not-a-file":
      return `is not a regular file${left}`;
    case "size":
      return `is ${t.size} bytes${left}`;
    case "larger":
      return `is more than ${bytes} bytes${left}`;
    case "extra-lines":
      return "has lines the guard did not write";
    case "ended-while-read":
      return "ended while it was read";
    case "partial-line":
      return "does not end with a whole line";
    case "other-last-line":
      return `ends in a line that is not the one the guard last wrote (${head.hash ?? "(none)"})`;
    case "last-sequence":
      return `ends in a line whose sequence number is not ${head.count - 1}`;
    case "last-mac":
      return "ends in a line whose MAC does not verify under the run's key";
  }
}

/** How a trail differs from the size the guard recorded, in words (the message adds the size). */
function sizeWhy(t: TrailTampering, bytes: number): string {
  if (t.kind === "size") return `is ${t.size} bytes`;
  if (t.kind === "larger") return `is more than ${bytes} bytes`;
  if (t.kind === "not-a-file") return `is ${t.what ?? "not a regular file"}`;
  if (t.kind === "unreadable") return `cannot be read (${t.code})`;
  return "is not what the guard wrote";
}
