import { place } from "../../core/place.js";
import { closest } from "../../core/tools.js";
import { defineDialect, type NormalizeContext } from "../../core/dialect.js";
import type { Step } from "../../core/plan.js";
import type { MarkdownDocument, MdBlock } from "../../syntax/markdown.js";
import { emptyPlan } from "../shape.js";
import { headingWord, KNOWN_ACTIONS, readAction } from "./action.js";
import { emulatedActions, firstDifference, metadataIssues, projectPlangate, projectTeddy, readingIssues, teddyReading, type ReadingIssue } from "./reading.js";

type Heading = Extract<MdBlock, { kind: "heading" }>;

const FIELDS = { tool: "action type", args: "metadata", intent: "Description" };

function sectionName(h: Heading): string {
  return headingWord(h.text).toLowerCase().replace(/\s+/g, " ");
}

/** A heading that names an action type (whatever its level), so a misplaced action is not taken for a section. */
function isActionWord(h: Heading): boolean {
  const w = headingWord(h.text);
  return KNOWN_ACTIONS.includes(w);
}

/** TeDDy writes "#Title" (no space) and normalises it to a heading; so does plangate, for the first line only. */
function looseTitle(blocks: readonly MdBlock[]): boolean {
  const first = blocks[0];
  return first?.kind === "paragraph" && /^#[^#\s]/.test(first.lines[0]?.text ?? "");
}

/** TeDDy's plan.md (the TeDDy spec and the current format): one H1, `## Rationale`, `## Action Plan` or `## Message`. */
export default defineDialect({
  id: "teddy",
  syntaxes: ["markdown"],
  shape: "a Markdown plan.md with one `# Title`, `## Rationale` and `## Action Plan` (H3 actions split by ---)",
  normalize(source, ctx) {
    const doc = source as MarkdownDocument;
    // An empty file is one parse error, not a list of missing parts.
    if (doc.text.trim() === "") return undefined;
    const blocks = doc.blocks ?? [];
    // One reading: lines the two parsers could read differently are refused first.
    for (const issue of readingIssues(doc)) reportLine(doc, ctx, issue);
    blocks.forEach((b, i) => {
      const next = blocks[i + 1];
      if (b.kind === "heading" && b.level === 3 && !b.setext && next?.kind === "list") for (const issue of metadataIssues(doc, next)) reportLine(doc, ctx, issue);
    });
    const headings = blocks.filter((b): b is Heading => b.kind === "heading");
    checkTitle(doc, headings, blocks, ctx);

    const h2 = headings.filter((h) => h.level === 2 && !h.setext && !isActionWord(h));
    const find = (name: string) => h2.find((h) => sectionName(h) === name);
    const rationale = find("rationale");
    const actionPlan = find("action plan");
    const message = find("message");
    if (rationale) doc.anchors.set("/rationale", { start: rationale.start, end: rationale.end });
    if (!rationale) {
      ctx.report({ rule: "md-missing-section", messageId: "noRationale", at: "" });
    }
    if (!actionPlan && !message) {
      ctx.report({ rule: "md-missing-section", messageId: "noActionPlan", at: "" });
    }
    for (const name of ["rationale", "action plan", "message"]) {
      const all = h2.filter((h) => sectionName(h) === name);
      for (const extra of all.slice(1)) {
        const at = `/sections/${extra.line}`;
        doc.anchors.set(at, { start: extra.start, end: extra.end });
        ctx.report({ rule: "md-missing-section", messageId: "secondSection", data: { line: extra.line, text: extra.text, first: all[0]!.line }, at });
      }
    }
    if (actionPlan && message) {
      const later = actionPlan.line > message.line ? actionPlan : message;
      doc.anchors.set("/sections/both", { start: later.start, end: later.end });
      ctx.report({ rule: "md-missing-section", messageId: "bothSections", at: "/sections/both" });
    }
    const steps: Step[] = [];
    const plan = { dialect: "teddy" as const, source: doc, fields: FIELDS, stepsAt: "/actions", steps, meta: {} as Record<string, unknown> };
    if (!actionPlan) {
      compareWithTeddy(doc, steps, ctx);
      return plan;
    }
    doc.anchors.set("/actions", { start: actionPlan.start, end: actionPlan.end });

    // The Action Plan runs to the next section heading (an ATX H1/H2 that is not an action type).
    const from = blocks.indexOf(actionPlan) + 1;
    let to = from;
    while (to < blocks.length) {
      const b = blocks[to]!;
      if (b.kind === "heading" && b.level <= 2 && !(b.setext && b.level === 2) && !isActionWord(b)) break;
      to++;
    }
    const region = blocks.slice(from, to);
    // An action heading outside the Action Plan is never checked, yet an executor might run it.
    blocks.forEach((b, i) => {
      if (b.kind !== "heading" || (i >= from && i < to) || b.level !== 3 || !isActionWord(b)) return;
      const at = `/outside/${b.line}`;
      doc.anchors.set(at, { start: b.start, end: b.end });
      ctx.report({ rule: "md-action-heading", messageId: "outsideActionPlan", data: { line: b.line, word: headingWord(b.text) }, at });
    });
    let current: { heading: Heading; body: MdBlock[] } | undefined;
    let separated = true;
    const flush = () => {
      if (!current) return;
      const index = steps.length;
      const step = readAction(doc, current.heading, current.body, index, ctx);
      steps.push(step);
      current = undefined;
    };
    for (const b of region) {
      const isAction = b.kind === "heading" && (b.level === 3 ? !(b.setext) : isActionWord(b) && !(b.level === 4 && /^(FIND|REPLACE)$/i.test(headingWord(b.text))));
      if (b.kind === "heading" && isAction) {
        flush();
        const index = steps.length;
        checkHeading(doc, b, index, ctx);
        if (index > 0 && !separated && ctx.policy.markdown.requireSeparators) {
          ctx.report({
            rule: "md-action-separator",
            messageId: "missing",
            data: { step: index + 1, word: headingWord(b.text), previous: index },
            at: `/actions/${index}/type`,
          });
        }
        current = { heading: b, body: [] };
        separated = false;
      } else if (b.kind === "hr" || (b.kind === "heading" && b.setext && b.level === 2)) {
        // A `---` right under a paragraph makes it a setext heading; it still separates the actions.
        separated = true;
        if (current && b.kind === "heading") current.body.push(b);
        flush();
      } else if (current) {
        current.body.push(b);
      } else {
        doc.anchors.set(`/actions/stray/${b.line}`, { start: b.start, end: b.end });
        ctx.report({ rule: "md-action-heading", messageId: "strayContent", data: { line: b.line }, at: `/actions/stray/${b.line}` });
      }
    }
    flush();
    if (steps.length === 0 && !message) emptyPlan(ctx, "/actions", place.document("actionPlan"));
    compareWithTeddy(doc, steps, ctx);
    return plan;
  },
});

