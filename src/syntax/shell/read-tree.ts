import type { Node } from "web-tree-sitter";
import { decodeAnsiC, unescapeDoubleQuoted, unescapeUnquoted } from "./quote.js";
import type { ConstructKind, ShellAssignment, ShellProblem, ShellProblemData, ShellProblemId, ShellRedirect, ShellScript, ShellWord, SimpleCommand } from "./types.js";

/** Deepest nesting of commands, substitutions and words followed. */
const MAX_DEPTH = 100;

/** Node types that are statements (commands and what holds them). */
const STATEMENTS = new Set([
  "program",
  "redirected_statement",
  "command",
  "declaration_command",
  "unset_command",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "if_statement",
  "elif_clause",
  "else_clause",
  "for_statement",
  "c_style_for_statement",
  "while_statement",
  "case_statement",
  "case_item",
  "do_group",
  "function_definition",
  "negated_command",
  "test_command",
  "variable_assignment",
  "variable_assignments",
]);
const REDIRECTS = new Set(["file_redirect", "heredoc_redirect", "herestring_redirect"]);
const SEPARATORS = new Set([";", "&", ";;", ";&", ";;&", "\n"]);

/**
 * What running a statement tells of the commands in it: `ok`, the commands that succeeded when the
 * statement did (`cd x && make`: both); `after`, those that succeeded whenever the shell goes on past it
 * at all (`cd x || exit`: cd).
 */
interface Flow {
  ok: SimpleCommand[];
  after: SimpleCommand[];
}
const NO_FLOW: Flow = { ok: [], after: [] };

interface WordValue {
  value?: string;
  /** The text with quoted characters masked: what globbing, brace expansion and `~` see. */
  shape: string;
}

/** Walks a tree-sitter-bash tree into simple commands, constructs and problems (never throws). */
export class Reader {
  /** Offsets of quoted text and here-document bodies, where a backslash-newline is no continuation. */
  readonly quoted: [number, number][] = [];
  /** Offsets of unquoted word text, where an escaped space belongs to the word. */
  readonly words: [number, number][] = [];
  /** The subshells the statements being read run in (see SimpleCommand.scopes). */
  private scopes: number[] = [];
  private nextScope = 0;
  /** How many loops hold the statements being read, in their shell (a subshell starts again at none). */
  private loops = 0;
  /** How many tests hold the statements being read (a condition, a list's part but the last, a `!`): `set -e` spares their failures. */
  private tested = 0;

  /** Reads what `read` reads where its failure is tested, not fatal under `set -e`. */
  private testing<T>(read: () => T): T {
    this.tested++;
    try {
      return read();
    } finally {
      this.tested--;
    }
  }
  /** The commands that must have succeeded for the statements being read to run. */
  private guards: SimpleCommand[] = [];
  constructor(private readonly script: ShellScript) {}

  /** Reads what `read` reads in a subshell of its own (a command or process substitution's: `substitution`). */
  private inSubshell<T>(read: () => T, substitution = false): T {
    const [saved, loops] = [this.scopes, this.loops];
    const id = this.nextScope++;
    if (substitution) (this.script.substitutions ??= []).push(id);
    this.scopes = [...saved, id];
    this.loops = 0;
    try {
      return read();
    } finally {
      [this.scopes, this.loops] = [saved, loops];
    }
  }

  /** Reads a loop: what it holds may run any number of times. */
  private inLoop(read: () => void): void {
    this.loops++;
    try {
      read();
    } finally {
      this.loops--;
    }
  }

  /** A variable the syntax sets to a value decided at run time (a loop's variable, `{fd}>file`). */
  private assigns(name: string, start: number, end: number): void {
    (this.script.assigned ??= []).push({ name, start, end });
  }

  /** Reads what `read` reads where `ok` must have succeeded first. */
  private guardedBy<T>(ok: SimpleCommand[], read: () => T): T {
    const saved = this.guards;
    this.guards = [...saved, ...ok];
    try {
      return read();
    } finally {
      this.guards = saved;
    }
  }

  private problem<K extends ShellProblemId>(problem: K, data: ShellProblemData[K], node: Node): void {
    if (this.script.problems.length < 20) this.script.problems.push({ problem, data, start: node.startIndex, end: node.endIndex } as ShellProblem);
  }

  private construct(kind: ConstructKind, node: Node): void {
    this.script.constructs.push({ kind, start: node.startIndex, end: node.endIndex });
  }

