import { why as reason } from "../../core/place.js";
import { isCommandKey, stepConstraints } from "../../commands/constraint-check.js";
import { childPointer } from "../../core/pointer.js";
import { type ArgLeaf, LeafTag } from "../../core/facts.js";
import { inFolder, joinedUnits, tooManyFolderPaths, isPathName, mayBeFileName, mayNamePath, MAX_ARGUMENT_DEPTH, pathNamesFor, TOO_NESTED } from "../../core/paths.js";
import { reportCommandInstallsOutside, reportCommandPathsOutside } from "../../commands/paths.js";
import { patternMatchesOnDisk } from "../protected-path-write/index.js";
import { prepareCommandRule } from "../../commands/report.js";
import { isCommandArgument } from "../../commands/plan.js";
import { defineRule } from "../../core/rule.js";
import { checkedAtCallMessages } from "../checked-at-call.js";
import { namedPathText, readAsText } from "../command-paths.js";
import { matchArgument } from "../../core/constraints.js";
import { defaultStrings, schemaDefaults } from "../../core/writers.js";
import type { PlanRuleContext } from "../../core/rule.js";
import type { Step } from "../../core/plan.js";


/** Reports the first registry default of an argument the step leaves out whose path lands outside the workspace. */
function reportOutsideDefault(ctx: PlanRuleContext<"outsideDefault">, step: Step, schema: unknown, pathNames: ReadonlySet<string>): void {
  const paths = ctx.facts.paths;
  for (const d of schemaDefaults(schema, step.args)) {
    const path = isPathName(d.name, pathNames);
    for (const v of defaultStrings(d.value)) {
      if (v.trim() === "" || !(path || mayNamePath(d.name, v))) continue;
      const why = paths.resolve(v).map((r) => paths.whyOutside(r)).find((w) => w !== undefined);
      if (why === undefined) continue;
      ctx.report({ at: step.argsAt, step: step.position, messageId: "outsideDefault", data: { step: step.position, tool: step.tool ?? "", argument: d.argument, path: v.replace(/\0/g, "\\0"), why, workspace: paths.workspace } });
      return;
    }
  }
}

const FILE_URL_PROBES = ["file:///etc/passwd", "FILE:/etc/passwd", "file://localhost/etc/passwd"];
const regexAdmits = (pattern: string, path: string) => matchArgument({ $regex: pattern }, path);
import { CONTENT_ARGUMENTS } from "../../core/walk.js";

const REGEX_HINT = 'bound the path with {"$glob": "folder/**"} or list the paths with {"$enum": […]}';
/** A command's write outside the workspace that names no path (`npm install -g x`): what makes it, where it writes. */
const INSTALLS_OUTSIDE = `{{subject}} writes outside the workspace {{workspace}} without naming it: "{{how}}" writes to {{where}}.`;
const INSTALLS_HINT = `{{fix}}; or, if the plan may change the machine, list "{{manager}}" in the policy's commands.installOutside`;
/** A path argument outside the workspace; `readAs` is how it was decoded, when that differs. */
const OUTSIDE = 'Step {{step}}: path "{{path}}"{{readAs}} in "{{argument}}" {{why}}, outside the workspace {{workspace}}.';

