import type { ShellWord } from "../syntax/shell/types.js";
import type { EnvSetting, Inner, RunsIn, WrapperReason } from "./wrappers.js";

/**
 * Programs that run a command line (or a program) they are given as an argument, each read by its own
 * grammar (wrappers.ts's LAUNCHERS). What they run is checked as any other command; a form whose command
 * cannot be made out is refused, with the reason.
 */

const word = (value: string): ShellWord => ({ source: value, value, glob: false, start: 0, end: 0 });
const unknown = (why: WrapperReason): Inner => ({ kind: "unknown", why });
const unknownAt = (w: ShellWord): Inner => unknown({ id: "argumentAtRunTime", data: { source: w.source } });
const unknownOption = (option: string): Inner => unknown({ id: "unknownOption", data: { option } });
const withValue = (w: ShellWord, value: string): ShellWord => ({ ...w, value });

/** The first word decided at run time, if any. */
const lateWord = (args: readonly ShellWord[]): ShellWord | undefined => args.find((w) => w.value === undefined);

/** An inner that runs `words` (argv) or the line they make (script), with settings and a folder. */
function runs(kind: "argv" | "script", words: ShellWord[], extra: { text?: string; env?: EnvSetting[]; runsIn?: RunsIn }): Inner {
  const also = { ...(extra.env && extra.env.length > 0 ? { env: extra.env } : {}), ...(extra.runsIn ? { runsIn: extra.runsIn } : {}) };
  if (kind === "argv") return { kind, words, ...also };
  return { kind, word: words, ...(extra.text !== undefined ? { text: extra.text } : {}), ...also };
}

/** A `NAME=value` setting. */
function setting(text: string): EnvSetting {
  const eq = text.indexOf("=");
  return { name: eq < 0 ? text : text.slice(0, eq), value: eq < 0 ? undefined : text.slice(eq + 1) };
}

// ---------------------------------------------------------------------------------------------------
// tmux

