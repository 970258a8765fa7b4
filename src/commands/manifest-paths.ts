/*
 * Local paths named by the text of a dependency manifest: the folders and files a package manager or a
 * build makes part of the project as it reads the manifest (go.mod's `replace x => ../y`, go.work's
 * `use ../y`, Cargo.toml's `path = "../y"` and workspace members, package.json's `file:../y`, a
 * requirements file's `-e ../y`, pyproject.toml's `[tool.uv.sources] x = { path = "../y" }`). A plan
 * that writes such a text and then builds or installs brings in code from where the path leads, as
 * `npm install ../y` does on a command line. Lock files too (package-lock.json's `"resolved": "file:../y"`,
 * pnpm-lock.yaml's `link:../y`, yarn.lock's `portal:../y`, bun.lock, Gemfile.lock's `PATH remote: ../y`,
 * composer.lock's `path` dists): an install that follows the lock brings in what it names.
 * src/commands/written.ts checks each path as a path the loading command names. A text this reader cannot follow where it may name a path is a problem, not
 * a pass.
 */

/** A local path the manifest names, with what names it (for messages). */
export interface ManifestPath {
  path: string;
  /** Where in the manifest (`replace directive`, `dependencies."x"`), for messages. */
  where: string;
}

/** The paths a manifest names, or why its text cannot be read where it may name one. */
export type ManifestPaths = { paths: ManifestPath[] } | { problem: string };

/** The manifests read here, by the kind loaders.ts gives them (`package.json` for its own). */
export function manifestReader(kind: string): ((text: string) => ManifestPaths) | undefined {
  if (kind === "Go module file") return goModPaths;
  if (kind === "Cargo manifest" || kind === "Python project file") return tomlPaths;
  if (kind === "package.json") return packageJsonPaths;
  if (kind === "requirements file") return requirementsPaths;
  if (kind === NODE_LOCK_KINDS.npm) return npmLockPaths;
  if (kind === NODE_LOCK_KINDS.pnpm || kind === NODE_LOCK_KINDS.yarn) return textLockPaths;
  if (kind === NODE_LOCK_KINDS.bun) return bunLockPaths;
  if (kind === "Gemfile.lock") return gemLockPaths;
  if (kind === "composer.lock") return composerLockPaths;
  return undefined;
}

/** A text that may name a local path: one read with a problem is then refused, not passed. */
export const MAY_NAME_PATH = /\.\.|file:|link:|portal:|[/\\~]|path|members|\buse\b|=>|git|url|links|editable|workspace|build|director|-[erfci]\b/i;

/** Most paths kept from one text: past it, the text is refused (each must be checked). */
const MAX_PATHS = 4096;

/**
 * A local path from a `file:` URL (`file:///abs`, `file://localhost/abs`, `file:../y`), percent-decoded;
 * undefined for another host (a share plangate cannot place).
 */
