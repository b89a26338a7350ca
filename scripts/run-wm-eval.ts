/**
 * The world-model head's evaluation (docs/world-model.md): the offline pass over the fixture store's
 * wm_tuples (datasets/fd-micro/wm-store) on the fd-micro SFT student's frozen trunk, one run per
 * seed; each held-out split is by task (world_model.holdout_fraction of the tasks, by the seed).
 *   npx tsx scripts/run-wm-eval.ts [SEEDS=1,2,3] [STEPS=200] > out.json
 */
import { join } from "node:path";
import { initBackend } from "../lib/backend/index.js";
import { datasetsDir } from "../lib/core/index.js";
import { loadCheckpoint, readWmTuples, trainWorldModel } from "../lib/train/index.js";

const seeds = (process.argv[2] ?? "1,2,3").split(",").map(Number);
const steps = Number(process.argv[3] ?? 200);
const extra = process.argv[4] ? JSON.parse(process.argv[4]) : {};
const backend = await initBackend();
const tuples = await readWmTuples({ store: datasetsDir("fd-micro", "wm-store"), run: "wm-r0" });
const runs = [];
for (const seed of seeds) {
  const ck = await loadCheckpoint(join(datasetsDir("train", "fd-micro-sft"), "ckpt_000150"));
  const r = trainWorldModel(ck.policy, tuples, { steps, seed, ...extra });
  runs.push({ seed, steps, train: r.train, heldout: r.heldout, prior: r.prior, seconds: r.seconds, first: r.history[0], last: r.history.at(-1), eval: r.eval });
  console.error(`seed ${seed}: head CE ${r.eval!.next_state.head_ce.toFixed(3)} vs policy ${r.eval!.next_state.policy_ce.toFixed(3)}; Brier ${r.eval!.outcome.head.brier.toFixed(4)} vs prior ${r.eval!.outcome.prior.brier.toFixed(4)} (${r.seconds.toFixed(0)} s)`);
  r.head.dispose();
  ck.policy.dispose();
}
console.log(JSON.stringify({ backend: backend.name, tuples: tuples.length, extra, runs }, null, 1));
