// The scQC envelopes the benchmarks validate: n steps over six tools, sealed with the Python-compatible checksum.
import { pythonChecksum } from "../dist/core/canonical/python-json.js";

export const TOOLS = ["load_data", "compute_qc_metrics", "plot_qc", "apply_qc_filters", "quick_graph", "run_scar"];

export function envelope(n) {
  const plan = [];
  for (let i = 0; i < n; i++)
    plan.push({
      tool: TOOLS[i % TOOLS.length],
      description: `Step ${i + 1}: run ${TOOLS[i % TOOLS.length]} on batch ${i} (µ=0.5)`,
      params: { species: i % 2 ? "human" : "mouse", min_genes: 200 + i, max_pct_mt: 20.5, file_path: `data/batch_${i}.h5ad`, flags: [true, null, 1e-5] },
    });
  return JSON.stringify({ version: "1.0", created_at: "2026-11-20T10:00:00.000000", message: "bench", intent: "compute_qc", checksum: pythonChecksum(plan), plan }, null, 2);
}
