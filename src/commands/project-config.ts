/*
 * The project's configuration of npm, pnpm and Yarn, as far as it can send an install outside the workspace
 * (installs.ts OutsideCondition `config`): which files are read, and what in them counts. Read where the
 * files can be read (paths.ts resolveOutside); kept apart from the command analysis, which needs none of it.
 */

/** The files a `config` condition reads in each folder, from the one the command runs in up to the workspace root. */
export const PROJECT_CONFIG_FILES: Readonly<Record<"npm" | "yarn" | "pdm", readonly string[]>> = { npm: [".npmrc"], yarn: [".yarnrc", ".yarnrc.yml"], pdm: ["pdm.toml"] };

/** Largest project configuration file read (real ones hold a few lines); a larger one is not read, and counts as saying the worst. */
export const MAX_PROJECT_CONFIG_BYTES = 64 * 1024;

/** What a project's configuration file says that sends a run outside the workspace. */
export interface ConfigSetting {
  /** The setting as written (`global=true`). */
  setting: string;
  line: number;
  /** A folder it names, to be judged as a path from the file's folder (`--modules-folder ../x`); absent when the setting alone decides. */
  folder?: string;
  /** For poetry.toml: the setting keeps the environment in the project (`virtualenvs.in-project = true`). */
  inside?: true;
  /** For poetry.toml: the setting decides whatever the line sets (`virtualenvs.create = false`: no environment; a key written with an escape). */
  always?: true;
}

/**
 * The keys of a TOML file with their raw values, as dotted paths under their tables, in lower case
 * (`[virtualenvs]` then `in-project = true` is `virtualenvs.in-project`; an inline table's keys too, one level
 * deep). A key written with an escape (`"in\u002dproject"`) may spell any: its path is `\`.
 */