  private tooDeep(node: Node, depth: number): boolean {
    if (depth <= MAX_DEPTH) return false;
    this.problem("tooDeep", { depth: MAX_DEPTH }, node);
    return true;
  }

  /** Reads a statement (or a list of them) and everything under it; says which commands its success shows to have succeeded. */
  statement(node: Node, depth: number): Flow {
    if (this.tooDeep(node, depth)) return NO_FLOW;
    if (node.isError || node.isMissing) {
      if (node.isMissing) this.problem("missingToken", { type: node.type }, node);
      else this.problem("unreadableSyntax", { text: short(node.text) }, node);
      return NO_FLOW;
    }
    switch (node.type) {
      case "program":
      case "do_group":
      case "else_clause":
      case "elif_clause":
      case "case_item":
        return this.sequence(node, depth);
      case "compound_statement":
        this.construct("{ … }", node);
        return this.sequence(node, depth);
      case "subshell":
        this.construct("( … )", node);
        // An `exit` in a subshell ends the subshell only.
        this.inSubshell(() => this.sequence(node, depth));
        return NO_FLOW;
      case "list":
        return this.list(node, depth);
      case "pipeline": {
        // Each part of a pipeline runs in a subshell of its own.
        const parts = node.namedChildren.filter((c) => c !== null && c.type !== "comment").length;
        for (const c of node.children) {
          if (!c) continue;
          if (!c.isNamed) {
            if (c.type === "|" || c.type === "|&") this.construct(c.type, c);
            else this.problem("unknownOperator", { operator: c.type }, c);
          } else if (parts > 1) this.inSubshell(() => this.statement(c, depth + 1));
          else this.statement(c, depth + 1);
        }
        return NO_FLOW;
      }
      case "negated_command":
        this.construct("!", node);
        this.testing(() => this.sequence(node, depth));
        return NO_FLOW;
      case "if_statement":
        this.construct("if", node);
        this.sequence(node, depth);
        return NO_FLOW;
      case "while_statement":
        this.construct(node.child(0)?.type === "until" ? "until" : "while", node);
        this.inLoop(() => this.sequence(node, depth));
        return NO_FLOW;
      case "for_statement":
      case "c_style_for_statement":
        this.construct(node.child(0)?.type === "select" ? "select" : "for", node);
        this.inLoop(() => this.sequence(node, depth));
        return NO_FLOW;
      case "case_statement":
        this.construct("case", node);
        this.sequence(node, depth);
        return NO_FLOW;
      case "function_definition":
        this.problem("functionDefinition", {}, node);
        return NO_FLOW;
      case "redirected_statement":
        return this.redirected(node, depth);
      case "command":
      case "declaration_command":
      case "unset_command":
        return { ok: [this.command(node, [], depth)], after: [] };
      case "test_command":
        this.test(node, depth);
        return NO_FLOW;
      case "variable_assignment":
      case "variable_assignments": {
        const cmd = this.newCommand(node);
        for (const a of node.type === "variable_assignment" ? [node] : node.namedChildren) if (a) cmd.assignments.push(this.assignment(a, depth + 1));
        return NO_FLOW;
      }
      case "comment":
        return NO_FLOW;
      default:
        this.problem("unknownNode", { text: short(node.text), kind: node.type.replace(/_/g, " ") }, node);
        return NO_FLOW;
    }
  }

  /**
   * `a && b`, `a || b` (tree-sitter-bash nests them to the left): b after `&&` runs only if a succeeded;
   * `a || exit` goes on only if a succeeded.
   */
  private list(node: Node, depth: number): Flow {
    let left: Flow | undefined;
    let op = "";
    for (const c of node.children) {
      if (!c) continue;
      if (!c.isNamed) {
        if (c.type === "&&" || c.type === "||" || c.type === "|" || c.type === "|&") this.construct(c.type, c);
        else this.problem("unknownOperator", { operator: c.type }, c);
        op = c.type;
        continue;
      }
      if (c.type === "comment") continue;
      if (left === undefined) {
        left = this.testing(() => this.statement(c, depth + 1));
        continue;
      }
      const before: Flow = left;
      if (op === "&&") {
        const right = this.guardedBy(before.ok, () => this.statement(c, depth + 1));
        left = { ok: [...before.ok, ...right.ok], after: before.after };
      } else {
        this.statement(c, depth + 1);
        left = op === "||" && leaves(c) ? { ok: before.ok, after: [...before.after, ...before.ok] } : { ok: [], after: before.after };
      }
    }
    return left ?? NO_FLOW;
  }

