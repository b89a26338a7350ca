/**
 * SFT alone vs SFT → GRPO vs SFT → GRPO + SDPO on the micro feature-deletion tasks
 * (datasets/configs/fd-micro.yaml), over seeds, at equal rollouts. Per seed: SFT on the store's
 * sft_corpus once, then each arm continues from that checkpoint (compareVariants). Held-out = the
 * store's holdout tasks, graded in bwrap. Writes datasets/train/fd-micro-compare/results.json (per
 * seed: held-out greedy reward and pass rate after SFT and after each arm) and comparison.json.
 * Rerun with the same RUN_DIR to continue.
 *
 *   npx tsx scripts/run-fd-micro-compare.ts [RUN_DIR] [--seeds 1,2,3]
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { datasetsDir, mean, scratchDir } from "../lib/core/index.js";
import { compareVariants, loadTrainConfig, sampleStd, type TrainResult } from "../lib/train/index.js";

const args = process.argv.slice(2);
const seedsAt = args.indexOf("--seeds");
const seeds = seedsAt >= 0 ? args[seedsAt + 1]!.split(",").map(Number) : [1, 2, 3];
const runDir = args.find((a, i) => !a.startsWith("--") && i !== seedsAt + 1) ?? scratchDir("runs", "fd-micro-compare");
const outDir = datasetsDir("train", "fd-micro-compare");
mkdirSync(outDir, { recursive: true });
const base = loadTrainConfig(datasetsDir("configs", "fd-micro.yaml"));
const arms = { grpo: { loss_weights: { grpo: 1, sdpo: 0, dpo: 0 } }, "grpo+sdpo": { loss_weights: { grpo: 1, sdpo: 1, dpo: 0 } } };

const read = (f: string): TrainResult | null => (existsSync(f) ? (JSON.parse(readFileSync(f, "utf8")) as TrainResult) : null);
const publish = () => {
  const perSeed = seeds.map((seed) => {
    const row: Record<string, unknown> = { seed };
    for (const arm of ["sft", ...Object.keys(arms)]) {
      const r = read(join(runDir, `seed-${seed}`, arm.replace(/[^\w+.=-]/g, "_"), "summary.json"));
      if (r) Object.assign(row, { [`${arm}_heldout_reward`]: r.final.heldout_reward, [`${arm}_heldout_pass`]: r.final.heldout_pass ?? null, [`${arm}_train_reward`]: r.final.train_reward, [`${arm}_stopped`]: r.stopped });
    }
    return row;
  });
  const stat = (key: string) => {
    const xs = perSeed.map((r) => r[key]).filter((x): x is number => typeof x === "number");
    return { n: xs.length, mean: xs.length ? mean(xs) : null, sample_std: sampleStd(xs), values: xs };
  };
  const summary = Object.fromEntries(["sft", ...Object.keys(arms)].flatMap((a) => [[`${a}_heldout_pass`, stat(`${a}_heldout_pass`)], [`${a}_heldout_reward`, stat(`${a}_heldout_reward`)]]));
  writeFileSync(join(outDir, "results.json"), JSON.stringify({ config: "datasets/configs/fd-micro.yaml", seeds, rollouts_per_arm: base.rl.steps * base.rl.prompts_per_step * base.rl.num_generations, heldout_tasks: base.heldout.n_tasks, summary, per_seed: perSeed }, null, 1));
  if (existsSync(join(runDir, "comparison.json"))) copyFileSync(join(runDir, "comparison.json"), join(outDir, "comparison.json"));
};

await compareVariants(base, { run_dir: runDir, seeds, variants: arms, log: (l) => {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${l}\n`);
  publish();
} });
publish();
process.stderr.write(`results: ${join(outDir, "results.json")}\n`);
