import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { HostProfile } from "../core/host-profile.js";
import { schemaErrors } from "../core/schema-errors.js";
import validateHostProfile from "../generated/validate-host-profile.js";
import { BUILTIN_PROFILES, deepFreeze, HostProfileError, profileProblem } from "../host/profile.js";
import { readFactText } from "../rules/read-text.js";
import { parseJson } from "../syntax/json.js";
import { publishedSchema } from "./published-schema.js";
import { readConfigText } from "./read-bounded.js";

// Reading host profiles: the built-in ones (profiles/*.json, in the package) and profile files.

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const cache = new Map<string, HostProfile>();

/**
 * Loads a profile by name (`claude-code`, `generic`: the files under profiles/) or from a JSON file
 * (a value with a `/` or ending in `.json`, relative to `cwd`). Checked against the published schema
 * and for consistency; throws HostProfileError saying what is wrong.
 */
export function loadProfile(nameOrPath: string, cwd = process.cwd()): HostProfile {
  const isFile = nameOrPath.includes("/") || nameOrPath.includes("\\") || nameOrPath.endsWith(".json");
  if (!isFile && !NAME.test(nameOrPath))
    throw new HostProfileError(`unknown host profile "${nameOrPath}" (known: ${BUILTIN_PROFILES.join(", ")}; or give a profile file path)`);
  if (!isFile && !(BUILTIN_PROFILES as readonly string[]).includes(nameOrPath))
    throw new HostProfileError(`unknown host profile "${nameOrPath}" (known: ${BUILTIN_PROFILES.join(", ")}; or give a profile file path)`);
  const file = isFile ? resolve(cwd, nameOrPath) : new URL(`../../profiles/${nameOrPath}.json`, import.meta.url);
  const key = String(file);
  if (!isFile && cache.has(key)) return cache.get(key)!;
  let text: string;
  try {
    text = typeof file === "string" ? readConfigText(file) : readFileSync(file, "utf8");
  } catch (err) {
    throw new HostProfileError(`cannot read host profile ${nameOrPath}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const p = parseProfile(text, nameOrPath);
  if (!isFile) cache.set(key, deepFreeze(p));
  return p;
}

/** Reads and checks a profile's JSON text; throws HostProfileError with the first fault. */
export function parseProfile(text: string, shown: string): HostProfile {
  const doc = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const issue = doc.issues[0];
  if (issue) {
    const pos = doc.lines.position(issue.start);
    throw new HostProfileError(`${shown}:${pos.line}:${pos.column}: ${readFactText(issue).message}`);
  }
  const errors = schemaErrors(validateHostProfile, doc.value, () => publishedSchema("host-profile"));
  if (errors.length > 0) {
    const e = errors[0]!;
    const what = e.keyword === "additionalProperties" ? `unknown key "${String(e.params.additionalProperty)}"` : (e.message ?? e.keyword);
    throw new HostProfileError(`${shown}: ${e.instancePath || "the profile"} ${what} (see schemas/host-profile.schema.json)`);
  }
  const p = doc.value as HostProfile;
  const problem = profileProblem(p);
  if (problem) throw new HostProfileError(`${shown}: ${problem}`);
  return p;
}

