import type { PlanFacts } from "../core/facts.js";
import { foldName, resolvePosix } from "../core/path-service.js";
import type { Plan, Step } from "../core/plan.js";
import type { Policy } from "../core/policy.js";
import { type PlanWork, type WorkPlace, WRITTEN_JUDGED } from "../core/work.js";
import { actionOf } from "../core/step-extra.js";
import { shellQuote } from "../syntax/shell/quote.js";
import { type CommandFinding, type CommandGenerates, type CommandMode, type CommandOutside, type CommandPath, type CommandReport, type CommandRun, writtenFinding } from "./analyse.js";
import { dotenvLine } from "./dotenv.js";
import { MAY_NAME_PATH, manifestReader } from "./manifest-paths.js";
import { interpreterOf, scriptFileOf } from "./inline-code.js";
import { compiledFormOf, isLoader, type Load, loadsOf, PROJECT_SCRIPT_LOADS } from "./loaders.js";
import { writtenCodeAllowed } from "./match.js";
import type { AnalysedCommand, StepCommand } from "./plan.js";

/*
 * Files a plan writes and then runs. A step that writes a file (a write tool's content, a TeDDy CREATE,
 * an edit, a command line's output) and a later step that runs it (`bash build.sh`, `./build.sh`,
 * `python3 run.py`, `sed -f x.sed`, `make` after a Makefile, `npm test` after package.json) would
 * otherwise hide what runs from the command analysis. The plan's writes are carried forward, step by
 * step; a run of a written file is judged by the file's text as its runner reads it: a shell script's
 * text is analysed as a command line, an interpreter's code is judged as code the policy trusts or not (commands.writtenCode),
 * package.json's scripts are command lines; a text plangate cannot know (downloaded, copied, edited in
 * a way it cannot replay) or does not read (a makefile) is refused. A file the plan does not write is
 * the project's, judged as before.
 */

/** What a step left at a path: its text when the plan holds it, else how it was written. */
interface Written {
  /** The step that wrote it. */
  step: number;
  /** The order of the write in the plan: the latest of a file's and its folders' writes is what it holds. */
  seq: number;
  content?: string;
  /** For a text the plan does not hold: how it was written (`copied or downloaded by a command`). */
  how?: string;
  /** A folder written whole (`rm -r`, `cp -r`, `git checkout dir`): every file in it. */
  tree?: boolean;
  /** Found under another spelling of its name (a file system that ignores case reads it as this one). */
  twin?: boolean;
  /** Written by a command run in the background (`cmd &`): it may land after any later write. */
  background?: boolean;
  /** Removed (`rm -r dir`): nothing is there for a program to load. */
  gone?: boolean;
  /** For a text written by a command line: the program whose word names it ("" for a redirection). */
  by?: string;
  /**
   * An edit's result, replayed when first needed (textOf): the file's text on disk, or what the plan
   * wrote there, with the plan's edits applied; undefined when they do not apply.
   */
  lazy?: () => string | undefined;
}

/** What a written file holds, as far as the plan says: its text, an edit's result replayed now, or undefined. */
function textOf(w: Written): string | undefined {
  if (w.content !== undefined || w.lazy === undefined) return w.content;
  const text = w.lazy();
  w.lazy = undefined;
  if (text !== undefined && text.length <= MAX_CARRIED) w.content = text;
  else if (text !== undefined) w.how = `longer than ${MAX_CARRIED / 1024} KiB, which plangate does not carry`;
  return w.content;
}

/** A function whose result is computed once. */
function once<T>(f: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = f();
      done = true;
    }
    return value;
  };
}

/** The workspace's symbolic links (WrittenFiles.links). */
interface Links {
  /** Each link: its path, as spelt from the workspace; where it leads, canonical and folded; how many segments that path has. */
  links: { name: string; target: string; depth: number }[];
  /** Why not every link could be listed, when not: a program may then load any written file through one. */
  unlisted?: string;
}
/** Most entries of the workspace listed in search of its links; past them, the links are not all known. */
const MAX_LINK_WALK = 500_000;
/** Most links kept; past them, the links are not all known. */
const MAX_LINKS = 20_000;
/** Most other names a written path is given through links. */
const MAX_ALIASES = 64;

/** Longest text of a written file that is carried (and analysed): longer ones are held as unknown. */
const MAX_CARRIED = 256 * 1024;
/** Bytes of files on disk a validation reads as the texts edits apply to (16 MiB): past them an edit's result is unknown. */
const MAX_DISK_BASES = 16 * 1024 * 1024;
/** How deep a written script that runs another written file is followed. */
const MAX_DEPTH = 4;
/** How deep requirements files that name each other (`-r other.txt`) are read. */
const MAX_NESTED_REQUIREMENTS = 8;
/** Most runs judged in one plan; past it, each further run of a written file is refused unread. */
const MAX_JUDGED = 10_000;

/** Programs that change no file's text (its mode, owner or time, the index) or only read: what they name is not written. */
const KEEPS_TEXT = new Set([
  "chmod", "chown", "chgrp", "touch", "mkdir", "ls", "stat", "file", "test", "[", "[[", "wc", "du", "realpath", "readlink", "basename", "dirname",
  "echo", "printf", "cat", "head", "tail", "less", "more", "grep", "rg", "diff", "cmp", "md5sum", "sha1sum", "sha256sum", "sha512sum", "shellcheck", "shfmt",
  "cd", "pushd", "popd", "git add", "git commit", "git status", "git diff", "git log", "git show", "git blame",
]);
/** Programs that only remove what they name: a program finds nothing there to load. */
const REMOVERS = new Set(["rm", "grm", "rmdir", "grmdir", "unlink", "gunlink", "shred", "trash", "trash-put", "rimraf", "del-cli", "git rm", "git clean"]);
/** Programs whose last operand may be a folder they write into (`cp x dir`): each file in it may be written. */
const INTO_FOLDER = new Set(["cp", "mv", "install", "ln", "rsync", "scp", "ditto", "gcp", "gmv", "ginstall", "gln"]);
/**
 * git subcommands that put a plan's text into the repository (a commit, a stash) and those that write
 * the work tree from it without naming the files: once the plan has done the first, the second may bring
 * back a text the plan wrote and later replaced, so every file under the folder is then unknown.
 */
const GIT_KEEPS = new Set(["git commit", "git stash", "git merge", "git cherry-pick", "git rebase", "git am", "git revert", "git notes", "git tag", "git replace", "git update-ref", "git fast-import", "git hash-object", "git update-index", "git write-tree", "git commit-tree"]);
const GIT_WRITES_TREE = new Set(["git checkout", "git switch", "git reset", "git stash", "git pull", "git merge", "git rebase", "git cherry-pick", "git revert", "git restore", "git read-tree", "git checkout-index", "git worktree", "git am", "git apply"]);
/**
 * Programs that write a file named after their operand (`gunzip x.sh.gz` writes x.sh, `xz -d`, `zstd
 * -d`), and those that write files whose names no word of the line gives (`uudecode` reads them from its
 * input, `split` and `csplit` add suffixes): the operand without its suffix, or every file of its folder.
 */
const RENAMING = new Set(["gzip", "gunzip", "pigz", "unpigz", "xz", "unxz", "lzma", "unlzma", "bzip2", "bunzip2", "pbzip2", "lbzip2", "zstd", "unzstd", "pzstd", "lz4", "unlz4", "lzip", "lunzip", "lzop", "brotli", "compress", "uncompress", "zcat"]);
const COMPRESSED = /\.(?:gz|xz|lzma|bz2|zst|zstd|lz4|lz|lzo|br|Z|z|tgz|taz|tbz2?|txz)$/;
const NAMES_UNSEEN = new Set(["uudecode", "split", "csplit", "gcsplit", "gsplit"]);
/**
 * git subcommands that bring a text from a repository other than the project's own: a remote the plan
 * adds (`git remote add`), a submodule, a bundle, and `git pull` or `git fetch` given a URL or a path
 * (FOREIGN_FETCH; `git pull`, `git fetch origin` fetch the project's). Once the plan has done one, what
 * writes the work tree from the repository (GIT_WRITES_TREE) may write that text, as `git pull` does.
 */
const GIT_FOREIGN = new Set(["git remote", "git submodule", "git bundle"]);
const FOREIGN_FETCH = /\b(?:pull|fetch)\b[^;&|\n]*?(?::\/\/|\s[\w.-]+@[\w.-]+:|\s\.{0,2}\/)/;
/** A command line that runs something in the background: an `&` that is not `&&`, `>&`, `&>` or `|&` (in quotes too, which only adds). */
const BACKGROUND = /(?:^|[^&|>])&(?![&>])/;
/** Most written files a pattern is matched against in one plan; past it, a pattern written marks its whole folder. */
const MAX_PATTERN_TESTS = 1_000_000;
/** Most patterns written through that are kept, each matched against every path looked up; past it, a pattern marks its whole folder. */
const MAX_PATTERNS = 256;
/** Shells whose text the command analysis reads (bash syntax). */
const SHELL_NAMES = new Set(["sh", "bash", "dash", "ash", "busybox"]);
/** Arguments that hold the whole new text of the file a write step names. */
const WHOLE_TEXT = ["content", "contents", "file_text", "text", "data", "body", "code", "source_code", "new_content", "file_content"];
/** Pairs of arguments of an edit: the text to find and its replacement. */
const EDIT_PAIRS: readonly (readonly [string, string])[] = [
  ["old_string", "new_string"],
  ["old_str", "new_str"],
  ["old_text", "new_text"],
  ["find", "replace"],
  ["search", "replace"],
];

/** Every argument name of EDIT_PAIRS. */
const EDIT_KEYS: ReadonlySet<string> = new Set(EDIT_PAIRS.flat());

/** The manifests `kind` words in messages, by file name (lower case). */
const MANIFEST_KINDS: ReadonlyMap<string, string> = new Map([
  ["makefile", "makefile"],
  ["gnumakefile", "makefile"],
  ["justfile", "justfile"],
  [".justfile", "justfile"],
  [".npmrc", "package manager's configuration"],
  [".yarnrc", "package manager's configuration"],
  [".yarnrc.yml", "package manager's configuration"],
  [".pnpmfile.cjs", "package manager's configuration"],
  ["bunfig.toml", "package manager's configuration"],
  ["pnpm-workspace.yaml", "package manager's configuration"],
  ...["taskfile.yml", "taskfile.yaml", "taskfile.dist.yml", "taskfile.dist.yaml"].map((n) => [n, "Taskfile"] as const),
  ...["rakefile", "rakefile.rb"].map((n) => [n, "Rakefile"] as const),
  ["tox.ini", "tox configuration"],
  ["noxfile.py", "noxfile"],
  ["tasks.py", "task file"],
  ["fabfile.py", "fabfile"],
  ["pyproject.toml", "task list in pyproject.toml"],
  ["deno.json", "Deno configuration"],
  ["deno.jsonc", "Deno configuration"],
]);