function fileUrlPath(url: string): string | undefined {
  let rest = url.replace(/^(?:git\+)?file:/i, "");
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    const host = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    if (host !== "" && host.toLowerCase() !== "localhost") return undefined;
    rest = slash < 0 ? "/" : rest.slice(slash);
  }
  rest = rest.replace(/[?#].*$/s, "");
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

/** A URL of another scheme (fetched, not a local path): `https://`, `git+ssh://`, `git@host:`. */
const REMOTE = /^(?:[a-z][a-z0-9+.-]*:\/\/|[\w.-]+@[\w.-]+:)/i;
const FILE_URL = /^(?:git\+)?file:/i;

/** A dependency's local source in a value that may also be a version or a URL: the path, "" for none, undefined when unreadable. */
function localOf(value: string): string | undefined {
  if (FILE_URL.test(value)) return fileUrlPath(value);
  if (REMOTE.test(value)) return "";
  return value;
}

// ---- go.mod and go.work -------------------------------------------------------------------------

/**
 * go.mod's and go.work's words (go's modfile syntax): `//` comments, `(`…`)` blocks, `=>`, strings in
 * double quotes or backquotes. The paths: a replacement that is a folder (`./`, `../`, `/`, a drive,
 * `\`), and each `use` of go.work. A quoted word holding a backslash is not read.
 */
function goModPaths(text: string): ManifestPaths {
  const paths: ManifestPath[] = [];
  let block: string | undefined;
  for (const raw of text.split("\n")) {
    const words = goWords(raw);
    if (words === undefined) return { problem: "a quoted word holds an escape or is not closed, which plangate does not read in go.mod" };
    if (words.length === 0) continue;
    let verb: string | undefined;
    let rest = words;
    if (block !== undefined) {
      if (words[0] === ")") {
        block = undefined;
        continue;
      }
      verb = block;
    } else {
      verb = words[0];
      rest = words.slice(1);
      if (rest[0] === "(") {
        block = verb;
        rest = rest.slice(1);
        if (rest.length === 0) continue;
      }
    }
    if (verb === "replace") {
      const arrow = rest.indexOf("=>");
      if (arrow < 0) return { problem: "a replace directive has no =>" };
      const target = rest[arrow + 1];
      if (target === undefined) return { problem: "a replace directive names nothing after =>" };
      // go reads a replacement as a folder when it starts with ./ or ../ or is absolute; otherwise it is a module path.
      if (/^(?:\.\.?(?:[/\\]|$)|[/\\]|[A-Za-z]:|~)/.test(target)) paths.push({ path: target, where: "replace directive" });
    } else if (verb === "use") {
      for (const w of rest) if (w !== ")" && w !== "(") paths.push({ path: w, where: "use directive" });
    }
    if (paths.length > MAX_PATHS) return { problem: `it names more than ${MAX_PATHS} paths` };
  }
  return { paths };
}

/** The words of a go.mod line, `=>` apart; undefined for a quoted word plangate does not read. */
function goWords(line: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "/" && line[i + 1] === "/") break;
    if (c === "(" || c === ")") {
      out.push(c);
      i++;
      continue;
    }
    if (c === "=" && line[i + 1] === ">") {
      out.push("=>");
      i += 2;
      continue;
    }
    if (c === '"' || c === "`") {
      const end = line.indexOf(c, i + 1);
      if (end < 0) return undefined;
      const word = line.slice(i + 1, end);
      if (c === '"' && word.includes("\\")) return undefined;
      out.push(word);
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < line.length && !/[\s()"`]/.test(line[j]!) && !(line[j] === "=" && line[j + 1] === ">") && !(line[j] === "/" && line[j + 1] === "/")) j++;
    out.push(line.slice(i, j));
    i = j;
  }
  return out;
}

// ---- TOML: Cargo.toml, pyproject.toml, Pipfile --------------------------------------------------

/**
 * Keys whose string values are local paths a build or install reads code from: cargo's `path` (a
 * dependency's, a patch's, a target's source), `build` (build.rs), `members`/`default-members` of a
 * workspace, `git` (a local repository), uv's and poetry's `path`, `url`, `find-links`,
 * `index-url`/`extra-index-url`, `editable`, `workspace`.
 */
const TOML_PATH_KEYS = new Set(["path", "build", "members", "default-members", "git", "url", "find-links", "index-url", "extra-index-url", "editable", "workspace", "file", "directory"]);

/**
 * Every string value of a TOML text with the key it stands under (the innermost key of its dotted key or
 * inline table; an array's strings under the array's key). A value under a path key is a path (a URL's
 * local `file:` part only), and any string that holds a `file:` URL (`x @ file:///y`) names one. A
 * multi-line string or an escape under a path key, or a text plangate cannot tokenize, is not read.
 */
function tomlPaths(text: string): ManifestPaths {
  const paths: ManifestPath[] = [];
  // Each open inline table or array, with the key it stands under.
  const stack: { array: boolean; key: string | undefined }[] = [];
  let key: string | undefined;
  let header = "";
  let expectKey = true;
  let i = 0;
  const n = text.length;
  const bad = (why: string): ManifestPaths => ({ problem: why });
  const top = () => stack[stack.length - 1];
  const seen = (value: string, multi: boolean, escaped: boolean | undefined): string | undefined => {
    const under = top()?.array ? top()!.key : key;
    const path = under !== undefined && TOML_PATH_KEYS.has(under.toLowerCase());
    const where = `${header !== "" ? `[${header}] ` : ""}${under ?? "value"}`;
    if (escaped === undefined) return path || /file|[/\\]/i.test(value) ? `the string under ${where} holds an escape plangate does not read` : undefined;
    if (path) {
      if (multi) return `the string under ${where} spans lines, which plangate does not read as a path`;
      const local = localOf(value);
      if (local === undefined) return `the URL under ${where} names a file of another host`;
      if (local !== "" && !(under!.toLowerCase() === "editable" && (local === "true" || local === "false"))) paths.push({ path: local, where });
    } else {
      const at = value.search(/(?:git\+)?file:/i);
      if (at >= 0) {
        const url = value.slice(at).split(/[\s;,]/)[0]!;
        const local = fileUrlPath(url);
        if (local === undefined) return `the URL under ${where} names a file of another host`;
        paths.push({ path: local, where });
      }
    }
    return paths.length > MAX_PATHS ? `it names more than ${MAX_PATHS} paths` : undefined;
  };
  while (i < n) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "#") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    if (c === "\n") {
      if (stack.length === 0) {
        expectKey = true;
        key = undefined;
      }
      i++;
      continue;
    }
    // A table header: [a.b] or [[a.b]], at the start of a line outside any value.
    if (c === "[" && stack.length === 0 && expectKey) {
      const end = text.indexOf("\n", i);
      const line = text.slice(i, end < 0 ? n : end).replace(/\s+#.*$/s, "").trim();
      const m = /^\[\[?\s*([^\]]*?)\s*\]\]?$/.exec(line);
      if (m === null) return bad("a table header is not one plangate reads");
      header = m[1]!;
      i = end < 0 ? n : end;
      continue;
    }
    if (c === "}" || c === "]") {
      const frame = stack.pop();
      if (frame === undefined || frame.array !== (c === "]")) return bad(`a ${c} closes nothing`);
      key = frame.key;
      expectKey = false;
      i++;
      continue;
    }
    if (c === ",") {
      if (stack.length === 0) return bad("a comma stands outside any array or inline table");
      expectKey = !top()!.array;
      i++;
      continue;
    }
    if (expectKey) {
      // A key, dotted, bare or quoted: its last segment is what the value stands under.
      let last: string | undefined;
      while (i < n) {
        while (i < n && (text[i] === " " || text[i] === "\t")) i++;
        const d = text[i];
        if (d === '"' || d === "'") {
          const s = readString(text, i);
          if (s === undefined || s.multi) return bad("a quoted key is not one plangate reads");
          // A key spelt with an escape plangate does not decode may be any: read as a path's.
          last = s.escaped === undefined ? "path" : s.value;
          i = s.end;
        } else {
          let j = i;
          while (j < n && /[A-Za-z0-9_-]/.test(text[j]!)) j++;
          if (j === i) return bad(`a key is not one plangate reads (at offset ${i})`);
          last = text.slice(i, j);
          i = j;
        }
        while (i < n && (text[i] === " " || text[i] === "\t")) i++;
        if (text[i] === ".") {
          i++;
          continue;
        }
        break;
      }
      if (text[i] !== "=") return bad(`a key has no = (at offset ${i})`);
      i++;
      key = last;
      expectKey = false;
      continue;
    }
    // A value.
    if (c === '"' || c === "'") {
      const s = readString(text, i);
      if (s === undefined) return bad("a string is not closed");
      const problem = seen(s.value, s.multi, s.escaped);
      if (problem !== undefined) return bad(problem);
      i = s.end;
      continue;
    }
    if (c === "{" || c === "[") {
      stack.push({ array: c === "[", key: top()?.array ? top()!.key : key });
      expectKey = c === "{";
      i++;
      continue;
    }
    // A bare value (a number, a boolean, a date): up to a separator.
    let j = i;
    while (j < n && !/[\s,\]}#]/.test(text[j]!)) j++;
    if (j === i) return bad(`a value is not one plangate reads (at offset ${i})`);
    i = j;
  }
  if (stack.length > 0) return bad("an inline table or array is not closed");
  return { paths };
}

