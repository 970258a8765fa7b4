import { existsSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import picomatch from "picomatch";
import { readConfigText } from "./read-bounded.js";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import { GENERIC, type HostProfile, HostProfileError, profileHash } from "../host/profile.js";
import { ALLOW_SOURCE, closest, registryFromNames, type ToolRegistry } from "../core/tools.js";
import { DEFAULT_DENIED_TOOLS, DEFAULT_PATH_ARGUMENTS, DEFAULT_PROTECTED_PATHS, DEFAULT_READ_TOOLS, DEFAULT_WRITE_TOOLS, defaultPolicy, PROTECTION_RULES, STRUCTURAL_RULES } from "../policy/defaults.js";
import { policyBoundProblem, registryBoundProblem } from "../policy/bounds.js";
import { schemaErrors } from "../core/schema-errors.js";
import { publishedSchema } from "./published-schema.js";
import type { PolicyFile } from "../policy/schema.js";
import type { Policy, PolicyOverride, SettingPosition } from "../core/policy.js";
import { parseJson } from "../syntax/json.js";
import { loadToolsFile, mergeRegistries, ToolsFileError } from "./tools-file.js";
import type { SourceDocument } from "../core/document.js";
import type { FileProbe } from "../core/file-probe.js";
import { childPointer } from "../core/pointer.js";
import { readFactText } from "../rules/read-text.js";
import { globBacktracks, pathGlobMatcher } from "../core/path-glob.js";
import { linearGlobError } from "../rules/protected-path-write/index.js";
import { loadHostProfile } from "./host-profile.js";
import { freeToolsProblem } from "../host/free.js";
import { approvalLifetime } from "../approval/record.js";
import { untrustedPlace } from "./private-place.js";

/**
 * The identity of the policy in force: the resolved policy (the defaults merged with the file, so a
 * change of the defaults or of a base policy changes it too) and the host profile (name and hash, so
 * loosening the profile changes it). The workspace and the file's location are left out: the approval's
 * scope binds the workspace, and a policy read from another path (its settings at other lines) is the same policy.
 */
export function resolvedPolicyHash(policy: Policy, host: HostProfile = GENERIC): string {
  const { workspace: _w, source: _s, host: _h, settingsAt: _a, ...rest } = policy;
  // approval.acceptMissingExpiry says which old records verify; in the hash, setting it would refuse them all.
  const { acceptMissingExpiry: _m, ...approval } = rest.approval;
  return "sha256:" + sha256Hex(canonicalJson({ policy: { ...rest, approval }, host: { name: host.name, hash: profileHash(host) } }));
}

/** A policy that cannot be used: the CLI exits with 2. The message carries file:line:column. */
export class PolicyError extends Error {}

/** A loaded policy: the resolved policy, the tools it names, and its identity. */
export interface LoadedPolicy {
  policy: Policy;
  tools: ToolRegistry | undefined;
  /** sha256: identity of the resolved policy and the host profile it names (see resolvedPolicyHash). */
  hash: string;
}

/** The names a policy file is discovered under (the default protected paths cover each, at any depth). */
export const POLICY_FILE_NAMES = ["plangate.yaml", ".plangate.yaml", "plangate.yml", ".plangate.yml", "plangate.json"];

/**
 * Walks up from a folder to the first folder holding a policy file, and no higher than the project
 * root: the first folder that holds `.git` (a folder, or a worktree's file). Outside any repository
 * it walks up to the file-system root. Two policy files in one folder are ambiguous: a PolicyError.
 */
export function discoverPolicy(from: string): string | undefined {
  let dir = resolve(from);
  for (;;) {
    const found = POLICY_FILE_NAMES.map((name) => join(dir, name)).filter((p) => isFile(p));
    if (found.length > 1)
      throw new PolicyError(`${found.join(" and ")}: two policy files in one folder; it is not clear which applies (keep one, or pass --policy FILE)`);
    if (found.length === 1) {
      // Found, not named: one another user wrote (a plangate.yaml in /tmp, above a project outside any
      // repository) would decide what passes. Named with --policy, it is the user's own choice.
      const problem = untrustedPlace(found[0]!, "the policy file", { ancestors: false });
      if (problem !== undefined)
        throw new PolicyError(`${problem}; it was found walking up from ${resolve(from)}, so another user could have put it there: pass --policy FILE to use it anyway, or --no-policy`);
      return found[0];
    }
    if (existsSync(join(dir, ".git"))) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}



/** The 1-based line and column of a setting's value (a JSON pointer) in a policy file (its absolute path), if it is there. */
function settingPosition(doc: SourceDocument, file: string, pointer: string): SettingPosition | undefined {
  const loc = doc.locate(pointer);
  if (!loc) return undefined;
  const pos = doc.lines.position(loc.start);
  return { file, line: pos.line, column: pos.column };
}

function where(doc: SourceDocument, file: string, pointer: string, atKey = true): string {
  let p = pointer;
  for (;;) {
    const loc = doc.locate(p);
    if (loc) {
      const pos = doc.lines.position(atKey && p === pointer ? (loc.keyStart ?? loc.start) : loc.start);
      return `${file}:${pos.line}:${pos.column}`;
    }
    if (p === "") return file;
    p = p.slice(0, p.lastIndexOf("/"));
  }
}

/** Keys that are one per policy: an `overrides` entry may not set them. */
const ONE_PER_POLICY = ["extends", "overrides", "workspace", "host", "approval", "guard", "returns", "tasks", "delegation"];

// The bounds on what a policy holds (src/policy/bounds.ts), checked for each file and for the policy in all.
export { MAX_PROTECTED_GLOBS, MAX_PROTECTED_GLOB_LENGTH } from "../policy/bounds.js";

/** The defaults' entries a policy file's lists are merged into (union), counted with the file's own. */
const DEFAULT_COUNTS = {
  "tools.deny": DEFAULT_DENIED_TOOLS.length,
  "tools.write": DEFAULT_WRITE_TOOLS.length,
  "tools.read": DEFAULT_READ_TOOLS.length,
  "paths.protected": DEFAULT_PROTECTED_PATHS.length,
  "paths.arguments": DEFAULT_PATH_ARGUMENTS.length,
};

/** Deepest `extends` chain (the file itself is depth 0), and most policy files one policy may read. */
export const MAX_EXTENDS_DEPTH = 8;
const MAX_POLICY_FILES = 64;

/** Reads and checks a policy file's text; throws PolicyError with the position of the first fault. */
export async function parsePolicyText(text: string, file: string): Promise<PolicyFile> {
  return (await parsePolicyDoc(text, file)).policy;
}

async function parsePolicyDoc(text: string, file: string): Promise<{ policy: PolicyFile; doc: SourceDocument }> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Only plangate reads its policy file, so no other YAML reader has to agree with it.
  const doc = file.endsWith(".json") ? parseJson(body) : (await import("../syntax/yaml.js")).parseYaml(body, { executor: "yaml-1.2" });
  const issue = doc.issues[0];
  if (issue) {
    const pos = doc.lines.position(issue.start);
    const { message, hint } = readFactText(issue);
    throw new PolicyError(`${file}:${pos.line}:${pos.column}: ${message}${hint ? ` (${hint})` : ""}`);
  }
  const value = doc.value === null ? {} : doc.value;
  // Settings that are one per policy get their own message in an override, before the schema's generic one.
  const overrides = (value as { overrides?: unknown } | null)?.overrides;
  if (Array.isArray(overrides))
    overrides.forEach((o, i) => {
      if (o === null || typeof o !== "object" || Array.isArray(o)) return;
      for (const k of ONE_PER_POLICY)
        if (Object.hasOwn(o, k))
          throw new PolicyError(
            `${where(doc, file, `/overrides/${i}/${k}`)}: "${k}" cannot be set in an override: it is one per policy (set it at the top level of the policy; an override may set ${OVERRIDE_KEYS.join(", ")})`,
          );
    });
  // The compiled validator is large: loaded only when a policy file is read.
  const { default: validatePolicy } = await import("../generated/validate-policy.js");
  const errors = schemaErrors(validatePolicy, value, policySchema);
  if (errors.length > 0) {
    const e = errors[0]!;
    if (e.keyword === "additionalProperties") {
      const extra = e.params.additionalProperty as string;
      const at = childPointer(e.instancePath, extra);
      const known = knownKeys(e.instancePath);
      const near = closest(extra, known);
      throw new PolicyError(
        `${where(doc, file, at)}: unknown key "${extra}" in ${e.instancePath === "" ? "the policy" : e.instancePath.slice(1).replace(/\//g, ".")}${near ? `; did you mean "${near}"?` : ""} (known: ${known.join(", ")})`,
      );
    }
    const path = e.instancePath === "" ? "the policy" : e.instancePath.slice(1).replace(/\//g, ".");
    throw new PolicyError(`${where(doc, file, e.instancePath, false)}: ${path} ${e.message}`);
  }
  const policy = value as PolicyFile;
  // Sizes first, before any entry is compiled or compared: past a bound the lists are not looked at further.
  const bound = policyBoundProblem(policy, DEFAULT_COUNTS);
  if (bound !== undefined) throw new PolicyError(`${where(doc, file, bound.pointer, false)}: ${bound.message}`);
  await checkRules(policy.rules, "/rules", doc, file);
  checkProtected(policy.paths?.protected, "/paths/protected", doc, file);
  checkUnprotect(policy.paths?.unprotect, "/paths/unprotect", doc, file);
  checkAllow(policy.tools, "/tools", doc, file);
  checkCommandEntries(policy.commands, "/commands", doc, file);
  checkApprovalTtl(policy.approval?.ttl, doc, file);
  for (const [i, o] of (policy.overrides ?? []).entries()) {
    checkCommandEntries(o.commands, `/overrides/${i}/commands`, doc, file);
    if (o.commands?.allow?.length === 0) throw new PolicyError(`${where(doc, file, `/overrides/${i}/commands/allow`, false)}: ${EMPTY_COMMANDS_ALLOW}`);
    await checkRules(o.rules, `/overrides/${i}/rules`, doc, file);
    checkProtected(o.paths?.protected, `/overrides/${i}/paths/protected`, doc, file);
    checkUnprotect(o.paths?.unprotect, `/overrides/${i}/paths/unprotect`, doc, file);
    checkAllow(o.tools, `/overrides/${i}/tools`, doc, file);
    o.files.forEach((g, j) => {
      if (g.startsWith("/") || /^[A-Za-z]:/.test(g) || g.split(/[\\/]/).includes(".."))
        throw new PolicyError(`${where(doc, file, `/overrides/${i}/files/${j}`, false)}: "${g}" must be a glob relative to the policy's folder (no leading "/", no "..")`);
      const missed = overrideGlobMisses(g, dirname(file));
      if (missed) throw new PolicyError(`${where(doc, file, `/overrides/${i}/files/${j}`, false)}: "${g}" ${missed}`);
    });
  }
  const bases = policy.extends === undefined ? [] : typeof policy.extends === "string" ? [policy.extends] : policy.extends;
  if (bases.length > 16) throw new PolicyError(`${where(doc, file, "/extends", false)}: extends names ${bases.length} files; at most 16`);
  return { policy, doc };
}

/**
 * A protected glob with many runs of unknown length is matched by RE2 (see globBacktracks), which reads the
 * plain glob forms only: one it cannot read is refused here, as matching it with picomatch could take
 * minutes on one path the plan names.
 */
function checkProtected(globs: readonly string[] | undefined, at: string, doc: SourceDocument, file: string): void {
  // Their number and length are bounded (policyBoundProblem, checked before).
  (globs ?? []).forEach((g, j) => {
    // A protected glob that matches nothing by a slip of spelling protects nothing, silently.
    const slip = protectedGlobSlip(g);
    if (slip !== undefined) throw new PolicyError(`${where(doc, file, `${at}/${j}`, false)}: the protected glob "${g}" ${slip}`);
    if (!globBacktracks(g)) return;
    // The matcher's own reading (src/rules/protected-path-write): a glob it cannot read would match every path.
    const error = linearGlobError(g);
    if (error !== undefined)
      throw new PolicyError(
        `${where(doc, file, `${at}/${j}`, false)}: the protected glob "${g}" has several runs of unknown length (* or **), brace groups or an extglob, so it is matched in linear time, which it cannot be: ${error} (write it with *, **, ?, [a-z] and {a,b}, or split it into simpler globs)`,
      );
  });
}

/**
 * Why a protected glob would match no path a plan writes though it reads as if it named some, or
 * undefined. Paths are matched relative to the workspace (or as absolute paths, by a glob that starts
 * with "/"), with "/" between folders.
 */
function protectedGlobSlip(g: string): string | undefined {
  if (g !== g.trim()) return "begins or ends with white space, which a path does not: remove it";
  if (g.includes("\\")) return 'holds a backslash, which escapes the next character in a glob (it is no folder separator): write "/" between folders';
  if (g.endsWith("/")) return `ends with "/", so it matches no path: write "${g.replace(/\/+$/, "")}" (a folder's name protects it and everything in it)`;
  if (g.replace(/^\.\//, "").replace(/^\//, "").split("/").some((x) => x === "" || x === ".")) return 'has an empty or "." folder name ("//", "/./"), which a path does not: write each folder once';
  return undefined;
}

/** A protected glob that names a path without wildcards (`secrets`, `config/prod`) protects everything in it too. */
function withContents(globs: readonly string[] | undefined): string[] | undefined {
  return globs?.flatMap((g) => (picomatch.scan(g).isGlob ? [g] : [g, `${g.replace(/^\.\//, "")}/**`]));
}

/**
 * `paths.unprotect` names default protected globs, spelt as the defaults list them: a glob that is none of
 * them (a typo, `.github/workflows/*`, a glob of the policy's own) would unprotect nothing while its author
 * believed it did, so it is refused with the closest default.
 */
function checkUnprotect(globs: readonly string[] | undefined, at: string, doc: SourceDocument, file: string): void {
  const defaults = new Set(DEFAULT_PROTECTED_PATHS);
  (globs ?? []).forEach((g, j) => {
    if (defaults.has(g)) return;
    const near = closest(g, defaults);
    throw new PolicyError(
      `${where(doc, file, `${at}/${j}`, false)}: "${g}" is not a default protected glob; paths.unprotect takes the defaults as they are spelt${near ? ` (did you mean "${near}"?)` : ""}; a glob of your own is simply left out of paths.protected`,
    );
  });
}

/**
 * An empty `tools.allow` with no allowFile or registry beside it reads as "allow nothing", but a policy
 * with no list leaves the tools unchecked (one warning): the two readings are refused rather than the
 * looser one taken. An override that empties the list would unconstrain its plans the same way.
 */
function checkAllow(tools: { allow?: readonly string[]; allowFile?: string; registry?: string } | undefined, at: string, doc: SourceDocument, file: string): void {
  if (tools?.allow === undefined || tools.allow.length > 0 || tools.allowFile !== undefined || tools.registry !== undefined) return;
  throw new PolicyError(
    `${where(doc, file, `${at}/allow`, false)}: tools.allow is empty, which leaves every tool unchecked (an empty list is no list): list the tools plans may call, write ["*"] to allow every tool on purpose, or leave tools.allow out`,
  );
}

/**
 * An empty `commands.allow` reads as "no program", but a list replaces the one in force, and an empty
 * list is no list: any program not denied. Where it would replace a list (an override, a file over a base
 * with one), the two readings are refused rather than the looser one taken.
 */
const EMPTY_COMMANDS_ALLOW =
  'commands.allow is empty, which replaces the list in force with none, so that any program not denied may run (an empty list is no list): list the programs these plans may run, or leave commands.allow out to keep the list in force';

/**
 * A command line's program is matched by its name, wherever it lies (`/bin/rm`, `./rm` and `rm` alike):
 * an entry of `commands.deny` whose program is a path (`/bin/rm`) would deny nothing at all, and one of
 * `commands.allow` would allow nothing. Both are refused with the name to write.
 */
function checkCommandEntries(commands: { allow?: readonly string[]; deny?: readonly string[] } | undefined, at: string, doc: SourceDocument, file: string): void {
  for (const list of ["deny", "allow"] as const) {
    (commands?.[list] ?? []).forEach((entry, j) => {
      const program = entry.trim().split(/\s+/)[0] ?? "";
      if (!program.includes("/")) return;
      const name = program.split("/").filter((x) => x !== "").pop() ?? program;
      throw new PolicyError(
        `${where(doc, file, `${at}/${list}/${j}`, false)}: the commands.${list} entry "${entry}" names its program by a path, but a command's program is matched by its name wherever it lies (/bin/${name}, ./${name} and ${name} alike), so it would ${list === "deny" ? "deny" : "allow"} nothing: write "${[name, ...entry.trim().split(/\s+/).slice(1)].join(" ")}"`,
      );
    });
  }
}

/**
 * `approval.ttl` is read where an approval is made (`approve`, POST /v1/approve, plan mode's
 * sign-and-start): one that is no lifetime (`1 hour`) must not be found out there, where plan mode
 * would have made an approval with none. `never` says no expiry on purpose.
 */
function checkApprovalTtl(ttl: string | undefined, doc: SourceDocument, file: string): void {
  if (ttl === undefined) return;
  const lifetime = approvalLifetime(ttl, true, "approval.ttl");
  if ("error" in lifetime) throw new PolicyError(`${where(doc, file, "/approval/ttl", false)}: ${lifetime.error}`);
}

/** A reusable approval needs a lifetime: with every approval reusable (approval.singleUse: false), approval.ttl. */
const REUSABLE_FOR_EVER =
  "approval.singleUse: false makes every approval reusable, and with no approval.ttl each would let its plan run again for ever: set approval.ttl (such as 1d); to keep approvals with no expiry on purpose, as before, write approval.ttl: never";

async function checkRules(rules: Record<string, string> | undefined, at: string, doc: SourceDocument, file: string): Promise<void> {
  if (rules === undefined || Object.keys(rules).length === 0) return;
  // The catalogue is loaded only for a policy that sets severities: a guard's hook call does not load it.
  const { RULES } = await import("../rules/index.js");
  for (const id of Object.keys(rules)) {
    if (RULES.find((r) => r.meta.id === id)?.meta.phase === "approval")
      throw new PolicyError(`${where(doc, file, `${at}/${id}`)}: the severity of "${id}" cannot be changed: approval checks always apply`);
    const protection = PROTECTION_RULES.get(id);
    if (protection !== undefined && rules?.[id] !== "error")
      throw new PolicyError(`${where(doc, file, `${at}/${id}`)}: "${id}" cannot be set to ${JSON.stringify(rules?.[id])}: ${protection.why} (it is always an error); ${protection.instead}`);
    if (STRUCTURAL_RULES.has(id) && rules?.[id] !== "error")
      throw new PolicyError(
        `${where(doc, file, `${at}/${id}`)}: "${id}" cannot be set to ${JSON.stringify(rules?.[id])}: without it a plan that cannot be read unambiguously would pass (it is always an error)`,
      );
    if (!RULES.some((r) => r.meta.id === id)) {
      const near = closest(id, RULES.map((r) => r.meta.id));
      throw new PolicyError(`${where(doc, file, `${at}/${id}`)}: unknown rule "${id}"${near ? `; did you mean "${near}"?` : ""} (run \`plangate rules\`)`);
    }
  }
}

/** The keys an `overrides` entry may set. */
export const OVERRIDE_KEYS = ["files", "rules", "tools", "limits", "plan", "paths", "markdown", "commands", "yaml"];

/** One policy file of an `extends` chain, with the folder its relative paths resolve against. */
interface ChainLink {
  file: PolicyFile;
  folder: string;
  /** Where a setting is written in the file (a JSON pointer), if it is. */
  locate?: (pointer: string) => SettingPosition | undefined;
}

/**
 * Reads a policy file and, depth first, the bases it extends: the links in merge order (bases first, in
 * the order named, then the file). Every file is read with the bounded reader (a regular file, at most
 * 16 MiB) and checked as a policy; a cycle, a chain deeper than MAX_EXTENDS_DEPTH or more than 64 files
 * is a PolicyError at the `extends` entry that leads there.
 */
async function readPolicyChain(path: string, display: string): Promise<ChainLink[]> {
  const links: ChainLink[] = [];
  let count = 0;
  const visit = async (path: string, display: string, stack: readonly { real: string; display: string }[], from?: string): Promise<void> => {
    const at = from ?? display;
    let real: string;
    try {
      real = realpathSync(path);
    } catch (err) {
      throw new PolicyError(`${from ? `${at}: ` : ""}cannot read policy file ${display}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const cycle = stack.findIndex((s) => s.real === real);
    if (cycle >= 0)
      throw new PolicyError(`${at}: extends forms a cycle: ${[...stack.slice(cycle).map((s) => s.display), display].join(" → ")} (a policy cannot extend itself)`);
    if (stack.length > MAX_EXTENDS_DEPTH) throw new PolicyError(`${at}: extends is more than ${MAX_EXTENDS_DEPTH} files deep (${[...stack.map((s) => s.display), display].join(" → ")})`);
    if (++count > MAX_POLICY_FILES) throw new PolicyError(`${at}: the policy reads more than ${MAX_POLICY_FILES} files through extends`);
    let text: string;
    try {
      text = readConfigText(path);
    } catch (err) {
      throw new PolicyError(`${from ? `${at}: ` : ""}cannot read policy file ${display}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const { policy, doc } = await parsePolicyDoc(text, display);
    const bases = policy.extends === undefined ? [] : typeof policy.extends === "string" ? [policy.extends] : policy.extends;
    for (const [i, base] of bases.entries()) {
      const pointer = typeof policy.extends === "string" ? "/extends" : `/extends/${i}`;
      const here = where(doc, display, pointer, false);
      if (!/\.(ya?ml|json)$/i.test(base)) {
        // Not a policy file's name: a package (`plangate-config-strict`, `@org/plangate-config`).
        const file = packagePolicy(base, dirname(path), here);
        await visit(file, file, [...stack, { real, display }], here);
        continue;
      }
      const next = isAbsolute(base) ? base : join(dirname(display), base);
      await visit(resolve(dirname(path), base), next, [...stack, { real, display }], here);
    }
    links.push({ file: policy, folder: dirname(path), locate: (pointer) => settingPosition(doc, path, pointer) });
  };
  await visit(path, display, []);
  return links;
}

const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/**
 * The policy file of a package named by `extends` (as ESLint resolves shareable configs): the package is
 * found by Node's resolution from the policy's folder (its node_modules, then the folders above), and its
 * policy is the file its package.json names in `"plangate"` (a .yaml, .yml or .json path inside the
 * package), else its plangate.yaml.
 */
function packagePolicy(name: string, folder: string, at: string): string {
  if (!PACKAGE_NAME.test(name))
    throw new PolicyError(`${at}: extends must name a policy file (.yaml, .yml or .json) or a package (name or @scope/name), not "${name}"`);
  let manifest: string;
  try {
    manifest = createRequire(join(folder, "plangate.yaml")).resolve(`${name}/package.json`);
  } catch {
    throw new PolicyError(`${at}: extends names the package "${name}", which is not installed where this policy is (npm install --save-dev ${name})`);
  }
  const root = dirname(manifest);
  let field: unknown;
  try {
    field = (JSON.parse(readConfigText(manifest)) as { plangate?: unknown }).plangate;
  } catch (err) {
    throw new PolicyError(`${at}: the package.json of "${name}" cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (field === undefined) return join(root, "plangate.yaml");
  if (typeof field !== "string" || !/\.(ya?ml|json)$/i.test(field) || isAbsolute(field) || field.split(/[\\/]/).includes(".."))
    throw new PolicyError(`${at}: the package "${name}" names its policy as ${JSON.stringify(field)} in package.json "plangate"; it must be a .yaml, .yml or .json file inside the package`);
  return join(root, field);
}

/** The policy's JSON Schema, generated from its typebox definition and shipped in schemas/. */
export function policySchema(): Record<string, unknown> {
  return publishedSchema("policy");
}

function knownKeys(instancePath: string): string[] {
  let schema: unknown = policySchema();
  for (const token of instancePath.split("/").slice(1)) {
    const s = schema as { properties?: Record<string, unknown>; items?: unknown };
    schema = /^\d+$/.test(token) && s.items !== undefined ? s.items : s.properties?.[token];
  }
  return Object.keys((schema as { properties?: Record<string, unknown> })?.properties ?? {});
}

/** The policy's own relative paths resolve against its folder (SPEC §3). */
function inFolder(folder: string, p: string): string {
  return isAbsolute(p) ? p : resolve(folder, p);
}

/** Merges a policy file over the defaults (a file without `extends`; loadPolicy reads the bases). */
export function resolvePolicy(file: PolicyFile, folder: string, fallbackWorkspace: string, source?: string): Policy {
  return resolvePolicyChain([{ file, folder }], fallbackWorkspace, source);
}

/** Merges the files of an extends chain over the defaults, in order: later wins. */
function resolvePolicyChain(links: readonly ChainLink[], fallbackWorkspace: string, source?: string): Policy {
  const p = defaultPolicy(fallbackWorkspace);
  if (source) p.source = source;
  const overrides: PolicyOverride[] = [];
  for (const { file, folder, locate } of links) {
    // An empty commands.allow over a base's list replaces it with none: any program not denied.
    if (file.commands?.allow?.length === 0 && p.commands.allow.length > 0) {
      const at = locate?.("/commands/allow");
      throw new PolicyError(`${at ? `${at.file}:${at.line}:${at.column}` : (source ?? "policy")}: ${EMPTY_COMMANDS_ALLOW} (the base's list: ${p.commands.allow.join(", ")})`);
    }
    if (file.workspace !== undefined) p.workspace = inFolder(folder, file.workspace);
    if (file.host !== undefined) p.host = /[/\\]|\.json$/.test(file.host) ? inFolder(folder, file.host) : file.host;
    applySettings(p, file, folder);
    Object.assign(p.returns, file.returns ?? {});
    // Operations the file names replace the default's entry; the others keep their defaults.
    if (file.tasks?.operations) p.tasks.operations = { ...p.tasks.operations, ...file.tasks.operations };
    if (file.delegation) {
      Object.assign(p.delegation, file.delegation);
      if (file.delegation.registry) p.delegation.registry = inFolder(folder, file.delegation.registry);
    }
    if (file.approval) {
      Object.assign(p.approval, file.approval);
      if (file.approval.trustedKeys) p.approval.trustedKeys = inFolder(folder, file.approval.trustedKeys);
      if (file.approval.key) p.approval.key = inFolder(folder, file.approval.key);
      // Where each key was named, for the reports that refuse it (approval-key-in-workspace).
      for (const k of ["trustedKeys", "key"] as const) {
        if (!file.approval[k]) continue;
        const at = locate?.(`/approval/${k}`);
        if (at) p.settingsAt = { ...p.settingsAt, [k]: at };
        else if (p.settingsAt?.[k]) {
          const { [k]: _gone, ...others } = p.settingsAt;
          p.settingsAt = others;
        }
      }
    }
    Object.assign(p.guard, file.guard ?? {});
    if (file.guard?.free) p.guard.free = [...file.guard.free];
    if (file.guard?.stateDir) p.guard.stateDir = inFolder(folder, file.guard.stateDir);
    if (file.store !== undefined) p.store = file.store.startsWith("file:") ? `file:${inFolder(folder, file.store.slice("file:".length))}` : file.store;
    for (const o of file.overrides ?? []) {
      const own: PolicyOverride = structuredClone(o) as PolicyOverride;
      if (own.tools?.allowFile) own.tools.allowFile = inFolder(folder, own.tools.allowFile);
      if (own.tools?.registry) own.tools.registry = inFolder(folder, own.tools.registry);
      overrides.push(own);
    }
    // Each file was bounded on its own (parsePolicyDoc); a chain of files is bounded in all, overrides
    // included, as the file that takes it past a bound merges in (where that file writes the list).
    const bound = policyBoundProblem({ ...p, overrides });
    if (bound !== undefined) {
      const list = bound.pointer.replace(/\/\d+$/, "");
      const at = locate?.(bound.pointer) ?? locate?.(list) ?? locate?.(list.replace(/^\/overrides\/\d+/, "/overrides")) ?? locate?.("");
      throw new PolicyError(`${at ? `${at.file}:${at.line}:${at.column}` : (source ?? "policy")}: ${bound.message}`);
    }
  }
  // Only when there are some: the identity of a policy without overrides stays what it was.
  if (overrides.length > 0) p.overrides = overrides;
  return p;
}

/**
 * The settings a plan file is judged by (what an override may set too), merged over `p` as every key
 * merges over the defaults: the tool allow list, allowFile and registry are replaced; the deny lists (of
 * tools and of commands), the write and read lists, protected paths and path arguments are unions; the
 * other keys replace one by one.
 */
function applySettings(p: Policy, file: Omit<PolicyOverride, "files">, folder: string): void {
  const union = (a: string[], b: string[] | undefined) => (b ? [...new Set([...a, ...b])] : a);
  if (file.tools) {
    if (file.tools.allow) p.tools.allow = [...file.tools.allow];
    if (file.tools.allowFile) p.tools.allowFile = inFolder(folder, file.tools.allowFile);
    if (file.tools.registry) p.tools.registry = inFolder(folder, file.tools.registry);
    p.tools.deny = union(p.tools.deny, file.tools.deny);
    p.tools.write = union(p.tools.write, file.tools.write);
    p.tools.read = union(p.tools.read ?? [], file.tools.read);
  }
  if (file.paths) {
    p.paths.protected = union(p.paths.protected, withContents(file.paths.protected));
    // Default globs the file lets writers touch: removed after its own globs are added (later files and
    // overrides may protect them again).
    const unprotect = file.paths.unprotect;
    if (unprotect?.length) p.paths.protected = p.paths.protected.filter((g) => !unprotect.includes(g));
    p.paths.arguments = union(p.paths.arguments, file.paths.arguments);
  }
  Object.assign(p.plan, file.plan ?? {});
  Object.assign(p.markdown, file.markdown ?? {});
  if (file.commands) {
    // installOutside and inlineCode are kept only when some file names them: a policy without them keeps its identity (resolvedPolicyHash).
    const installOutside = file.commands.installOutside ?? p.commands.installOutside;
    const inlineCode = file.commands.inlineCode ?? p.commands.inlineCode;
    const writtenCode = file.commands.writtenCode ?? p.commands.writtenCode;
    // deny is a union, as tools.deny: an override or a file over a base that denies one more program must not
    // let the ones denied before run again.
    p.commands = { allow: file.commands.allow ?? p.commands.allow, deny: union(p.commands.deny, file.commands.deny), allowCompound: file.commands.allowCompound ?? p.commands.allowCompound };
    if (installOutside !== undefined) p.commands.installOutside = installOutside;
    if (inlineCode !== undefined) p.commands.inlineCode = inlineCode;
    if (writtenCode !== undefined) p.commands.writtenCode = writtenCode;
  }
  Object.assign(p.yaml, file.yaml ?? {});
  Object.assign(p.limits, file.limits ?? {});
  p.rules = { ...p.rules, ...(file.rules ?? {}) } as Policy["rules"];
}

/** The folder `overrides` globs are matched from: the policy file's, else the workspace. */
function policyFolder(policy: Policy): string {
  return policy.source !== undefined ? dirname(policy.source) : policy.workspace;
}

/**
 * Why an `overrides` glob would match no plan file though it reads as if it named some, or undefined. An
 * override that tightens the policy for some plans (`files: ["plans/prod/"]`, `tools.allow: [read_file]`)
 * and matches nothing leaves those plans under the looser policy, silently: such a glob is refused.
 */
function overrideGlobMisses(g: string, folder: string): string | undefined {
  if (g !== g.trim()) return "begins or ends with white space, which a file's path does not: remove it";
  if (g.includes("\\")) return 'holds a backslash, which escapes the next character in a glob (it is no folder separator): write "/" between folders';
  if (g.endsWith("/")) return `ends with "/", so it matches no file: write "${g}**" for the files in that folder`;
  const segments = g.split("/");
  if (segments.some((x, k) => x === "" || (x === "." && k > 0))) return 'has an empty or "." folder name ("//", "/./"), which a file\'s path does not: write each folder once';
  if (globBacktracks(g)) {
    const linear = pathGlobMatcher(g);
    if ("error" in linear)
      return `has two or more brace groups, nested braces, an extglob or several runs of unknown length (* or **), so it is matched in linear time, which it cannot be: ${linear.error} (write it with *, **, ?, [a-z] and {a,b}, or list simpler globs)`;
  }
  if (!picomatch.scan(g).isGlob) {
    let folderNamed = false;
    try {
      folderNamed = statSync(resolve(folder, g)).isDirectory();
    } catch {
      // Not there (yet): a plan file of that name.
    }
    if (folderNamed) return `names a folder, which no plan file is: write "${g}/**" for the files in it`;
  }
  return undefined;
}

const outsideFolder = (rel: string) => rel === "" || rel === ".." || rel.startsWith("../") || isAbsolute(rel);

/**
 * The overrides entries whose globs match a plan file (its path relative to the policy's folder), in order.
 * A plan named by a path outside the policy's folder as written (through a link: a checkout's other name)
 * is placed by the real paths of both, so that another spelling of the same file escapes no override.
 */
export function matchingOverrides(policy: Policy, planPath: string): PolicyOverride[] {
  if (!policy.overrides?.length || planPath === "-") return [];
  const folder = policyFolder(policy);
  let rel = relative(folder, resolve(planPath)).split(sep).join("/");
  if (outsideFolder(rel)) {
    try {
      rel = relative(realpathSync(folder), realpathSync(resolve(planPath))).split(sep).join("/");
    } catch {
      return [];
    }
    if (outsideFolder(rel)) return [];
  }
  return policy.overrides.filter((o) => overrideMatcher(o)(rel));
}

/**
 * Each override's `files` globs compiled once (not once per plan file: 256 overrides for each of 100 files).
 * A glob picomatch's expression could backtrack on for long (globBacktracks: `{a,a}` 28 times took 4.7 s
 * on a plan file's name) is matched by RE2; one RE2 cannot read (refused when a policy file loads) matches
 * nothing.
 */
const overrideMatchers = new WeakMap<PolicyOverride, (path: string) => boolean>();
function overrideMatcher(o: PolicyOverride): (path: string) => boolean {
  let m = overrideMatchers.get(o);
  if (m === undefined) {
    const plain = o.files.filter((g) => !globBacktracks(g));
    const fast = plain.length > 0 ? picomatch(plain, { dot: true }) : () => false;
    const linear = o.files.filter(globBacktracks).map((g) => pathGlobMatcher(g));
    const heavy = linear.flatMap((x) => ("error" in x ? [] : [x]));
    m = heavy.length === 0 ? fast : (path: string) => fast(path) || heavy.some((x) => x.test(path));
    overrideMatchers.set(o, m);
  }
  return m;
}

/** The policies policyForFile made from a policy, by the overrides applied (their places in its list). */
const forFiles = new WeakMap<Policy, Map<string, Policy>>();

/**
 * The policy a plan file is judged by: the policy with its matching `overrides` applied in order (later
 * wins). The policy itself when none matches; otherwise a copy, without `overrides`, made once for the
 * files the same overrides match (merging 256 overrides' lists for each of 100 plan files took 2.6 s, and
 * each copy compiled its globs again): it is shared, so not to be changed.
 */
export function policyForFile(policy: Policy, planPath: string): Policy {
  const matching = matchingOverrides(policy, planPath);
  if (matching.length === 0) return policy;
  const key = matching.map((o) => policy.overrides!.indexOf(o)).join(",");
  let made = forFiles.get(policy);
  const hit = made?.get(key);
  if (hit !== undefined) return hit;
  const { overrides: _o, ...rest } = policy;
  const p = structuredClone(rest) as Policy;
  for (const { files: _f, ...settings } of matching) applySettings(p, settings, policyFolder(policy));
  if (made === undefined) forFiles.set(policy, (made = new Map()));
  if (made.size < 1024) made.set(key, p);
  return p;
}

/** Do the overrides matching this file change the tools (so the registry must be read again)? */
export function overridesTools(policy: Policy, planPath: string): boolean {
  return matchingOverrides(policy, planPath).some((o) => o.tools?.allow !== undefined || o.tools?.allowFile !== undefined || o.tools?.registry !== undefined);
}

/** The tools a policy names: allow list, whitelist file and MCP registry, merged. */
export function policyTools(policy: Policy, cwd?: string): ToolRegistry | undefined {
  // Messages name the files as the user would type them: relative to the working directory when inside it.
  const shown = (p: string) => {
    if (cwd === undefined) return p;
    const r = relative(cwd, p);
    return r !== "" && !r.startsWith("..") && !isAbsolute(r) ? r : p;
  };
  const regs: ToolRegistry[] = [];
  if (policy.tools.allow.length > 0) regs.push(registryFromNames(policy.tools.allow, ALLOW_SOURCE));
  try {
    if (policy.tools.allowFile) regs.push(loadToolsFile(policy.tools.allowFile, shown(policy.tools.allowFile)));
    if (policy.tools.registry) regs.push(loadToolsFile(policy.tools.registry, shown(policy.tools.registry)));
    const merged = mergeRegistries(regs);
    // Each file is bounded on its own (tools-file.ts); together with tools.allow, in all.
    const over = merged === undefined ? undefined : registryBoundProblem(merged.names.size, merged.patterns.length);
    if (over !== undefined) throw new ToolsFileError(`tools.allow, tools.allowFile and tools.registry together: ${over}`);
    return merged;
  } catch (err) {
    if (err instanceof ToolsFileError) throw new PolicyError(`${policy.source ?? "policy"}: ${err.message}`);
    throw err;
  }
}

/**
 * The workspace must be a folder here: where it is not, no symbolic link in it can be followed, so every
 * path would pass as written while an executor in the real folder follows links out of it (a mistyped
 * `workspace:` fails open). A link to a folder is a folder; a dangling one is missing. With `files`, the
 * file system the rules are given is asked instead of the real one. Throws PolicyError naming where the
 * workspace came from.
 */
export function assertWorkspace(workspace: string, from: string, files?: FileProbe): void {
  let isFolder: boolean;
  let missing = false;
  if (files !== undefined) {
    const real = workspace === "" ? undefined : files.realpath(workspace);
    missing = real === undefined;
    isFolder = real !== undefined && files.kind(real) === "dir";
  } else {
    try {
      isFolder = statSync(workspace).isDirectory();
    } catch {
      isFolder = false;
      missing = true;
    }
  }
  if (!isFolder) throw new PolicyError(`${from}: the workspace ${workspace} is not a folder (${missing ? "it does not exist" : "it is a file or another kind of entry"}); no path in it could be checked`);
}

/**
 * Loads the policy: the given file, else the first policy file found walking up from `cwd` (no higher
 * than the project root), else the embedded defaults; `file: false` means the defaults. Throws
 * PolicyError for an unreadable, invalid or ambiguous file.
 */
export async function loadPolicy(options: { file?: string | false; cwd: string; workspace?: string; workspaceFrom?: string }): Promise<LoadedPolicy> {
  // How a workspace that is not a folder is named: the CLI's flag, or the library's option.
  const given = options.workspaceFrom ?? "--workspace";
  const file = options.file === false ? undefined : options.file !== undefined ? resolve(options.cwd, options.file) : discoverPolicy(options.cwd);
  const fallbackWorkspace = options.workspace !== undefined ? resolve(options.cwd, options.workspace) : options.cwd;
  if (file === undefined) {
    const policy = defaultPolicy(fallbackWorkspace);
    assertWorkspace(policy.workspace, options.workspace !== undefined ? given : "the working directory");
    return { policy, tools: undefined, hash: resolvedPolicyHash(policy) };
  }
  const display = options.file || file;
  const links = await readPolicyChain(file, display);
  const policy = resolvePolicyChain(links, fallbackWorkspace, file);
  if (options.workspace !== undefined) policy.workspace = resolve(options.cwd, options.workspace);
  assertWorkspace(policy.workspace, options.workspace !== undefined ? given : display);
  let host: HostProfile = GENERIC;
  try {
    if (policy.host !== undefined) host = await loadHostProfile(policy.host, dirname(file));
  } catch (err) {
    if (err instanceof HostProfileError) throw new PolicyError(`${display}: host: ${err.message}`);
    throw err;
  }
  if (!policy.approval.singleUse && policy.approval.ttl === undefined) {
    const at = [...links].reverse().find((l) => l.file.approval?.singleUse !== undefined)?.locate?.("/approval/singleUse");
    throw new PolicyError(`${at ? `${at.file}:${at.line}:${at.column}` : display}: ${REUSABLE_FOR_EVER}`);
  }
  const tools = policyTools(policy, options.cwd);
  const free = freeToolsProblem(policy.guard.free, host, policy, tools);
  if (free !== undefined) {
    // guard.free is replaced by the last file that sets it: the entry is named where that file wrote it.
    const at = [...links].reverse().find((l) => l.file.guard?.free !== undefined)?.locate?.(`/guard/free/${free.index}`);
    throw new PolicyError(`${at ? `${at.file}:${at.line}:${at.column}` : display}: guard.free: ${free.why}`);
  }
  return { policy, tools, hash: resolvedPolicyHash(policy, host) };
}