  /**
   * Statements one after another: a `;` or newline between two is a construct, as is `&` anywhere. A
   * statement run with `&` runs in a subshell; one after `then`, or in a `while` loop's body, runs only
   * if the condition's last command succeeded.
   */
  private sequence(node: Node, depth: number): Flow {
    let prev = false;
    let pending: Node | undefined;
    let last: Flow = NO_FLOW;
    const after: SimpleCommand[] = [];
    const base = this.guards;
    let then: SimpleCommand[] = [];
    const guard = () => {
      this.guards = [...base, ...after, ...then];
    };
    const loopVariable = node.type === "for_statement" ? node.childForFieldName("variable") : null;
    // An if's, elif's, while's or until's condition: the statements before `then` or the loop's body.
    let condition = node.type === "if_statement" || node.type === "elif_clause" || node.type === "while_statement";
    try {
      for (const c of node.children) {
        if (!c) continue;
        if (!c.isNamed) {
          if (SEPARATORS.has(c.type)) {
            if (c.type === "&") {
              this.construct("&", c);
              prev = false;
            } else if (prev) pending ??= c;
          } else if (c.type === "|" || c.type === "&&" || c.type === "||") this.construct(c.type, c);
          else {
            // A keyword (`then`, `do`, `else`, `in`…) starts a new part of a compound command.
            prev = false;
            pending = undefined;
            then = c.type === "then" ? last.ok : [];
            if (c.type === "then") condition = false;
            guard();
          }
          continue;
        }
        if (c.type === "comment") {
          this.quoted.push([c.startIndex, c.endIndex + 1]);
          continue;
        }
        if (c.type === "case_item" || c.type === "elif_clause" || c.type === "else_clause" || c.type === "do_group") {
          // An elif or else part runs when the condition failed; a while loop's body when it succeeded.
          then = c.type === "do_group" && node.type === "while_statement" && node.child(0)?.type === "while" ? last.ok : [];
          condition = false;
          guard();
          this.statement(c, depth + 1);
          continue;
        }
        if (STATEMENTS.has(c.type) || c.isError || c.isMissing || !VALUE_PARTS.has(c.type)) {
          if (STATEMENTS.has(c.type)) {
            // A terminator after the last statement joins nothing; a separator before another one does.
            if (prev) this.construct(pending?.type === ";" ? ";" : "a newline", pending ?? c);
            prev = true;
            pending = undefined;
          }
          const background = c.nextSibling?.type === "&";
          const read = () => (condition ? this.testing(() => this.statement(c, depth + 1)) : this.statement(c, depth + 1));
          last = background ? (this.inSubshell(read), NO_FLOW) : read();
          if (last.after.length > 0) {
            after.push(...last.after);
            guard();
          }
        } else {
          // Loop lists, case subjects and patterns: words, read for their substitutions.
          if (loopVariable !== null && c.startIndex === loopVariable.startIndex && c.endIndex === loopVariable.endIndex) this.assigns(c.text, c.startIndex, c.endIndex);
          this.word(c, depth + 1);
          prev = false;
          pending = undefined;
          last = NO_FLOW;
        }
      }
    } finally {
      this.guards = base;
    }
    return { ok: last.ok, after };
  }

  private redirected(node: Node, depth: number): Flow {
    const body = node.childForFieldName("body");
    const redirects: ShellRedirect[] = [];
    for (const c of node.namedChildren) if (c && REDIRECTS.has(c.type)) this.redirect(c, redirects, depth + 1);
    for (const c of node.children) if (c && !c.isNamed) this.problem("unknownHere", { type: c.type }, c);
    if (body && (body.type === "command" || body.type === "declaration_command" || body.type === "unset_command")) return { ok: [this.command(body, redirects, depth + 1)], after: [] };
    const flow = body ? this.statement(body, depth + 1) : NO_FLOW;
    // Redirections of a compound command: kept on a command with no words, so their targets are checked.
    const last = this.script.commands[this.script.commands.length - 1];
    const holder = this.newCommand(node);
    holder.redirects.push(...redirects);
    // tree-sitter-bash gives `cd x && echo k > f` the redirection of the list; bash, of its last command.
    if (body?.type === "list" && last !== undefined) {
      if (last.scopes) holder.scopes = last.scopes;
      else delete holder.scopes;
      if (last.guards) holder.guards = last.guards;
      else delete holder.guards;
    }
    return flow;
  }