/** Database clients whose commands plangate reads on their line: a file of their commands is read as that line. */
/** The file's lines, as words of the line: each dot command its own, the lines between joined by spaces (a word holds no newline). */
function sqlWords(content: string, dots: boolean): string[] {
  const out: string[] = [];
  let sql: string[] = [];
  for (const line of content.split(/\r?\n/)) {
    if (dots && line.trimStart().startsWith(".")) {
      if (sql.length > 0) out.push(sql.join(" "));
      sql = [];
      out.push(line.trim());
    } else if (line.trim() !== "") sql.push(line.trim());
  }
  if (sql.length > 0) out.push(sql.join(" "));
  return out;
}
const SQL_LINE: ReadonlyMap<string, (program: string, content: string) => string> = new Map([
  ["psql", (p: string, c: string) => `${p} ${sqlWords(c, false).map((w) => `-c ${shellQuote(w)}`).join(" ")}`],
  ["mysql", (p: string, c: string) => `${p} -e ${shellQuote(sqlWords(c, false).join(" "))}`],
  ["mariadb", (p: string, c: string) => `${p} -e ${shellQuote(sqlWords(c, false).join(" "))}`],
  ["sqlite3", (p: string, c: string) => `${p} :memory: ${sqlWords(c, true).map(shellQuote).join(" ")}`],
  ["duckdb", (p: string, c: string) => `${p} ${sqlWords(c, true).map((w) => `-c ${shellQuote(w)}`).join(" ")}`],
]);

/** Analyses a text as a command line, within the plan's bound on text read (past it, a report that refuses it). */
type Analyse = (text: string, mode: CommandMode) => CommandReport;

const NOTHING_LOADABLE: readonly { abs: string; w: Written; via?: string }[] = Object.freeze([]);

/** The files the plan has written so far, by absolute path, with an index by folded path and by name. */
class WrittenFiles {
  readonly #files = new Map<string, Written>();
  readonly #folded = new Map<string, Written>();
  readonly #byName = new Map<string, Set<string>>();
  /** Writes of commands run in the background, which later writes do not replace. */
  readonly #background = new Map<string, Written>();
  #seq = 0;
  /** Told of each write (a background run of the file may still read it). */
  onWrite?: (abs: string, w: Written) => void;
  /** Bytes of files on disk read so far as the base of an edit (bounded by MAX_DISK_BASES). */
  diskRead = 0;
  constructor(
    readonly workspace: string,
    readonly paths?: Pick<PlanFacts["paths"], "resolveReal" | "workspaceReal" | "files">,
  ) {}

