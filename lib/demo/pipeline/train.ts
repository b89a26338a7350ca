/**
 * The train stage of `composer-lab demo`: a short SFT warm start then GRPO + SDPO(hints) on the toy
 * tool-calling environment (seconds, not minutes), with its curves in the report.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { datasetsDir, mean } from "../../core/index.js";
import type { DemoStage } from "../stage.js";
import { fromRows } from "../../viz/index.js";
import { trainingFigures } from "../../train/index.js";
import { readMetrics, type TrainConfigInput } from "../../train/index.js";
import { Trainer } from "../../train/index.js";

/** The committed SFT warm start (scripts/make-toolcall-sft.ts), when present. */
export const WARM_START = datasetsDir("train", "toolcall-sft");

/** Seconds on 2 cores: continue SFT briefly from the warm start, then a few RL steps. The notebook
 *  and `composer-lab compare` run longer. */
export const DEMO_TRAIN_CONFIG: TrainConfigInput = {
  env: { seed: 0 },
  sft: { steps: 5, batch_size: 8, lr: 0.002 },
  rl: { steps: 5, prompts_per_step: 2, num_generations: 4, max_completion_length: 40 },
  loss_weights: { grpo: 1, sdpo: 1, dpo: 0.1 },
  heldout: { every: 5, n_tasks: 8, max_gap: 0.5 },
  checkpoint: { every: 0, keep: 1 },
};

export const trainStage: DemoStage = {
  name: "train",
  title: "Train: SFT, then GRPO + SDPO hint distillation + DPO on a TensorFlow.js policy",
  description: "Warm-starts a byte-level transformer on tool-call demonstrations (lm_ce), then runs GRPO on the toy tool-calling environment with SDPO rows at failed rollouts (teacher = the same weights with the template hint spliced in) and DPO pairs from each group.",
  async run(ctx) {
    const run_dir = join(ctx.runDir, "train");
    const warm = existsSync(WARM_START);
    // Without the warm start (a checkout that dropped datasets/train), a tiny model from scratch.
    const config: TrainConfigInput = warm ? { ...DEMO_TRAIN_CONFIG, init_from: WARM_START } : { ...DEMO_TRAIN_CONFIG, model: { block_size: 256, n_layer: 1, n_head: 2, n_embd: 32 }, sft: { steps: 30, batch_size: 8 } };
    const result = await new Trainer({ ...config, seed: ctx.seed }, { run_dir, log: ctx.log }).train();
    const metrics = readMetrics(run_dir);
    const rl = metrics.filter((m) => m.phase === "rl");
    const sft = metrics.filter((m) => m.phase === "sft");
    const layers: Record<string, number> = {};
    for (const m of rl) for (const [k, v] of Object.entries(m.hint_layers)) layers[k] = (layers[k] ?? 0) + v;
    const shift = rl.map((m) => m.shift_kl).filter((x): x is number => x !== null);
    return {
      summary: `${result.parameters.toLocaleString()}-parameter policy on ${result.backend}${warm ? ", from the committed SFT warm start" : " (no warm start found: from scratch)"}: SFT lm_ce ${sft[0]?.loss_lm_ce?.toFixed(2)} → ${sft.at(-1)?.loss_lm_ce?.toFixed(2)} in ${sft.length} steps; ${rl.length} RL steps (${rl.at(-1)?.rollouts ?? 0} rollouts), reward ${rl[0]?.reward_mean?.toFixed(2)} → ${rl.at(-1)?.reward_mean?.toFixed(2)}; ${rl.reduce((n, m) => n + m.sdpo_rows, 0)} SDPO rows (${Object.entries(layers).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}); greedy held-out reward ${result.final.heldout_reward.toFixed(2)}. Short on purpose: \`composer-lab compare\` and notebook 05 run the GRPO vs GRPO+SDPO comparison.`,
      metrics: {
        backend: result.backend, parameters: result.parameters, sft_steps: sft.length, rl_steps: rl.length,
        sft_loss_first: sft[0]?.loss_lm_ce ?? null, sft_loss_last: sft.at(-1)?.loss_lm_ce ?? null,
        reward_first: rl[0]?.reward_mean ?? null, reward_last: rl.at(-1)?.reward_mean ?? null,
        sdpo_rows: rl.reduce((n, m) => n + m.sdpo_rows, 0), shift_kl_mean: shift.length ? mean(shift) : null,
        heldout_reward: result.final.heldout_reward, train_reward: result.final.train_reward, wall_s: result.wall_s,
      },
      tables: [{ title: "RL steps", table: fromRows(rl.map((m) => ({ step: m.step, reward: m.reward_mean, valid: m.valid_rate, grpo: m.loss_grpo, sdpo: m.loss_sdpo, dpo: m.loss_dpo, sdpo_rows: m.sdpo_rows, shift_kl: m.shift_kl }))) }],
      figures: trainingFigures(metrics).map((figure, i) => ({ title: ["SFT warm start", "Reward", "Loss channels", "Hint shift"][i] ?? `figure ${i}`, figure })),
    };
  },
};