  private newCommand(node: Node): SimpleCommand {
    const cmd: SimpleCommand = { words: [], assignments: [], redirects: [], start: node.startIndex, end: node.endIndex };
    if (this.scopes.length > 0) cmd.scopes = this.scopes;
    if (this.guards.length > 0) cmd.guards = this.guards;
    if (this.loops > 0) cmd.repeats = true;
    if (this.tested === 0) cmd.fatal = true;
    this.script.commands.push(cmd);
    return cmd;
  }

  private command(node: Node, redirects: ShellRedirect[], depth: number): SimpleCommand {
    const cmd = this.newCommand(node);
    if (this.tooDeep(node, depth)) return cmd;
    cmd.redirects.push(...redirects);
    for (const c of node.children) {
      if (!c) continue;
      if (c.isError || c.isMissing) this.statement(c, depth + 1);
      else if (!c.isNamed) {
        // `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: the keyword is the program.
        if (/^[a-z]+$/.test(c.type) && cmd.words.length === 0)
          cmd.words.push({ source: c.text, value: c.text, glob: false, start: c.startIndex, end: c.endIndex });
        else if (c.type !== "=") this.problem("unknownInCommand", { text: short(c.text) }, c);
      } else if (c.type === "variable_assignment") {
        const a = this.assignment(c, depth + 1);
        cmd.assignments.push(a);
        // After the program (`export A=1`) an assignment is also an argument.
        if (cmd.words.length > 0) {
          const w: ShellWord = { source: c.text, glob: a.value?.glob ?? false, start: a.start, end: a.end };
          if (!a.value) w.value = `${a.name}=`;
          else if (a.value.value !== undefined) w.value = `${a.name}=${a.value.value}`;
          cmd.words.push(w);
        }
      } else if (REDIRECTS.has(c.type)) this.redirect(c, cmd.redirects, depth + 1);
      else if (c.type === "command_name") {
        const inner = c.namedChild(0);
        if (inner) cmd.words.push(this.word(inner, depth + 1));
      } else if (c.type === "comment") continue;
      else cmd.words.push(this.word(c, depth + 1));
    }
    this.adjacent(cmd);
    this.reserved(cmd);
    // `{NAME}>file` stores the descriptor it opens in NAME.
    for (const w of cmd.words) {
      const name = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(w.source)?.[1];
      if (name !== undefined && cmd.redirects.some((r) => r.start === w.end)) this.assigns(name, w.start, w.end);
    }
    return cmd;
  }

  /**
   * A reserved word read as a plain word means the parser and bash disagree: `coproc NAME { rm x; }`
   * is a compound command to bash but `coproc NAME { rm x` and `}` to tree-sitter-bash. A command whose
   * program is an unquoted reserved word, or a `coproc` or `time` followed by one, is refused.
   */
  private reserved(cmd: SimpleCommand): void {
    const [first] = cmd.words;
    if (!first) return;
    const keyword = (w: ShellWord) => RESERVED.has(w.source);
    const bad = keyword(first) && first.source !== "coproc" && first.source !== "time" ? first : first.source === "coproc" || first.source === "time" ? cmd.words.slice(1).find(keyword) : undefined;
    if (bad)
      this.script.problems.push({ problem: "reservedWord", data: { word: bad.source }, start: bad.start, end: bad.end });
  }

  /**
   * Two words with nothing between them are one word to bash (`'r'\m` is `rm`, `A='x'\y rm` runs rm);
   * tree-sitter-bash sometimes reads two. Such a command is refused rather than read the parser's way.
   * A word may touch a redirection after it (`x>out`), unless the redirection starts with a descriptor
   * number (`x2>&1` is the word `x2`).
   */
  private adjacent(cmd: SimpleCommand): void {
    const spans = [
      ...cmd.words.filter((w) => w.end > w.start).map((w) => ({ start: w.start, end: w.end, kind: "word", fd: false })),
      ...cmd.assignments.map((a) => ({ start: a.start, end: a.end, kind: "word", fd: false })),
      ...cmd.redirects.map((r) => ({ start: r.start, end: r.end, kind: "redirect", fd: r.fd !== undefined })),
    ].sort((x, y) => x.start - y.start);
    for (let i = 1; i < spans.length; i++) {
      const a = spans[i - 1]!;
      const b = spans[i]!;
      if (a.end !== b.start || (a.kind === "word" && b.kind === "redirect" && !b.fd)) continue;
      const text = this.script.text.slice(a.start, b.end);
      this.script.problems.push({ problem: "splitWord", data: { text: short(text) }, start: a.start, end: b.end });
      return;
    }
  }

