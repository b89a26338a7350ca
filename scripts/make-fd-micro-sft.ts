/**
 * Trains two supervised warm starts of the fd-micro body policy (datasets/configs/fd-micro.yaml, SFT
 * only: no RL) and writes their weights, without optimizer state, to datasets/train/fd-micro-sft/
 * (ckpt at SFT step HALF and at the full SFT step count): two real, differently trained models of the
 * same task family, for `composer-lab serve` and the OUTER loop's multi-model trees.
 *   npx tsx scripts/make-fd-micro-sft.ts [RUN_DIR]   (resumable: rerun with the same RUN_DIR)
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { datasetsDir, scratchDir } from "../lib/core/index.js";
import { Trainer, loadCheckpoint, loadTrainConfig, saveCheckpoint } from "../lib/train/index.js";

const runDir = process.argv[2] ?? join(scratchDir(), "runs", "fd-micro-sft");
const base = loadTrainConfig(join(datasetsDir("configs"), "fd-micro.yaml"));
const steps = base.sft.steps;
const half = Math.round(steps / 2);
const config = { ...base, rl: { ...base.rl, steps: 0 }, checkpoint: { every: half, keep: 3 } };
const result = await new Trainer(config, { run_dir: runDir, log: (l) => console.error(l) }).train();
const out = join(datasetsDir("train"), "fd-micro-sft");
rmSync(out, { recursive: true, force: true });
for (const step of [half, steps]) {
  const ck = await loadCheckpoint(join(runDir, "checkpoints", `ckpt_${String(step).padStart(6, "0")}`));
  await saveCheckpoint(out, { policy: ck.policy, rngState: ck.rngState, step: ck.step, keep: 2, extra: { config: "datasets/configs/fd-micro.yaml (rl.steps 0)", sft_steps: step, ...(step === steps ? { greedy_reward: result.final } : {}) } });
}
console.log(JSON.stringify({ out, steps: [half, steps], final: result.final }));
