import type { RuleSetting } from "./diagnostic.js";

/**
 * The values a plan may hold by default (limits.maxValues), in any syntax: each value is read, walked by
 * several rules, resolved when it may be a path and hashed, some 5 to 7 microseconds and 400 to 600 bytes
 * in all. A plan of a million small values (an object of a million keys in 10 MB of JSON, or a 1 MiB YAML
 * file whose aliases expand to as many) took 2 to 7 s and 350 to 610 MB; this bound keeps it near a second.
 * Real plans hold a few thousand values (a 2,000-step plan some 10,000 to 20,000).
 */
export const DEFAULT_MAX_VALUES = 250_000;

/** Limits that keep hostile input from exhausting memory or time. */
export interface Limits {
  maxFileBytes: number;
  maxDepth: number;
  maxSteps: number;
  /** Longest string value or key, in UTF-16 code units. */
  maxStringLength: number;
  /** Largest YAML document: YAML costs ~100x JSON to read, so it gets a tighter bound than maxFileBytes. */
  maxYamlBytes: number;
  /** Most values (objects, lists, strings, numbers, booleans, nulls) a JSON or YAML document may hold (aliases expanded). */
  maxValues: number;
}

/** One `overrides` entry: the globs it applies to and the settings it changes (a policy file's keys, paths absolute). */
export interface PolicyOverride {
  files: string[];
  tools?: { allow?: string[]; allowFile?: string; registry?: string; deny?: string[]; write?: string[]; read?: string[] };
  paths?: { protected?: string[]; unprotect?: string[]; arguments?: string[] };
  plan?: Partial<Policy["plan"]>;
  markdown?: Partial<Policy["markdown"]>;
  commands?: Partial<Policy["commands"]>;
  yaml?: Partial<Policy["yaml"]>;
  limits?: Partial<Limits>;
  rules?: Record<string, RuleSetting>;
}

/** A policy with every field filled in (defaults merged, paths absolute). */
export interface Policy {
  /** Absolute workspace root. */
  workspace: string;
  /** The host profile: a name, or an absolute profile file path; absent: generic. */
  host?: string;
  /** The shared store: `file:DIR` (absolute) or a `postgres://` URL (src/store). */
  store?: string;
  tools: {
    allow: string[];
    allowFile?: string;
    registry?: string;
    deny: string[];
    write: string[];
    /** Tools known to only read; a tool neither here nor known to read by its registry is taken as a writer. */
    read?: string[];
  };
  paths: { protected: string[]; arguments: string[] };
  /**
   * `constraints`: may intake and iKOMA arguments be constraint objects (`{"$glob": …}`, `$regex`, `$enum`,
   * `$schema`, `$any`)? `refuse` (the default) keeps SPEC's "no inferred arguments". `allowOpenArguments`:
   * may a constraint leave a write tool's path or a command open (`$any`, `$schema`)?
   */
  plan: { maxAgeDays: number; requireChecksum: boolean; allowConditionals: boolean; constraints: "allow" | "refuse"; allowOpenArguments: boolean };
  markdown: { requireSeparators: boolean };
  /**
   * Programs shell commands may run: an entry is a program or a program and its first arguments
   * (`git push`); deny wins; an empty allow list allows any program not denied. `allowCompound` lets an
   * intake or scQC command chain or nest commands (each program is still checked). `installOutside`: the
   * package managers that may install, or change their settings, outside the workspace (`cargo`, `npm`).
   * `inlineCode`: the interpreters whose code a command may give on its line or standard input (`python`).
   * `writtenCode`: the languages whose code the plan writes may then be run or loaded by a program.
   */
  commands: { allow: string[]; deny: string[]; allowCompound: boolean; installOutside?: string[]; inlineCode?: string[]; writtenCode?: string[] };
  returns: {
    statuses: string[];
    successStatuses: string[];
    maxSummaryTokens: number;
    encoding: string;
    /** Fields a return must have; dotted paths reach into objects (`metadata.session_id`). */
    requiredFields: string[];
    /** When set, every artifact must be an object with these fields (not a bare path). */
    artifactFields?: string[];
  };
  /** Operation name → task statuses that allow it. */
  tasks: { operations: Record<string, string[]> };
  delegation: { maxDepth: number; registry?: string; sessionTtlSeconds: number };
  approval: {
    ttl?: string;
    singleUse: boolean;
    trustedKeys?: string;
    /**
     * What happens when the person accepts a plan in Claude Code's plan mode (PostToolUse on ExitPlanMode):
     * `pending` (the default) records it for `plangate approve`; `sign-and-start` signs it with `key` and
     * starts the run at once.
     */
    onPlanAccepted: "sign-and-start" | "pending";
    /** Absolute path of the local approver's Ed25519 private key (outside every workspace). */
    key?: string;
    /**
     * Accept approval records that say no lifetime (neither `expires_at` nor `no_expiry`: made before
     * records had to say one), which never expire. Default: refused (`approval-expired`). Left out of the
     * policy hash: setting it must not invalidate the very approvals it is there to accept.
     */
    acceptMissingExpiry?: boolean;
  };
  /**
   * The PreToolUse hook: the largest input it reads from standard input (more is blocked); what a
   * session with no run may do (`noRun`); tools that need no step (`free`, still path-checked and
   * audited); where runs, audit trails and consumed approvals live (`stateDir`).
   */
  guard: { maxInputBytes: number; noRun: "block" | "allow-free" | "ask"; free: string[]; stateDir?: string };
  /**
   * The parser the executor reads YAML plans with: `pyyaml` (PyYAML's safe loader, YAML 1.1) refuses
   * every scalar the two read differently; `yaml-1.2` turns the YAML 1.1 refusals off.
   */
  yaml: { executor: "pyyaml" | "go-yaml-v2" | "yaml-1.2" };
  limits: Limits;
  rules: Record<string, RuleSetting>;
  /**
   * `overrides` of the policy file and its bases, in order, their paths absolute: applied per plan file
   * by `policyForFile` (absent when there are none, so the identity of a policy without any is unchanged).
   */
  overrides?: PolicyOverride[];
  /** The file the policy was read from, if any. */
  source?: string;
  /**
   * Where the policy files wrote the approval keys (`approval.trustedKeys`, `approval.key`): the file of the
   * `extends` chain that set each last (its absolute path), at the setting. Not part of the policy's
   * identity, like `source`.
   */
  settingsAt?: { trustedKeys?: SettingPosition; key?: SettingPosition };
}

/** A place in a policy file: where a setting was written (1-based line and column). */
export interface SettingPosition {
  file: string;
  line: number;
  column: number;
}
