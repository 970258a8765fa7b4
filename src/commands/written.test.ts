import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../test/helpers.js";
import { defaultPolicy } from "../policy/defaults.js";

const write = (path: string, content: string) => ({ tool: "write_file", arguments: { path, content }, intent: "write" });
const run = (command: string) => ({ tool: "run_command", arguments: { command }, intent: "run" });

describe("files a plan writes and then runs: bounds", () => {
  it("written scripts that each run all of them are refused within the bound on runs judged", async () => {
    const body = Array.from({ length: 60 }, (_, k) => `./a${k}.sh`).join("\n");
    const plan = JSON.stringify({ steps: [...Array.from({ length: 60 }, (_, i) => write(`a${i}.sh`, body)), run("./a0.sh")] });
    const found = await diagnosticsOf("disallowed-tool", plan);
    expect(found.length).toBeGreaterThan(0);
    // At most one for each file it runs, and one for the bound.
    expect(found.length).toBeLessThanOrEqual(61);
    expect(found.every((d) => d.step === 61 && d.messageId === "writtenUnreadable")).toBe(true);
  });

  it("each run past the bound is refused, one finding a step", async () => {
    const plan = JSON.stringify({ steps: [write("a.sh", "echo hi\n"), ...Array.from({ length: 10_001 }, () => run("./a.sh"))] });
    const found = await diagnosticsOf("disallowed-tool", plan);
    expect(found.map((d) => [d.step, d.messageId])).toEqual([[10_002, "writtenUnreadable"]]);
    expect(found[0]!.message).toMatch(/the plan runs more than 10000 files it writes/);
  });
});

describe("files a plan writes and then runs: patterns written through", () => {
  it("past the patterns kept, a pattern marks its whole folder: a file loaded from it is still refused", async () => {
    const steps = [...Array.from({ length: 300 }, (_, i) => run(`curl -s https://example.com/t > d${i}/test_[0].py`)), run("pytest")];
    const found = await diagnosticsOf("disallowed-tool", JSON.stringify({ steps }));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.step === 301 && d.messageId === "writtenUnknown")).toBe(true);
    const files = found.map((d) => /run (\S+), which step/.exec(d.message)?.[1]);
    expect(files).toContain("d0/test_[0].py");
    expect(files).toContain("d299/**");
  });
});

describe("files a plan writes and then runs: texts read from disk", () => {
  const ws = mkdtempSync(join(tmpdir(), "plangate-written-bases-"));
  // 70 files of 250 KiB: 17.5 MiB in all, past the 16 MiB a validation reads as the texts edits apply to.
  const big = "echo ok\n" + "#".repeat(250 * 1024 - 9) + "\n";
  for (let i = 0; i < 70; i++) writeFileSync(join(ws, `s${i}.sh`), big);
  afterAll(() => rmSync(ws, { recursive: true, force: true }));
  const edit = (path: string) => ({ tool: "edit_file", arguments: { path, old_string: "echo ok", new_string: "echo hello" }, intent: "edit" });

  it("replays edits on the files' texts until the bound on bytes read, and leaves the rest unknown", async () => {
    // Each text is read when a run needs it, in the order needed: the 66th file read passes the bound.
    const steps = [...Array.from({ length: 70 }, (_, i) => edit(`s${i}.sh`)), ...Array.from({ length: 70 }, (_, i) => run(`./s${i}.sh`))];
    const found = await diagnosticsOf("disallowed-tool", JSON.stringify({ steps }), { workspace: ws });
    expect(found.map((d) => [d.step, d.messageId])).toEqual([136, 137, 138, 139, 140].map((s) => [s, "writtenUnknown"]));
  });

  it("reads a text on disk only when a run needs it: not for code a trusted program loads", async () => {
    for (let i = 0; i < 5; i++) writeFileSync(join(ws, `p${i}.py`), "echo ok\n");
    const reads: string[] = [];
    const { createFileProbe } = await import("../node/file-probe.js");
    const probe = createFileProbe();
    const files = { ...probe, readText: (p: string) => (reads.push(p), probe.readText(p)) };
    const policy = defaultPolicy(ws);
    policy.commands.writtenCode = ["python"];
    const steps = [...Array.from({ length: 5 }, (_, i) => edit(`p${i}.py`)), edit("s0.sh"), run("pytest"), run("make")];
    const found = await diagnosticsOf("disallowed-tool", JSON.stringify({ steps }), { workspace: ws, files, policy });
    // pytest loads the Python, which the policy trusts: not read. make may run the script: a shell script is judged by its text.
    expect(reads.filter((p) => p.endsWith(".py"))).toEqual([]);
    expect(reads.filter((p) => p.endsWith("s0.sh"))).toHaveLength(1);
    expect(found).toEqual([]);
  });
});

