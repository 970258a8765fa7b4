/**
 * The operators of a shell command line that join several commands (`&&`, `||`, `;`, `|`, `&`, a newline),
 * outside quotes; `2>&1` and `>&2` redirections do not count.
 */
export function chainingOperators(command: string): string[] {
  const found: string[] = [];
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(command[i - 1]!))) {
      // A comment runs to the end of the line; a newline after it still starts a new command.
      const nl = command.indexOf("\n", i);
      if (nl < 0) break;
      i = nl - 1;
    } else if (c === ";" || c === "\n") {
      if (c === "\n" && command.slice(i + 1).trim() === "") continue;
      found.push(c === "\n" ? "a newline" : ";");
    } else if (c === "&" || c === "|") {
      const two = command.slice(i, i + 2);
      if (two === "&&" || two === "||") {
        found.push(two);
        i++;
      } else if (!(c === "&" && (command[i - 1] === ">" || command[i - 1] === "<" || command[i + 1] === ">"))) found.push(c);
    }
  }
  return found;
}