function checkTitle(doc: MarkdownDocument, headings: Heading[], blocks: MdBlock[], ctx: NormalizeContext): void {
  const h1 = headings.filter((h) => h.level === 1);
  if (h1.length === 0 && looseTitle(blocks)) return;
  if (h1.length === 0) {
    ctx.report({ rule: "md-title", messageId: "missing", at: "" });
    return;
  }
  doc.anchors.set("/title", { start: h1[0]!.start, end: h1[0]!.end });
  for (const extra of h1.slice(1)) {
    const at = `/title/${extra.line}`;
    doc.anchors.set(at, { start: extra.start, end: extra.end });
    ctx.report({ rule: "md-title", messageId: "second", data: { line: extra.line, text: extra.text }, at });
  }
}

function checkHeading(doc: MarkdownDocument, h: Heading, index: number, ctx: NormalizeContext): void {
  const word = headingWord(h.text);
  const at = `/actions/${index}/type`;
  doc.anchors.set(at, { start: h.start, end: h.end });
  const step = index + 1;
  if (h.level !== 3) {
    ctx.report({ rule: "md-action-heading", messageId: "level", data: { step, word, level: h.level }, at });
    return;
  }
  if (KNOWN_ACTIONS.includes(word)) return;
  const near = closest(word.toUpperCase(), KNOWN_ACTIONS);
  // "### MESSAGE" is the `## Message` section written as an action: its hint says so.
  const messageId = word.toUpperCase() === "MESSAGE" ? "unknownTypeMessage" : near ? "unknownTypeNear" : "unknownType";
  ctx.report({
    rule: "md-action-heading",
    messageId,
    data: messageId === "unknownTypeNear" ? { step, word, near: near! } : { step, word, known: KNOWN_ACTIONS.join(", ") },
    at,
    actual: word,
  });
}

function reportLine(doc: MarkdownDocument, ctx: NormalizeContext, issue: ReadingIssue): void {
  const at = `/reading/${issue.line}`;
  const start = doc.lines.lineStarts[issue.line - 1] ?? 0;
  doc.anchors.set(at, { start, end: start + doc.lines.lineText(issue.line).length });
  ctx.report(issue.data === undefined ? { rule: "unsafe-value", messageId: issue.messageId, at } : { rule: "unsafe-value", messageId: issue.messageId, data: issue.data, at });
}

const show = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v).slice(0, 120));

/**
 * Where TeDDy's parser would accept the plan, its reading of the actions (emulated from the same
 * blocks) must be plangate's: what is checked and approved is what runs.
 */
function compareWithTeddy(doc: MarkdownDocument, steps: Step[], ctx: NormalizeContext): void {
  const reading = teddyReading(doc);
  if (!reading.ok) return;
  const diff = firstDifference(projectPlangate(steps), projectTeddy(emulatedActions(reading)));
  if (!diff) return;
  const step = steps[diff.index];
  const heading = reading.actions[diff.index] ? doc.blocks[reading.actions[diff.index]!.block] : undefined;
  const at: string = step ? step.toolAt : `/teddy/${diff.index}`;
  if (!step) doc.anchors.set(at, heading ? { start: heading.start, end: heading.end } : { start: 0, end: 0 });
  ctx.report({
    rule: "unsafe-value",
    at,
    ...(step ? { step: step.position } : {}),
    messageId: "teddyReadsOtherwise",
    data: { step: diff.index + 1, field: diff.field, teddy: show(diff.teddy), plangate: show(diff.plangate) },
  });
}
