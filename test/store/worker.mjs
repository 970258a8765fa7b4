// One process of the store race test: `count` hook decisions on one session's run, all at once.
// argv: spec cwd session workspace count planJSON. Prints one JSON line: {allow, deny, error}.
import { decideHook } from "../../dist/store/runs.js";
import { openStore } from "../../dist/store/open.js";
import { defaultPolicy } from "../../dist/policy/defaults.js";
import { createFileProbe } from "../../dist/node/file-probe.js";

const [spec, cwd, session, workspace, countText, planText] = process.argv.slice(2);
const plan = JSON.parse(planText);
const store = await openStore(spec, cwd, { max: 5 });
const now = new Date("2026-11-22T12:00:00Z");
const out = { allow: 0, deny: 0, error: 0 };
await Promise.all(
  Array.from({ length: Number(countText) }, async (_, i) => {
    const step = plan[i % plan.length];
    try {
      const a = await decideHook(store, { session, cwd: workspace, tool: step.tool, args: step.params }, { now, mode: "claude", noRunPolicy: async () => defaultPolicy(workspace), files: createFileProbe });
      out[a.decision === "allow" ? "allow" : "deny"]++;
    } catch {
      out.error++;
    }
  }),
);
await store.close();
process.stdout.write(JSON.stringify(out) + "\n");
