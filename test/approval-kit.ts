import { createPrivateKey, type KeyObject } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APPROVAL_PAYLOAD_TYPE, signEnvelope } from "../src/approval/dsse.js";
import { generateKeyFiles, keyId, loadTrustedKeys } from "../src/node/keys.js";
import { type ApprovalRecord, createRecord, toolsHash } from "../src/approval/record.js";
import { type VerifyOptions, type VerifyResult, verifyApproval } from "../src/node/verify.js";
import { resolvedPolicyHash } from "../src/node/policy.js";
import { parseToolsText } from "../src/node/tools-file.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import { planHash } from "../src/ops/hash.js";
import { NOW } from "./helpers.js";

/** The policy hash of the built-in defaults (no policy file) and the generic host. */
export const DEFAULT_POLICY_HASH = resolvedPolicyHash(defaultPolicy("/"));

export const PLAN = [
  { tool: "read_file", description: "read the input", params: { path: "in.txt" } },
  { tool: "write_file", description: "write the summary", params: { path: "out.txt", content: "ok" } },
  { tool: "read_file", description: "check the output", params: { path: "out.txt" } },
];

/**
 * A real temp layout: root/ws (workspace with plan.json), root/guard (state, audit, consumed), and a key pair
 * in a folder of its own beside root, as the approver keeps it out of the project: a key in root, where tests
 * put policy files, would lie in the policy file's folder (approval-key-in-workspace).
 */
export function approvalKit() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-approval-")));
  const workspace = join(root, "ws");
  const keysDir = join(realpathSync(mkdtempSync(join(tmpdir(), "plangate-approver-"))), "keys");
  const guardDir = join(root, "guard");
  mkdirSync(workspace);
  mkdirSync(guardDir);
  const keys = generateKeyFiles(keysDir);
  const planFile = join(workspace, "plan.json");
  writeFileSync(planFile, JSON.stringify(PLAN, null, 2));
  const privateKey = createPrivateKey(readFileSync(keys.privateFile));
  const trustedKeys = loadTrustedKeys(keys.publicFile);
  // approve and guard start refuse unconstrained tools: the kit's plan is approved with this registry.
  const toolsFile = join(root, "tools.txt");
  writeFileSync(toolsFile, "read_file\nwrite_file\n");
  const tools = parseToolsText(readFileSync(toolsFile, "utf8"), toolsFile);

  async function record(over: Partial<ApprovalRecord> = {}, opts: { ttlMs?: number; planText?: string } = {}): Promise<ApprovalRecord> {
    const text = opts.planText ?? readFileSync(planFile, "utf8");
    const r = createRecord({
      planHash: (await planHash(text, { file: "plan.json" }))!,
      scope: workspace,
      policyHash: DEFAULT_POLICY_HASH,
      toolsHash: toolsHash(tools),
      steps: PLAN.length,
      now: NOW,
      ttlMs: opts.ttlMs,
      // Without a lifetime the record never expires, on purpose: the real hook processes some tests start
      // read the wall clock, which the fixed NOW would otherwise leave past the default lifetime.
      ...(opts.ttlMs === undefined ? { neverExpires: true } : {}),
      keyid: keyId(privateKey),
    });
    return { ...r, ...over };
  }
  function sign(r: unknown, key: KeyObject = privateKey, kid = keyId(key)): string {
    return JSON.stringify(signEnvelope(APPROVAL_PAYLOAD_TYPE, Buffer.from(JSON.stringify(r)), key, kid), null, 2);
  }
  async function verify(approval: string, over: Partial<VerifyOptions> = {}): Promise<VerifyResult> {
    return verifyApproval(approval, {
      planHash: await planHash(readFileSync(planFile), { file: "plan.json" }),
      workspace,
      policyHash: DEFAULT_POLICY_HASH,
      toolsHash: toolsHash(tools),
      trustedKeys,
      now: NOW,
      ...over,
    });
  }
  /** A guard's options for the kit's plan, signed approval, keys and guard folder. */
  async function guardOptions() {
    return {
      plan: planFile,
      approval: sign(await record()),
      workspace,
      policyHash: DEFAULT_POLICY_HASH,
      tools,
      trustedKeys,
      consumedDir: join(guardDir, "consumed"),
      audit: join(guardDir, "audit.log"),
      now: () => NOW,
    };
  }
  return { root, workspace, keysDir, guardDir, keys, planFile, privateKey, trustedKeys, toolsFile, tools, record, sign, verify, guardOptions };
}

/** The rule ids of a verification, in order. */
export function rulesOf(r: VerifyResult): string[] {
  return r.diagnostics.map((d) => d.rule);
}