describe("files a plan writes and then runs: symlinks on disk", () => {
  const ws = mkdtempSync(join(tmpdir(), "plangate-written-"));
  mkdirSync(join(ws, "scripts"));
  writeFileSync(join(ws, "scripts/ci.sh"), "echo ok\n");
  symlinkSync("scripts", join(ws, "s"));
  symlinkSync("scripts/ci.sh", join(ws, "link.sh"));
  afterAll(() => rmSync(ws, { recursive: true, force: true }));
  const edit = (path: string) => ({ tool: "edit_file", arguments: { path, old_string: "echo ok", new_string: "rm -rf ~" }, intent: "edit" });

  it.each([
    ["written through a folder's link, run by its own path", [write("s/ci.sh", "rm -rf ~\n"), run("./scripts/ci.sh")]],
    ["written through a file's link, run by its own path", [write("link.sh", "rm -rf ~\n"), run("./scripts/ci.sh")]],
    ["written by its own path, run through a folder's link", [write("scripts/ci.sh", "rm -rf ~\n"), run("./s/ci.sh")]],
    ["written by its own path, run through a file's link", [write("scripts/ci.sh", "rm -rf ~\n"), run("./link.sh")]],
    ["edited through a link, run by its own path", [edit("link.sh"), run("./scripts/ci.sh")]],
  ])("%s: the text judged is the one written", async (_name, steps) => {
    const found = await diagnosticsOf("path-outside-workspace", JSON.stringify({ steps }), { workspace: ws });
    expect(found.map((d) => d.message)).toEqual([expect.stringMatching(/^Step 2: the command in "command" names "~" \(in \.\/(?:scripts\/ci|s\/ci|link)\.sh, which step 1 writes\)/)]);
  });

  it("an honest script written through a link and run by its own path passes", async () => {
    const steps = [write("s/ci.sh", "echo hello\n"), run("./scripts/ci.sh"), run("./link.sh")];
    const found = await diagnosticsOf("disallowed-tool", JSON.stringify({ steps }), { workspace: ws });
    expect(found).toEqual([]);
  });
});

describe("files a plan writes and then runs: compiled forms", () => {
  const trusting = (...langs: string[]) => {
    const policy = defaultPolicy("/workspace");
    policy.commands.writtenCode = langs;
    return policy;
  };
  it.each([
    ["lib/_x.so", "pytest"],
    ["lib/__pycache__/m.cpython-312.pyc", "python3 -m pytest"],
    ["build/addon.node", "npx jest"],
    ["lib/app.jar", "./gradlew build"],
  ])("%s, then %s: refused even when the policy trusts every language", async (file, command) => {
    const found = await diagnosticsOf("disallowed-tool", JSON.stringify({ steps: [write(file, "\u007fELF"), run(command)] }), { policy: trusting("*") });
    expect(found.map((d) => d.messageId)).toEqual(["writtenUnreadable"]);
    expect(found[0]!.message).toMatch(/commands\.writtenCode trusts a language's source, not its compiled forms/);
  });

  it("the sources of a trusted language still pass", async () => {
    const steps = [write("lib/x.py", "x = 1\n"), write("src/x.ts", "export {}\n"), run("pytest"), run("npx vitest")];
    expect(await diagnosticsOf("disallowed-tool", JSON.stringify({ steps }), { policy: trusting("python", "node") })).toEqual([]);
  });
});

describe("files a plan writes and then runs: what a copy or an archive reads is not written", () => {
  const unknown = async (...commands: string[]) => (await diagnosticsOf("disallowed-tool", JSON.stringify({ steps: [...commands.map(run), run("pytest")] }))).filter((d) => d.messageId === "writtenUnknown").map((d) => /run (\S+), which step/.exec(d.message)?.[1]);

  it.each([
    "cp tests/test_a.py /tmp/backup/",
    "cp -r tests /tmp/backup",
    "cp -t /tmp/backup tests/test_a.py tests/test_b.py",
    "cp --target-directory=/tmp/backup tests/test_a.py",
    "cp -S .bak tests/test_a.py /tmp/x.py",
    "gcp -p tests/test_a.py /tmp/",
    "rsync -av --exclude .git tests/ /tmp/backup/",
    "rsync -e ssh -a tests host:/backup",
    "install -m 644 tests/test_a.py /tmp/x.py",
    "ln -s tests/test_a.py /tmp/link.py",
    "scp -P 2222 tests/test_a.py host:/tmp/",
    "ditto tests /tmp/t",
    "tar -czf /tmp/t.tgz tests",
    "tar czf /tmp/t.tgz -C tests .",
    "tar --create --gzip --file /tmp/t.tgz tests",
    "zip -qr /tmp/t.zip tests",
    "find tests -name '*.pyc'",
  ])("%s, then pytest: the sources are read", async (command) => {
    expect(await unknown(command)).toEqual([]);
  });

  it.each([
    ["cp /tmp/evil.txt tests/test_e.py", ["tests/test_e.py"]],
    ["cp -t tests /tmp/evil.py", ["tests/**"]],
    ["cp -rt tests /tmp/evil", ["tests/**"]],
    ["cp --target-directory tests /tmp/evil.py", ["tests/**"]],
    // An option after an operand, or one plangate does not know, leaves the reading open: every word is written.
    ["cp /tmp/a tests/test_b.py -S x", ["tests/test_b.py", "x/**"]],
    ["cp --targ tests /tmp/evil.py", ["tests/**"]],
    ["rsync --log-file tests/test_log.py -a /tmp/a /tmp/b", ["tests/test_log.py"]],
    ["rsync -a --remove-source-files tests/ /tmp/b/", ["tests/**"]],
    ["tar -cf tests/test_x.py lib", ["tests/test_x.py"]],
    ["tar cf tests/test_x.py lib", ["tests/test_x.py"]],
    ["tar --create --file=tests/test_x.py lib", ["tests/test_x.py"]],
    ["tar -c --remove-files -f /tmp/t.tar tests/test_a.py", ["tests/test_a.py"]],
    ["zip tests/test_x.py lib/a", ["tests/test_x.py"]],
    ["zip -m /tmp/t.zip tests/test_a.py", ["tests/test_a.py"]],
    // mv's sources are gone or left as they were (when it fails): still written.
    ["mv tests/test_a.py /tmp/", ["tests/test_a.py"]],
    ["find . -fprintf tests/test_f.py 'import os'", ["tests/test_f.py"]],
  ])("%s, then pytest: the destination is written", async (command, files) => {
    expect(await unknown(command)).toEqual(files);
  });
});
