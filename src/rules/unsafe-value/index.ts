import { TOO_NESTED } from "../../core/paths.js";
import { planContext, reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { LeafTag } from "../../core/facts.js";
import { messages } from "./messages.js";
import { INVISIBLE, type MixedScript, mixedScriptReason } from "../../core/lookalike.js";

/**
 * Characters that make a name read differently from what a program compares: the invisible characters
 * the readers check in keys (bidi and zero-width controls, the soft hyphen, variation selectors, tag
 * characters, fillers), C0/C1 controls, which terminals and logs drop or reinterpret, and every space but
 * the ASCII one (no-break, ideographic, thin...: `report` U+00A0 `.md` reads as `report .md`).
 */
const SPACES_AND_C1 = "\\u007f-\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const HIDDEN = new RegExp(`[\\u0000-\\u001f${SPACES_AND_C1}]|${INVISIBLE.source}`, "u");
/** The characters of HIDDEN a message spells as escapes (JSON.stringify escapes the C0 controls). */
const SHOWN_ESCAPED = new RegExp(`[${SPACES_AND_C1}]|${INVISIBLE.source}`, "gu");

function shown(s: string): string {
  const clipped = s.length > 80 ? `${s.slice(0, 77)}...` : s;
  return JSON.stringify(clipped).replace(SHOWN_ESCAPED, (c) => c.split("").map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""));
}

/** Why a path reads as another name, in words. */
function mixedWords(m: MixedScript): string {
  const word = JSON.stringify(m.word);
  if (m.why === "mixed") return `mixes ${m.scripts} letters in ${word}`;
  return `holds a full-width or styled character in ${word}, which some file systems fold to ASCII`;
}

function hiddenAt(s: string): string {
  const c = HIDDEN.exec(s)![0];
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * A rule of one input kind, "read": the readers record what parses but reads differently to different
 * consumers (YAML 1.1 against 1.2, TeDDy's parser against plangate's, lone surrogates, unsafe keys) as
 * facts; once reading has produced a plan, the read input carries it, and the rule also looks at the tool
 * names and paths, which only the dialect's steps reveal. All of it is about how the plan is read.
 */
export default defineRule({
  meta: {
    id: "unsafe-value",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "read",
    summary: "A value that parses but means different things to different consumers.",
    docs: {
      description:
        "Reports lone UTF-16 surrogates, numbers that overflow to infinity (1e400), integers beyond ±(2^53-1), keys named __proto__, constructor or prototype, YAML tags and merge keys, YAML that PyYAML (YAML 1.1) reads differently from YAML 1.2 (`yes`, `on:`, `0755`, `1e3`, `22:22`, `2001-12-14`, core tags on text they do not match, raw NEL, tabs, a `%YAML 1.1` directive; off with `yaml.executor: yaml-1.2`; with `yaml.executor: go-yaml-v2` also `y`, `Y`, `n` and `N`, booleans to Go's yaml.v2), and bidi, zero-width and other characters that show nothing (soft hyphen, variation selectors, tag characters, Hangul fillers) in keys, tool names or path arguments, and control characters and non-ASCII spaces in tool names or path arguments, and a path argument with a word that mixes Latin, Cyrillic, Greek or Armenian letters (`.\u0435nv` with a Cyrillic `\u0435`, which an approver reads as `.env`) or puts a full-width or styled letter beside plain ones (`\uff53rc`). In a TeDDy plan.md, also every construct TeDDy's parser (mistletoe) reads otherwise than plangate (CommonMark): Python-only line breaks and spaces, text before the title, fence lines only mistletoe closes, metadata items not of the form `- **Key:** value`, and any action whose type, path, content, edits, command or parameters TeDDy would read differently; and an EXECUTE's `env` item (variables that change what the command runs, which its text does not show: write them in the command) or a folder item TeDDy does not read (`Working Directory: build`, `Workdir:`: TeDDy runs the command in the workspace root, or in `cwd`).",
      rationale:
        "Each of these reads differently in different languages or encoders (a lone surrogate becomes U+FFFD in one and an escape in another, so two plans can share a hash; a big integer is rounded by JavaScript; __proto__ pollutes prototypes; a YAML 1.1 reader merges `<<` where a YAML 1.2 reader keeps a key, and reads `on` as true and `0755` as 493 where YAML 1.2 reads a string and 755; bidi controls make a reviewer read another name than the executor runs).",
      fix: "Remove the control or surrogate, write the number as a string or within range, rename the key, and quote YAML values the two YAML versions read differently (\"on\", \"0755\").",
      bad: '{"tool": "read_file", "params": {"n": 1e400}}',
      good: '{"tool": "read_file", "params": {"n": 1000}}',
    },
  },
  // The readers report keys; tool names and paths are only known once the dialect has found the steps.
  check(input, context) {
    reportFacts("unsafe-value", input, context);
    if (!input.normalized) return;
    const plan = input.normalized.plan;
    const ctx = planContext(input.normalized, context);
    const { tool: toolField } = plan.fields;
    for (const step of plan.steps) {
      if (step.tool !== undefined && HIDDEN.test(step.tool)) {
        ctx.report({
          at: step.toolAt,
          step: step.position,
          messageId: "hiddenInToolName",
          data: { step: step.position, field: toolField, tool: shown(step.tool), code: hiddenAt(step.tool) },
          actual: step.tool,
        });
      }
      for (const arg of ctx.facts.step(step).pathArgs) {
        // A value too deep to walk is path-outside-workspace's to report, not a hidden character.
        if (arg.value === TOO_NESTED || !arg.has(LeafTag.Hidden)) continue;
        if (!HIDDEN.test(arg.value)) {
          const mixed = mixedScriptReason(arg.value);
          if (mixed)
            ctx.report({
              at: arg.at,
              step: step.position,
              messageId: "mixedScriptInPath",
              data: { step: step.position, name: arg.name, path: shown(arg.value), why: mixedWords(mixed), reads: mixed.reads.length > 80 ? `${mixed.reads.slice(0, 77)}...` : mixed.reads },
              actual: arg.value,
            });
          continue;
        }
        ctx.report({
          at: arg.at,
          step: step.position,
          messageId: "hiddenInPath",
          data: { step: step.position, name: arg.name, path: shown(arg.value), code: hiddenAt(arg.value) },
          actual: arg.value,
        });
      }
    }
  },
});