export default defineRule({
  meta: {
    id: "path-outside-workspace",
    input: "plan",
    defaultSeverity: "error",
    phase: "step",
    messages: {
      regexEscapes: { message: "Step {{step}}: the $regex in \"{{argument}}\" admits \"{{escape}}\", a path outside the workspace.", hint: REGEX_HINT },
      regexUnbounded: { message: "Step {{step}}: the $regex in \"{{argument}}\" cannot be shown to admit only paths inside the workspace.", hint: REGEX_HINT },
      tooNested: { message: "Step {{step}}: the arguments under \"{{argument}}\" are nested more than {{maxDepth}} levels deep in the arguments, too deep to check; a path there could point anywhere.", hint: "flatten the arguments to at most {{maxDepth}} levels" },
      outsideWorkspace: { message: OUTSIDE, hint: "use a path inside the workspace, relative to its root" },
      tooManyFolderPaths: { message: "Step {{step}}: the step names {{folders}} folders and {{paths}} paths that may be read from them, more than plangate checks ({{maxFolders}} folders, {{max}} pairs).", hint: "split the step, or name fewer folders (cwd, dir, root...) in it" },
      outsideInFolder: {
        message: 'Step {{step}}: path "{{path}}" in "{{argument}}", read from the folder "{{folder}}" in "{{folderArgument}}", {{why}}, outside the workspace {{workspace}}.',
        hint: "use a path that stays inside the workspace from that folder too (a relative path is read from the folder the step names: cwd, dir, root...)",
      },
      outsideDefault: {
        message: 'Step {{step}}: "{{tool}}" leaves out its argument "{{argument}}", which the tool\'s registry schema defaults to "{{path}}": that path {{why}}, outside the workspace {{workspace}}.',
        hint: "give that argument a path inside the workspace, relative to its root (the tool uses its default when the step leaves it out)",
      },
      hardLink: { message: OUTSIDE, hint: "write a copy instead (remove the extra link, or copy the file and write the copy)" },
      urlOutside: { message: "Step {{step}}: the {{constraint}} in \"{{argument}}\" admits \"{{url}}\", a file outside the workspace.", hint: 'start the pattern with the scheme it allows (https://host/…), or list the values with {"$enum": […]}' },
      commandPathOutside: { message: "Step {{step}}: the command in \"{{argument}}\" names {{path}}, a path that {{why}}; the workspace is {{workspace}}.", hint: "use paths inside the workspace, relative to its root" },
      // A write outside the workspace that no word names: a package manager's global install or user settings (src/commands/installs.ts).
      commandInstallsOutside: { message: INSTALLS_OUTSIDE.replace("{{subject}}", `Step {{step}}: the command in "{{argument}}"`), hint: INSTALLS_HINT },
      // A host's shell call, checked by the guard when it is made (src/approval/host-command.ts).
      hostCommandUnsafePath: { message: 'The {{tool}} command names "{{path}}", a path that {{why}}.', hint: "use paths inside the workspace" },
      hostCommandPathOutside: { message: 'The {{tool}} command names "{{path}}", which resolves to {{resolved}}, outside the workspace {{workspace}}.', hint: "use paths inside the workspace" },
      hostCommandInstallsOutside: { message: INSTALLS_OUTSIDE.replace("{{subject}}", "The {{tool}} command"), hint: INSTALLS_HINT },
      // A host call whose path arguments are outside the approved scope (src/host/profile.ts): {{paths}} lists each.
      callOutsideScope: {
        message: 'The "{{tool}}" call reaches outside the approved scope: {{paths}}. It matches no approved step.',
        hint: "use a path inside the workspace, as the approved step names it, and work from the workspace folder",
      },
      // A call's paths, checked by the guard when the call is made (src/approval/call-paths.ts).
      ...checkedAtCallMessages,
    },
    summary: "A path argument resolves outside the workspace.",
    docs: {
      description:
        'Checks every path argument of every step: arguments named in `paths.arguments` (e.g. `path`, `file_path`, `target`, `cwd`), arguments whose name ends in a path word (`notebook_path`, `outputFile`, `log_dir`, `to`, `from`, `out`, `output`, `dst`, `dest`, `src`, `root`, …, in snake, kebab, dotted or camel case), arguments whose registry schema says `format: "path"`, names that say where a tool writes (`save_as`, `write_to`), the keys of a map under a path name (`files: {"../x": …}`), the files a patch names in its headers (`--- a/x`, `+++ b/x`, `diff --git`, `rename to`, `*** Update File: x`, the target of a symbolic link it creates) in any argument but file content or free text, and in every argument of a tool whose name says it patches (`apply_patch`), at any depth (a value nested more than 64 levels deep is reported rather than skipped), and a `file:` URL or a local database URL (`sqlite:///app.db`, `sqlite+pysqlite:////srv/app.db`, `duckdb:///x.db`, `jdbc:sqlite:app.db`: the file its program opens and writes) under any name (`url`, `uri`, `database` included) in any spelling (`file:/x`, `FILE:/x`, `file:///x`, `file://localhost/x`), and so is a URL of another scheme that names a local file (`git+file:///x`, `svn+file:`, `hg+file:`, and an editor\'s link, `vscode://file/x`, `cursor://file/x`, `windsurf://file/x`); so are the values inside structured text of an argument: a JSON object or list (`{options: "{\\"output\\": \\"/etc/x\\"}"}`) and the `key: value`, `key=value` and `--key=value` pairs of YAML, TOML or option text (`"out_dir: ../x"`), read as the arguments they name; and the default the tool\'s registry schema gives an argument the step leaves out (a `default`, a `const` or a one-member `enum`, through `$ref`, `allOf`, `anyOf`, `oneOf`, `then` and `else`, and inside an object argument, given or left out), which the tool uses as if given, for a read as for a write (`outsideDefault`: `output: {default: "/etc/cron.d/x"}`, `key: {default: "~/.ssh/id_rsa"}`). Relative paths resolve against the workspace root. Reports a path that leaves the workspace through `..`, an absolute path elsewhere, `~`, a Windows drive or UNC path, percent-encoding (`%2e%2e/`, decoded twice; triple encoding and escapes that are not valid UTF-8, such as the overlong `%c0%af`, are refused outright), look-alikes of `/`, `\\` and `.` (U+FF0F, U+2215, U+2044, U+FF3C, U+2025, U+FE52, …), names of dots and spaces that Windows reads as `..`, a NUL byte or control characters, or a symlink on the real file system, followed component by component like the kernel, including dangling links and a tail that does not exist yet under a symlinked folder. A write (see `protected-path-write` for how writers are decided) to a file that has more than one name (a hard link) is reported too: its other name may be outside, and a write changes the file under every name. Every dialect\'s paths are checked. A pattern in a command line names each path it matches on disk, as bash expands it (`cat o*/passwd` beside a link to /etc); one with more matches than plangate looks through, or in a folder it cannot list, is reported. A command that writes outside the workspace without naming a path is reported too: a package manager\'s global install or its user settings (`npm install -g`, `npm link`, `npm config set`, `pip install --user`, `pipx install`, `uv tool install`, `cargo install`, `go install`, `gem install`, `rustup toolchain install`, `brew install`, `apt-get install` and the other system package managers), a Python installer that is not the workspace\'s, which installs into the environment in force where it runs (`pip install x`, `python3 -m pip install x`, `conda install x` without `-n` or `-p`; `.venv/bin/pip install x` and `uv pip install x` pass), and an npm, pnpm or Yarn install that the project\'s own configuration on disk sends outside (a `.npmrc` in the command\'s folder or one above it in the workspace holding `global=true`, `location=global`, `userconfig` or `globalconfig`; a `.yarnrc` or `.yarnrc.yml` folder setting outside the workspace), behind any wrapper plangate reads, unless an option or a variable set on the command points it into a folder, a path checked as any other (`--prefix ./tools`, `--root ./tools`, `--target ./vendor`, `GOBIN=./bin go install`), or the policy\'s `commands.installOutside` names the package manager. A value that starts with `~/`, `../`, `/` or a drive, or holds `/../`, and a relative path (a separator or a leading `.`, also spelt with percent escapes: `link/secret.txt`, `%2e%2e%2fx`) or a bare word that names a symbolic link in the workspace root (`link`), followed through its symlinks, is checked in any argument (or object key) that is not file content, a command, a URL or a pattern, so a path under another name is no way out; spaces an executor may trim are trimmed first (` /etc/passwd`), and a value with spaces inside counts when a `..` between separators climbs (`my dir/../../x`; prose such as `see ../README` does not). Every path is also read without the spaces at its ends. A relative path or bare word is also read from each folder the step names (an argument whose name says so, at any depth: `cwd`, `workdir`, `workingDirectory`, `dir`, `directory`, `folder`, `root`, `base_path`, `location`, `prefix`, `parent`, `into`, `options.cwd`), as an executor that joins them reads it: `{cwd: "src", path: "link/x"}` with `src/link` pointing out of the workspace is outside; a command line is read from each such folder too, and from the workspace root unless a top-level `cwd`, `workdir`, `working_dir` or `working_directory` (any case or separators) says where it runs; a step naming more than 64 folders, or more than 65,536 pairs of folder and path, is refused. URLs other than `file:` are not paths under other names; under a path name a URL is read as a path too, as an executor that opens files reads it (`ftp://../../etc/x` is the folder `ftp:` and two levels up). Argument constraints (`plan.constraints: allow`) are judged by their worst case: each `$enum` member and a `$literal` as a path; a `$glob` by its text as a path (`../**`, `/etc/*`, `~/x*` and a symlinked folder before the first wildcard are outside; the guard never lets a glob match a path with `..`, `.` or empty segments, or an absolute one); a `$regex` on a path argument is refused, since the paths it admits cannot be bounded; a `$glob` or `$regex` on another argument (a URL) that admits a `file:` URL is reported.',
      rationale:
        "The intake protocol §4: all paths in plan steps are within the workspace. An executor that writes through `../` or a symlink it did not expect can reach anything the agent's user can.",
      fix: "Use a path inside the workspace, relative to its root; if a symlink points out of the workspace, target the real location inside instead, or remove the link; write a copy of a hard-linked file, not the file; install packages into the workspace (without -g or --user, with a virtual environment's own pip there, .venv/bin/pip, without a .npmrc that makes installs global, or with --prefix, --root, --target or GOBIN naming a folder in it), or list the package manager in commands.installOutside.",
      bad: "arguments: {path: ../../etc/passwd}",
      good: "arguments: {path: data/input.csv}",
    },
  },
  prepare: prepareCommandRule,
  check(plan, ctx) {
    const paths = ctx.facts.paths;
    const files = paths.files;
    const ws = paths.workspace;
    // A bare word under another name is a path when the workspace holds a symbolic link of that name.
    const linkName = (a: ArgLeaf) => mayBeFileName(a.name, a.value, a.isPlainWord()) && paths.isLinkName(a.value.trim());
    // The loops over a step's leaves are indexed: for-of allocates in code V8 has not optimised yet (one
    // large plan validated once runs mostly there).
    const steps = plan.steps;
    for (let s = 0; s < steps.length; s++) {
      const step = steps[s]!;
      // Past the validation's bound on distinct paths the rest is not checked (limit-exceeded says so).
      if (ctx.facts.work.spent("pathTexts")) break;
      const facts = ctx.facts.step(step);
      const args = facts.pathArguments();
      const strings = facts.strings;
      for (let i = 0; i < strings.length; i++) {
        const a = strings[i]!;
        if (!a.content && !facts.isPathArgument(a, true) && (a.has(LeafTag.PathLike) ? mayNamePath(a.name, a.value) : a.constraint === undefined && linkName(a)))
          args.push(a);
      }
      const keys = facts.keys;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (k.has(LeafTag.PathLike) && !facts.isPathArgument(k, true) && mayNamePath("", k.value)) args.push(k);
      }
      // Values inside structured text (`{"options": "{\"output\": \"/etc/x\"}"}`, `"dir: ../x"`).
      const embedded = facts.embedded();
      for (let i = 0; i < embedded.length; i++) {
        const { outer, leaf: a } = embedded[i]!;
        if (!isCommandArgument(outer) && (a.has(LeafTag.PathLike) ? isPathName(a.name, facts.pathNames) || mayNamePath(a.name, a.value) : linkName(a))) args.push(a);
      }
      // A patch names several files at one place: the first one outside is reported there.
      let patches: Set<object> | undefined;
      for (let i = 0; i < args.length; i++) {
        const arg = args[i]!;
        // The path that passed the bound on distinct paths is reported (not resolved); the rest are not checked.
        if (ctx.facts.work.spent("pathTexts")) break;
        if (arg.fromPatch && patches?.has(arg.slot)) continue;
        if (arg.constraint === "$regex") {
          // Which paths a regular expression admits cannot be bounded in general: refused on paths.
          const escapes = ["../x", "/etc/passwd", "~/x", "a/../../x"].find((p) => regexAdmits(arg.value, p));
          ctx.report({
            at: arg.at,
            step: step.position,
            messageId: escapes ? "regexEscapes" : "regexUnbounded",
            data: { step: step.position, argument: arg.name, escape: escapes ?? "" },
            actual: arg.value,
          });
          continue;
        }
        // A URL under a path name is still a path to an executor that opens files (`ftp:` is a folder to
        // it): resolved as one, it lands inside unless it climbs out with `..`.
        if (arg.value === "") continue;
        const readings = paths.resolve(arg.value);
        for (let j = 0; j < readings.length; j++) {
          const r = readings[j]!;
          let why = paths.whyOutside(r);
          if (!why && "real" in r && !r.missing && files.nlink) {
            // A second name of the file may be anywhere on the same file system: a write through this one
            // changes it there too. Only writes count, and only the file as it is now.
            // kind() is remembered from resolving the path (it exists); only a file is asked for its links.
            const links = facts.writes && files.kind(r.real) === "file" ? files.nlink(r.real) : undefined;
            if (links !== undefined && links > 1)
              why = reason("hardLink", { links });
          }
          if (!why) continue;
          if (arg.value === TOO_NESTED) {
            ctx.report({
              at: arg.at,
              step: step.position,
              messageId: "tooNested",
              data: { step: step.position, argument: arg.name, maxDepth: MAX_ARGUMENT_DEPTH },
            });
            break;
          }
          if (arg.fromPatch) (patches ??= new Set()).add(arg.slot);
          const decoded = r.reading !== arg.value && !r.reading.startsWith("\0") ? readAsText(r.reading.replace(/\0/g, "\\0")) : "";
          ctx.report({
            at: arg.at,
            step: step.position,
            messageId: why.why === "hardLink" ? "hardLink" : "outsideWorkspace",
            data: { step: step.position, path: arg.value.replace(/\0/g, "\\0"), readAs: decoded, argument: arg.name, why, workspace: ws },
            actual: arg.value,
          });
          break;
        }
      }
      // An argument the step leaves out is used with its registry default, as if given: a path there
      // (`output: {default: "/etc/cron.d/x"}`, `key: {default: "~/.ssh/id_rsa"}`) is judged as one. In a
      // function of its own: inlined here, it kept V8 from inlining the path service into this loop.
      const schema = step.tool === undefined ? undefined : ctx.facts.tools?.schemas.get(step.tool);
      if (schema !== undefined) reportOutsideDefault(ctx, step, schema, facts.pathNames);
      // A relative path read from a folder the step names (`{cwd: "src", path: "link/x"}` with `src/link`
      // pointing out) lands where the joined path resolves.
      const folders = facts.folders().filter((f) => paths.resolve(f.value).every((r) => paths.whyOutside(r) === undefined));
      if (folders.length === 0) continue;
      const joined = facts.joinable(args, (a) => a.constraint === undefined && a.value !== TOO_NESTED);
      const over = tooManyFolderPaths(step.position, folders.length, joined.size);
      if (over) {
        ctx.report({ at: folders[0]!.at, step: step.position, messageId: "tooManyFolderPaths", data: over });
        continue;
      }
      // Bounded for the whole validation too (limit-exceeded past it): see core/work.ts.
      if (!ctx.facts.work.spend("pathReadings", joinedUnits(folders, joined), () => ({ step: step.position, at: folders[0]!.at }))) continue;
      let reported = false;
      for (const arg of joined) {
        if (reported) break;
        // A path outside as written is reported above.
        if (paths.resolve(arg.value).some((r) => paths.whyOutside(r) !== undefined)) continue;
        for (const folder of folders) {
          if (folder === arg) continue;
          const text = inFolder(folder.value, arg.value);
          if (text === undefined) continue;
          const why = paths.resolve(text).map((r) => paths.whyOutside(r)).find((w) => w !== undefined);
          if (why === undefined) continue;
          ctx.report({
            at: arg.at,
            step: step.position,
            messageId: "outsideInFolder",
            data: { step: step.position, path: arg.value, argument: arg.name, folder: folder.value, folderArgument: folder.name, why, workspace: ws },
            actual: arg.value,
          });
          reported = true;
          break;
        }
      }
    }
    // A pattern on any other argument (a URL, a query) is a path too when it admits a file: URL.
    for (let s = 0; s < steps.length; s++) {
      const step = steps[s]!;
      for (const c of stepConstraints(step)) {
        if ((c.constraint.kind !== "$glob" && c.constraint.kind !== "$regex") || CONTENT_ARGUMENTS.has(c.key.toLowerCase()) || isCommandKey(c.key)) continue;
        if (isPathName(c.key, pathNamesFor(step.tool, ctx.policy.paths.arguments, ctx.tools?.schemas))) continue;
        const url = FILE_URL_PROBES.find((u) => matchArgument({ [c.constraint.kind]: (c.constraint as { pattern: string }).pattern }, u));
        if (url === undefined) continue;
        ctx.report({
          at: childPointer(c.at, c.constraint.kind),
          step: step.position,
          messageId: "urlOutside",
          data: { step: step.position, constraint: c.constraint.kind, argument: c.key, url },
        });
      }
    }
    // A pattern written in many steps (the same line again) is expanded on disk once.
    const expanded = new Map<string, readonly string[] | undefined>();
    reportCommandInstallsOutside(plan, ctx);
    const names = ctx.facts.work.meter("diskNames");
    reportCommandPathsOutside(plan, ctx, namedPathText, (rel, p) => {
      const key = `${p.dotglob === true ? 1 : 0}${p.globstar === true ? 1 : 0}${rel}`;
      if (!expanded.has(key)) expanded.set(key, patternMatchesOnDisk(rel, p, ws, files, names));
      return expanded.get(key);
    });
  },
});