/** tmux's commands, in its own order (which decides what a prefix of a name means): name, alias, flags (getopt's letters). */
const TMUX_COMMANDS: readonly (readonly [string, string, string])[] = [
  ["attach-session", "attach", "c:dEf:rt:x"],
  ["bind-key", "bind", "nrN:T:"],
  ["break-pane", "breakp", "abdPF:n:s:t:Wx:X:y:Y:"],
  ["capture-pane", "capturep", "ab:CeE:FHJLMNpPqRS:Tt:"],
  ["choose-buffer", "", "F:f:K:kNO:rt:yZ"],
  ["choose-client", "", "F:f:hiK:kNO:rt:yZ"],
  ["choose-tree", "", "F:f:GhK:kNO:rst:wyZ"],
  ["clear-history", "clearhist", "Ht:"],
  ["clear-prompt-history", "clearphist", "T:"],
  ["clock-mode", "", "t:"],
  ["command-prompt", "", "1CbeFiklI:NPp:t:T:"],
  ["confirm-before", "confirm", "bc:p:t:y"],
  ["copy-mode", "", "dekHMqSs:t:u"],
  ["customize-mode", "", "F:f:kNt:yZ"],
  ["delete-buffer", "deleteb", "b:"],
  ["detach-client", "detach", "aE:s:t:P"],
  ["display-menu", "menu", "b:c:C:H:s:S:MOt:T:x:y:"],
  ["display-message", "display", "aCc:d:lINpt:F:v"],
  ["display-popup", "popup", "Bb:Cc:d:e:Eh:kNs:S:t:T:w:x:y:"],
  ["display-panes", "displayp", "d:kNs:t:Z"],
  ["find-window", "findw", "CiNrt:TZ"],
  ["has-session", "has", "t:"],
  ["if-shell", "if", "bFt:"],
  ["join-pane", "joinp", "bdfhvp:l:s:t:"],
  ["kill-pane", "killp", "af:t:"],
  ["kill-server", "", ""],
  ["kill-session", "", "aCgf:t:"],
  ["kill-window", "killw", "af:t:"],
  ["last-pane", "lastp", "det:Z"],
  ["last-window", "last", "t:"],
  ["link-window", "linkw", "abdks:t:"],
  ["list-buffers", "lsb", "F:f:O:r"],
  ["list-clients", "lsc", "F:f:O:rt:"],
  ["list-commands", "lscm", "F:"],
  ["list-keys", "lsk", "1aF:NO:P:rT:"],
  ["list-panes", "lsp", "aF:f:O:rst:"],
  ["list-sessions", "ls", "F:f:O:r"],
  ["list-windows", "lsw", "aF:f:O:rt:"],
  ["load-buffer", "loadb", "b:t:w"],
  ["lock-client", "lockc", "t:"],
  ["lock-server", "lock", ""],
  ["lock-session", "locks", "t:"],
  ["move-pane", "movep", "bdD::fhMvl:L::P:R::s:t:U::X:Y:z:"],
  ["move-window", "movew", "abdkrs:t:"],
  ["new-pane", "newp", "AbB:Cc:de:EfF:hIkl:KLMm:Op:PR:s:S:t:T:vWx:X:y:Y:Z"],
  ["new-session", "new", "Ac:dDe:EF:f:n:Ps:t:x:Xy:"],
  ["new-window", "neww", "abc:de:EF:kn:PSt:"],
  ["next-layout", "nextl", "t:"],
  ["next-window", "next", "at:"],
  ["paste-buffer", "pasteb", "db:prSs:t:"],
  ["pipe-pane", "pipep", "IOot:"],
  ["previous-layout", "prevl", "t:"],
  ["previous-window", "prev", "at:"],
  ["refresh-client", "refresh", "A:B:cC:Df:r:F:lLRSt:U"],
  ["rename-session", "rename", "t:"],
  ["rename-window", "renamew", "t:"],
  ["resize-pane", "resizep", "D::L::MR::Tt:U::x:y:Z"],
  ["resize-window", "resizew", "aADLRt:Ux:y:"],
  ["respawn-pane", "respawnp", "c:e:Ekt:"],
  ["respawn-window", "respawnw", "c:e:Ekt:"],
  ["rotate-window", "rotatew", "Dt:UZ"],
  ["run-shell", "run", "bd:Ct:Es:c:"],
  ["save-buffer", "saveb", "ab:"],
  ["select-layout", "selectl", "Enopt:"],
  ["select-pane", "selectp", "DdegLlMmP:RT:t:UZ"],
  ["select-window", "selectw", "lnpTt:"],
  ["send-keys", "send", "c:FHKlMN:Rt:X"],
  ["send-prefix", "", "2t:"],
  ["server-access", "", "adglrw"],
  ["set-buffer", "setb", "ab:t:n:w"],
  ["set-environment", "setenv", "Fhgrt:u"],
  ["set-hook", "", "agpERTt:uB:w"],
  ["set-option", "set", "aFgopqst:uUw"],
  ["set-window-option", "setw", "aFgoqt:u"],
  ["show-buffer", "showb", "b:"],
  ["show-environment", "showenv", "hgst:"],
  ["show-hooks", "", "BF:gpt:w"],
  ["show-messages", "showmsgs", "JTt:"],
  ["show-options", "show", "AgF:Hpqst:vw"],
  ["show-prompt-history", "showphist", "T:"],
  ["show-window-options", "showw", "F:gvt:"],
  ["source-file", "source", "t:Fnqv"],
  ["split-window", "splitw", "bB:c:de:EfF:hIkl:m:p:PR:s:S:t:T:vWZ"],
  ["start-server", "start", ""],
  ["suspend-client", "suspendc", "t:"],
  ["swap-pane", "swapp", "dDs:t:UZ"],
  ["swap-window", "swapw", "ds:t:"],
  ["switch-client", "switchc", "c:EFlnO:pt:rT:Z"],
  ["switch-mode", "", "F:kst:wZ"],
  ["unbind-key", "unbind", "anqT:"],
  ["unlink-window", "unlinkw", "kt:"],
  ["wait-for", "wait", "EF:LSUlvw:"],
];
/** The command aliases tmux defines by default (its command-alias option). */
const TMUX_ALIASES: Readonly<Record<string, readonly string[]>> = {
  "split-pane": ["split-window"],
  splitp: ["split-window"],
  "server-info": ["show-messages", "-JT"],
  info: ["show-messages", "-JT"],
  "choose-window": ["choose-tree", "-w"],
  "choose-session": ["choose-tree", "-s"],
};
/** Commands that start a program in a pane: their folder option, and whether the folder is known without it (the client's). */
const TMUX_SPAWNS: Readonly<Record<string, { folder: string; known: boolean }>> = {
  "new-session": { folder: "c", known: true },
  "new-window": { folder: "c", known: true },
  "split-window": { folder: "c", known: true },
  "new-pane": { folder: "c", known: true },
  "respawn-pane": { folder: "c", known: false },
  "respawn-window": { folder: "c", known: false },
  "display-popup": { folder: "d", known: false },
};
/** Commands that run tmux commands they are given as text (when given some). */
const TMUX_COMMAND_TEXT = new Set(["if-shell", "confirm-before", "command-prompt", "display-menu", "bind-key", "choose-buffer", "choose-client", "choose-tree", "switch-mode", "display-panes"]);
/** Commands that type keys into the program running in a pane. */
const TMUX_KEYS = new Set(["send-keys", "paste-buffer"]);
/** Options tmux may set without naming a command it runs later (no hook, default command, format or editor): on/off, numbers, keys. */
const TMUX_PLAIN_OPTIONS = new Set([
  "mouse", "history-limit", "base-index", "pane-base-index", "escape-time", "status", "mode-keys", "status-keys", "renumber-windows", "remain-on-exit",
  "aggressive-resize", "monitor-activity", "monitor-bell", "monitor-silence", "visual-activity", "visual-bell", "visual-silence", "focus-events", "default-terminal",
  "set-clipboard", "allow-rename", "automatic-rename", "prefix", "prefix2", "repeat-time", "display-time", "display-panes-time", "status-position", "status-interval",
  "status-justify", "bell-action", "activity-action", "silence-action", "destroy-unattached", "exit-empty", "exit-unattached", "detach-on-destroy", "set-titles",
  "synchronize-panes", "wrap-search", "xterm-keys", "clock-mode-style", "main-pane-width", "main-pane-height", "other-pane-width", "other-pane-height",
  "window-size", "buffer-limit", "message-limit", "extended-keys", "allow-passthrough", "alternate-screen", "lock-after-time", "word-separators",
]);

