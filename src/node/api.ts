import { dirname, resolve } from "node:path";
import { closest, registryFromNames, type ToolRegistry } from "../core/tools.js";
import { DIALECT_IDS } from "../core/plan.js";
import { typeName } from "../core/type-name.js";
import type { Policy } from "../core/policy.js";
import type { PlanReport } from "../core/plan-report.js";
import type { ValidateOptions } from "../engine.js";
import { validatePlan as validatePlanInternal } from "./validate-plan.js";
import { assertWorkspace, type LoadedPolicy, loadPolicy as loadPolicyInternal, overridesTools, policyForFile, policyTools } from "./policy.js";
import { validateFile as validateFileInternal } from "./validate-file.js";
import { policyBoundProblem } from "../policy/bounds.js";

/*
 * The library's entry points, as users call them: arguments are checked at run time (a wrong one is a
 * TypeError naming the option and the type it takes, never a crash inside plangate or a diagnostic that
 * blames the plan), and the policy is found as the CLI finds it.
 */

/** Validation options as the library takes them: `policy` may be what `loadPolicy` returns, `tools` a list of names. */
export type LibraryValidateOptions = Omit<ValidateOptions, "policy" | "tools"> & {
  policy?: Policy | LoadedPolicy;
  tools?: ToolRegistry | readonly string[];
};

/** Where `loadPolicy` looks: a policy file, or the folder to discover one from (default: the working directory). */
export interface LoadPolicyOptions {
  /** A policy file; `false`: the built-in defaults, no file. */
  file?: string | false;
  /** The folder discovery starts from, and relative paths resolve against (default: `process.cwd()`). */
  cwd?: string;
  /** The workspace root; wins over the policy's. */
  workspace?: string;
}

function describe(v: unknown): string {
  return v === null || typeof v === "object" ? typeName(v) : `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`;
}

function typeError(where: string, name: string, expected: string, got: unknown): TypeError {
  return new TypeError(`${where}: option "${name}" must be ${expected}, not ${describe(got)}`);
}

function checkKeys(where: string, o: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (!known.includes(k)) {
      const near = closest(k, new Set(known));
      throw new TypeError(`${where}: unknown option "${k}"${near ? `; did you mean "${near}"?` : ""} (options: ${known.join(", ")})`);
    }
  }
}

/**
 * Loads the policy as the CLI does: `loadPolicy()` discovers it from the working directory,
 * `loadPolicy("plangate.yaml")` reads that file, `loadPolicy({ file, cwd, workspace })` both. Throws
 * PolicyError for a policy that cannot be used (its message has file:line:column).
 */
export async function loadPolicy(arg?: string | LoadPolicyOptions): Promise<LoadedPolicy> {
  const where = "loadPolicy";
  if (arg === undefined) return loadPolicyInternal({ cwd: process.cwd() });
  if (typeof arg === "string") {
    if (arg === "") throw new TypeError(`${where}: the policy file name is empty`);
    return loadPolicyInternal({ file: arg, cwd: process.cwd() });
  }
  if (arg === null || typeof arg !== "object" || Array.isArray(arg)) throw new TypeError(`${where}: takes a policy file name or { file?, cwd?, workspace? }, not ${describe(arg)}`);
  checkKeys(where, arg as Record<string, unknown>, ["file", "cwd", "workspace"]);
  if (arg.file !== undefined && arg.file !== false && typeof arg.file !== "string") throw typeError(where, "file", "a string or false", arg.file);
  if (arg.cwd !== undefined && typeof arg.cwd !== "string") throw typeError(where, "cwd", "a string", arg.cwd);
  if (arg.workspace !== undefined && typeof arg.workspace !== "string") throw typeError(where, "workspace", "a string", arg.workspace);
  const opts: { file?: string | false; cwd: string; workspace?: string; workspaceFrom?: string } = { cwd: resolve(arg.cwd ?? process.cwd()) };
  if (arg.file !== undefined) opts.file = arg.file;
  if (arg.workspace !== undefined) opts.workspace = arg.workspace;
  opts.workspaceFrom = `${where}: option "workspace"`;
  return loadPolicyInternal(opts);
}

