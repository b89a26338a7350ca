/**
 * Child process for the kill-and-resume test: trains the tiny policy to step N with a checkpoint
 * after every step, resuming from the run dir's latest checkpoint if there is one.
 * Usage: node --import tsx test/support/ckpt-train.ts <runDir> <N>
 */
import { initBackend, tf } from "../../lib/backend/index.js";
import { Rng } from "../../lib/core/random.js";
import { latestCheckpoint, loadCheckpoint, restoreOptimizer, saveCheckpoint } from "../../lib/train/checkpoint.js";
import { Policy } from "../../lib/train/model.js";
import { TINY, trainStep } from "./tiny-train.js";

const [runDir, n] = process.argv.slice(2);
const N = Number(n);
await initBackend();
const optimizer = tf.train.adam(0.01);
let policy: Policy;
let rng: Rng;
let step: number;
const latest = latestCheckpoint(runDir!);
if (latest) {
  const ck = await loadCheckpoint(latest);
  await restoreOptimizer(optimizer, ck);
  [policy, rng, step] = [ck.policy, new Rng(ck.rngState), ck.step];
} else [policy, rng, step] = [new Policy(TINY), new Rng(1), 0];
console.log(`start ${step}`);
while (step < N) {
  trainStep(policy, optimizer, rng);
  step++;
  await saveCheckpoint(runDir!, { policy, optimizer, rngState: rng.state, step, keep: 2 });
  console.log(`step ${step}`);
}
console.log("done");
