import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  license: string;
  exports: Record<string, Record<string, string>>;
  files: string[];
};

// A consumer folder whose node_modules/plangate is this checkout.
const consumer = mkdtempSync(join(tmpdir(), "plangate-consumer-"));
mkdirSync(join(consumer, "node_modules"));
symlinkSync(root, join(consumer, "node_modules", "plangate"), "dir");
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

const node = (args: string[]) => {
  try {
    return { out: execFileSync(process.execPath, args, { cwd: consumer, encoding: "utf8", stdio: "pipe" }), err: "" };
  } catch (e) {
    return { out: "", err: String((e as { stderr?: string }).stderr ?? e) };
  }
};

describe("package", () => {
  it("the vendored bash grammar is byte for byte the one of the @vscode/tree-sitter-wasm development dependency, as vendor/README.md records", async () => {
    const { createHash } = await import("node:crypto");
    const { createRequire } = await import("node:module");
    const { readFileSync } = await import("node:fs");
    const vendored = readFileSync(join(import.meta.dirname, "../vendor/tree-sitter-bash.wasm"));
    const source = readFileSync(createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm"));
    expect(vendored.equals(source)).toBe(true);
    const hash = createHash("sha256").update(vendored).digest("hex");
    expect(readFileSync(join(import.meta.dirname, "../vendor/README.md"), "utf8")).toContain(hash);
  });

  it("names its licence in a LICENSE file that matches package.json", () => {
    expect(pkg.license).toBe("MIT");
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(pkg.files).toContain("LICENSE");
  });

  it("tells a CommonJS require() caller to use import, for every entry point", () => {
    for (const entry of ["plangate", "plangate/schemas"]) {
      const r = node(["-e", `try { require(${JSON.stringify(entry)}) } catch (e) { console.log(e.code + ": " + e.message) }`]);
      expect(r.out).toMatch(/^ERR_REQUIRE_ESM: plangate is an ES module: load it with `import/);
    }
  });

  it("loads as an ES module", () => {
    const r = node(["--input-type=module", "-e", 'const m = await import("plangate"); console.log(typeof m.validateFile)']);
    expect(r.err).toBe("");
    expect(r.out.trim()).toBe("function");
  });

  it("exports exactly the documented library surface (change this list on purpose, with the README's Library section)", () => {
    const names = (entry: string) => {
      const r = node(["--input-type=module", "-e", `const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m).sort()))`]);
      expect(r.err).toBe("");
      return JSON.parse(r.out) as string[];
    };
    expect(names("plangate")).toEqual([
      "APPROVAL_PAYLOAD_TYPE", "AuditLog", "ContextFileError", "ExecutionGuard", "FileSessionRegistry", "FileStore", "GuardRefusal",
      "GuardStateError", "HostProfileError", "KeyError", "MemorySessionRegistry", "PolicyError", "RULES", "StoreSpecError",
      "StoreUnavailableError", "VERSION", "approve",
      "checkDelegation", "checkReturn", "checkTask", "createRecord", "defaultPolicy", "discoverPolicy", "explainText",
      "findRule", "formatFeedback", "formatJson", "formatSarif", "formatText", "generateKeyFiles", "keyId",
      "keyPlacesFor", "loadContextFile", "loadPolicy", "loadPrivateKey", "loadProfile", "loadSigner", "loadToolsFile", "loadTrustedKeys",
      "migrateLegacy", "openStore", "parseContextText", "parseStoreSpec", "parseToolsText", "parseTtl", "planHash", "policyForFile", "reportJson",
      "sealEnvelope", "signEnvelope", "toolsHash", "validateFile", "validatePlan", "verifyApproval", "verifyAuditText",
    ]);
    expect(names("plangate/schemas")).toEqual([
      "ApprovalRecordSchema", "DRAFT_2020_12", "HostProfileSchema", "IkomaPlanSchema", "IkomaStepSchema", "IntakePlanSchema",
      "PublishedPolicySchema", "ReportSchema", "SCHEMAS", "ScqcEnvelopeSchema", "ScqcLegacySchema", "SubagentReturnSchema",
      "findSchema", "publishedSchema", "schemaText",
    ]);
    // Internals stay out: the CLI, the hook and its runs, key-derivation and DSSE helpers.
    const all = new Set(names("plangate"));
    for (const internal of ["main", "pae", "hookCall", "decideStep", "startGuard", "consumeNonce", "entryMac", "startRun", "decideHook", "planHashOf"]) expect(all.has(internal), internal).toBe(false);
  });

  it("exposes no subpath but the library and its schemas", () => {
    expect(Object.keys(pkg.exports).sort()).toEqual([".", "./schemas"]);
    const r = node(["--input-type=module", "-e", 'try { await import("plangate/dist/cli/main.js"); console.log("loaded") } catch (e) { console.log(e.code) }']);
    expect(r.out.trim()).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });
});
