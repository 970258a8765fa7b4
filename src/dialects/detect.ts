import type { SyntaxId } from "../core/document.js";
import type { DialectId } from "../core/plan.js";
import { isObject } from "../core/type-name.js";

function usesIkomaStepKeys(list: readonly unknown[]): boolean {
  return list.some((s) => isObject(s) && (Object.hasOwn(s, "tool_name") || Object.hasOwn(s, "step")));
}

/** The dialect a document's shape says it is (SPEC §2), or undefined when none matches. */
export function detectDialect(syntax: SyntaxId, value: unknown): DialectId | undefined {
  if (syntax === "markdown") return "teddy";
  if (Array.isArray(value)) return usesIkomaStepKeys(value) ? "ikoma" : "scqc-legacy";
  if (!isObject(value)) return undefined;
  if (Object.hasOwn(value, "steps")) return "intake";
  if (Object.hasOwn(value, "plan")) {
    const plan = value.plan;
    if (Object.hasOwn(value, "reasoning") || (Array.isArray(plan) && usesIkomaStepKeys(plan))) return "ikoma";
    return "scqc-envelope";
  }
  if (Object.hasOwn(value, "reasoning")) return "ikoma";
  return undefined;
}

/** Picks the syntax: by extension where it decides, else by content (SPEC §2). */
export function detectSyntax(file: string | undefined, text: string): SyntaxId {
  const lower = (file ?? "").toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  if (lower.endsWith(".md") || lower.endsWith(".markdown")) return "markdown";
  return sniffSyntax(text);
}

/** Content sniffing for stdin and unknown extensions. */
export function sniffSyntax(text: string): SyntaxId {
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  const c = text[i];
  if (c === "{" || c === "[") return "json";
  const lineEnd = text.indexOf("\n", i);
  const first = text.slice(i, lineEnd < 0 ? text.length : lineEnd);
  if (/^#{1}(\s|$)/.test(first) && !looksLikeYamlMapping(text)) return "markdown";
  return "yaml";
}

/** A cheap test: does any top-level line look like a YAML mapping key ("key: value")? */
function looksLikeYamlMapping(text: string): boolean {
  for (const line of text.split(/\r?\n/, 200)) {
    if (/^[A-Za-z_][\w-]*:(\s|$)/.test(line)) return true;
  }
  return false;
}