/** What `loadPolicy` returns, told apart from validation options by its members. */
function isLoadedPolicy(v: unknown): v is LoadedPolicy {
  if (v === null || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  return typeof o.hash === "string" && o.policy !== null && typeof o.policy === "object" && typeof (o.policy as { workspace?: unknown }).workspace === "string";
}

const OPTION_KEYS = ["file", "syntax", "dialect", "policy", "workspace", "tools", "context", "expectedHash", "maxAgeDays", "failFast", "now", "files"] as const;

/**
 * Checks validation options and puts them in the engine's shape: `tools` may be a list of names, and
 * `policy` may be what `loadPolicy` returns (its tools come with it).
 */
export function checkValidateOptions(where: string, options: unknown): ValidateOptions {
  if (options === undefined) return {};
  if (isLoadedPolicy(options)) return options.tools ? { policy: options.policy, tools: options.tools } : { policy: options.policy };
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw new TypeError(`${where}: options must be an object (or what loadPolicy returns), not ${describe(options)}`);
  const o = { ...(options as Record<string, unknown>) };
  checkKeys(where, o, OPTION_KEYS as unknown as string[]);
  const str = (k: string) => {
    if (o[k] !== undefined && typeof o[k] !== "string") throw typeError(where, k, "a string", o[k]);
  };
  str("file");
  str("workspace");
  str("expectedHash");
  if (o.syntax !== undefined && !["json", "yaml", "markdown"].includes(o.syntax as string)) throw typeError(where, "syntax", '"json", "yaml" or "markdown"', o.syntax);
  if (o.dialect !== undefined && !(DIALECT_IDS as readonly unknown[]).includes(o.dialect)) throw typeError(where, "dialect", `one of ${DIALECT_IDS.join(", ")}`, o.dialect);
  if (o.policy !== undefined) {
    if (isLoadedPolicy(o.policy)) {
      const loaded = o.policy;
      o.policy = loaded.policy;
      if (o.tools === undefined && loaded.tools) o.tools = loaded.tools;
    } else {
      const p = o.policy as Record<string, unknown> | null;
      if (p === null || typeof p !== "object" || typeof p.workspace !== "string" || typeof p.limits !== "object" || typeof p.rules !== "object")
        throw typeError(where, "policy", "a Policy (loadPolicy(...).policy, or defaultPolicy(workspace)) or what loadPolicy returns", o.policy);
    }
  }
  if (o.tools !== undefined) {
    if (Array.isArray(o.tools)) {
      if (!o.tools.every((t) => typeof t === "string")) throw typeError(where, "tools", "a list of tool names or a ToolRegistry", o.tools);
      o.tools = registryFromNames(o.tools as string[], "the tools option");
    } else {
      const t = o.tools as Partial<ToolRegistry> | null;
      if (t === null || typeof t !== "object" || !(t.names instanceof Set) || !Array.isArray(t.patterns) || !(t.schemas instanceof Map))
        throw typeError(where, "tools", "a list of tool names or a ToolRegistry (loadToolsFile, parseToolsText)", o.tools);
    }
  }
  if (o.context !== undefined && !(Array.isArray(o.context) && o.context.every((x) => typeof x === "string"))) throw typeError(where, "context", "a list of paths (strings)", o.context);
  if (o.maxAgeDays !== undefined && !(typeof o.maxAgeDays === "number" && Number.isFinite(o.maxAgeDays) && o.maxAgeDays >= 0)) throw typeError(where, "maxAgeDays", "a number ≥ 0", o.maxAgeDays);
  if (o.failFast !== undefined && typeof o.failFast !== "boolean") throw typeError(where, "failFast", "a boolean", o.failFast);
  if (o.now !== undefined && !(o.now instanceof Date && !Number.isNaN(o.now.getTime())) && typeof o.now !== "function") throw typeError(where, "now", "a valid Date or a function returning one", o.now);
  if (o.files !== undefined && (o.files === null || typeof o.files !== "object")) throw typeError(where, "files", "a FileProbe", o.files);
  return o as ValidateOptions;
}

/**
 * The workspace a validation is given (the `workspace` option, else the policy's) must be a folder, as the
 * CLI requires: where it is not, no symbolic link in it can be followed and every path would pass as
 * written. Throws PolicyError naming the option or the policy. Without either, nothing is checked here:
 * validatePlan's defaults judge paths from `/`, and validateFile's policy is loaded, and checked, as the CLI's.
 */
function checkWorkspace(where: string, opts: ValidateOptions): void {
  const ws = opts.workspace ?? opts.policy?.workspace;
  if (ws === undefined) return;
  const from = opts.workspace !== undefined ? `${where}: option "workspace"` : `${where}: the policy's workspace${opts.policy?.source ? ` (${opts.policy.source})` : ""}`;
  assertWorkspace(ws, from, opts.files);
}

/**
 * Validates a plan's text or bytes. Options are checked at run time (TypeError naming the option);
 * `policy` may be what `loadPolicy` returns. No policy is looked for: the built-in defaults apply unless
 * one is given (use `validateFile` for the CLI's discovery).
 */
export function validatePlan(input: string | Uint8Array, options?: LibraryValidateOptions | LoadedPolicy): Promise<PlanReport> {
  if (typeof input !== "string" && !(input instanceof Uint8Array)) return Promise.reject(new TypeError(`validatePlan: the plan must be a string or a Uint8Array, not ${describe(input)}`));
  try {
    const opts = checkValidateOptions("validatePlan", options);
    checkWorkspace("validatePlan", opts);
    return validatePlanInternal(input, opts);
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * Reads and validates a plan file, as `plangate validate FILE` does: without a `policy`, the policy is
 * found from the file's folder (walking up, stopping at a repository root; else from the working
 * directory), with its tools, so the
 * library and the CLI give the same verdict. `validateFile(path, await loadPolicy())` also works.
 */
export async function validateFile(path: string, options?: LibraryValidateOptions | LoadedPolicy): Promise<PlanReport> {
  if (typeof path !== "string" || path === "") throw new TypeError(`validateFile: the path must be a non-empty string, not ${describe(path)}`);
  const opts = checkValidateOptions("validateFile", options);
  // Tools the caller gave win over an override's (as --tools does); tools that came with a LoadedPolicy do not.
  const toolsGiven = options !== undefined && !isLoadedPolicy(options) && (options as LibraryValidateOptions).tools !== undefined;
  if (opts.policy === undefined) {
    const ws = opts.workspace === undefined ? {} : { workspace: opts.workspace, workspaceFrom: `validateFile: option "workspace"` };
    let loaded = await loadPolicyInternal({ cwd: dirname(resolve(path)), ...ws });
    // No policy above the file: the one found from the working directory, as the CLI does.
    if (loaded.policy.source === undefined) loaded = await loadPolicyInternal({ cwd: process.cwd(), ...ws });
    if (loaded.policy.source !== undefined) {
      opts.policy = loaded.policy;
      if (opts.tools === undefined && loaded.tools) opts.tools = loaded.tools;
    }
  }
  // The policy's overrides that match this file (ESLint's overrides), as the CLI applies them. A policy
  // built in code past its bounds (a file's is refused when it loads) is left as it is: the validation
  // refuses it (limit-exceeded) before matching thousands of overrides' globs.
  if (opts.policy?.overrides?.length && policyBoundProblem(opts.policy) === undefined) {
    const own = policyForFile(opts.policy, path);
    if (own !== opts.policy) {
      if (overridesTools(opts.policy, path) && !toolsGiven) opts.tools = policyTools(own) ?? opts.tools;
      opts.policy = own;
    }
  }
  checkWorkspace("validateFile", opts);
  return validateFileInternal(path, opts);
}
