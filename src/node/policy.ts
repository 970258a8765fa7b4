import { existsSync, statSync } from "node:fs";
import { readConfigText } from "./read-bounded.js";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import { GENERIC, type HostProfile, HostProfileError, loadProfile, profileHash } from "../host/profile.js";
import { ALLOW_SOURCE, closest, registryFromNames, type ToolRegistry } from "../core/tools.js";
import { defaultPolicy, STRUCTURAL_RULES } from "../policy/defaults.js";
import { schemaErrors } from "../core/mini-schema.js";
import { publishedSchema } from "./published-schema.js";
import type { PolicyFile } from "../policy/schema.js";
import type { Policy } from "../policy/types.js";
import { RULES } from "../rules/index.js";
import { parseJson } from "../syntax/json.js";
import { loadToolsFile, mergeRegistries, ToolsFileError } from "./tools-file.js";
import type { SourceDocument } from "../core/document.js";

/**
 * The identity of the policy in force: the resolved policy (the defaults merged with the file, so a
 * change of the defaults or of a base policy changes it too) and the host profile (name and hash, so
 * loosening the profile changes it). The workspace and the file's location are left out: the approval's
 * scope binds the workspace, and a policy read from another path is the same policy.
 */
export function resolvedPolicyHash(policy: Policy, host: HostProfile = GENERIC): string {
  const { workspace: _w, source: _s, host: _h, ...rest } = policy;
  return "sha256:" + sha256Hex(canonicalJson({ policy: rest, host: { name: host.name, hash: profileHash(host) } }));
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
    if (found.length === 1) return found[0];
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

/** Reads and checks a policy file's text; throws PolicyError with the position of the first fault. */
export async function parsePolicyText(text: string, file: string): Promise<PolicyFile> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Only plangate reads its policy file, so no other YAML reader has to agree with it.
  const doc = file.endsWith(".json") ? parseJson(body) : (await import("../syntax/yaml.js")).parseYaml(body, { executor: "yaml-1.2" });
  const issue = doc.issues[0];
  if (issue) {
    const pos = doc.lines.position(issue.start);
    throw new PolicyError(`${file}:${pos.line}:${pos.column}: ${issue.message}${issue.hint ? ` (${issue.hint})` : ""}`);
  }
  const value = doc.value === null ? {} : doc.value;
  const errors = schemaErrors(policySchema(), value);
  if (errors.length > 0) {
    const e = errors[0]!;
    if (e.keyword === "additionalProperties") {
      const extra = e.params.additionalProperty as string;
      const at = `${e.instancePath}/${extra.replace(/~/g, "~0").replace(/\//g, "~1")}`;
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
  for (const id of Object.keys(policy.rules ?? {})) {
    if (RULES.find((r) => r.meta.id === id)?.meta.phase === "approval")
      throw new PolicyError(`${where(doc, file, `/rules/${id}`)}: the severity of "${id}" cannot be changed: approval checks always apply`);
    if (STRUCTURAL_RULES.has(id) && policy.rules?.[id] !== "error")
      throw new PolicyError(
        `${where(doc, file, `/rules/${id}`)}: "${id}" cannot be set to ${JSON.stringify(policy.rules?.[id])}: without it a plan that cannot be read unambiguously would pass (it is always an error)`,
      );
    if (!RULES.some((r) => r.meta.id === id)) {
      const near = closest(id, RULES.map((r) => r.meta.id));
      throw new PolicyError(`${where(doc, file, `/rules/${id}`)}: unknown rule "${id}"${near ? `; did you mean "${near}"?` : ""} (run \`plangate rules\`)`);
    }
  }
  return policy;
}

/** The policy's JSON Schema, generated from its typebox definition and shipped in schemas/. */
export function policySchema(): Record<string, unknown> {
  return publishedSchema("policy");
}

function knownKeys(instancePath: string): string[] {
  let schema: unknown = policySchema();
  for (const token of instancePath.split("/").slice(1)) {
    schema = (schema as { properties?: Record<string, unknown> }).properties?.[token];
  }
  return Object.keys((schema as { properties?: Record<string, unknown> })?.properties ?? {});
}

/** The policy's own relative paths resolve against its folder (SPEC §3). */
function inFolder(folder: string, p: string): string {
  return isAbsolute(p) ? p : resolve(folder, p);
}

/** Merges a policy file over the defaults. */
export function resolvePolicy(file: PolicyFile, folder: string, fallbackWorkspace: string, source?: string): Policy {
  const base = defaultPolicy(file.workspace !== undefined ? inFolder(folder, file.workspace) : fallbackWorkspace);
  const p: Policy = base;
  if (source) p.source = source;
  if (file.host !== undefined) p.host = /[/\\]|\.json$/.test(file.host) ? inFolder(folder, file.host) : file.host;
  const union = (a: string[], b: string[] | undefined) => (b ? [...new Set([...a, ...b])] : a);
  if (file.tools) {
    p.tools.allow = file.tools.allow ?? [];
    if (file.tools.allowFile) p.tools.allowFile = inFolder(folder, file.tools.allowFile);
    if (file.tools.registry) p.tools.registry = inFolder(folder, file.tools.registry);
    p.tools.deny = union(p.tools.deny, file.tools.deny);
    p.tools.write = union(p.tools.write, file.tools.write);
    p.tools.read = union(p.tools.read ?? [], file.tools.read);
  }
  if (file.paths) {
    p.paths.protected = union(p.paths.protected, file.paths.protected);
    p.paths.arguments = union(p.paths.arguments, file.paths.arguments);
  }
  Object.assign(p.plan, file.plan ?? {});
  Object.assign(p.markdown, file.markdown ?? {});
  if (file.commands) p.commands = { allow: file.commands.allow ?? [], deny: file.commands.deny ?? [], allowCompound: file.commands.allowCompound ?? false };
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
  }
  Object.assign(p.guard, file.guard ?? {});
  if (file.guard?.free) p.guard.free = [...file.guard.free];
  if (file.guard?.stateDir) p.guard.stateDir = inFolder(folder, file.guard.stateDir);
  if (file.store !== undefined) p.store = file.store.startsWith("file:") ? `file:${inFolder(folder, file.store.slice("file:".length))}` : file.store;
  Object.assign(p.yaml, file.yaml ?? {});
  Object.assign(p.limits, file.limits ?? {});
  p.rules = { ...(file.rules ?? {}) } as Policy["rules"];
  return p;
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
    return mergeRegistries(regs);
  } catch (err) {
    if (err instanceof ToolsFileError) throw new PolicyError(`${policy.source ?? "policy"}: ${err.message}`);
    throw err;
  }
}

