/**
 * The train stage of `composer-lab demo`: SFT from the store's sft_corpus, then GRPO + SDPO(hints) on
 * micro feature-deletion tasks (datasets/fd-micro) graded in the sandbox, tasks drawn by the
 * curriculum, the guard on the store's holdout — short (about a minute on 2 cores), with its curves in
 * the report. The toy tool-call env stays the fast example (DEMO_TRAIN_CONFIG, notebook 05).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { datasetsDir, mean } from "../../core/index.js";
import { Trainer, readMetrics, trainingFigures, type TrainConfigInput } from "../../train/index.js";
import { fromRows } from "../../viz/index.js";
import type { DemoStage } from "../stage.js";

/** The committed tool-call SFT warm start (scripts/make-toolcall-sft.ts), when present. */
export const WARM_START = datasetsDir("train", "toolcall-sft");

/** The toy env's fast example: continue SFT briefly from the warm start, then a few RL steps. */
export const DEMO_TRAIN_CONFIG: TrainConfigInput = {
  env: { seed: 0 },
  sft: { steps: 5, batch_size: 8, lr: 0.002 },
  rl: { steps: 5, prompts_per_step: 2, num_generations: 4, max_completion_length: 40 },
  loss_weights: { grpo: 1, sdpo: 1, dpo: 0.1 },
  heldout: { every: 5, n_tasks: 8, max_gap: 0.5 },
  checkpoint: { every: 0, keep: 1 },
};

/** The micro feature-deletion tasks and their store run (`composer-lab tasks micro`). */
export const FD_MICRO = datasetsDir("fd-micro");

/** A short FD-micro run: a tiny policy from scratch, SFT on the sft_corpus, a few RL steps with real grades. */
export const DEMO_FD_CONFIG: TrainConfigInput = {
  env: { kind: "feature_deletion", store: join(FD_MICRO, "store"), run_id: "micro-s0", pool: join(FD_MICRO, "pool"), sandbox: "auto" },
  model: { block_size: 192, n_layer: 1, n_head: 2, n_embd: 32 },
  sft: { steps: 40, batch_size: 8, lr: 0.003, hint_fraction: 0 },
  rl: { steps: 3, prompts_per_step: 2, num_generations: 4, max_completion_length: 40, lr: 0.0005 },
  loss_weights: { grpo: 1, sdpo: 1, dpo: 0 },
  curriculum: { enabled: true },
  heldout: { every: 3, n_tasks: 6, proxy_tasks: 2, max_gap: 1 },
  checkpoint: { every: 0, keep: 1 },
};

export const trainStage: DemoStage = {
  name: "train",
  title: "Train: SFT, then GRPO + SDPO hint distillation on micro feature-deletion tasks",
  description: "Trains a byte-level transformer on the store's sft_corpus (golden bodies of micro feature-deletion tasks), then runs GRPO on curriculum-drawn tasks whose completions (the deleted function's body) are graded in the sandbox, with SDPO rows at failed rollouts (teacher = the same weights with the hint from the real grade spliced in); the guard evaluates the store's holdout.",
  async run(ctx) {
    const run_dir = join(ctx.runDir, "train");
    const fd = existsSync(join(FD_MICRO, "store"));
    // Without the micro tasks (a checkout that dropped datasets/fd-micro), the toy env's fast example.
    const config: TrainConfigInput = fd ? DEMO_FD_CONFIG : existsSync(WARM_START) ? { ...DEMO_TRAIN_CONFIG, init_from: WARM_START } : { ...DEMO_TRAIN_CONFIG, model: { block_size: 256, n_layer: 1, n_head: 2, n_embd: 32 }, sft: { steps: 30, batch_size: 8 } };
    const result = await new Trainer({ ...config, seed: ctx.seed }, { run_dir, log: ctx.log }).train();
    const warm = !fd && existsSync(WARM_START);
    const metrics = readMetrics(run_dir);
    const rl = metrics.filter((m) => m.phase === "rl");
    const sft = metrics.filter((m) => m.phase === "sft");
    const layers: Record<string, number> = {};
    for (const m of rl) for (const [k, v] of Object.entries(m.hint_layers)) layers[k] = (layers[k] ?? 0) + v;
    const shift = rl.map((m) => m.shift_kl).filter((x): x is number => x !== null);
    return {
      summary: `${result.parameters.toLocaleString()}-parameter policy on ${result.backend}, ${fd ? "micro feature-deletion tasks graded in the sandbox" : warm ? "toy tool-call env from the committed SFT warm start" : "toy tool-call env from scratch"}: SFT lm_ce ${sft[0]?.loss_lm_ce?.toFixed(2)} → ${sft.at(-1)?.loss_lm_ce?.toFixed(2)} in ${sft.length} steps; ${rl.length} RL steps (${rl.at(-1)?.rollouts ?? 0} rollouts), reward ${rl[0]?.reward_mean?.toFixed(2)} → ${rl.at(-1)?.reward_mean?.toFixed(2)}; ${rl.reduce((n, m) => n + m.sdpo_rows, 0)} SDPO rows (${Object.entries(layers).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}); greedy held-out reward ${result.final.heldout_reward.toFixed(2)} (pass rate ${(result.final.heldout_pass ?? 0).toFixed(2)}). Short on purpose: \`composer-lab train --config datasets/configs/fd-micro.yaml\` and notebook 05 run longer.`,
      metrics: {
        env: fd ? "feature_deletion" : "toolcall", backend: result.backend, parameters: result.parameters, sft_steps: sft.length, rl_steps: rl.length,
        sft_loss_first: sft[0]?.loss_lm_ce ?? null, sft_loss_last: sft.at(-1)?.loss_lm_ce ?? null,
        reward_first: rl[0]?.reward_mean ?? null, reward_last: rl.at(-1)?.reward_mean ?? null,
        sdpo_rows: rl.reduce((n, m) => n + m.sdpo_rows, 0), shift_kl_mean: shift.length ? mean(shift) : null,
        heldout_reward: result.final.heldout_reward, heldout_pass: result.final.heldout_pass ?? null, train_reward: result.final.train_reward, wall_s: result.wall_s,
      },
      tables: [{ title: "RL steps", table: fromRows(rl.map((m) => ({ step: m.step, reward: m.reward_mean, valid: m.valid_rate, grpo: m.loss_grpo, sdpo: m.loss_sdpo, dpo: m.loss_dpo, sdpo_rows: m.sdpo_rows, shift_kl: m.shift_kl }))) }],
      figures: trainingFigures(metrics).map((figure, i) => ({ title: ["SFT warm start", "Reward", "Loss channels", "Hint shift"][i] ?? `figure ${i}`, figure })),
    };
  },
};