function tomlKeys(text: string): { key: string; value: string; line: number; text: string }[] {
  const out: { key: string; value: string; line: number; text: string }[] = [];
  const clean = (k: string) => (k.includes("\\") ? "\\" : k.split(".").map((p) => p.trim().replace(/^(["'])(.*)\1$/, "$2")).join(".").toLowerCase());
  let table = "";
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[\[?\s*([^\]]*?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
    if (header !== null) {
      table = clean(header[1]!);
      continue;
    }
    const eq = /^((?:"[^"]*"|'[^']*'|[^=#"'])+?)\s*=\s*(.*)$/.exec(line);
    if (eq === null) continue;
    const key = clean(eq[1]!);
    const full = key === "\\" || table === "\\" ? "\\" : table === "" ? key : `${table}.${key}`;
    const value = eq[2]!.replace(/\s+#[^"']*$/, "").trim();
    out.push({ key: full, value, line: i + 1, text: line });
    const inline = /^\{(.*)\}$/.exec(value);
    if (inline !== null)
      for (const part of inline[1]!.split(",")) {
        const m = /^\s*((?:"[^"]*"|'[^']*'|[^="'])+?)\s*=\s*(.*?)\s*$/.exec(part);
        if (m !== null) out.push({ key: full === "\\" ? full : `${full}.${clean(m[1]!)}`, value: m[2]!, line: i + 1, text: line });
      }
  }
  return out;
}

/**
 * What a project's poetry.toml says of where Poetry keeps the project's environment: a setting that sends it
 * outside (`virtualenvs.create` other than true: no environment, the Python in force; `virtualenvs.in-project`
 * other than true: not the project's .venv; a key written with an escape), first; else `virtualenvs.in-project
 * = true`, which keeps it in the project (`inside`); else undefined (Poetry uses the project's .venv if there is one).
 */
export function poetrySetting(text: string): ConfigSetting | undefined {
  let inside: ConfigSetting | undefined;
  let outside: ConfigSetting | undefined;
  for (const { key, value, line, text: setting } of tomlKeys(text)) {
    const k = key.replace(/_/g, "-");
    if (key === "\\" || (k === "virtualenvs.create" && value !== "true")) return { setting, line, always: true };
    if (k === "virtualenvs.in-project" && value !== "true") outside ??= { setting, line };
    else if (key === "virtualenvs.in-project") inside ??= { setting, line, inside: true };
  }
  return outside ?? inside;
}

const unquote = (v: string) => v.trim().replace(/^(["'])(.*)\1$/, "$2");

/**
 * The first setting of a project configuration file (`.npmrc`, `.yarnrc`, `.yarnrc.yml`, by name) that
 * sends installs outside the workspace, or undefined. `.npmrc` (npm and pnpm): `global` unless `false`
 * (a key alone is true), `location=global`, and `userconfig` or `globalconfig`, which hand the decision to a
 * file plangate does not read; a value decided where it runs (`${VAR}`) may be any. `.yarnrc` (Yarn 1):
 * `--modules-folder` and `--cwd` (also for one command, `--install.modules-folder`), the folder installs
 * go to. `.yarnrc.yml` (Yarn 2 and later): the folders an install writes besides the cache
 * (`installStatePath`, `pnpUnpluggedFolder`, `virtualFolder`, `patchFolder`). Keys are compared without case.
 */
export function projectConfigSetting(file: string, text: string): ConfigSetting | undefined {
  if (file === "poetry.toml") return poetrySetting(text);
  // PDM keeps the project's environment in its .venv unless venv.in_project or python.use_venv is not true.
  if (file === "pdm.toml") {
    for (const { key, value, line, text: setting } of tomlKeys(text)) {
      const k = key.replace(/-/g, "_");
      if (key === "\\" || ((k === "venv.in_project" || k === "python.use_venv") && value !== "true")) return { setting, line };
    }
    return undefined;
  }
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (file === ".npmrc") {
      if (line.startsWith("[")) continue;
      const eq = line.indexOf("=");
      const key = (eq < 0 ? line : line.slice(0, eq)).trim().toLowerCase();
      const value = eq < 0 ? "true" : unquote(line.slice(eq + 1));
      const unknown = value.includes("${");
      if ((key === "global" && (unknown || value.toLowerCase() !== "false")) || (key === "location" && (unknown || value.toLowerCase() === "global")) || key === "userconfig" || key === "globalconfig")
        return { setting: line, line: i + 1 };
      continue;
    }
    if (file === ".yarnrc") {
      const m = /^(\S+)\s*(.*)$/.exec(line);
      const key = (m?.[1] ?? "").replace(/^--/, "").replace(/^[a-z-]+\./, "").toLowerCase();
      if (key === "modules-folder" || key === "cwd") return { setting: line, line: i + 1, folder: unquote(m?.[2] ?? "") };
      continue;
    }
    const m = /^["']?(installStatePath|pnpUnpluggedFolder|virtualFolder|patchFolder)["']?\s*:\s*(.*)$/i.exec(line);
    if (m !== null) return { setting: line, line: i + 1, folder: unquote(m[2]!.replace(/\s+#.*$/, "")) };
  }
  return undefined;
}

/** The words of a `config` condition's finding: where it writes and what to change, by what the file says or why it was not read. */
export function configOutsideWords(manager: string, where: string, file: string, said: ConfigSetting | { unread: string }): { where: string; fix: string } {
  if ("unread" in said)
    return {
      where: `${where || "folders outside the workspace"}, if ${file} says so: plangate does not read it (${said.unread})`,
      fix: `make ${file} a regular file of at most ${MAX_PROJECT_CONFIG_BYTES / 1024} KiB, or remove it`,
    };
  const at = `"${said.setting}" in ${file} (line ${said.line})`;
  if (said.folder !== undefined) return { where: `the folder "${said.folder}" that ${at} names, outside the workspace`, fix: `name a folder inside the workspace in ${file}, or remove the setting` };
  if (manager === "pdm") return { where: `${where}: ${at} takes it out of the project's .venv`, fix: `remove "${said.setting}" from ${file}` };
  if (/^(user|global)config/i.test(said.setting)) return { where: `${where}, if the file that ${at} names makes installs global (plangate does not read it)`, fix: `remove "${said.setting}" from ${file}` };
  return { where: `${where}: ${at} makes every ${manager} install global`, fix: `remove "${said.setting}" from ${file}, or give --no-global` };
}
