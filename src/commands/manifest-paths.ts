/*
 * Local paths named by the text of a dependency manifest: the folders and files a package manager or a
 * build makes part of the project as it reads the manifest (go.mod's `replace x => ../y`, go.work's
 * `use ../y`, Cargo.toml's `path = "../y"` and workspace members, package.json's `file:../y`, a
 * requirements file's `-e ../y`, pyproject.toml's `[tool.uv.sources] x = { path = "../y" }`). A plan
 * that writes such a text and then builds or installs brings in code from where the path leads, as
 * `npm install ../y` does on a command line: src/commands/written.ts checks each path as a path the
 * loading command names. A text this reader cannot follow where it may name a path is a problem, not
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

/**
 * package.json's local sources: each specifier of its dependency sections (nested ones of `overrides`
 * and pnpm's `pnpm.overrides` too), and `workspaces` (a list, or `packages` of an object).
 */
function packageJsonPaths(text: string): ManifestPaths {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: "it is not a JSON object" };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { problem: "it is not a JSON object" };
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
