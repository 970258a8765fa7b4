import type { Diagnostic, Severity } from "../core/diagnostic.js";
import { explainText } from "../rules/explain.js";
import { RULES } from "../rules/index.js";
import { ruleReadme } from "../rules/readme.js";
import { VERSION } from "../version.js";
import type { FormatOptions } from "./types.js";
import { trimEndOf } from "../core/text.js";

const SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

const LEVEL: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", info: "note" };

/**
 * The artifact URI of a plan file: relative to the working directory with forward slashes, so code
 * scanning resolves it against the checkout; absolute paths outside it become file: URIs.
 */
export function artifactUri(file: string | undefined, cwd?: string): string {
  if (file === undefined || file === "-") return "stdin";
  let path = file.replace(/\\/g, "/");
  const base = cwd === undefined ? undefined : trimEndOf(cwd.replace(/\\/g, "/"), "/");
  if (base && path.startsWith(`${base}/`)) path = path.slice(base.length + 1);
  const absolute = path.startsWith("/") || /^[A-Za-z]:\//.test(path);
  const encoded = path
    .split("/")
    .map((seg, i) => (i === 0 && /^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg)))
    .join("/")
    .replace(/^(\.\/)+/, "");
  if (!absolute) return encoded;
  return `file://${encoded.startsWith("/") ? "" : "/"}${encoded}`;
}

function ruleDescriptor(meta: (typeof RULES)[number]["meta"]) {
  return {
    id: meta.id,
    name: meta.id.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase()),
    shortDescription: { text: meta.summary },
    fullDescription: { text: meta.docs.description },
    help: { text: explainText(meta.id) ?? meta.docs.description, markdown: ruleReadme(meta) },
    defaultConfiguration: { level: LEVEL[meta.defaultSeverity] },
    properties: { tags: ["plangate", meta.phase], dialects: meta.dialects ?? "all" },
  };
}

function result(d: Diagnostic, file: string | undefined, index: ReadonlyMap<string, number>, cwd?: string) {
  const physicalLocation: Record<string, unknown> = { artifactLocation: { uri: artifactUri(d.file ?? file, cwd) } };
  if (d.line !== undefined && d.column !== undefined) {
    const region: Record<string, number> = { startLine: d.line, startColumn: d.column };
    if (d.endLine !== undefined && d.endColumn !== undefined) {
      region.endLine = d.endLine;
      region.endColumn = d.endColumn;
    }
    physicalLocation.region = region;
  }
  const out: Record<string, unknown> = {
    ruleId: d.rule,
    level: LEVEL[d.severity],
    message: { text: d.hint ? `${d.message} Hint: ${d.hint}` : d.message },
    locations: [{ physicalLocation }],
  };
  const ruleIndex = index.get(d.rule);
  if (ruleIndex !== undefined) out.ruleIndex = ruleIndex;
  const properties: Record<string, unknown> = {};
  if (d.step !== undefined) properties.step = d.step;
  if (d.pointer !== undefined) properties.pointer = d.pointer;
  if (d.expected !== undefined) properties.expected = d.expected;
  if (d.actual !== undefined) properties.actual = d.actual;
  if (Object.keys(properties).length > 0) out.properties = properties;
  return out;
}

/**
 * The SARIF 2.1.0 log object: one run, the rules that reported (as ESLint's SARIF output does, so a log
 * stays small and stable as the catalogue grows), one result per diagnostic.
 */
export function sarifLog(reports: readonly { file?: string | undefined; diagnostics: readonly Diagnostic[] }[], options: FormatOptions = {}) {
  const used = new Set(reports.flatMap((r) => r.diagnostics.map((d) => d.rule)));
  const rules = RULES.filter((r) => used.has(r.meta.id));
  const index = new Map(rules.map((r, i) => [r.meta.id, i]));
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "plangate",
            version: options.version ?? VERSION,
            semanticVersion: options.version ?? VERSION,
            rules: rules.map((r) => ruleDescriptor(r.meta)),
          },
        },
        // plangate's columns count UTF-16 code units, as JavaScript strings do.
        columnKind: "utf16CodeUnits",
        results: reports.flatMap((r) => r.diagnostics.map((d) => result(d, r.file, index, options.cwd))),
      },
    ],
  };
}

/** `--output sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers. */
export function formatSarif(reports: readonly { file?: string | undefined; diagnostics: readonly Diagnostic[] }[], options: FormatOptions = {}): string {
  return `${JSON.stringify(sarifLog(reports, options), null, 2)}\n`;
}
