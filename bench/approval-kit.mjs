// What the guard and service benchmarks share: a temp root (under BENCH_DIR, else the system's temp
// folder), a key pair, the read_file/write_file registry, and signed approvals of plan files.
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APPROVAL_PAYLOAD_TYPE, createRecord, generateKeyFiles, keyId, loadPrivateKey, loadTrustedKeys, parseToolsText, planHash, signEnvelope, toolsHash } from "../dist/index.js";

/** The policy hash the benchmarks approve under (the built-in defaults, generic host). */
export const policyHash = "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";

export function benchKit(name) {
  const tools = parseToolsText("read_file\nwrite_file\n", "tools.txt");
  const base = process.env.BENCH_DIR ?? tmpdir();
  const root = realpathSync(mkdtempSync(join(base, `plangate-${name}-bench-`)));
  const keys = generateKeyFiles(join(root, "keys"));
  const key = loadPrivateKey(keys.privateFile);
  const trustedKeys = loadTrustedKeys(keys.publicFile);
  const now = new Date();
  /** A signed approval (DSSE envelope text) of the plan file for the workspace `ws`. */
  async function approvalOf(planFile, ws, steps, o = {}) {
    const record = createRecord({ planHash: await planHash(readFileSync(planFile), { file: planFile }), scope: ws, policyHash, toolsHash: toolsHash(tools), steps, now, singleUse: o.singleUse ?? true, keyid: keyId(key), ...(o.ttlMs ? { ttlMs: o.ttlMs } : {}) });
    return JSON.stringify(signEnvelope(APPROVAL_PAYLOAD_TYPE, Buffer.from(JSON.stringify(record)), key, keyId(key)));
  }
  return { tools, base, root, keys, trustedKeys, now, approvalOf };
}