  #links?: Links;
  /**
   * The workspace's symbolic links, listed once when first needed (symlinked folders are not entered;
   * git's object stores hold none): a program that loads a link's name loads what it leads to, which the
   * plan may write under a name the program does not load (`tests/test_x.py` linking to `lib/data.txt`).
   * Past MAX_LINK_WALK entries, or a folder that cannot be listed, the links are not all known.
   */
  links(): Links {
    if (this.#links !== undefined) return this.#links;
    const out: Links = { links: [] };
    this.#links = out;
    const files = this.paths?.files;
    const ws = this.workspace;
    if (files === undefined || files.realpath(ws) === undefined) return out;
    if (files.list === undefined) {
      out.unlisted = "the file probe cannot list folders";
      return out;
    }
    const queue = [ws];
    let entries = 0;
    while (queue.length > 0) {
      const dir = queue.pop()!;
      const listing = files.list(dir);
      if (listing === undefined) {
        if (files.kind(dir) === "missing") continue;
        out.unlisted = `${dir === ws ? "the workspace" : relative(ws, dir)} cannot be listed`;
        return out;
      }
      if ((entries += listing.size) > MAX_LINK_WALK) {
        out.unlisted = `the workspace holds more than ${MAX_LINK_WALK} entries`;
        return out;
      }
      for (const [name, listed] of listing) {
        const path = dir === "/" ? `/${name}` : `${dir}/${name}`;
        const kind = listed ?? files.kind(path);
        if (kind === "symlink") {
          const target = this.canon(path);
          if (out.links.length < MAX_LINKS) out.links.push({ name: path, target: foldPath(target), depth: target.split("/").length });
          else {
            out.unlisted = `the workspace holds more than ${MAX_LINKS} symbolic links`;
            return out;
          }
        } else if (kind === "dir" && !(name === "objects" && dir.startsWith(`${ws}/.git`) && /\/\.git(?:\/modules\/.+)?$/.test(dir))) queue.push(path);
      }
    }
    return out;
  }

  /** Folders the plan makes (`mkdir`), and those its writes put files in (up to #foldersOf of #order), folded. */
  readonly #made = new Set<string>();
  readonly #folders = new Set<string>();
  #foldersOf = 0;
  /** More folders made than kept: any word may then name one. */
  #madeFull = false;
  madeFolder(abs: string): void {
    if (this.#made.size < 65536) this.#made.add(this.#fold(this.canon(abs)));
    else this.#madeFull = true;
  }

  /**
   * May a word name a folder (and not one file) when its program runs: it says so (`dir/`, `.`), or the
   * folder is on disk, or the plan makes it or writes in it; or, for a path of more than a name
   * (`tests/sub`), nothing says what is there. A word that names a file on disk, or a bare word for
   * nothing there (`pods`), names a file.
   */
  mayBeFolder(abs: string, text: string): boolean {
    if (this.#madeFull || /(?:\/|(?:^|\/)\.\.?)$/.test(text)) return true;
    const real = this.canon(abs);
    const folded = this.#fold(real);
    if (this.#made.has(folded)) return true;
    if (this.#foldersOf < this.#order.size) {
      let i = 0;
      for (const written of this.#order.keys()) {
        if (i++ < this.#foldersOf) continue;
        const f = this.#fold(written);
        for (let k = f.lastIndexOf("/"); k > 0; k = f.lastIndexOf("/", k - 1)) this.#folders.add(f.slice(0, k));
      }
      this.#foldersOf = this.#order.size;
    }
    const written = this.#files.get(real);
    if (this.#folders.has(folded) || written?.tree) return true;
    const kind = real.startsWith(`${this.workspace}/`) ? this.paths?.files.kind(real) : undefined;
    if (kind === "dir") return true;
    if (kind === "file" || kind === "other" || written !== undefined) return false;
    return text.replace(/\/+$/, "").includes("/");
  }

  readonly #aliases = new Map<string, readonly string[]>();
  /** The other names of a path (canonical) through the workspace's links, links to links and linked folders included. */
  aliasesOf(abs: string): readonly string[] {
    const { links } = this.links();
    if (links.length === 0) return [];
    let out = this.#aliases.get(abs);
    if (out !== undefined) return out;
    const found: string[] = [];
    const seen = new Set([foldPath(abs)]);
    for (let k = -1; k < found.length && found.length < MAX_ALIASES; k++) {
      const at = k < 0 ? abs : found[k]!;
      const folded = foldPath(at);
      for (const l of links) {
        if (folded !== l.target && !folded.startsWith(`${l.target}/`)) continue;
        const rest = at.split("/").slice(l.depth);
        const alias = rest.length > 0 ? `${l.name}/${rest.join("/")}` : l.name;
        const key = foldPath(alias);
        if (seen.has(key)) continue;
        seen.add(key);
        found.push(alias);
        if (found.length >= MAX_ALIASES) break;
      }
    }
    out = found;
    if (this.#aliases.size < 65536) this.#aliases.set(abs, out);
    return out;
  }

  /** May a program find `abs` (canonical) under a name other than its own: a hard link, or a link of the workspace (reachedAs is undefined for every expression otherwise)? */
  mayHaveOtherNames(abs: string): boolean {
    if (this.#hardLinks(abs) > 1) return true;
    const links = this.links();
    return links.unlisted !== undefined || links.links.length > 0;
  }

  /**
   * The name, other than its own, under which a program that loads the files `re` matches finds `abs`
   * (canonical) through the workspace's links; "" when plangate cannot see every name that leads to it
   * (unseenNames says why); undefined when none does.
   */
  reachedAs(abs: string, re: RegExp): string | undefined {
    if (this.#hardLinks(abs) > 1) return "";
    const links = this.links();
    if (links.unlisted !== undefined) return "";
    if (links.links.length === 0) return undefined;
    return this.aliasesOf(abs).find((a) => a.startsWith(`${this.workspace}/`) && re.test(a));
  }

  /** How many names a file of the workspace on disk has (hard links: a write through one changes the file under all of them). */
  #hardLinks(abs: string): number {
    if (!abs.startsWith(`${this.workspace}/`)) return 1;
    let n = this.#names.get(abs);
    if (n === undefined) {
      n = this.paths?.files.nlink?.(abs) ?? 1;
      if (this.#names.size < 65536) this.#names.set(abs, n);
    }
    return n;
  }
  readonly #names = new Map<string, number>();

  /** Why a program may load `abs` under a name plangate cannot see (reachedAs's ""), after "`program` may load it". */
  unseenNames(abs: string): string {
    const n = this.#hardLinks(abs);
    if (n > 1) return `under another of the ${n} names the file has on disk (hard links), which plangate cannot list`;
    return `through a symbolic link, and plangate cannot list every link of the workspace: ${this.links().unlisted ?? "it could not"}`;
  }

  /**
   * A path of the workspace as the file system finds it, every symlink on disk followed (`s/ci.sh` where
   * `s` links to `scripts` is `scripts/ci.sh`), spelt from the workspace as given; a path outside it as it is.
   */
  canon(abs: string): string {
    const ws = this.workspace;
    if (this.paths === undefined || abs === "/" || !(abs === ws || abs.startsWith(`${ws}/`))) return abs;
    const real = this.paths.resolveReal(abs);
    const wsReal = this.paths.workspaceReal;
    return real === wsReal ? ws : real.startsWith(`${wsReal}/`) ? ws + real.slice(wsReal.length) : real;
  }

  readonly #foldCache = new Map<string, string>();
  /** A path as a file system that ignores case reads it, once per path (programs that load files look each up at every run). */
  #fold(abs: string): string {
    let folded = this.#foldCache.get(abs);
    if (folded === undefined) this.#foldCache.set(abs, (folded = foldPath(abs)));
    return folded;
  }

  set(abs: string, w: Omit<Written, "seq">): void {
    abs = this.canon(abs);
    const entry: Written = { ...w, seq: ++this.#seq };
    if (!this.#files.has(abs)) this.#order.set(abs, this.#order.size);
    if (entry.tree) this.#treeKeys.add(abs);
    if (entry.background) this.#background.set(abs, entry);
    this.onWrite?.(abs, entry);
    if (entry.content !== undefined && entry.content.length > MAX_CARRIED) {
      delete entry.content;
      entry.how = `longer than ${MAX_CARRIED / 1024} KiB, which plangate does not carry`;
    }
    this.#files.set(abs, entry);
    this.#folded.set(this.#fold(abs), entry);
    const name = foldName(abs.slice(abs.lastIndexOf("/") + 1));
    let set = this.#byName.get(name);
    if (!set) this.#byName.set(name, (set = new Set()));
    set.add(abs);
  }

  /** What the file at `abs` holds now, when the plan wrote it or a folder above it; `twin` when written under another spelling only. */
  get(abs: string): Written | undefined {
    abs = this.canon(abs);
    if (this.#background.size > 0)
      for (let i = abs.length; i >= 0; i = i === 0 ? -1 : abs.lastIndexOf("/", i - 1)) {
        const b = this.#background.get(i === 0 ? "/" : abs.slice(0, i));
        if (b !== undefined && (i === abs.length || b.tree)) return b;
      }
    let best = this.#files.get(abs);
    // "/": a write whose file plangate cannot name, which may be any. (No folder written whole: none to look for.)
    if (this.#treeKeys.size > 0)
      for (let i = abs.lastIndexOf("/"); i >= 0; i = i === 0 ? -1 : abs.lastIndexOf("/", i - 1)) {
        const folder = i === 0 ? "/" : abs.slice(0, i);
        // A folder written whole under another spelling of its name is this one on a file system that ignores case.
        for (const t of [this.#files.get(folder), this.#folded.get(this.#fold(folder))])
          if (t?.tree && (best === undefined || t.seq > best.seq)) best = { ...t, how: t.how ?? "written as part of a folder" };
      }
    if (this.#patterns.length > 0) best = this.#pattern(abs, best);
    // The latest write under any spelling of the name is what a file system that ignores case holds.
    const twin = this.#folded.get(this.#fold(abs));
    if (twin !== undefined && !twin.tree && (best === undefined || twin.seq > best.seq) && twin !== this.#files.get(abs))
      return { step: twin.step, seq: twin.seq, twin: true, how: "written under another spelling of its name, which a file system that ignores case reads as this one" };
    return best;
  }

  /** get() of a path as the plan's writes spell it (already canonical): the write itself, when no folder, twin or background write stands over it. */
  #current(abs: string): Written | undefined {
    if (this.#treeKeys.size > 0 || this.#background.size > 0 || this.#patterns.length > 0) return this.get(abs);
    const entry = this.#files.get(abs);
    return entry !== undefined && this.#folded.get(this.#fold(abs)) === entry ? entry : this.get(abs);
  }

  /** The latest write of a file in the folder `abs` (or of a folder above it): what a local package holds. */
  under(abs: string): Written | undefined {
    abs = this.canon(abs);
    let best = this.get(abs);
    const prefix = `${this.#fold(abs)}/`;
    for (const [folded, w] of this.#folded) if (folded.startsWith(prefix) && (best === undefined || w.seq > best.seq)) best = w;
    for (const p of this.#patterns) if (this.#fold(p.key).startsWith(prefix) && (best === undefined || p.w.seq > best.seq)) best = p.w;
    return best;
  }

  #tests = 0;
  /**
   * Patterns a command line wrote through (`curl -o tests/test_[a].py`, `cp x src/*.py`), each with the
   * files on disk it may name: the shell expands it against the disk, which plangate does not list.
   */
  readonly #patterns: { key: string; re: RegExp; w: Written }[] = [];
  /**
   * Each written file a pattern matches, and each file on disk it may name, now holds a text the plan does
   * not know (past the bound on matching or on patterns kept, the pattern's whole folder does).
   */
  setPattern(pattern: string, tree: boolean, w: Omit<Written, "seq">): void {
    let folder = pattern.slice(0, pattern.slice(0, pattern.search(/[*?[]/)).lastIndexOf("/"));
    // The folder the pattern's names are looked up in, as the file system finds it (written paths are so spelt).
    if (folder !== "") {
      const real = this.canon(folder);
      pattern = real + pattern.slice(folder.length);
      folder = real;
    }
    if (this.#tests + this.#files.size > MAX_PATTERN_TESTS || (!w.gone && this.#patterns.length >= MAX_PATTERNS)) {
      this.set(folder === "" ? "/" : folder, { ...w, tree: true });
      return;
    }
    this.#tests += this.#files.size;
    const re = patternRegex(pattern, tree);
    const hits: string[] = [];
    for (const abs of this.#files.keys()) if (re.test(abs)) hits.push(abs);
    for (const abs of hits) this.set(abs, w);
    // A removal brings in no text: what it leaves of the project's files is the project's.
    if (!w.gone) this.#patterns.push({ key: pattern, re, w: { ...w, tree, seq: ++this.#seq } });
  }

  /** The latest of `best` and the patterns written through that may name `abs` (canonical), as what the file holds. */
  #pattern(abs: string, best: Written | undefined): Written | undefined {
    for (const p of this.#patterns)
      if ((best === undefined || p.w.seq > best.seq) && p.re.test(abs)) best = { ...p.w, how: p.w.background ? p.w.how : `written by a command line through the pattern ${relative(this.workspace, p.key)}, which the shell may expand to this file` };
    return best;
  }

  #loadTests = 0;
  /** Each path written, in the order first written; the paths ever written as a folder whole. */
  readonly #order = new Map<string, number>();
  readonly #treeKeys = new Set<string>();
  /** For each load's expression: how many paths (in #order) it was tested against, and those it matched. */
  readonly #loadIndex = new Map<RegExp, { tested: number; hits: string[]; via: Map<string, string> }>();
  /**
   * What a program that loads files by their names may find of the plan's writes: each written file
   * whose path `re` matches, and each folder written whole (any file in it may match), as they stand
   * now; removed ones are left out. Each path is tested against an expression once (a plan of many runs
   * of one test runner does not test every written path again at each). Undefined past the bound on
   * matching (MAX_PATTERN_TESTS).
   */
  loadable(re: RegExp, trees: ((abs: string) => boolean) | undefined): readonly { abs: string; w: Written; via?: string }[] | undefined {
    let index = this.#loadIndex.get(re);
    if (index === undefined) this.#loadIndex.set(re, (index = { tested: 0, hits: [], via: new Map() }));
    const size = this.#order.size;
    // Folders written whole are looked at again at each run: they count each time.
    this.#loadTests += size - index.tested + (trees !== undefined ? this.#treeKeys.size : 0) + this.#patterns.length;
    if (this.#loadTests > MAX_PATTERN_TESTS) return undefined;
    if (index.tested < size) {
      let i = 0;
      for (const abs of this.#order.keys()) {
        if (i++ < index.tested) continue;
        if (abs.startsWith(`${this.workspace}/`) && re.test(abs)) index.hits.push(abs);
        // A file the program finds under another name, through a link of the workspace.
        else if (!this.#files.get(abs)!.tree && abs !== "/") {
          const via = this.reachedAs(abs, re);
          if (via === undefined) continue;
          index.hits.push(abs);
          index.via.set(abs, via);
        }
      }
      index.tested = size;
    }
    // Nothing written that the program finds: the common case of a plan that runs a test runner at every step.
    if (index.hits.length === 0 && (trees === undefined || this.#treeKeys.size === 0) && this.#patterns.length === 0) return NOTHING_LOADABLE;
    const out: { abs: string; w: Written; at: number; via?: string }[] = [];
    const add = (abs: string, entry: Written, via?: string) => {
      const w = this.#current(abs);
      if (w === undefined || w.gone || !(entry.tree || w.tree || w.content !== undefined || w.lazy !== undefined || foreignText(w.by))) return;
      out.push({ abs, w: entry.tree && w.tree === undefined ? { ...w, tree: true } : w, at: this.#order.get(abs)!, ...(via !== undefined ? { via } : {}) });
    };
    for (const abs of index.hits) {
      const entry = this.#files.get(abs)!;
      if (!entry.tree) add(abs, entry, index.via.get(abs));
    }
    if (trees !== undefined)
      for (const abs of this.#treeKeys) {
        const entry = this.#files.get(abs)!;
        if (entry.tree && trees(abs)) add(abs, entry);
      }
    // A pattern written through may name a file on disk the program finds: one that ends in a pattern may name any.
    for (const { key, re: names, w } of this.#patterns) {
      const folder = key.slice(0, key.slice(0, key.search(/[*?[]/)).lastIndexOf("/"));
      const may = w.tree ? trees !== undefined && trees(folder === "" ? "/" : folder) : (key.startsWith(`${this.workspace}/`) && (/[*?\]]$/.test(key) || re.test(key))) || this.#linkedThrough(key, names, re);
      if (may && (w.tree || w.background || foreignText(w.by))) out.push({ abs: key, w, at: this.#order.size });
    }
    return out.sort((a, b) => a.at - b.at);
  }

  /** May a program that loads the files `re` matches find one that a pattern written through (`names`, from `key`) names, through a link of the workspace? */
  #linkedThrough(key: string, names: RegExp, re: RegExp): boolean {
    const links = this.links();
    if (links.unlisted !== undefined) return true;
    if (links.links.length === 0) return false;
    return links.links.some((l) => re.test(l.name) && names.test(l.target)) || this.reachedAs(key, re) !== undefined;
  }

  /** The written files named `name` in any folder (folded), as absolute paths. */
  named(name: string): readonly string[] {
    const set = this.#byName.get(foldName(name));
    return set ? [...set] : [];
  }
}

/**
 * Programs whose words name files they rewrite in place from their own text (formatters, fixers) or
 * only run or read (interpreters, test runners): what such a program leaves in a file is not a text
 * brought in from elsewhere, so a program that loads the file later runs the plan's or the project's code.
 */
const KEEPS_CODE = new Set([
  "black", "ruff", "isort", "autopep8", "autoflake", "yapf", "pyupgrade", "prettier", "eslint", "biome", "dprint", "stylelint", "standard", "gofmt", "goimports", "gofumpt",
  "rustfmt", "clang-format", "rubocop", "standardrb", "php-cs-fixer", "phpcbf", "shfmt", "mix", "ktlint", "google-java-format", "swiftformat", "swift-format", "elm-format", "stylua", "taplo",
  "mypy", "pyright", "tsc", "flake8", "pylint", "golangci-lint", "shellcheck", "cargo", "go", "terraform", "dotnet",
]);
/** Does a program that wrote a file (CommandPath.program; "" for a redirection) bring in a text from elsewhere, as far as a program loading the file later is concerned? */
function foreignText(by: string | undefined): boolean {
  if (by === undefined || by === "") return true;
  let foreign = FOREIGN_TEXT.get(by);
  if (foreign === undefined) {
    foreign = !(KEEPS_CODE.has(by) || interpreterOf(by) !== undefined || (loadsOf(by, []).length > 0 && !/^(?:make|gmake|bmake|just|task|npm|pnpm|yarn|bun|deno|git)$/.test(by)));
    if (FOREIGN_TEXT.size < 4096) FOREIGN_TEXT.set(by, foreign);
  }
  return foreign;
}
/** foreignText by program: a plan's lines name few programs, each asked about at every load of every line. */
const FOREIGN_TEXT = new Map<string, boolean>();

/**
 * A load's file patterns as one expression of absolute paths, ignoring case: the ends of paths (`**`:
 * any folders; `*`, `?`: within a name), or for a load found at the project's root, paths from it.
 */
function loadRegex(load: Load, workspace: string): RegExp {
  const esc = (t: string) => t.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
  const one = (p: string) => esc(p).replace(/\\\*\\\*|\\\*|\\\?/g, (g) => (g === "\\*\\*" ? ".*" : g === "\\*" ? "[^/]*" : "[^/]"));
  return new RegExp(`${load.root ? `^${esc(workspace)}/` : "(?:^|/)"}(?:${load.files.map(one).join("|")})$`, "i");
}

/** Could a folder written whole hold a file the load finds (for one found at the root: the root, a folder above it, or one its patterns name)? */
function treeHolds(load: Load, workspace: string, abs: string): boolean {
  if (abs === "/" || workspace === abs || workspace.startsWith(`${abs}/`)) return true;
  if (!abs.startsWith(`${workspace}/`)) return false;
  if (!load.root) return true;
  const rel = abs.slice(workspace.length + 1).toLowerCase();
  return load.files.some((p) => {
    const first = p.split("/")[0]!.toLowerCase();
    return p.includes("/") && (rel === first || rel.startsWith(`${first}/`));
  });
}

function foldPath(abs: string): string {
  return abs.split("/").map(foldName).join("/");
}

/** The folders a step's command runs in, as the path rules read them (commands/paths.ts workingFolders). */
function foldersOf(command: StepCommand, facts: PlanFacts, dialect: Plan["dialect"]): string[] {
  const folders = facts.step(command.step).folders();
  const args = command.step.args;
  const runsIn = dialect === "teddy" ? /^cwd$/ : /^(?:cwd|workdir|workingdir|workingdirectory)$/;
  const named = folders.some((f) => Object.hasOwn(args, f.name) && args[f.name] === f.value && runsIn.test(f.name.replace(/[^A-Za-z0-9]+/g, "").toLowerCase()));
  const out = folders.slice(0, 16).map((f) => f.value);
  if (!named) out.unshift("");
  return out;
}

/** A path of a command from the workspace root, absolute; undefined for one the shell expands (`~`). */
function absoluteOf(workspace: string, base: string, cwd: string, text: string): string | undefined {
  if (text.startsWith("~") || text.includes("\0")) return undefined;
  const key = `${workspace}\0${base}\0${cwd}\0${text}`;
  let abs = ABSOLUTE.get(key);
  if (abs === undefined) {
    abs = text.startsWith("/") ? resolvePosix("/", text) : resolvePosix(workspace, [base, cwd, text].filter((s) => s !== "").join("/"));
    if (ABSOLUTE.size >= 65536) ABSOLUTE.clear();
    ABSOLUTE.set(key, abs);
  }
  return abs;
}
/** absoluteOf's answers: the runs and paths of a plan's lines repeat, each looked up at every line. */
const ABSOLUTE = new Map<string, string>();

/** The edit's new text, when the old one is held and the text to find occurs once (or every occurrence is replaced). */
function replay(text: string, find: string, replace: string, all: boolean): string | undefined {
  if (find === "") return undefined;
  const first = text.indexOf(find);
  if (first < 0) return undefined;
  if (all) return text.split(find).join(replace);
  if (text.indexOf(find, first + 1) >= 0) return undefined;
  return text.slice(0, first) + replace + text.slice(first + find.length);
}

/**
 * Arguments of a write step that say nothing about the text written: its path, its text, an edit's
 * pairs and how they apply, and words for the reader. Any other argument may change what the file holds
 * (`mode: "append"`, `encoding: "base64"`, `insert_line`, `offset`), so the text is then not known.
 */
const PLAIN_WRITE_ARGUMENTS = new Set(["edits", "replace_all", "replaceall", "description", "explanation", "reason", "intent", "overwrite", "create_dirs", "createdirs", "create_directories", "createdirectories", "mkdir", "parents"]);
/** The `command` of a text editor tool (`str_replace_based_edit_tool`) that writes a whole text or replaces one. */
const PLAIN_EDITOR_COMMANDS = new Set(["create", "write", "str_replace"]);
/** Encodings in which the text is written as it stands. */
const PLAIN_ENCODING = /^(?:utf-?8|utf8|text|plain|ascii|us-ascii)$/i;
/** A tool whose name says it adds to a file, or patches it, rather than writing its whole text. */
const ADDING_TOOL = /append|insert|prepend|patch|diff/i;
/** A tool whose name says it writes a file: with a text argument and no path plangate reads, it writes a file plangate cannot name. */
const FILE_TOOL = /file|write|save|create|edit|put|upload/i;
/** Text arguments that are a file's text whatever the tool is called. */
const FILE_TEXT = new Set(["content", "contents", "file_text", "new_content", "file_content", "source_code"]);

/** Why a write step's arguments leave its text unknown, or undefined when they are only its path, its text and its edits. */
function unplainArguments(step: Step, paths: ReadonlySet<string>): string | undefined {
  if (step.tool !== undefined && ADDING_TOOL.test(step.tool)) return `written by ${step.tool}, which adds to the file rather than writing its whole text`;
  for (const [k, v] of Object.entries(step.args)) {
    const lower = k.toLowerCase();
    if (paths.has(k) || WHOLE_TEXT.includes(k) || EDIT_PAIRS.some(([a, b]) => a === k || b === k) || PLAIN_WRITE_ARGUMENTS.has(lower)) continue;
    if (lower === "command" && typeof v === "string" && PLAIN_EDITOR_COMMANDS.has(v)) continue;
    if ((lower === "encoding" || lower === "charset") && typeof v === "string" && PLAIN_ENCODING.test(v)) continue;
    if (lower === "mode" && typeof v === "string" && /^(?:w|write|overwrite|create|replace)$/i.test(v)) continue;
    return `written with the argument "${k}", which may change the text the file holds`;
  }
  return undefined;
}

/** The file and text of iKOMA's `filename_and_content: "name|||text"`. */
function nameAndContent(args: Record<string, unknown>): { path: string; content: string } | undefined {
  const v = args.filename_and_content;
  if (typeof v !== "string") return undefined;
  const cut = v.indexOf("|||");
  return cut < 0 ? undefined : { path: v.slice(0, cut), content: v.slice(cut + 3) };
}

/** What a step writes through its arguments (a write tool, a TeDDy CREATE or EDIT), applied to the files written so far. */
function applyStep(step: Step, facts: PlanFacts, state: WrittenFiles, runsCommands: boolean): void {
  const action = actionOf(step);
  if (action !== undefined) {
    if (action.path === undefined || action.path === "") return;
    const place = facts.paths.inWorkspace(action.path);
    const abs = place.abs;
    // A CREATE without Overwrite fails on a file an earlier step wrote: the file keeps what that step left.
    if (action.type === "CREATE") {
      if (action.overwrite || state.get(abs) === undefined) state.set(abs, { step: step.position, content: normalize(action.content ?? "") });
    }
    else if (action.type === "EDIT") {
      const base = baseText(state, facts, place);
      const how = "edited in place, so its whole text is not in the plan";
      const pairs = action.edits;
      if (base === undefined || pairs.some((p) => p.find === undefined || p.replace === undefined)) state.set(abs, { step: step.position, how });
      else
        state.set(abs, {
          step: step.position,
          how,
          lazy: once(() => pairs.reduce<string | undefined>((text, p) => (text === undefined ? undefined : replayOn(text, normalize(p.find!), normalize(p.replace!), action.matchAll)), base())),
        });
    }
    return;
  }
  const f = facts.step(step);
  if (!f.writes) return;
  const args = step.args;
  // iKOMA's create_text_file: the file's name and its text in one argument.
  if (Object.hasOwn(args, "filename_and_content")) {
    const joined = nameAndContent(args);
    if (joined !== undefined && Object.keys(args).length === 1) state.set(facts.paths.inWorkspace(joined.path).abs, { step: step.position, content: joined.content });
    else state.set("/", { step: step.position, tree: true, how: 'written through "filename_and_content" without one "name|||text" as its only argument, so which file it writes is not known' });
    return;
  }
  const named = f.pathArgs.filter((a) => a.constraint === undefined);
  const paths = [...new Set(named.map((a) => a.value))];
  const texts = WHOLE_TEXT.filter((k) => typeof args[k] === "string");
  const whole = texts[0];
  const edits: [string, string, boolean][] = [];
  // An edit is one pair of texts (and whether every occurrence is replaced): a second spelling of either
  // text, a text without its pair, or a `replace_all` that is not one boolean may be what the tool applies
  // instead (null: the edit is not known).
  const pairOf = (o: Record<string, unknown>): [string, string, boolean] | null | undefined => {
    const named = Object.keys(o).filter((k) => EDIT_KEYS.has(k));
    if (named.length === 0) return undefined;
    const flags = Object.keys(o).filter((k) => /^replace_?all$/i.test(k)).map((k) => o[k]);
    if (named.length !== 2 || flags.some((f) => typeof f !== "boolean" || f !== flags[0])) return null;
    for (const [a, b] of EDIT_PAIRS) if (typeof o[a] === "string" && typeof o[b] === "string") return [o[a], o[b], flags[0] === true];
    return null;
  };
  const top = pairOf(args);
  if (top) edits.push(top);
  // A pair beside a list of edits: which the tool applies is not known.
  let editable = top !== null && !(top !== undefined && args.edits !== undefined);
  if (Array.isArray(args.edits))
    for (const e of args.edits) {
      // Each edit of a list says for itself whether it replaces every occurrence (MultiEdit's `replace_all`).
      const o = e !== null && typeof e === "object" ? (e as Record<string, unknown>) : undefined;
      const p = o !== undefined ? pairOf(o) : undefined;
      if (p && Object.keys(o!).every((k) => EDIT_KEYS.has(k) || /^replace_?all$/i.test(k))) edits.push(p);
      else editable = false;
    }
  // An edit argument plangate cannot replay still writes the file: its text is then unknown.
  const edited = edits.length > 0 || !editable;
  const writesText = whole !== undefined || edited;
  if (paths.length === 0) {
    // A file's text written under a name plangate does not read as a path (`{name: "x.sh", content}`):
    // the file may be any, so every file is written with a text plangate does not know.
    if (!runsCommands && writesText && (texts.some((k) => FILE_TEXT.has(k)) || edited || (step.tool !== undefined && FILE_TOOL.test(step.tool))))
      state.set("/", { step: step.position, tree: true, how: "written by a tool whose file plangate cannot make out: none of its arguments is one plangate reads as a path (name it in the policy's paths.arguments)" });
    return;
  }
  // A folder and a name (`{dir: "scripts", name: "x.sh"}`), or several paths: the file may be any under them.
  const folders = new Set(f.folders().map((a) => a.value));
  const unknown = !writesText
    ? undefined
    : paths.length > 1 || paths.some((p) => folders.has(p))
      ? "written by a tool that names more than one path or a folder, so which file holds its text is not known"
      : texts.length > 1 && texts.some((k) => args[k] !== args[whole!])
        ? `written by a tool given its text in more than one argument (${texts.join(", ")})`
        : whole !== undefined && edited
          ? "written by a tool given both a whole text and an edit"
          : unplainArguments(step, new Set(named.map((a) => a.name)));
  if (unknown !== undefined) {
    for (const p of paths) state.set(facts.paths.inWorkspace(p).abs, { step: step.position, how: unknown, tree: paths.length > 1 || folders.has(p) });
    return;
  }
  for (const p of paths) {
    const place = facts.paths.inWorkspace(p);
    const abs = place.abs;
    if (whole !== undefined) {
      state.set(abs, { step: step.position, content: args[whole] as string });
      continue;
    }
    const base = edits.length > 0 && editable ? baseText(state, facts, place) : undefined;
    const how = edited ? "edited in place, so its whole text is not in the plan" : "written by the tool without its whole text in one argument";
    state.set(abs, base !== undefined ? { step: step.position, how, lazy: once(() => edits.reduce<string | undefined>((text, [find, replace, every]) => (text === undefined ? undefined : replayOn(text, find, replace, every)), base())) } : { step: step.position, how });
  }
}

/** An edit replayed on a text: on one whose lines end in CR LF, a text to find written with LF ends its lines so too. */
function replayOn(text: string, find: string, replace: string, all: boolean): string | undefined {
  if (text.includes("\r\n") && !find.includes("\r")) return replay(text, find.replace(/\n/g, "\r\n"), replace.replace(/\r?\n/g, "\r\n"), all);
  return replay(text, find, replace, all);
}

/**
 * The text an edit applies to: what the plan wrote there, or else the file's text on disk (a file of the
 * workspace the plan has not written, read through the validation's probe, as the TeDDy edit rules read
 * it): an edit of `package.json` before `npm install`, or of an existing script before it runs, is then
 * replayed and its result judged. A file written under another spelling, in a folder written whole or
 * beyond MAX_CARRIED or past MAX_DISK_BASES read in all, has no text to start from.
 */
function baseText(state: WrittenFiles, facts: PlanFacts, place: { abs: string; inside: boolean; kind?: string }): (() => string | undefined) | undefined {
  const written = state.get(place.abs);
  if (written !== undefined) return written.content !== undefined || written.lazy !== undefined ? once(() => textOf(written)) : undefined;
  if (!place.inside || place.kind !== "file") return undefined;
  // Read when the result is first needed (few edits ever are: a script run, a manifest read), in the order needed.
  return once(() => {
    const size = facts.paths.files.size(place.abs);
    // A plan of many edits of large files must not have them all read: past the bound, the edited text is unknown.
    if (size === undefined || size > MAX_CARRIED || state.diskRead + size > MAX_DISK_BASES) return undefined;
    state.diskRead += size;
    // The text as it is on disk: a CR LF file keeps its CRs, which the shell reads as part of the words.
    return facts.paths.files.readText(place.abs);
  });
}

function normalize(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/**
 * The files a command line may write the text of (CommandReport.paths), as absolute paths: what it names
 * but reads, copies from, runs, or only touches. A folder a program plangate does not know is given
 * (`mytool tests/sub`, `protoc --python_out=gen`) may get any file, and so may the folder a program
 * that writes files no word names runs in (CommandReport.generates): each is written whole.
 */
function lineWrites(report: CommandReport, workspace: string, bases: readonly string[], state?: WrittenFiles): LineWrite[] {
  const out: LineWrite[] = [];
  const generates = (report.generates ?? []).filter((g) => g.program === "" || !g.fetched || !knowsPackage(g.program));
  if (report.paths.length === 0 && generates.length === 0) return out;
  const { runs, byPath } = runWords(report);
  for (const p of report.paths) {
    // A project file the program rewrites without naming it: after what the line runs and loads before it.
    if (p.rewritten !== undefined) {
      for (const base of bases) {
        const abs = absoluteOf(workspace, base, p.cwd, p.text);
        // Its text is from elsewhere (as a redirection's), whichever program wrote it.
        if (abs !== undefined) out.push({ abs, tree: p.tree === true, by: "", how: p.rewritten.how, after: p.rewritten.after });
      }
      continue;
    }
    if (p.program === "mkdir" && state !== undefined && !p.read)
      for (const base of bases) {
        const abs = absoluteOf(workspace, base, p.cwd, p.text);
        if (abs !== undefined) state.madeFolder(abs);
      }
    if (p.read || p.source || (p.program !== undefined && KEEPS_TEXT.has(p.program)) || runs.has(`${p.cwd}\0${p.text}\0${p.program ?? ""}`)) continue;
    const by = p.program ?? "";
    const gone = p.program !== undefined && REMOVERS.has(p.program) ? { gone: true as const, by: p.program } : { by };
    const generator = generates.find((g) => g.program === by && g.cwd === p.cwd);
    const unknown = generator === undefined && by !== "" && !byPath.has(by) && !knowsWrites(by);
    for (const base of bases) {
      const abs = absoluteOf(workspace, base, p.cwd, p.text);
      if (abs === undefined) continue;
      // A pattern writes the files it matches (`sed -i ... *.sh`); a folder written whole, or one a program copies into, every file in it.
      if (p.glob && /[*?[]/.test(p.text)) out.push({ abs, tree: p.tree === true || generator !== undefined, pattern: true, ...gone });
      else if (generator !== undefined) {
        // What it is given outside the folder it runs in (which is written whole below) is written whole too.
        const folder = absoluteOf(workspace, base, p.cwd, ".");
        if (folder === undefined || !(abs === folder || abs.startsWith(`${folder}/`))) out.push({ abs, tree: true, by, foreign: true, how: generatedHow(by), generated: generatedBy(generator) });
      }
      else if (unknown && state?.mayBeFolder(abs, p.text)) out.push({ abs, tree: true, by, how: `written by ${by}, which plangate does not know: it may write any file in the folder it is given` });
      else out.push({ abs, tree: p.tree === true || (p.program !== undefined && INTO_FOLDER.has(p.program)), ...gone });
      if (p.program !== undefined && RENAMING.has(p.program) && COMPRESSED.test(abs)) out.push({ abs: abs.replace(COMPRESSED, ""), tree: false, by: p.program });
      // split's and csplit's prefix is their last operand; uudecode writes where its input says, from the folder it runs in.
      if (p.program !== undefined && NAMES_UNSEEN.has(p.program) && (p.program === "uudecode" || !report.paths.slice(report.paths.indexOf(p) + 1).some((q) => q.program === p.program && q.cwd === p.cwd)))
        out.push({ abs: p.program === "uudecode" ? (absoluteOf(workspace, base, p.cwd, ".") ?? abs) : abs.slice(0, Math.max(abs.lastIndexOf("/"), 1)), tree: true, by: p.program });
    }
  }
  // A program that writes files no word names: every file of the folder it runs in (anywhere, for one whose folder is not known).
  for (const g of generates)
    for (const base of bases) {
      const folder = g.cwd.startsWith("/") ? resolvePosix("/", g.cwd) : (absoluteOf(workspace, base, g.cwd, ".") ?? "/");
      out.push({ abs: folder, tree: true, by: g.program, foreign: true, how: generatedHow(g.program), generated: generatedBy(g) });
    }
  return out;
}

const RUN_WORDS = new WeakMap<CommandReport, { runs: ReadonlySet<string>; byPath: ReadonlySet<string> }>();
/** A report's runs as lineWrites looks them up, once per report (a script run again is judged from the same report). */
function runWords(report: CommandReport): { runs: ReadonlySet<string>; byPath: ReadonlySet<string> } {
  let words = RUN_WORDS.get(report);
  if (words === undefined) {
    words = {
      // The word that names a run is the runner's (`bash build.sh`, `./build.sh`): it is run, not written.
      runs: new Set((report.runs ?? []).map((r) => `${r.cwd}\0${r.text}\0${r.owner ?? ""}`)),
      // A program run by its path is the project's (or the plan's, judged by its text): what it writes is its own, as a makefile's recipes are.
      byPath: new Set((report.runs ?? []).filter((r) => r.as === "program").map((r) => r.owner ?? "")),
    };
    RUN_WORDS.set(report, words);
  }
  return words;
}

/** The programs a write of a generator comes after on its line: the generator and the runner that fetches it, whose own runs and loads come first. */
function generatedBy(g: CommandGenerates): readonly string[] {
  if (g.program === "") return [];
  if (g.runner === undefined) return [g.program];
  // A package fetched under a program's name is named with its runner (`npx cat`): its runs are the program's (`cat`).
  return g.program.startsWith(`${g.runner} `) ? [g.program, g.runner, g.program.slice(g.runner.length + 1)] : [g.program, g.runner];
}

/** How a folder a program writes without naming its files was written, for messages. */
function generatedHow(program: string): string {
  return program === "" ? "written by one of many programs of a line that write files no word names" : `written by ${program}, which writes files from elsewhere that no word of the line names`;
}

/**
 * Programs whose words name what they read or the files they write, no folder they fill: what a
 * program plangate does not know is given as a folder (`mytool tests/sub`) may get any file.
 */
const NAMES_ITS_WRITES = new Set([
  "find", "gfind", "fd", "fdfind", "tree", "rg", "ag", "ack", "ugrep", "sort", "gsort", "tee", "dd", "truncate", "mktemp", "jq", "gojq", "jaq", "yq", "xq", "sed", "gsed", "xxd", "base64", "base32", "iconv", "dos2unix", "unix2dos",
  "cut", "paste", "join", "uniq", "tr", "column", "fmt", "fold", "expand", "unexpand", "rev", "tac", "shuf", "nl", "od", "hexdump", "strings", "bat", "glow", "less", "more", "man", "file", "ldd", "otool",
  "openssl", "ssh-keygen", "gpg", "gpg2", "age", "minisign", "signify", "gcc", "cc", "c++", "g++", "clang", "clang++", "ld", "lld", "ld.lld", "as", "nasm", "strip", "objcopy", "objdump", "nm", "ranlib",
  "zip", "unzip", "7z", "7za", "7zz", "7zr", "tar", "gtar", "bsdtar", "cpio", "ar", "patch", "gpatch", "curl", "wget", "aria2c",
  "docker", "podman", "buildah", "nerdctl", "kubectl", "helm", "kind", "minikube", "k3d", "gh", "glab", "aws", "gcloud", "gsutil", "az", "ssh", "sftp", "nc", "ncat", "socat",
  "ffmpeg", "ffprobe", "convert", "magick", "identify", "pandoc", "sqlite3", "psql", "mysql", "mariadb", "duckdb", "redis-cli", "mongosh",
  "ctags", "etags", "cloc", "tokei", "scc", "hadolint", "yamllint", "markdownlint", "markdownlint-cli2", "codespell", "cspell", "vale", "bandit", "semgrep", "trivy", "gitleaks", "detect-secrets", "safety", "pip-audit", "vulture", "radon", "pydocstyle", "pycodestyle", "jsonlint", "xmllint", "tidy", "lychee",
  "sphinx-apidoc", "sphinx-quickstart", "pyreverse", "pydeps", "pipdeptree", "pip-compile", "pip-sync", "docformatter", "nbstripout", "jupytext", "nbqa", "typos", "sqlfluff", "clang-tidy", "cppcheck", "cpplint", "swiftlint", "detekt", "staticcheck", "govulncheck", "gosec", "revive", "errcheck", "hyperfine",
  "r", "rscript", "ansible-lint", "kubeval", "kubeconform", "conftest", "checkov", "tflint", "tfsec", "terrascan", "actionlint", "shfmt", "editorconfig-checker", "commitizen", "cz", "license-checker", "depcheck", "madge", "jscpd", "lizard", "sloccount", "licensee", "reuse", "grype", "syft", "osv-scanner", "snyk", "sonar-scanner",
  "date", "sleep", "which", "whereis", "type", "kill", "pkill", "pgrep", "ps", "open", "xdg-open", "code", "cursor", "subl", "vim", "vi", "nvim", "nano", "emacs", "watch", "time", "seq", "yes", "bc", "expr", "numfmt", "printenv", "id", "uname", "hostname", "whoami", "df", "free", "uptime", "lsof", "netstat", "ss", "ping", "dig", "nslookup", "host", "traceroute", "xargs", "env", "nohup", "timeout", "sudo",
]);

/**
 * Is a package a runner fetches one whose writes plangate knows (a formatter, a test runner or build, a
 * remover: `npx prettier`, `uvx ruff`, `npx rimraf`)? Not a system program's name (`npx sort` fetches
 * a package of that name, which may do anything).
 */
function knowsPackage(name: string): boolean {
  return KEEPS_CODE.has(name) || isLoader(name) || (REMOVERS.has(name) && !name.includes(" ") && !/^g?(?:rm|rmdir|unlink)$|^shred$/.test(name));
}

/**
 * Does plangate know what a program writes through its words, so that a folder it is given is not
 * written whole: one that only reads or touches them, removes them, copies into them, renames, formats,
 * runs or loads them, a shell, an interpreter, git, a database client, or one of NAMES_ITS_WRITES.
 */
function knowsWrites(program: string): boolean {
  if (program.startsWith("git ") || program === "git") return true;
  return KEEPS_TEXT.has(program) || REMOVERS.has(program) || INTO_FOLDER.has(program) || RENAMING.has(program) || NAMES_UNSEEN.has(program) || KEEPS_CODE.has(program) || NAMES_ITS_WRITES.has(program) || SHELL_NAMES.has(program) || SQL_LINE.has(program) || interpreterOf(program) !== undefined || isLoader(program);
}

/** A file (or folder, or pattern) a command line may write the text of. */
interface LineWrite {
  abs: string;
  tree: boolean;
  /** How it was written, for messages, when not as a command line's ordinary write. */
  how?: string;
  /** Written by a program that writes files no word names (CommandReport.generates): what these programs run or load on its line comes before it writes. */
  generated?: readonly string[];
  /** The line runs a command in the background (`&`): the write may land after later steps. */
  background?: boolean;
  /** `abs` is a pattern of names (`*`, `?`, `[...]`), each segment matched as the shell matches it. */
  pattern?: true;
  /** Removed by the line (`rm -r dir`). */
  gone?: true;
  /** The program whose word names it ("" for a redirection's target). */
  by: string;
  /** Written by git from a repository other than the project's (a remote the plan adds, a URL it fetches). */
  foreign?: true;
  /** Rewritten by a program that names no file (CommandPath.rewritten): the line's runs before this index come before the write. */
  after?: number;
}

/** What one command line writes, for its own runs: files and folders (true: written whole), and patterns. */
interface LineIndex {
  files: Map<string, boolean>;
  patterns: RegExp[];
  /** Folders written whole by programs that write files no word names (LineWrite.generated), apart: not before their own runs. */
  generated: LineWrite[];
  /** Every write of the line, as listed. */
  writes: readonly LineWrite[];
  /** Files rewritten by programs that name none (LineWrite.after), apart: only the runs after each see it. */
  rewritten: LineWrite[];
  /** Each write's path as the file system finds it when a program may find it under another name, else null: looked up once per line, not at each load. */
  otherNames: Map<string, string | null>;
}

function lineIndex(writes: readonly LineWrite[]): LineIndex {
  const index: LineIndex = { files: new Map(), patterns: [], generated: [], writes, rewritten: [], otherNames: new Map() };
  for (const x of writes)
    if (x.after !== undefined) index.rewritten.push(x);
    else if (x.generated !== undefined) index.generated.push(x);
    else if (x.pattern) index.patterns.push(patternRegex(x.abs, x.tree));
    else index.files.set(x.abs, (index.files.get(x.abs) ?? false) || x.tree);
  return index;
}

/** A shell pattern as a regular expression of whole paths (`*` and `?` within a segment; `[...]` as a class; with `tree`, anything under a match too). */
function patternRegex(pattern: string, tree: boolean): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close < 0) re += "\\[";
      else {
        // Any character of the segment: a class is read widely, which marks more files written at worst.
        re += "[^/]";
        i = close;
      }
    } else re += c.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
  }
  return new RegExp(`^${re}${tree ? "(?:/.*)?" : ""}$`, "i");
}

/** The shell or interpreter a script's `#!` line names: `shell`, an interpreter's name, or undefined with the program named. */
function shebangOf(content: string): { as: string } | { other: string } {
  if (!content.startsWith("#!")) return { as: "shell" };
  const line = content.slice(2, content.indexOf("\n") < 0 ? content.length : content.indexOf("\n")).trim();
  const words = line.split(/[ \t]+/);
  let program = words[0]?.slice(words[0].lastIndexOf("/") + 1) ?? "";
  if (program === "env") program = words.slice(1).find((w) => !w.startsWith("-") && !w.includes("=")) ?? "";
  if (SHELL_NAMES.has(program)) return { as: "shell" };
  const script = scriptFileOf(program, [{ source: "x", value: "x", glob: false, start: 0, end: 0 }]);
  return script !== undefined ? { as: script.interpreter } : { other: program === "" ? line : program };
}

/** A judgement of the runs of one command line: its new findings, paths, writes outside, and the runs it answered. */
interface Judged {
  findings: CommandFinding[];
  paths: CommandPath[];
  outside: CommandOutside[];
  handled: Set<number>;
  /** Files the written scripts write in their turn. */
  writes: LineWrite[];
  /** The files judged for the line, with how they are run. */
  judged: Set<string>;
}

/** Is a run's `as` a language's code (judged by commands.writtenCode), not a text plangate reads (a shell's, sed's, awk's, a database client's, an environment file, a manifest)? */
function isCode(as: string): boolean {
  return as !== "program" && as !== "package" && as !== "manifest" && as !== "shell" && as !== "sed" && as !== "awk" && as !== "dotenv" && as !== "deps" && !SQL_LINE.has(as);
}

/** A path from the workspace root, for messages (absolute when outside it). */
function relative(workspace: string, abs: string): string {
  return abs.startsWith(`${workspace}/`) ? abs.slice(workspace.length + 1) : abs;
}

/** The order in which a report's runs are judged, once per report. */
const RUN_ORDER = new WeakMap<readonly CommandRun[], number[]>();

class Judge {
  judged = 0;
  readonly #regexes = new Map<Load, RegExp>();
  readonly #loadsJudged = new Set<string>();
  readonly #reports = new Map<string, CommandReport>();
  /** The command being followed, where the work runs out if it does. */
  place: WorkPlace = { at: "" };
  /** The validation's writtenRuns work has run out: nothing more is followed (the plan is refused, limit-exceeded). */
  stopped = false;
  constructor(
    readonly state: WrittenFiles,
    readonly policy: Policy,
    readonly analyse: Analyse,
    readonly work?: PlanWork,
  ) {}

  /** Takes units of the validation's writtenRuns work (src/core/work.ts); false once it has run out. */
  #spend(units: number): boolean {
    if (this.stopped) return false;
    if (this.work === undefined || units === 0 || this.work.spend("writtenRuns", units, this.place)) return true;
    this.stopped = true;
    return false;
  }

  /** The analysis of a text, once per text and mode. */
  report(text: string, mode: CommandMode): CommandReport {
    const key = `${mode}\0${text}`;
    let r = this.#reports.get(key);
    if (r === undefined) this.#reports.set(key, (r = this.analyse(text, mode)));
    return r;
  }

  readonly #trees = new Map<Load, (abs: string) => boolean>();
  /** Does a folder written whole hold files `load` finds? Under its own name or any other a link of the workspace gives it (`.husky` linking to `hooks`). */
  #treesOf(load: Load): (abs: string) => boolean {
    let trees = this.#trees.get(load);
    if (trees === undefined) {
      const workspace = this.state.workspace;
      trees = (abs: string) => treeHolds(load, workspace, abs) || (abs !== "/" && (this.state.links().unlisted !== undefined || this.state.aliasesOf(abs).some((a) => treeHolds(load, workspace, a))));
      this.#trees.set(load, trees);
    }
    return trees;
  }

  readonly #tested = new Map<RegExp, Map<string, boolean>>();
  /** `re.test(abs)`, once per expression and path: a plan's lines write the same few paths, each tested against every load of every line. */
  #matches(re: RegExp, abs: string): boolean {
    let paths = this.#tested.get(re);
    if (paths === undefined) this.#tested.set(re, (paths = new Map()));
    let hit = paths.get(abs);
    if (hit === undefined) {
      hit = re.test(abs);
      if (paths.size < 4096) paths.set(abs, hit);
    }
    return hit;
  }

  /** Judges the runs of a report: each run of a file the plan (or the line itself) writes. */
  runs(report: CommandReport, bases: readonly string[], line: LineIndex, step: number, depth: number, out: Judged): void {
    const runs = report.runs;
    if (runs === undefined) return;
    // The files a program loads by itself last: one the line runs by its name is judged as that run.
    let order = RUN_ORDER.get(runs);
    if (order === undefined) {
      order = runs.map((_, i) => i);
      if (runs.some((r) => r.load !== undefined)) order.sort((a, b) => Number(runs[a]!.load !== undefined) - Number(runs[b]!.load !== undefined));
      RUN_ORDER.set(runs, order);
    }
    for (const i of order) {
      if (this.stopped) return;
      const run = runs[i]!;
      if (run.load !== undefined) {
        out.handled.add(i);
        this.#loads(run, run.load, `${run.program} may load`, bases, line, step, depth, out, i);
        if (this.judged > MAX_JUDGED) return;
        continue;
      }
      const hits: { abs: string; w: Written; file: string }[] = [];
      const seen = new Set<string>();
      const look = (abs: string) => {
        if (seen.has(abs)) return;
        seen.add(abs);
        for (let k = abs.length; k > 0; k = abs.lastIndexOf("/", k - 1)) {
          const t = line.files.get(abs.slice(0, k));
          if ((t !== undefined && (k === abs.length || t)) || (k === abs.length && line.patterns.some((re) => re.test(abs)))) {
            hits.push({ abs, file: run.text, w: { step, seq: Infinity, how: "written by a command of the same step" } });
            return;
          }
        }
        const g = line.generated.find((x) => !x.generated!.includes(run.owner ?? "") && (x.abs === "/" || abs === x.abs || abs.startsWith(`${x.abs}/`))) ?? line.rewritten.find((x) => i >= x.after! && (abs === x.abs || (x.tree && abs.startsWith(`${x.abs}/`))));
        if (g !== undefined) {
          hits.push({ abs, file: run.text, w: { step, seq: Infinity, how: g.how ?? "written by a command of the same step" } });
          return;
        }
        const w = run.as === "package" ? this.state.under(abs) : this.state.get(abs);
        // A manifest is found by its folded name anyway: the spellings a runner tries are not twins of each other.
        if (w !== undefined && !(w.twin && run.anywhere)) hits.push({ abs, w, file: run.anywhere ? relative(this.state.workspace, abs) : run.text });
      };
      if (!this.#spend(bases.length)) return;
      for (const base of bases) {
        const abs = absoluteOf(this.state.workspace, base, run.cwd, run.text);
        if (abs !== undefined) look(abs);
      }
      if (run.anywhere) {
        const named = this.state.named(run.text);
        if (!this.#spend(named.length)) return;
        for (const abs of named) look(abs);
      }
      if (hits.length === 0) {
        // A script or program of the project's own, which the plan does not write: what it runs is the project's, and may load any code the plan writes.
        if (run.project && bases.some((b) => absoluteOf(this.state.workspace, b, run.cwd, run.text)?.startsWith(`${this.state.workspace}/`))) {
          for (const load of PROJECT_SCRIPT_LOADS) this.#loads({ ...run, as: load.as, load }, load, `the project's ${run.text} may load`, bases, line, step, depth, out, i);
        }
        continue;
      }
      out.handled.add(i);
      for (const { abs, w, file } of hits) {
        // `make` tries three names: a file found by two of them is judged once.
        const key = `${abs}\0${run.as}\0${run.program}\0${run.scripts?.join(" ") ?? "*"}`;
        if (out.judged.has(key)) continue;
        out.judged.add(key);
        out.judged.add(`ran\0${abs}`);
        this.#judge({ ...run, text: file }, w, bases, line, step, depth, out);
        // Past the bound the line is refused already: the runs left are not looked at.
        if (this.judged > MAX_JUDGED) return;
      }
    }
  }

  /**
   * The files a program loads by itself (`load`) among those the plan writes, the line itself included:
   * each judged as that code run by the program. A folder written whole may hold any of them; a pattern
   * the line writes through, any that its name may match.
   */
  #loads(run: CommandRun, load: Load, by: string, bases: readonly string[], line: LineIndex, step: number, depth: number, out: Judged, at: number): void {
    if (!this.#spend(1 + line.writes.length)) return;
    const workspace = this.state.workspace;
    let re = this.#regexes.get(load);
    if (re === undefined) this.#regexes.set(load, (re = loadRegex(load, workspace)));
    // A script of the project's own: the code files the plan writes, not every folder it fills.
    const trees = run.project ? undefined : this.#treesOf(load);
    let sameLine: Written | undefined;
    const hits: { abs: string; w: Written; tree: boolean; via?: string }[] = [];
    // What the loading program writes itself on the line (`git checkout` before its hooks) is its own doing.
    const own = run.owner ?? "";
    const ownWord = `${own} `;
    const inside = `${workspace}/`;
    for (const x of line.writes) {
      // A file a program rewrites without naming it is seen by the runs after it on the line, its own program's among them.
      if (x.after !== undefined) {
        if (at >= x.after && x.abs.startsWith(`${workspace}/`) && re.test(x.abs)) {
          const base = (sameLine ??= { step, seq: Infinity, how: "written by a command of the same step" });
          hits.push({ abs: x.abs, w: { ...base, how: x.how ?? base.how }, tree: false });
        }
        continue;
      }
      // A tree a git command writes from another repository's history (`git checkout evil/main`) is foreign even to itself.
      if (x.gone || (own !== "" && (x.by === own || x.by.startsWith(ownWord)) && !x.foreign) || x.generated?.includes(own)) continue;
      const foreign = x.pattern || x.tree || foreignText(x.by);
      if (x.pattern ? x.abs.startsWith(inside) && (/[*?\]]$/.test(x.abs) || this.#matches(re, x.abs)) : x.tree ? trees?.(x.abs) === true : foreign && x.abs.startsWith(inside) && this.#matches(re, x.abs))
        hits.push({ abs: x.abs, w: (sameLine ??= { step, seq: Infinity, how: "written by a command of the same step" }), tree: x.tree && !x.pattern && !this.#matches(re, x.abs) });
      // Under another name, through a link of the workspace.
      else if (!x.pattern && !x.tree && foreign) {
        let named = line.otherNames.get(x.abs);
        if (named === undefined) {
          const canon = this.state.canon(x.abs);
          line.otherNames.set(x.abs, (named = this.state.mayHaveOtherNames(canon) ? canon : null));
        }
        const via = named === null ? undefined : this.state.reachedAs(named, re);
        if (via !== undefined) hits.push({ abs: x.abs, w: (sameLine ??= { step, seq: Infinity, how: "written by a command of the same step" }), tree: false, via });
      }
    }
    const found = this.state.loadable(re, trees);
    if (found === undefined) {
      out.findings.push(writtenFinding("unreadable", { program: run.program, file: load.files.join(", "), writer: step, why: `the plan writes more files than plangate matches against what ${run.program} loads` }, run.span));
      return;
    }
    if (!this.#spend(found.length)) return;
    for (const { abs, w, via } of found) hits.push({ abs, w, tree: w.tree === true && !this.#matches(re, abs), ...(via !== undefined ? { via } : {}) });
    for (const { abs, w, tree, via } of hits) {
      // A settings file whose text names no scripts or code (`holds`) is data to the program.
      if (load.holds !== undefined && textOf(w) !== undefined && !load.holds.test(textOf(w)!)) continue;
      // A text the plan does not hold is refused once, whatever language a load reads it as; so is a compiled form.
      const key = w.content === undefined && w.lazy === undefined ? `load\0${abs}` : load.compiled !== undefined ? `load\0${abs}\0compiled` : `load\0${abs}\0${load.as}\0${load.keys?.join() ?? ""}`;
      // A file the line runs by its name is judged as that run; package.json's sections are read beside its scripts.
      if (out.judged.has(key) || (load.keys === undefined && out.judged.has(`ran\0${abs}`))) continue;
      out.judged.add(key);
      // A name plangate cannot see may lead to it (links not all listed, hard links): a program may load it so.
      if (via === "") {
        out.findings.push(writtenFinding("unreadable", { program: run.program, file: relative(workspace, abs), writer: w.step, why: `${run.program} may load it ${this.state.unseenNames(this.state.canon(abs))}` }, run.span));
        continue;
      }
      // A language's code the policy trusts, which the plan writes or edits: nothing to report, nothing to read. Not its compiled forms.
      if (!tree && isCode(load.as) && load.compiled === undefined && (w.content !== undefined || w.lazy !== undefined) && writtenCodeAllowed(this.policy.commands, load.as, run.program)) continue;
      const file = tree ? (abs === "/" ? "any file" : `${relative(workspace, abs)}/**`) : via !== undefined ? `${relative(workspace, via)} (a link to ${relative(workspace, abs)})` : relative(workspace, abs);
      // The same text loaded again by a later command is judged again (its findings are that command's), but counts once towards MAX_JUDGED.
      const again = `${abs}\0${w.seq}\0${load.as}`;
      const first = !this.#loadsJudged.has(again);
      if (first) this.#loadsJudged.add(again);
      this.#judge({ ...run, text: file, as: load.as }, w, bases, line, step, depth, out, by, first);
      if (this.judged > MAX_JUDGED) return;
    }
  }

  /** `counted`: the judgement counts towards MAX_JUDGED (one of a text loaded again does not). */
  #judge(run: CommandRun, w: Written, bases: readonly string[], line: LineIndex, step: number, depth: number, out: Judged, loadedBy?: string, counted = true): void {
    // A file run by its path is run by the system, as its `#!` line says.
    const data = { program: run.as === "program" ? "the shell" : run.program, file: run.text, writer: w.step };
    const refuse = (kind: "unknown" | "manifest" | "unreadable", more: Record<string, string>) => out.findings.push(writtenFinding(kind, { ...data, ...more }, run.span));
    if (!this.#spend(WRITTEN_JUDGED)) return;
    if (counted) this.judged++;
    if (this.judged > MAX_JUDGED) {
      refuse("unreadable", { why: `the plan runs more than ${MAX_JUDGED} files it writes` });
      return;
    }
    if (depth > MAX_DEPTH) {
      refuse("unreadable", { why: `it is run by a file the plan writes more than ${MAX_DEPTH} levels deep, past which plangate does not follow written files` });
      return;
    }
    const via = `${run.text}, which step ${w.step} writes${loadedBy !== undefined ? ` and ${loadedBy}` : ""}`;
    // A compiled form the plan holds the bytes of, or edits: no one reads machine code or bytecode in a plan.
    if (run.load?.compiled !== undefined && (w.content !== undefined || w.lazy !== undefined)) {
      refuse("unreadable", { why: `it is ${run.load.compiled}, which no one reads in a plan: commands.writtenCode trusts a language's source, not its compiled forms` });
      return;
    }
    // An edit's result loaded as a language's code is the project's text and the plan's edits: judged without replaying it.
    if (w.content === undefined && w.lazy !== undefined && loadedBy !== undefined && isCode(run.as)) {
      if (!writtenCodeAllowed(this.policy.commands, run.as, run.program)) out.findings.push(writtenFinding("code", { program: run.program, interpreter: run.as, how: `the file ${via}` }, run.span));
      return;
    }
    const content = textOf(w);
    if (content === undefined) {
      refuse("unknown", { how: w.how ?? "its text is not in the plan" });
      return;
    }
    let as = run.as;
    if (as === "program") {
      const bang = shebangOf(content);
      if ("other" in bang) {
        refuse("unreadable", { why: `its #! line names ${bang.other}, which plangate does not read` });
        return;
      }
      as = bang.as;
    }
    const name = run.text.slice(run.text.lastIndexOf("/") + 1).toLowerCase();
    if (as === "package") {
      refuse("manifest", { kind: "local package" });
      return;
    }
    // A dependency manifest's local paths: each checked as a path the command names, from the manifest's folder.
    if (as === "deps") {
      this.#localPaths(run.load?.kind ?? "", content, run, w, out);
      return;
    }
    if (as === "manifest") {
      const keys = run.load?.keys;
      if (run.load !== undefined && (keys === undefined || name !== "package.json")) {
        refuse("manifest", { kind: run.load.kind ?? "build file" });
        return;
      }
      if (keys !== undefined) {
        // package.json's sections that name modules or commands a tool runs: refused; its scripts, for a hook that may run any, judged.
        let parsed: unknown;
        try {
          parsed = JSON.parse(content);
        } catch {
          parsed = undefined;
        }
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
          refuse("unreadable", { why: "it is not a JSON object" });
          return;
        }
        // Its dependencies' local sources (`file:../y`), as for any program that reads package.json's keys.
        this.#localPaths("package.json", content, run, w, out);
        const named = keys.find((k) => Object.hasOwn(parsed as object, k));
        if (named !== undefined) {
          refuse("manifest", { kind: `${run.load!.kind ?? "build file"} ("${named}")` });
          return;
        }
        if (!run.load!.scripts) return;
      }
      if (name !== "package.json") {
        refuse("manifest", { kind: MANIFEST_KINDS.get(name) ?? "manifest" });
        return;
      }
      let scripts: unknown;
      try {
        const parsed: unknown = JSON.parse(content);
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error();
        scripts = (parsed as Record<string, unknown>).scripts ?? {};
      } catch {
        refuse("unreadable", { why: "it is not a JSON object" });
        return;
      }
      if (scripts === null || typeof scripts !== "object" || Array.isArray(scripts)) {
        refuse("unreadable", { why: "its scripts are not an object" });
        return;
      }
      const table = scripts as Record<string, unknown>;
      for (const s of run.scripts ?? Object.keys(table)) {
        if (!Object.hasOwn(table, s)) continue;
        const line = table[s];
        if (typeof line !== "string") {
          refuse("unreadable", { why: `its script "${s}" is not a string` });
          continue;
        }
        this.#merge(this.report(line, "chain"), run, `package.json's script "${s}", which step ${w.step} writes`, bases, step, depth, out);
      }
      return;
    }
    if (as === "shell") {
      this.#merge(this.report(content, "chain"), run, via, bases, step, depth, out);
      return;
    }
    // An environment file's settings: as the same settings on a command line (src/commands/dotenv.ts).
    if (as === "dotenv") {
      const settings = dotenvLine(content);
      if ("problem" in settings) refuse("unreadable", { why: settings.problem });
      else this.#merge(this.report(settings.line, "chain"), run, via, bases, step, depth, out);
      return;
    }
    if (as === "sed" || as === "awk") {
      this.#merge(this.report(`${run.program} ${as === "sed" ? "-e " : ""}${shellQuote(content)} /dev/null`, "chain"), run, via, bases, step, depth, out);
      return;
    }
    // A database client's commands: as given on its line, where they are read (a shell escape, a file it writes).
    const onLine = SQL_LINE.get(as);
    if (onLine !== undefined) {
      this.#merge(this.report(onLine(run.program, content), "chain"), run, via, bases, step, depth, out);
      return;
    }
    // Code for another interpreter: as that code given on its line; a compiled form of it (`python3 x.pyc`) is read by no one.
    const program = run.as === "program" ? as : run.program;
    const compiled = loadedBy === undefined ? compiledFormOf(as, run.text) : undefined;
    if (compiled !== undefined) {
      refuse("unreadable", { why: `it is ${compiled}, which no one reads in a plan: commands.writtenCode trusts a language's source, not its compiled forms` });
      return;
    }
    if (!writtenCodeAllowed(this.policy.commands, as, program))
      out.findings.push(writtenFinding("code", { program, interpreter: as, how: `the file ${via}` }, run.span));
  }

  /**
   * The local paths a dependency manifest's text names (src/commands/manifest-paths.ts), as paths the
   * command names from the manifest's folder (a requirements file's from the command's folder too: pip
   * reads a requirement's path from where it runs); a text read with a problem where it may name one is
   * refused as unreadable.
   */
  #localPaths(kind: string, content: string, run: CommandRun, w: Written, out: Judged, nested?: { seen: Set<string>; depth: number }): void {
    const read = manifestReader(kind)?.(content);
    if (read === undefined) return;
    const span = run.span ? { span: run.span } : {};
    if ("problem" in read) {
      if (MAY_NAME_PATH.test(content)) out.findings.push(writtenFinding("unreadable", { program: run.program, file: run.text, writer: w.step, why: `${read.problem}, so the local paths it may name cannot be checked` }, run.span));
      return;
    }
    const ws = this.state.workspace;
    // Found by its name (run.text is its path from the workspace, or `name (a link to target)`): from its folder, under each name; named on the line: from the command's folder.
    const link = / \(a link to (.*)\)$/s.exec(run.text);
    const names = link !== null ? [run.text.slice(0, link.index), link[1]!] : [run.text];
    const folders = run.anywhere || nested !== undefined ? names.map((f) => (f.startsWith("/") ? f : `${ws}/${f}`).replace(/\/[^/]*$/, "") || "/") : [];
    for (const p of read.paths) {
      const via = `${names[0]}'s ${p.where}, which step ${w.step} writes`;
      for (const folder of folders) out.paths.push({ text: p.path, cwd: folder, program: run.program, via, ...span });
      // pip reads a requirement's path from the folder it runs in.
      if (nested === undefined && ((kind === "requirements file" && !(run.cwd === "" && folders.every((f) => f === ws))) || folders.length === 0)) out.paths.push({ text: p.path, cwd: run.cwd, program: run.program, via, ...span });
      // A requirements file another names (`-r other.txt`, `-c c.txt`), read from the naming file's folder: its text, when the plan writes it, is read as well.
      if (kind === "requirements file" && /^(?:-r|--requirement|-c|--constraint) option$/.test(p.where)) this.#nestedRequirements(p.path, folders, run, out, nested ?? { seen: new Set(), depth: 0 });
    }
  }

  /** A requirements file named inside another (see #localPaths), when the plan writes it: its paths, from its own folder. */
  #nestedRequirements(path: string, folders: readonly string[], run: CommandRun, out: Judged, nested: { seen: Set<string>; depth: number }): void {
    const ws = this.state.workspace;
    for (const folder of folders) {
      if (path.startsWith("~") || path.includes("\0")) continue;
      const abs = resolvePosix(folder, path);
      if (nested.seen.has(abs) || !abs.startsWith(`${ws}/`)) continue;
      nested.seen.add(abs);
      const w = this.state.get(abs);
      if (w === undefined || w.gone) continue;
      const file = relative(ws, abs);
      if (nested.depth >= MAX_NESTED_REQUIREMENTS || nested.seen.size > MAX_NESTED_REQUIREMENTS * 8) {
        out.findings.push(writtenFinding("unreadable", { program: run.program, file, writer: w.step, why: `requirements files name each other more than ${MAX_NESTED_REQUIREMENTS} deep, past which plangate does not read them` }, run.span));
        continue;
      }
      const content = textOf(w);
      if (content === undefined) {
        out.findings.push(writtenFinding("unknown", { program: run.program, file, writer: w.step, how: w.how ?? "its text is not in the plan" }, run.span));
        continue;
      }
      this.#localPaths("requirements file", content, { ...run, text: file }, w, out, { seen: nested.seen, depth: nested.depth + 1 });
    }
  }

  /** A written file's analysis, as findings and paths of the command that runs it. */
  #merge(report: CommandReport, run: CommandRun, via: string, bases: readonly string[], step: number, depth: number, out: Judged): void {
    const span = run.span ? { span: run.span } : {};
    // What the script writes before it runs another file counts as the line's own writes for that run.
    const writes = lineWrites(report, this.state.workspace, bases.map((b) => [b, run.cwd].filter((s) => s !== "").join("/")), this.state);
    out.writes.push(...writes);
    const nested: Judged = { findings: [], paths: [], outside: [], handled: new Set(), writes: [], judged: new Set() };
    // Past MAX_DEPTH a written file is not followed, and is refused (#judge), rather than run unread.
    if (report.runs !== undefined) {
      const line = lineIndex(writes);
      this.runs({ ...report, runs: report.runs.map((r) => ({ ...r, cwd: joinCwd(run.cwd, r.cwd) })) }, bases, line, step, depth + 1, nested);
    }
    for (const f of report.findings) if (f.run === undefined || !nested.handled.has(f.run)) out.findings.push({ ...f, ...span, via: f.via ?? via, run: undefined } as CommandFinding);
    for (const f of nested.findings) out.findings.push({ ...f, ...span });
    for (const p of [...report.paths, ...nested.paths]) out.paths.push({ ...p, cwd: p.via === undefined ? joinCwd(run.cwd, p.cwd) : p.cwd, ...span, via: p.via ?? via });
    for (const o of [...(report.outside ?? []), ...nested.outside]) out.outside.push({ ...o, ...span });
    out.writes.push(...nested.writes);
  }
}

function joinCwd(outer: string, inner: string): string {
  if (inner.startsWith("/") || inner.startsWith("~") || outer === "") return inner;
  return inner === "" ? outer : `${outer}/${inner}`;
}

/**
 * The plan's analysed command lines with each run of a file the plan writes judged by that file's text
 * (see the top of this file): a new report for each command that runs one, the others as they were.
 */
export function followWritten(plan: Plan, facts: PlanFacts, policy: Policy, analysed: readonly AnalysedCommand[], analyse: Analyse): AnalysedCommand[] {
  const out = analysed.slice();
  if (!analysed.some((a) => a.report.runs !== undefined)) return out;
  const workspace = facts.paths.workspace;
  const state = new WrittenFiles(workspace, facts.paths);
  const judge = new Judge(state, policy, analyse, facts.work);
  let committed = false;
  let foreign = false;
  let next = 0;
  const commandSteps = new Set(analysed.map((a) => a.command.step));
  // Files run by a command in the background (`./a.sh &`): a shell reads its script as it goes, so a later write of it is run too.
  const running: { abs: string; index: number; step: number; run: CommandRun }[] = [];
  state.onWrite = (abs, w) => {
    for (const r of running) {
      if (w.step < r.step || !(r.abs === abs || (w.tree === true && r.abs.startsWith(`${abs === "/" ? "" : abs}/`)))) continue;
      const { command, report } = out[r.index]!;
      const finding = writtenFinding("unknown", { program: r.run.as === "program" ? "the shell" : r.run.program, file: r.run.text, writer: w.step, how: `written again by step ${w.step} while this step's command may still be running it in the background` }, r.run.span);
      out[r.index] = { command, report: { ...report, findings: [...report.findings, finding] } };
    }
  };
  for (const step of plan.steps) {
    applyStep(step, facts, state, commandSteps.has(step));
    const pending: LineWrite[] = [];
    for (; next < analysed.length && analysed[next]!.command.step === step; next++) {
      const { command, report } = analysed[next]!;
      const bases = foldersOf(command, facts, plan.dialect);
      const writes = lineWrites(report, workspace, bases, state);
      const background = command.text !== undefined && command.text.includes("&") && BACKGROUND.test(command.text);
      if (background)
        for (const w of writes) w.background = true;
      if (background && report.runs !== undefined && running.length < MAX_JUDGED)
        for (const run of report.runs)
          for (const base of bases) {
            const abs = absoluteOf(workspace, base, run.cwd, run.text);
            if (abs !== undefined) running.push({ abs: state.canon(abs), index: next, step: step.position, run });
          }
      for (const p of report.paths) {
        if (p.program === undefined || !p.program.startsWith("git ")) continue;
        if (GIT_FOREIGN.has(p.program) || ((p.program === "git pull" || p.program === "git fetch") && FOREIGN_FETCH.test(command.text ?? ""))) committed = foreign = true;
        if (committed && (GIT_WRITES_TREE.has(p.program) || p.program === "git submodule"))
          for (const base of bases) {
            const folder = absoluteOf(workspace, base, "", ".");
            if (folder !== undefined) writes.push({ abs: folder, tree: true, by: p.program, ...(foreign ? { foreign: true as const } : {}) });
          }
        if (GIT_KEEPS.has(p.program)) committed = true;
      }
      if (report.runs !== undefined) {
        const line = lineIndex(writes);
        const judged: Judged = { findings: [], paths: [], outside: [], handled: new Set(), writes: [], judged: new Set() };
        judge.place = { step: step.position, at: command.at };
        judge.runs(report, bases, line, step.position, 0, judged);
        if (judged.handled.size > 0 || judged.findings.length > 0 || judged.paths.length > 0 || judged.outside.length > 0) {
          const findings = report.findings.filter((f) => f.run === undefined || !judged.handled.has(f.run));
          const judgedReport: CommandReport = { ...report, findings: [...findings, ...judged.findings], paths: [...report.paths, ...judged.paths] };
          if (judged.outside.length > 0) judgedReport.outside = [...(report.outside ?? []), ...judged.outside];
          out[next] = { command, report: judgedReport };
          pending.push(...judged.writes);
        }
      }
      pending.push(...writes);
    }
    // A folder the step writes whole stays so when the step names it again (`virtualenv -p ./py .venv`).
    const whole = new Set(pending.filter((w) => w.tree && !w.gone && !w.pattern).map((w) => w.abs));
    for (const w of pending) {
      const written: Omit<Written, "seq"> = w.background
        ? { step: step.position, background: true, how: "written by a command run in the background, which may write it after later steps" }
        : w.gone
          ? { step: step.position, gone: true, how: "removed by a command line" }
          : { step: step.position, by: w.by, how: w.how ?? "written by a command line, so its text is not in the plan" };
      if (w.pattern) state.setPattern(w.abs, w.tree, written);
      else state.set(w.abs, w.tree || (!w.gone && whole.has(w.abs)) ? { ...written, tree: true } : written);
    }
  }
  return out;
}
