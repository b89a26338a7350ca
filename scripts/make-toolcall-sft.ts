/**
 * Trains the toy environment's SFT warm start (datasets/configs/toolcall-sft.yaml) and writes its
 * weights, without optimizer state, to datasets/train/toolcall-sft/ (the RL configs' init_from).
 *   npx tsx scripts/make-toolcall-sft.ts [RUN_DIR]   (resumable: rerun with the same RUN_DIR)
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { datasetsDir, scratchDir } from "../lib/core/index.js";
import { Trainer, loadLatestCheckpoint, loadTrainConfig, saveCheckpoint } from "../lib/train/index.js";

const runDir = process.argv[2] ?? join(scratchDir(), "runs", "toolcall-sft");
const config = loadTrainConfig(join(datasetsDir("configs"), "toolcall-sft.yaml"));
const result = await new Trainer(config, { run_dir: runDir, log: (l) => console.error(l) }).train();
const ck = (await loadLatestCheckpoint(join(runDir, "checkpoints")))!;
const out = join(datasetsDir("train"), "toolcall-sft");
rmSync(out, { recursive: true, force: true });
await saveCheckpoint(out, { policy: ck.policy, rngState: ck.rngState, step: ck.step, keep: 1, extra: { config: "datasets/configs/toolcall-sft.yaml", greedy_reward: result.final } });
console.log(JSON.stringify({ out, step: ck.step, final: result.final }));