/** tmux's own options (getopt's letters). */
const TMUX_GLOBAL = "2c:CDdf:hlL:NqS:T:uUvV";

/** Is `text`, as a tmux format, one that runs or builds a command (`#(...)`, or `#{...}` with more than a variable's name)? */
function tmuxFormatRuns(text: string): boolean {
  for (let i = text.indexOf("#"); i >= 0; i = text.indexOf("#", i + 1)) {
    const next = text[i + 1];
    if (next === "#") {
      i++;
      continue;
    }
    if (next === "(") return true;
    if (next === "{" && !/^#\{[A-Za-z_][A-Za-z0-9_]*\}/.test(text.slice(i))) return true;
  }
  return false;
}

/** A tmux command's name as tmux finds it: an alias, the exact name, or the one name it is a prefix of. */
function tmuxCommand(name: string): readonly [string, string, string] | undefined {
  let found: readonly [string, string, string] | undefined;
  let ambiguous = false;
  for (const entry of TMUX_COMMANDS) {
    if (entry[1] !== "" && entry[1] === name) return entry;
    if (!entry[0].startsWith(name)) continue;
    if (found !== undefined) ambiguous = true;
    found = entry;
    if (entry[0] === name) break;
  }
  return ambiguous ? undefined : found;
}

/** A tmux command's arguments read by its flags (tmux's getopt): the flags with their values, and the other words. */
function tmuxFlags(template: string, args: ShellWord[]): { flags: Map<string, ShellWord[]>; positional: ShellWord[] } | Inner {
  const flags = new Map<string, ShellWord[]>();
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return unknownAt(w);
    if (!v.startsWith("-") || v === "-") break;
    if (v === "--") {
      i++;
      break;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      const at = /^[A-Za-z0-9]$/.test(c) ? template.indexOf(c) : -1;
      if (at < 0) return unknownOption(`-${c}`);
      const seen = flags.get(c) ?? [];
      flags.set(c, seen);
      if (template[at + 1] !== ":") continue;
      const optional = template[at + 2] === ":";
      if (k < v.length - 1) seen.push(withValue(w, v.slice(k + 1)));
      else {
        const next = args[i + 1];
        if (next && !(optional && next.value !== undefined && /^-[-A-Za-z]/.test(next.value))) {
          if (next.value === undefined) return unknownAt(next);
          seen.push(next);
          i++;
        } else if (!optional) return unknown({ id: "optionWithoutValue", data: { option: `-${c}` } });
      }
      break;
    }
  }
  return { flags, positional: args.slice(i) };
}