/** A TOML string at `i`: its value, whether it spans lines, its end; `escaped` undefined when an escape is not one plangate decodes. */
function readString(text: string, i: number): { value: string; multi: boolean; end: number; escaped: boolean | undefined } | undefined {
  const q = text[i]!;
  const triple = text.startsWith(q.repeat(3), i);
  const open = triple ? 3 : 1;
  let j = i + open;
  let value = "";
  let escaped: boolean | undefined = false;
  while (j < text.length) {
    const c = text[j]!;
    if (triple ? text.startsWith(q.repeat(3), j) : c === q) {
      // A closing triple may be followed by up to two more quotes, which belong to the value.
      let end = j + open;
      if (triple) while (text[end] === q && end - j < 5) end++;
      if (triple) value += q.repeat(end - j - 3);
      return { value, multi: triple, end, escaped };
    }
    if (!triple && c === "\n") return undefined;
    if (c === "\\" && q === '"') {
      const e = text[j + 1];
      const simple: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\x1b", '"': '"', "\\": "\\" };
      if (e !== undefined && Object.hasOwn(simple, e)) {
        value += simple[e];
        j += 2;
        escaped = escaped === undefined ? undefined : true;
        continue;
      }
      const hex = e === "u" ? 4 : e === "U" ? 8 : e === "x" ? 2 : 0;
      const digits = text.slice(j + 2, j + 2 + hex);
      if (hex > 0 && new RegExp(`^[0-9A-Fa-f]{${hex}}$`).test(digits) && Number.parseInt(digits, 16) <= 0x10ffff) {
        value += String.fromCodePoint(Number.parseInt(digits, 16));
        j += 2 + hex;
        escaped = escaped === undefined ? undefined : true;
        continue;
      }
      // A line-ending backslash of a multi-line string, or an escape TOML does not have.
      escaped = undefined;
      j += 2;
      continue;
    }
    value += c;
    j++;
  }
  return undefined;
}

