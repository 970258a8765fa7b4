/**
 * A session registry path that is not a folder is a usage error (exit 2), never an internal error.
 * Entries that are not small regular files (FIFOs, links, folders, huge files) are in the adversarial
 * corpus (test/adversarial.test.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SessionRegistryError } from "../../src/orchestration/registry.js";
import { FileSessionRegistry } from "../../src/store/file-registry.js";
import { cli } from "../cli-io.js";
import { NOW } from "../helpers.js";

const root = mkdtempSync(join(tmpdir(), "plangate-sessions-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a registry path that is not a folder", () => {
  const cwd = join(root, "paths");
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, "file.json"), "{}");
  const base = ["check-delegation", "--target", "planner", "--path", "orchestrator", "--session-id", "sess_1"];
  it.each([
    ["a file", ["--registry", "file.json"], "is a file"],
    ["a path under a file", ["--registry", "file.json/sub"], "inside a file"],
    ["a device", ["--registry", "/dev/zero"], "a device"],
    ["a file, with --register", ["--registry", "file.json", "--register"], "is a file"],
  ])("is a usage error (exit 2): %s", async (_name, flags, says) => {
    const r = await cli([...base, ...flags], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(says);
    expect(r.stderr).not.toContain("internal error");
  });
  it("is a usage error for --release too, and for the policy's delegation.registry", async () => {
    const rel = await cli(["check-delegation", "--release", "--session-id", "sess_1", "--registry", "file.json"], { cwd });
    expect([rel.code, rel.stderr.includes("is a file")]).toEqual([2, true]);
    writeFileSync(join(cwd, "plangate.yaml"), "delegation:\n  registry: file.json\n");
    const pol = await cli(base, { cwd });
    expect(pol.code).toBe(2);
    expect(pol.stderr).toContain("delegation.registry");
    rmSync(join(cwd, "plangate.yaml"));
  });
  it("releasing from a registry that does not exist yet says so (exit 0)", async () => {
    const r = await cli(["check-delegation", "--release", "--session-id", "sess_1", "--registry", "not-yet"], { cwd });
    expect([r.code, r.stdout]).toEqual([0, "not registered: sess_1\n"]);
  });
  it("an entry that is a folder cannot be released: a usage error naming it", async () => {
    mkdirSync(join(cwd, "reg/sess_9.json"), { recursive: true });
    const r = await cli(["check-delegation", "--release", "--session-id", "sess_9", "--registry", "reg"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is a folder");
  });
  it("the library throws SessionRegistryError for a folder that is a file", () => {
    const reg = new FileSessionRegistry(join(cwd, "file.json"));
    expect(() => reg.lookup("sess_1", NOW)).toThrow(SessionRegistryError);
    expect(() => reg.register("sess_1", { now: NOW, ttlSeconds: 60 })).toThrow(SessionRegistryError);
    expect(() => reg.release("sess_1")).toThrow(SessionRegistryError);
  });
});