/** What one tmux command runs. */
function tmuxCommandInners(words: ShellWord[]): Inner[] {
  const first = words[0]!;
  const aliased = Object.hasOwn(TMUX_ALIASES, first.value!) ? [...TMUX_ALIASES[first.value!]!.map(word), ...words.slice(1)] : words;
  const entry = tmuxCommand(aliased[0]!.value!);
  if (entry === undefined) return [unknown({ id: "unknownSubcommand", data: { command: first.source } })];
  const [name, , template] = entry;
  const read = tmuxFlags(template, aliased.slice(1));
  if ("kind" in read) return [read];
  const { flags, positional } = read;
  const values = [...flags.values()].flat();
  const folderFlag = Object.hasOwn(TMUX_SPAWNS, name) ? TMUX_SPAWNS[name]!.folder : name === "run-shell" ? "c" : undefined;
  const folder = folderFlag === undefined ? undefined : flags.get(folderFlag)?.[0];
  if (folder && folder.value!.includes("#")) return [unknown({ id: "folderUnknown", data: { command: `${name} -${folderFlag!}` } })];
  // Flag values are formats, and so are most commands' arguments (a window's new name...); a spawned program's are not.
  const format = [...values, ...(Object.hasOwn(TMUX_SPAWNS, name) ? [] : positional)].find((w) => tmuxFormatRuns(w.value!));
  if (format) return [unknown({ id: "formatCommand", data: { source: format.source } })];
  const env = (flags.get("e") ?? []).map((w) => setting(w.value!));
  if (Object.hasOwn(TMUX_SPAWNS, name)) {
    if (positional.length === 0) return env.length > 0 ? [{ kind: "none", env }] : [{ kind: "none" }];
    if (folder === undefined && !TMUX_SPAWNS[name]!.known) return [unknown({ id: "folderUnknown", data: { command: name } })];
    // One word is a line for the shell; more are the program and its arguments. A folder tmux cannot enter leaves the program in the home folder.
    const kind = positional.length === 1 ? "script" : "argv";
    const folders: (RunsIn | undefined)[] = folder === undefined ? [undefined] : [{ dir: folder.value! }, { dir: "~" }];
    return folders.map((runsIn) => runs(kind, positional, { env, ...(runsIn ? { runsIn } : {}) }));
  }
  if (name === "run-shell") {
    if (flags.has("C")) return positional.length === 0 ? [{ kind: "none" }] : [unknown({ id: "commandText", data: { command: `${name} -C` } })];
    const line = positional[0];
    if (line === undefined) return [{ kind: "none" }];
    if (line.value!.includes("#")) return [unknown({ id: "formatCommand", data: { source: line.source } })];
    const folders: (RunsIn | undefined)[] = folder === undefined ? [undefined] : [{ dir: folder.value! }, { dir: "~" }];
    return folders.map((runsIn) => runs("script", [line], runsIn ? { runsIn } : {}));
  }
  if (name === "pipe-pane") return positional.length === 0 || positional[0]!.value === "" ? [{ kind: "none" }] : [unknown({ id: "folderUnknown", data: { command: name } })];
  if (name === "detach-client" && flags.has("E")) return [unknown({ id: "folderUnknown", data: { command: `${name} -E` } })];
  if (name === "source-file") return positional.map((p) => ({ kind: "hidden", why: { id: "scriptFile", data: { program: "tmux source-file", script: p.source } } }));
  if (TMUX_KEYS.has(name)) return [unknown({ id: "typesKeys", data: { command: name } })];
  if (TMUX_COMMAND_TEXT.has(name)) return positional.length === 0 ? [{ kind: "none" }] : [unknown({ id: "commandText", data: { command: name } })];
  if (name === "set-environment") {
    if (flags.has("F") && positional.some((p) => p.value!.includes("#"))) return [unknown({ id: "formatCommand", data: { source: positional[positional.length - 1]!.source } })];
    if (flags.has("u") || flags.has("r") || positional.length === 0) return [{ kind: "none" }];
    return [{ kind: "none", env: [{ name: positional[0]!.value!, value: positional[1]?.value ?? "" }] }];
  }
  if (name === "set-option" || name === "set-window-option" || name === "set-hook") {
    const option = positional[0]?.value ?? "";
    const plain = name !== "set-hook" && TMUX_PLAIN_OPTIONS.has(option.replace(/\[\d*\]$/, "")) && !positional.some((p) => p.value!.includes("#"));
    return plain || flags.has("u") || flags.has("U") ? [{ kind: "none" }] : [unknown({ id: "laterSettings", data: { command: `${name} ${option}`.trim() } })];
  }
  return [{ kind: "none" }];
}