// ---- package.json -------------------------------------------------------------------------------

/** package.json's sections whose values are package specifiers: a local one (`file:`, `link:`, `portal:`, a path) is a folder. */
const SPEC_SECTIONS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "bundleDependencies", "bundledDependencies", "overrides", "resolutions"];

/**
 * A package specifier's local source: `file:`, `link:`, `portal:`, `git+file:`, Yarn's `exec:` script and
 * `patch:` file, or a relative or absolute path (`../y`, `~/y`, `/y`).
 */
function specPath(spec: string, depth = 0): string | undefined | "" {
  // Yarn's patch: its patch file, or the local source it patches (`patch:y@file:../y#./p.patch`).
  const patch = /^patch:([^#]*)#(?:~builtin<[^>]*>&?)*([^:&]*)/is.exec(spec);
  if (patch !== null) {
    const at = /^(?:@[^/@]+\/)?[^@]+@(.*)$/s.exec(patch[1]!.replace(/%3A/gi, ":").replace(/%40/gi, "@"));
    const source = at === null || depth > 1 ? "" : specPath(at[1]!, depth + 1);
    return source !== "" ? source : patch[2]!;
  }
  const proto = /^(?:file|link|portal|exec):/i.exec(spec);
  if (proto !== null) return FILE_URL.test(spec) && spec.slice(5).startsWith("//") ? fileUrlPath(spec) : spec.slice(proto[0].length);
  if (/^git\+file:/i.test(spec)) return fileUrlPath(spec);
  if (/^(?:\.\.?(?:[/\\]|$)|[/\\~]|[A-Za-z]:[/\\])/.test(spec)) return spec;
  // An alias to another package's spec (`npm:x@file:../y`).
  const alias = /^npm:(?:@[^/]+\/)?[^@]+@(.*)$/s.exec(spec);
  if (alias !== null) return specPath(alias[1]!, depth);
  return "";
}

/** A JSON text's object, or undefined when the text is not JSON or holds another value. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

/**
 * package.json's local sources: each specifier of its dependency sections (nested ones of `overrides`
 * and pnpm's `pnpm.overrides` too), and `workspaces` (a list, or `packages` of an object).
 */
function packageJsonPaths(text: string): ManifestPaths {
  const parsed = jsonObject(text);
  if (parsed === undefined) return { problem: "it is not a JSON object" };
  const top = parsed as Record<string, unknown>;
  const paths: ManifestPath[] = [];
  let problem: string | undefined;
  const walk = (v: unknown, where: string, depth: number): void => {
    if (problem !== undefined) return;
    if (paths.length > MAX_PATHS || depth > 32) {
      problem = `its dependency sections are larger or deeper than plangate reads`;
      return;
    }
    if (typeof v === "string") {
      const p = specPath(v);
      if (p === undefined) problem = `${where} names a file of another host`;
      else if (p !== "") paths.push({ path: p, where });
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, where, depth + 1));
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${where}."${k}"`, depth + 1);
  };
  for (const s of SPEC_SECTIONS) if (Object.hasOwn(top, s) && s !== "bundleDependencies" && s !== "bundledDependencies") walk(top[s], s, 0);
  const pnpm = top.pnpm;
  if (pnpm !== null && typeof pnpm === "object" && !Array.isArray(pnpm) && Object.hasOwn(pnpm, "overrides")) walk((pnpm as Record<string, unknown>).overrides, "pnpm.overrides", 0);
  // pnpm's patches, applied to the packages it installs: each value is the patch file's path.
  const patched = pnpm !== null && typeof pnpm === "object" && !Array.isArray(pnpm) && Object.hasOwn(pnpm, "patchedDependencies") ? (pnpm as Record<string, unknown>).patchedDependencies : undefined;
  if (patched !== undefined) {
    if (patched === null || typeof patched !== "object" || Array.isArray(patched)) return { problem: "its pnpm.patchedDependencies is not an object" };
    for (const [k, v] of Object.entries(patched)) {
      if (typeof v !== "string") return { problem: "its pnpm.patchedDependencies are not paths" };
      if (paths.length > MAX_PATHS) return { problem: "its dependency sections are larger or deeper than plangate reads" };
      paths.push({ path: v, where: `pnpm.patchedDependencies."${k}"` });
    }
  }
  const ws = top.workspaces;
  const globs = Array.isArray(ws) ? ws : ws !== null && typeof ws === "object" ? (ws as Record<string, unknown>).packages : undefined;
  if (globs !== undefined) {
    if (!Array.isArray(globs)) return { problem: "its workspaces are not a list" };
    for (const g of globs) {
      if (typeof g !== "string") return { problem: "its workspaces are not a list of strings" };
      // A member pattern names the folders it matches: its part before the first pattern character is where they lie.
      const fixed = g.slice(0, g.search(/[*?[{!]|$/));
      paths.push({ path: fixed === "" ? "." : fixed, where: "workspaces" });
    }
  }
  return problem !== undefined ? { problem } : { paths };
}

// ---- requirements files -------------------------------------------------------------------------

/** pip's options in a requirements file whose value is a file, a folder or an index that may be local. */
const REQ_OPTIONS = /^(?:-e|--editable|-r|--requirement|-c|--constraint|-f|--find-links|-i|--index-url|--extra-index-url)(?:=|$)/;
const REQ_SHORT_GLUED = /^-[ercfi](?=[^-])/;

/**
 * A requirements file's local sources (pip's format, uv's too): the values of `-e`, `-r`, `-c`, `-f`,
 * `-i`, `--extra-index-url`, a requirement that is a path (`../y`, `./y`, `/y`, `~/y`) or a `file:` URL,
 * and the URL after `@` (`x @ file:///y`). Lines joined by a trailing backslash; `#` comments after a
 * space. pip expands `${VAR}` in them: a path-like line holding one is not read.
 */
function requirementsPaths(text: string): ManifestPaths {
  const paths: ManifestPath[] = [];
  const lines = text.replace(/\\\r?\n/g, "").split(/\r?\n/);
  for (const raw of lines) {
    const line = raw.replace(/(?:^|\s)#.*$/s, "").trim();
    if (line === "") continue;
    const words = line.split(/\s+/);
    for (let k = 0; k < words.length; k++) {
      const w = words[k]!;
      let value: string | undefined;
      let where = "requirement";
      const opt = REQ_OPTIONS.exec(w);
      if (opt !== null) {
        where = `${w.replace(/=.*$/s, "")} option`;
        value = w.includes("=") ? w.slice(w.indexOf("=") + 1) : words[++k];
        if (value === undefined) return { problem: `its ${w} option has no value` };
      } else if (REQ_SHORT_GLUED.test(w)) {
        where = `${w.slice(0, 2)} option`;
        value = w.slice(2);
      } else if (w.startsWith("-")) {
        continue;
      } else if (k === 0 || words[k - 1] === "@" || w.startsWith("@")) {
        value = w.startsWith("@") ? w.slice(1) || words[++k] : w;
        if (value === undefined) continue;
        // A requirement by name (`x>=1`, `x[extra]`, `x @ URL`): the URL after @ is read with the next word.
        if (k === 0 && !/^(?:\.|\/|~|[A-Za-z]:[\\/]|file:|git\+file:)/i.test(value) && !(/[/\\]/.test(value) && !REMOTE.test(value))) {
          const at = value.indexOf("@");
          if (at < 0) continue;
          value = value.slice(at + 1) || words[++k];
          if (value === undefined) continue;
        }
      } else continue;
      if (value.includes("$")) return { problem: `${where} holds a variable, which pip expands and plangate does not know` };
      const local = localOf(value);
      if (local === undefined) return { problem: `${where} names a file of another host` };
      // An index or requirement named by a URL of another scheme is fetched, not a local path.
      if (local !== "") paths.push({ path: local, where });
      if (paths.length > MAX_PATHS) return { problem: `it names more than ${MAX_PATHS} paths` };
    }
  }
  return { paths };
}

// ---- node's lock files ----------------------------------------------------------------------------

/** The lock files of node's package managers, by the kind loaders.ts gives them. */
export const NODE_LOCK_KINDS = { npm: "npm lock file", pnpm: "pnpm lock file", yarn: "Yarn lock file", bun: "bun lock file" } as const;

/** package-lock.json's (and npm-shrinkwrap.json's) maps of a package's dependencies to their specifiers or entries. */
const NPM_LOCK_MAPS = new Set(["dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "requires"]);

/**
 * package-lock.json's and npm-shrinkwrap.json's local sources: the key of each entry of `packages`
 * that is not an installed package's (`"../y"`: a linked folder's own entry), an entry's `resolved`
 * (a folder when `link` is true: `"../y"`), `version` and `from` when they are local specifiers
 * (`file:../y`), and the specifiers of its dependency maps; the older form's nested `dependencies` too.
 */
function npmLockPaths(text: string): ManifestPaths {
  const parsed = jsonObject(text);
  if (parsed === undefined) return { problem: "it is not a JSON object" };
  const paths: ManifestPath[] = [];
  let problem: string | undefined;
  const spec = (v: unknown, where: string): void => {
    if (typeof v !== "string") return;
    const p = specPath(v);
    if (p === undefined) problem ??= `${where} names a file of another host`;
    else if (p !== "") paths.push({ path: p, where });
  };
  const entry = (e: unknown, where: string, depth: number): void => {
    if (problem !== undefined) return;
    if (paths.length > MAX_PATHS || depth > 64) {
      problem = "its entries are more or deeper than plangate reads";
      return;
    }
    if (e === null || typeof e !== "object" || Array.isArray(e)) return;
    const o = e as Record<string, unknown>;
    if (o.link === true && typeof o.resolved === "string") {
      const p = localOf(o.resolved);
      if (p === undefined) problem ??= `${where}.resolved names a file of another host`;
      else if (p !== "") paths.push({ path: p, where: `${where}.resolved` });
    } else spec(o.resolved, `${where}.resolved`);
    spec(o.version, `${where}.version`);
    spec(o.from, `${where}.from`);
    for (const m of NPM_LOCK_MAPS) {
      const map = o[m];
      if (map === null || typeof map !== "object" || Array.isArray(map)) continue;
      for (const [k, v] of Object.entries(map as Record<string, unknown>)) {
        if (typeof v === "string") spec(v, `${where}.${m}."${k}"`);
        else entry(v, `${where}.${m}."${k}"`, depth + 1);
      }
    }
  };
  const top = parsed as Record<string, unknown>;
  const packages = top.packages;
  if (packages !== undefined) {
    if (packages === null || typeof packages !== "object" || Array.isArray(packages)) return { problem: "its packages are not an object" };
    for (const [k, v] of Object.entries(packages as Record<string, unknown>)) {
      // An installed package's place (`node_modules/x`, `a/node_modules/x`) is written by the install; any other key, or one that leaves the folder, is a folder of the project.
      if (k !== "" && (!/(?:^|\/)node_modules\/(?:@[^/]+\/)?[^/]+$/.test(k) || /(?:^|\/)\.\.(?:\/|$)|^[/\\~]|^[A-Za-z]:|\\/.test(k))) paths.push({ path: k, where: `packages."${k}"` });
      entry(v, `packages."${k}"`, 0);
    }
  }
  entry({ dependencies: top.dependencies }, "", 0);
  return problem !== undefined ? { problem } : { paths };
}

/** A package's source by a local protocol in a lock file's text: `file:`, `link:`, `portal:`, `exec:`, `workspace:`, `patch:`'s patch files, `name@../y`. */
const LOCAL_PROTOCOL = /(?<![\w.+-])(?:git\+)?(?:file|link|portal|exec|workspace|patch):|@(?=\.\.?\/|\/|~\/)/gi;

/**
 * The local sources a text of a lock file names by protocol (see LOCAL_PROTOCOL): each up to a space,
 * a quote or a YAML or JSON separator, without Yarn's `::locator=` suffix, a key's closing `:` or, as
 * well as with it, pnpm's peer suffix `(react@18.0.0)`. A `patch:` names the patch files after its `#`
 * (`~/` is the project's folder there). undefined: the text names one plangate cannot place.
 */
function protocolPaths(text: string, where: string, paths: ManifestPath[]): string | undefined {
  const problem = protocolScan(text, where, paths);
  if (problem !== undefined || !text.includes("%")) return problem;
  // Yarn percent-encodes the descriptors inside another (`patch:x@portal%3A../y#…`): read decoded as well.
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return MAY_NAME_PATH.test(text) ? `${where} holds a % that does not decode` : undefined;
  }
  return protocolScan(decoded, where, paths);
}

function protocolScan(text: string, where: string, paths: ManifestPath[]): string | undefined {
  LOCAL_PROTOCOL.lastIndex = 0;
  for (let m = LOCAL_PROTOCOL.exec(text); m !== null; m = LOCAL_PROTOCOL.exec(text)) {
    const start = m.index + m[0].length;
    let token = /^[^\s'",{}[\]]*/.exec(text.slice(start, start + 4096))![0];
    if (token.length >= 4096) return `${where} holds a specifier longer than plangate reads`;
    token = token.replace(/::.*$/s, "").replace(/:$/, "");
    const proto = m[0].toLowerCase();
    let found: string[];
    if (proto === "patch:") {
      const hash = token.indexOf("#");
      if (hash < 0) continue;
      found = decodeAll(token.slice(hash + 1))
        .split("&")
        .map((p) => p.replace(/^optional!/, ""))
        .filter((p) => !/^builtin</.test(p) && p !== "")
        .map((p) => p.replace(/^~(?=\/|$)/, "."));
    } else if (/file:$/.test(proto) && token.startsWith("//")) {
      const local = fileUrlPath(`file:${token}`);
      if (local === undefined) return `${where} names a file of another host`;
      found = [local];
    } else if (proto === "workspace:" && /^[*^~]?$/.test(token)) {
      continue;
    } else {
      if (token === "") return `${where} has a ${m[0]} that names no path`;
      found = [token];
    }
    for (const f of found) {
      // pnpm's peer suffix (`(react@18.0.0)`) and Yarn's patch after `#` stand after the path: it is checked without them and with them.
      for (const p of new Set([f.replace(/[(#].*$/s, ""), f, decodeAll(f)])) if (p !== "") paths.push({ path: p, where });
    }
    if (paths.length > MAX_PATHS) return `it names more than ${MAX_PATHS} paths`;
  }
  return undefined;
}

/** A text percent-decoded where it decodes (Yarn's locators are), else as it is. */
function decodeAll(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * pnpm-lock.yaml's and yarn.lock's local sources, read from their text (see protocolPaths): pnpm's
 * `link:../y`, `file:../y` and `directory: ../y`, its importers (folders of the workspace); Yarn's
 * `resolution: "x@portal:../y"`, `"x@file:../y"`, `resolved "file:../y"`. YAML's escapes, aliases,
 * tags and block scalars, which neither writes, are not read.
 */
function textLockPaths(text: string): ManifestPaths {
  // A package's deprecation message, a quoted string on its line, is the one text pnpm writes with escapes.
  if (text.split("\n").some((l) => l.includes("\\") && !/^\s+deprecated:\s*"(?:[^"\\]|\\.)*"\s*$/.test(l))) return { problem: "it holds a backslash (an escape or a Windows path), which plangate does not read in a lock file" };
  if (/(?::|^[ \t]*-|^[ \t]*\?)[ \t]+[&*!|>%@`]/m.test(text) || /^[ \t]*[&*!%]/m.test(text)) return { problem: "it holds YAML plangate does not read in a lock file (an alias, a tag, a block scalar or a directive)" };
  const paths: ManifestPath[] = [];
  const lines = text.split("\n");
  let importers = false;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    const where = `line ${k + 1}`;
    // A deprecation message is text to read, not a source.
    if (/^\s+deprecated:/.test(line)) continue;
    const problem = protocolPaths(line, where, paths);
    if (problem !== undefined) return { problem };
    // pnpm's `directory:` key, quoted or not, with spaces before its colon or not.
    const dir = /(?:^|[\s{,])(['"]?)directory\1[ \t]*:[ \t]*(['"]?)([^'",}\s]*)\2/.exec(line);
    if (dir !== null) {
      if (dir[3] === "") return { problem: `${where} has a directory that names no path` };
      paths.push({ path: dir[3]!, where });
    }
    // pnpm's importers: each key below is a folder of the workspace.
    if (/^importers:\s*$/.test(line)) importers = true;
    else if (/^\S/.test(line)) importers = false;
    else if (importers) {
      const key = /^ {2}(?! )(['"]?)(.*?)\1:\s*$/.exec(line);
      if (key !== null) paths.push({ path: key[2]!, where: `importers."${key[2]}"` });
    }
    if (paths.length > MAX_PATHS) return { problem: `it names more than ${MAX_PATHS} paths` };
  }
  return { paths };
}

/**
 * bun.lock's local sources: JSON with trailing commas (and comments), read as such; each string and key
 * as a lock file's text (see protocolPaths), and the keys of `workspaces` (folders of the workspace).
 */
function bunLockPaths(text: string): ManifestPaths {
  const json = jsoncToJson(text);
  let parsed: unknown;
  try {
    if (json === undefined) throw new Error();
    parsed = JSON.parse(json);
  } catch {
    return { problem: "it is not JSON plangate reads (with trailing commas and comments)" };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { problem: "it is not a JSON object" };
  const paths: ManifestPath[] = [];
  let problem: string | undefined;
  const walk = (v: unknown, where: string, depth: number): void => {
    if (problem !== undefined) return;
    if (depth > 64) {
      problem = "it is deeper than plangate reads";
      return;
    }
    if (typeof v === "string") problem = protocolPaths(v, where, paths);
    else if (Array.isArray(v)) v.forEach((x, k) => walk(x, `${where}[${k}]`, depth + 1));
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        problem ??= protocolPaths(k, `${where}."${k}"`, paths);
        walk(x, `${where}."${k}"`, depth + 1);
      }
  };
  const ws = (parsed as Record<string, unknown>).workspaces;
  if (ws !== null && typeof ws === "object" && !Array.isArray(ws)) for (const k of Object.keys(ws)) if (k !== "") paths.push({ path: k, where: `workspaces."${k}"` });
  walk(parsed, "", 0);
  return problem !== undefined ? { problem } : { paths };
}

/** JSON with comments and trailing commas as JSON: comments and commas before `]`/`}` outside strings removed; undefined for an unclosed comment. */
function jsoncToJson(text: string): string | undefined {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return undefined;
      out += " ";
      i = end + 2;
    } else if (c === ",") {
      let j = i + 1;
      // A comma before a closing bracket, past spaces and comments.
      for (;;) {
        while (j < n && /\s/.test(text[j]!)) j++;
        if (text.startsWith("//", j)) while (j < n && text[j] !== "\n") j++;
        else if (text.startsWith("/*", j)) {
          const end = text.indexOf("*/", j + 2);
          if (end < 0) return undefined;
          j = end + 2;
        } else break;
      }
      if (text[j] !== "]" && text[j] !== "}") out += ",";
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

// ---- Gemfile.lock, composer.lock ------------------------------------------------------------------------

/**
 * Gemfile.lock's (gems.locked's) local sources: the `remote:` of each source section, a folder for
 * PATH (`remote: ../y`), a local repository or gem server for GIT, GEM and PLUGIN SOURCE when it is a
 * path or a `file:` URL rather than a URL of another scheme or a host's (`git@host:x`, `host:x`).
 */
function gemLockPaths(text: string): ManifestPaths {
  if (text.includes("\\")) return { problem: "it holds a backslash, which plangate does not read in Gemfile.lock" };
  const paths: ManifestPath[] = [];
  let section = "";
  for (const line of text.split("\n")) {
    if (/^\S/.test(line)) section = line.trim();
    const m = /^\s+remote:\s*(.*?)\s*$/.exec(line);
    if (m === null) continue;
    const value = m[1]!.replace(/^(['"])(.*)\1$/s, "$2");
    const where = `${section} remote`;
    if (value === "") return { problem: `a ${where} names nothing` };
    if (section === "PATH") paths.push({ path: value, where });
    else {
      const local = localOf(value);
      if (local === undefined) return { problem: `a ${where} names a file of another host` };
      // A host's path (`host:x`, scp's form) is fetched; a word without `:` before its first `/` is a folder.
      if (local !== "" && (FILE_URL.test(value) || !/^[^/]*:/.test(local))) paths.push({ path: local, where });
    }
    if (paths.length > MAX_PATHS) return { problem: `it names more than ${MAX_PATHS} paths` };
  }
  return { paths };
}

/**
 * composer.lock's local sources: each `dist` or `source` of a package (`packages`, `packages-dev`)
 * whose type is `path` (`url: "../y"`), or whose URL is a `file:` URL or a path (a local repository).
 */
function composerLockPaths(text: string): ManifestPaths {
  const parsed = jsonObject(text);
  if (parsed === undefined) return { problem: "it is not a JSON object" };
  const paths: ManifestPath[] = [];
  let problem: string | undefined;
  const walk = (v: unknown, where: string, depth: number): void => {
    if (problem !== undefined) return;
    if (depth > 64 || paths.length > MAX_PATHS) {
      problem = "it is larger or deeper than plangate reads";
      return;
    }
    if (Array.isArray(v)) v.forEach((x, k) => walk(x, `${where}[${k}]`, depth + 1));
    else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if (typeof o.url === "string") {
        const local = o.type === "path" ? o.url : localOf(o.url);
        if (local === undefined) problem = `${where}.url names a file of another host`;
        else if (local !== "" && (o.type === "path" || FILE_URL.test(o.url) || /^(?:\.\.?(?:[/\\]|$)|[/\\~]|[A-Za-z]:[/\\])/.test(local))) paths.push({ path: local, where: `${where}.url` });
      }
      for (const [k, x] of Object.entries(o)) walk(x, `${where}.${k}`, depth + 1);
    }
  };
  walk(parsed, "", 0);
  return problem !== undefined ? { problem } : { paths };
}