  private test(node: Node, depth: number): void {
    const open = node.child(0)?.type ?? "[";
    if (open === "[[") this.construct("[[ … ]]", node);
    if (open === "((") this.construct("(( … ))", node);
    if (open === "((" && /[$`[]/.test(node.text)) this.problem("arithmeticSubstitution", {}, node);
    const cmd = this.newCommand(node);
    cmd.words.push({ source: open, value: open, glob: false, start: node.startIndex, end: node.startIndex + open.length });
    const visit = (n: Node, d: number) => {
      if (this.tooDeep(n, d)) return;
      for (const c of n.namedChildren) {
        if (!c) continue;
        if (c.type === "extglob_pattern" || c.type === "regex") continue;
        if (c.type === "binary_expression" || c.type === "unary_expression" || c.type === "parenthesized_expression" || c.type === "ternary_expression" || c.type === "postfix_expression")
          visit(c, d + 1);
        else cmd.words.push(this.word(c, d + 1));
      }
    };
    visit(node, depth + 1);
  }

  private assignment(node: Node, depth: number): ShellAssignment {
    const name = node.childForFieldName("name")?.text ?? node.namedChild(0)?.text ?? "";
    const valueNode = node.childForFieldName("value");
    const a: ShellAssignment = { name, start: node.startIndex, end: node.endIndex };
    if (valueNode) a.value = this.word(valueNode, depth + 1);
    return a;
  }

  private redirect(node: Node, out: ShellRedirect[], depth: number): void {
    if (this.tooDeep(node, depth)) return;
    const r: ShellRedirect = { op: "", start: node.startIndex, end: node.endIndex };
    out.push(r);
    let quotedHeredoc = false;
    for (const c of node.children) {
      if (!c) continue;
      if (c.isError || c.isMissing) this.statement(c, depth + 1);
      else if (!c.isNamed) {
        if (r.op === "") r.op = c.type;
        else if (c.type === "|" || c.type === "&&" || c.type === "||" || c.type === "|&") this.construct(c.type, c);
        else if (!SEPARATORS.has(c.type)) this.problem("unknownInRedirect", { type: c.type }, c);
      } else if (c.type === "file_descriptor") r.fd = c.text;
      else if (c.type === "heredoc_start") quotedHeredoc = /['"\\]/.test(c.text);
      else if (c.type === "heredoc_end") continue;
      else if (c.type === "heredoc_body") {
        this.quoted.push([c.startIndex, c.endIndex]);
        // An unquoted here-document expands `$(…)` in its body: those are commands.
        if (!quotedHeredoc) this.substitutions(c, depth + 1);
      } else if (REDIRECTS.has(c.type)) this.redirect(c, out, depth + 1);
      else if (STATEMENTS.has(c.type)) this.statement(c, depth + 1);
      else if (r.op === "<<<") this.word(c, depth + 1);
      else if (r.target === undefined) r.target = this.word(c, depth + 1);
      else this.problem("redirectTargets", { text: short(node.text) }, c);
    }
    if (r.op === "") this.problem("unknownRedirect", { text: short(node.text) }, node);
  }

  /** Commands inside a node that is data otherwise (here-document bodies, expansions). */
  private substitutions(node: Node, depth: number): void {
    if (this.tooDeep(node, depth)) return;
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === "command_substitution" || c.type === "process_substitution") this.word(c, depth + 1);
      else if (c.isError || c.isMissing) this.statement(c, depth + 1);
      else this.substitutions(c, depth + 1);
    }
  }

  /** Reads a word; substitutions inside it are read as commands. */
  word(node: Node, depth: number): ShellWord {
    const v = this.value(node, depth);
    const w: ShellWord = { source: node.text, glob: /[*?[]/.test(v.shape), start: node.startIndex, end: node.endIndex };
    // Brace expansion turns one word into several: what runs is not the word as written.
    if (v.value !== undefined && !/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(v.shape)) w.value = v.value;
    return w;
  }

  private value(node: Node, depth: number): WordValue {
    if (this.tooDeep(node, depth)) return { shape: "" };
    const t = node.text;
    switch (node.type) {
      case "word":
      case "number":
      case "variable_name":
      case "file_descriptor": {
        this.words.push([node.startIndex, node.endIndex]);
        const bare = t.replace(/\\[\s\S]/g, "");
        // tree-sitter-bash can read `a\n\\b` as one word holding a line break; bash reads two commands.
        if (/\s/.test(bare)) this.problem("wordWithSpace", { text: short(t) }, node);
        if (/[$`]/.test(bare)) return { shape: t };
        return { value: unescapeUnquoted(t), shape: t.replace(/\\./g, "\u0001") };
      }
      case "raw_string":
        this.quoted.push([node.startIndex, node.endIndex]);
        return { value: t.slice(1, -1), shape: mask(t) };
      case "ansi_c_string": {
        this.quoted.push([node.startIndex, node.endIndex]);
        const value = decodeAnsiC(t.slice(2, -1));
        return value === undefined ? { shape: mask(t) } : { value, shape: mask(t) };
      }
      case "string": {
        this.quoted.push([node.startIndex, node.endIndex]);
        // The value comes from the text between the quotes: tree-sitter-bash leaves white space that
        // stands alone (\`" "\`, a quoted line break) out of its string_content nodes.
        let fixed = t.startsWith('"') && t.endsWith('"') && t.length >= 2;
        for (const c of node.namedChildren) {
          if (!c || c.type === "string_content") continue;
          this.value(c, depth + 1);
          fixed = false;
        }
        return fixed ? { value: unescapeDoubleQuoted(t.slice(1, -1)), shape: mask(t) } : { shape: mask(t) };
      }
      case "concatenation": {
        let value: string | undefined = "";
        let shape = "";
        for (const c of node.children) {
          if (!c) continue;
          const v = c.isNamed ? this.value(c, depth + 1) : { shape: c.text };
          shape += v.shape;
          value = value === undefined || v.value === undefined ? undefined : value + v.value;
        }
        return value === undefined ? { shape } : { value, shape };
      }
      case "command_substitution": {
        this.construct(t.startsWith("`") ? "`…`" : "$(…)", node);
        this.inSubshell(() => this.sequence(node, depth), true);
        return { shape: mask(t) };
      }
      case "process_substitution": {
        this.construct(t.startsWith(">") ? ">(…)" : "<(…)", node);
        this.inSubshell(() => this.sequence(node, depth), true);
        return { shape: mask(t) };
      }
      case "arithmetic_expansion":
        if (/[`[]|\$\(/.test(t.slice(3))) this.problem("arithmeticSubstitution", {}, node);
        this.substitutions(node, depth);
        return { shape: mask(t) };
      case "simple_expansion":
      case "expansion":
      case "brace_expression":
      case "array":
      case "translated_string":
        this.substitutions(node, depth);
        return { shape: mask(t) };
      case "extglob_pattern":
      case "regex":
      case "test_operator":
        return { value: t, shape: t };
      default:
        if (node.isError || node.isMissing) this.statement(node, depth);
        else this.problem("unknownWord", { text: short(t), kind: node.type.replace(/_/g, " ") }, node);
        return { shape: mask(t) };
    }
  }
}

/** Does the statement leave the shell (`exit`, `return`, or a `{ ...; }` group ending in one)? */
function leaves(node: Node): boolean {
  if (node.type === "compound_statement") {
    const last = node.namedChildren.filter((c) => c !== null && c.type !== "comment").pop();
    return last !== undefined && last !== null && leaves(last);
  }
  if (node.type !== "command") return false;
  const name = node.childForFieldName("name")?.text;
  return name === "exit" || name === "return";
}

/** Words bash reads as syntax where a command may start. */
const RESERVED = new Set(["{", "}", "(", ")", "!", "if", "then", "elif", "else", "fi", "for", "select", "while", "until", "do", "done", "case", "esac", "in", "function", "coproc", "time", "[[", "]]", "(("]);

/** Node types that may appear where a word is expected. */
const VALUE_PARTS = new Set([
  "word",
  "number",
  "raw_string",
  "ansi_c_string",
  "string",
  "concatenation",
  "command_substitution",
  "process_substitution",
  "arithmetic_expansion",
  "simple_expansion",
  "expansion",
  "brace_expression",
  "array",
  "translated_string",
  "extglob_pattern",
  "regex",
  "variable_name",
]);

function mask(text: string): string {
  return "\u0001".repeat(text.length);
}

/** A one-line excerpt of source text for messages. */
export function short(text: string): string {
  const one = text.replace(/\s+/g, " ");
  return one.length > 40 ? one.slice(0, 37) + "…" : one;
}