/**
 * `tmux [options] [COMMAND [flags] [args] [; COMMAND...]]`, a list of tmux commands (an argument ending in an
 * unescaped `;` ends one). The commands that start a program in a pane (new-session, new-window,
 * split-window, respawn-pane, display-popup...) run one argument as a line for the shell and more as the
 * program and its arguments, with -e settings, in the folder -c names (the client's without it; tmux goes
 * to the home folder if it cannot enter it); respawn-pane and display-popup run it in the pane's or the
 * session's folder without one, and pipe-pane in the server's: refused. run-shell's line is a format:
 * refused if it holds one. Commands that run tmux commands given as text (if-shell, bind-key,
 * confirm-before...), type keys into a pane (send-keys, paste-buffer), set hooks, a default command or a
 * format (set-option), read a file of commands (source-file, -f), or take commands on standard input (-C)
 * are refused; so is a format that runs a command (`#(...)`). `tmux -c LINE` runs the line with the shell.
 */
export function tmuxInners(args: ShellWord[]): Inner[] {
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return [unknownAt(w)];
    if (!v.startsWith("-") || v === "-") break;
    if (v === "--") {
      i++;
      break;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      const at = TMUX_GLOBAL.indexOf(c);
      if (at < 0 || c === ":") return [unknownOption(`-${c}`)];
      if (c === "V" || c === "h") return [{ kind: "none" }];
      if (c === "C") return [{ kind: "hidden", why: { id: "standardInput", data: { program: "tmux -C" } } }];
      if (TMUX_GLOBAL[at + 1] !== ":") continue;
      const value = k < v.length - 1 ? withValue(w, v.slice(k + 1)) : args[++i];
      if (value === undefined) return [unknown({ id: "optionWithoutValue", data: { option: `-${c}` } })];
      if (value.value === undefined) return [unknownAt(value)];
      if (c === "f") return [unknown({ id: "configurationFile", data: { option: "-f" } })];
      if (c === "c") return [runs("script", [value], {})];
      break;
    }
  }
  // The list of commands: an argument ending in `;` ends one (`\;` is a `;` of the argument).
  const commands: ShellWord[][] = [];
  let current: ShellWord[] = [];
  for (const w of args.slice(i)) {
    const v = w.value;
    if (v === undefined) return [unknownAt(w)];
    let text = v;
    let end = false;
    if (text.endsWith(";")) {
      text = text.slice(0, -1);
      if (text.endsWith("\\")) text = `${text.slice(0, -1)};`;
      else end = true;
    }
    if (!end || text !== "") current.push(text === v ? w : withValue(w, text));
    if (end) {
      if (current.length > 0) commands.push(current);
      current = [];
    }
  }
  if (current.length > 0) commands.push(current);
  const inners = commands.flatMap(tmuxCommandInners);
  return inners.length > 0 ? inners : [{ kind: "none" }];
}

// ---------------------------------------------------------------------------------------------------
// screen

