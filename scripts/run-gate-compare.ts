/**
 * The branch gates compared (docs/world-model.md): the same pool, models and node budget, one OUTER
 * round per gate, in alternating order over R repeats. The models are the two fd-micro SFT students
 * served by lib/serve and the reference policy; the confidence gate reads a world-model head trained
 * on round 0's tuples (the fixture store), loaded from HEAD_DIR or trained here first (200 steps).
 *   npx tsx scripts/run-gate-compare.ts [LIMIT=36] [REPEATS=2] [UNCERTAINTY=0.9] [HEAD_DIR] [GATES=divergence,confidence,both] > out.json
 * (repeat k runs GATES in order for even k, reversed for odd k)
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { initBackend } from "../lib/backend/index.js";
import { datasetsDir, scratchDir } from "../lib/core/index.js";
import { ModelClient, compareGates, serveReference, type GateKind } from "../lib/outer/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { serve } from "../lib/serve/index.js";
import { openStore } from "../lib/store/index.js";
import { loadCheckpoint, loadWorldModel, readWmTuples, saveWorldModel, trainWorldModel, worldModelScorer } from "../lib/train/index.js";

const limit = Number(process.argv[2] ?? 36);
const repeats = Number(process.argv[3] ?? 2);
const uncertainty = Number(process.argv[4] ?? 0.9);
const headDir = process.argv[5] ?? join(scratchDir(), "wm-gate-head");
await initBackend();
const pool = datasetsDir("fd-micro", "pool");
const ckpts = datasetsDir("train", "fd-micro-sft");
if (!existsSync(join(headDir, "head.json"))) {
  const ck = await loadCheckpoint(join(ckpts, "ckpt_000150"));
  const r = trainWorldModel(ck.policy, await readWmTuples({ store: datasetsDir("fd-micro", "wm-store"), run: "wm-r0" }), { steps: 200, seed: 1 });
  await saveWorldModel(headDir, r.head, ck.policy, { prior: r.prior, step: ck.step, eval: r.eval });
}
const { head, policy } = await loadWorldModel(headDir);
const scorer = worldModelScorer(policy, head);
const a = await serve({ checkpoint: join(ckpts, "ckpt_000075"), name: "fd-micro-sft-75", stop: ["\n\n"], tool_prompt: "ignore", port: 0 });
const b = await serve({ checkpoint: join(ckpts, "ckpt_000150"), name: "fd-micro-sft-150", stop: ["\n\n"], tool_prompt: "ignore", port: 0 });
const ref = await serveReference(pool);
const models = () => [a.baseURL, b.baseURL, ref.url].map((url) => new ModelClient({ url, max_tokens: 64 }));
const sandbox = await getSandbox("auto");
const gates = (process.argv[6] ?? "divergence,confidence,both").split(",") as GateKind[];
const orders: GateKind[][] = [gates, [...gates].reverse()];
const rows = [];
for (let k = 0; k < repeats; k++) {
  const load0 = loadavg()[0]!;
  const r = await compareGates({ pool, models: models(), sandbox, store: openStore(join(scratchDir(), `wm-gates-${Date.now()}`)), run_prefix: `rep${k}`, scorer, limit, budget: { depth: 2, width: 3, nodes: 6 }, gates: orders[k % 2]!.map((kind) => ({ kind, uncertainty })) });
  rows.push(...r.map((x) => ({ repeat: k, load_start: load0, load_end: loadavg()[0]!, ...x })));
  console.error(r.map((x) => `${k} ${x.gate}: ${x.nodes} nodes ${x.graded} graded ${x.winners} winners ${x.distinct_dpo_pairs} pairs ${x.seconds.toFixed(0)} s`).join("\n"));
}
await Promise.all([a.close(), b.close(), ref.close()]);
console.log(JSON.stringify({ limit, repeats, uncertainty, budget: { depth: 2, width: 3, nodes: 6 }, rows }, null, 1));
