import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planMd, runMd, workspace } from "../../../test/teddy.js";
import { createFileProbe } from "../../node/file-probe.js";
import { createPathService } from "../../core/path-service.js";
import { isUrl, pathFromValue, teddyLinkTarget } from "./paths.js";

const ws = workspace({ "src/a.py": "x = 1\n" });
const rules = async (md: string) => (await runMd(md, ws)).diagnostics.map((d) => d.rule);

describe("TeDDy paths", () => {
  // TeDDy (teddy_executor parser_infrastructure.normalize_link_target, POSIX) keeps a link target
  // absolute when it starts with /tmp, /etc, /home, /var, /usr or /root as a plain string prefix;
  // every other leading-/ target loses all its leading slashes.
  it.each([
    ["/etc/passwd", "/etc/passwd"],
    ["/home/u/.ssh/id_rsa", "/home/u/.ssh/id_rsa"],
    ["/tmp/x", "/tmp/x"],
    ["/var/log/syslog", "/var/log/syslog"],
    ["/usr/bin/env", "/usr/bin/env"],
    ["/root/.bashrc", "/root/.bashrc"],
    ["/tmpfile", "/tmpfile"],
    ["/homework/a.md", "/homework/a.md"],
    ["/etc", "/etc"],
    ["/src/a.py", "src/a.py"],
    ["//etc/passwd", "etc/passwd"],
    ["///src/a.py", "src/a.py"],
    ["/ETC/passwd", "ETC/passwd"],
    ["/opt/x", "opt/x"],
    ["src/a.py", "src/a.py"],
    ["https://example.com/x", "https://example.com/x"],
  ])("reads the link target %s as %s", (target, path) => {
    expect(teddyLinkTarget(target)).toBe(path);
  });
  it("normalises backslashes after the link rule, as TeDDy does", () => {
    expect(pathFromValue("", { text: "x", href: "\\etc\\passwd" })).toBe("/etc/passwd");
    expect(pathFromValue("", { text: "x", href: "/src\\a.py" })).toBe("src/a.py");
  });
  it.each([
    "### READ\n- **Resource:** [passwd](/etc/passwd)",
    "### READ\n- **Resource:** [key](/home/user/.ssh/id_rsa)",
    "### CREATE\n- **File Path:** [job](/var/spool/cron/job)\n```\nx\n```",
    "### CREATE\n- **File Path:** [x](/tmp/x.sh)\n```\nx\n```",
    "### CREATE\n- **File Path:** [rc](/root/.bashrc)\n```\nx\n```",
    "### READ\n- **Resource:** [env](/usr/bin/env)",
  ])("keeps TeDDy's absolute link targets absolute, so they are outside: %s", async (action) => {
    expect(await rules(planMd(action))).toContain("path-outside-workspace");
  });
  it("reads an unresolved [/etc/shadow] as TeDDy does: a relative path with its brackets", async () => {
    const found = await rules(planMd("### READ\n- **Resource:** [/etc/shadow]"));
    expect(found).not.toContain("path-outside-workspace");
    expect(found).toContain("read-file-missing");
  });
  it("reads other leading-/ link targets from the workspace root", async () => {
    expect(await rules(planMd("### READ\n- **Resource:** [a.py](/src/a.py)"))).not.toContain("path-outside-workspace");
  });
  it.each([
    "### READ\n- **Resource:** file:///etc/passwd",
    "### READ\n- **Resource:** FILE:/etc/passwd",
    "### READ\n- **Resource:** file:/etc/passwd",
    "### READ\n- **Resource:** file://localhost/etc/passwd",
    "### READ\n- **Resource:** [passwd](file:///etc/passwd)",
    "### READ\n- **Resource:** `file:///etc/passwd`",
    "### CREATE\n- **File Path:** file:///etc/cron.d/job\n```\nx\n```",
  ])("reads a file: URL Resource as a path: %s", async (action) => {
    expect(await rules(planMd(action))).toContain("path-outside-workspace");
  });
  it("keeps web URLs as URLs and file: URLs as paths", () => {
    expect(isUrl("https://example.com")).toBe(true);
    expect(isUrl("file:///etc/passwd")).toBe(false);
    expect(isUrl("FILE:///etc/passwd")).toBe(false);
  });
  it("resolves with the core resolver: encodings, look-alikes, symlinks", () => {
    const w = workspace({ "src/a.py": "x\n" });
    symlinkSync("/etc", join(w, "etc-link"));
    const files = createFileProbe();
    expect(createPathService(w, files).inWorkspace("src/a.py")).toMatchObject({ inside: true, kind: "file" });
    expect(createPathService(w, files).inWorkspace("src/new.py")).toMatchObject({ inside: true, kind: "missing" });
    expect(createPathService(w, files).inWorkspace("src")).toMatchObject({ inside: true, kind: "dir" });
    for (const p of ["%2e%2e/x", "%252e%252e/x", "%25252e%25252e/x", "..%c0%afx", "..\u2215x", "etc-link/passwd", "file:///etc/passwd", "/etc/passwd", "~/x", ""])
      expect(createPathService(w, files).inWorkspace(p).inside, p).toBe(false);
  });
});