/** screen commands (-X, -Q) that run no program and type nothing into a window. */
const SCREEN_QUIET_COMMANDS = new Set(["quit", "detach", "kill", "windows", "info", "select", "title", "number", "lastmsg", "time", "version", "redisplay", "clear", "sessionname"]);
/** screen commands that type text into a window's program. */
const SCREEN_KEYS = new Set(["stuff", "paste", "readbuf", "register", "process", "slowpaste"]);

/**
 * `screen [options] [cmd [args]]`: runs the program in a new window, in the folder screen starts in (without
 * one, the shell -s names, or the user's). The options are read as screen reads them: clusters, values
 * glued or in the next word, `-S name`, `-d`/`-r`/`-x` with a session, `-ls`, `-wipe`, `-Logfile file`.
 * `-c FILE` reads a configuration file, whose commands may run programs: refused. `-X` (and `-Q`) send a
 * command to a running session: one that runs nothing is accepted; `stuff` and the like type keys into a
 * window, and the rest (`screen`, `exec`, `eval`, `source`...) run programs in a folder plangate does not know:
 * refused.
 */
export function screenInner(args: ShellWord[]): Inner {
  let shell: ShellWord | undefined;
  let session = false;
  let command = false;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return unknownAt(w);
    if (!v.startsWith("-")) break;
    if (v === "--") {
      i++;
      break;
    }
    if (v.startsWith("--version") || v.startsWith("--help") || v === "-v") return { kind: "none" };
    const remaining = args.length - i;
    const takeNext = (): ShellWord | Inner => {
      const next = args[++i];
      if (next === undefined) return { kind: "none" };
      return next.value === undefined ? unknownAt(next) : next;
    };
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === "v") return { kind: "none" };
      if ("aAPimOqUX46".includes(c)) {
        if (c === "X") command = true;
        continue;
      }
      if (c === "Q") {
        command = true;
        continue;
      }
      if (c === "p" || c === "c" || c === "e") {
        if (k === v.length - 1) {
          const next = takeNext();
          if ("kind" in next) return next;
        }
        if (c === "c") return unknown({ id: "configurationFile", data: { option: "-c" } });
        break;
      }
      if (c === "f") {
        if ("n0y1a".includes(v[k + 1] ?? "-")) k++;
        continue;
      }
      if (c === "l") {
        const sub = v[k + 1];
        if (sub === "s" || sub === "i") return { kind: "none" };
        if (sub !== undefined && "n0y1a".includes(sub)) k++;
        continue;
      }
      if (c === "w") {
        if (v.slice(k + 1) === "ipe") return { kind: "none" };
        return unknownOption(v);
      }
      if (c === "L") {
        if (v.slice(k + 1) === "ogfile") {
          const next = takeNext();
          if ("kind" in next) return next;
          break;
        }
        continue;
      }
      if (c === "h" || c === "t" || c === "T" || c === "s" || (c === "S" && !session)) {
        const next = takeNext();
        if ("kind" in next) return next;
        if (c === "s") shell = next;
        if (c === "S") session = true;
        continue;
      }
      if (c === "S") continue;
      if (c === "r" || c === "R" || c === "x") {
        const next = args[i + 1];
        if (next && next.value !== undefined && !next.value.startsWith("-") && !session) {
          session = true;
          i++;
        }
        continue;
      }
      if (c === "d" || c === "D") {
        const next = args[i + 1];
        if (remaining === 2 && next && next.value !== undefined && !next.value.startsWith("-") && !session) {
          session = true;
          i++;
        }
        continue;
      }
      return unknownOption(`-${c}`);
    }
  }
  const rest = args.slice(i);
  if (command) {
    const name = rest[0]?.value;
    if (rest.length === 0) return { kind: "none" };
    const late = lateWord(rest);
    if (late) return unknownAt(late);
    if (SCREEN_KEYS.has(name!)) return unknown({ id: "typesKeys", data: { command: `-X ${name!}` } });
    return SCREEN_QUIET_COMMANDS.has(name!) ? { kind: "none" } : unknown({ id: "commandText", data: { command: `-X ${name!}` } });
  }
  if (rest.length > 0) return { kind: "argv", words: rest };
  if (shell !== undefined) return { kind: "argv", words: [shell.value!.startsWith("-") ? withValue(shell, shell.value!.slice(1)) : shell] };
  return { kind: "none" };
}
