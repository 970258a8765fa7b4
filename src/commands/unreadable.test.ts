import { beforeAll, describe, expect, it } from "vitest";
import { loadShellReader, type ShellReader } from "../syntax/shell/parse.js";
import { simpleCommandsWith } from "./analyse.js";

let reader: ShellReader;
beforeAll(async () => {
  reader = await loadShellReader();
});

const nested = (depth: number): string => {
  let line = "ls";
  for (let i = 0; i < depth; i++) line = `sh -c ${JSON.stringify(line)}`;
  return line;
};

/**
 * Which command lines cannot be read to the end (simpleCommandsWith gives undefined): a parse problem, a
 * program or command line decided at run time, a wrapper whose program cannot be made out, commands read
 * from a file, standard input or text. Other findings (a value decided at run time, a compound command,
 * a setting that rewires a name) leave the line readable.
 */
const TABLE: readonly [string, boolean][] = [
  ["ls -l", false],
  ["ls a; rm b", false],
  ["xargs rm", false],
  ["sh -c 'a; b'", false],
  ["ls $X", false],
  ["ls > $OUT", false],
  ["CDPATH=/ cd etc", false],
  ["let x+1", false],
  ["PATH=/tmp ls", false],
  ["env LD_PRELOAD=x ls", false],
  ["$X y", true],
  ["*.sh", true],
  ["\"\" x", true],
  ["ｒｍ x", false],
  ["alias ls=rm", false],
  ["hash -p /bin/rm ls", false],
  ["enable -f x.so y", false],
  ["let 'a[$(rm x)]'", false],
  ["declare 'a[$(rm x)]=1'", false],
  ["x='$(rm y)' ls", false],
  ["mapfile -C cb x", true],
  ["compgen -C cb", true],
  ["fc -s", true],
  ["bind -x '\"\\C-x\": rm x'", true],
  ["source x.sh", true],
  [". ./x.sh", true],
  ["bash -s", true],
  ["bash", true],
  ["bash x.sh", true],
  ["cat x | sh", true],
  ["parallel -j2 rm ::: a", true],
  ["parallel", true],
  ["sudo -Z rm x", true],
  ["sudo --frobnicate rm x", true],
  ["xargs $X rm", true],
  ["env -S", true],
  ["su -c", true],
  ["sg wheel -c", true],
  ["find . -exec rm", true],
  ["find . $EXEC rm ;", false],
  ["sh -c \"$X\"", true],
  ["eval \"$X\"", true],
  ["eval ls", false],
  ["bash -c", true],
  ["nice ls", false],
  ["timeout 5 rm x", false],
  ["sudo rm x", false],
  ["tmux new -d 'a; b'", false],
  ["tmux send-keys 'rm x' Enter", true],
  ["tmux display -p '#(rm x)'", true],
  ["hyperfine -L n 1,2 'make -j{n}'", false],
  ["watchexec @args make", true],
  ["nodemon --config dev.json", true],
  ["expect -c 'spawn ls'", true],
  ["fish -c ls", true],
  ["ls (", true],
  ["f() { ls; }", true],
  ["echo 'unterminated", true],
  [nested(8), false],
  [nested(10), true],
];

describe("unreadable command lines", () => {
  it.each(TABLE)("%s: unreadable %s", (line, unreadable) => {
    expect(simpleCommandsWith(reader, line) === undefined).toBe(unreadable);
  });
});