/**
 * Loads the policy: the given file, else the first policy file found walking up from `cwd` (no higher
 * than the project root), else the embedded defaults; `file: false` means the defaults. Throws
 * PolicyError for an unreadable, invalid or ambiguous file.
 */
export async function loadPolicy(options: { file?: string | false; cwd: string; workspace?: string }): Promise<LoadedPolicy> {
  const file = options.file === false ? undefined : options.file !== undefined ? resolve(options.cwd, options.file) : discoverPolicy(options.cwd);
  const fallbackWorkspace = options.workspace !== undefined ? resolve(options.cwd, options.workspace) : options.cwd;
  if (file === undefined) {
    const policy = defaultPolicy(fallbackWorkspace);
    return { policy, tools: undefined, hash: resolvedPolicyHash(policy) };
  }
  let text: string;
  try {
    text = readConfigText(file);
  } catch (err) {
    throw new PolicyError(`cannot read policy file ${options.file || file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const display = options.file || file;
  const parsed = await parsePolicyText(text, display);
  const policy = resolvePolicy(parsed, dirname(file), fallbackWorkspace, file);
  if (options.workspace !== undefined) policy.workspace = resolve(options.cwd, options.workspace);
  let host: HostProfile = GENERIC;
  try {
    if (policy.host !== undefined) host = loadProfile(policy.host, dirname(file));
  } catch (err) {
    if (err instanceof HostProfileError) throw new PolicyError(`${display}: host: ${err.message}`);
    throw err;
  }
  return { policy, tools: policyTools(policy, options.cwd), hash: resolvedPolicyHash(policy, host) };
}
