/**
 * GRPO alone vs GRPO + SDPO(hints) at an equal number of rollouts, over several seeds. Per seed,
 * both variants start from the same SFT checkpoint (the SFT phase runs once and is copied), so the
 * comparison isolates the RL channels. Plots: reward by rollouts, mean ± std over seeds.
 */
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mean, std } from "../core/index.js";
import { toHTML } from "../viz/index.js";
import { comparisonFigures } from "./plots.js";
import { readMetrics, Trainer, TrainConfig, type StepMetrics, type TrainConfigInput, type TrainerOptions, type TrainResult } from "./trainer.js";

/** The two arms of the comparison; only the loss weights differ. */
export const DEFAULT_VARIANTS: Record<string, Partial<TrainConfigInput>> = {
  grpo: { loss_weights: { grpo: 1, alpha: 0 } },
  "grpo+sdpo": { loss_weights: { grpo: 1, alpha: 1 } },
};

export interface CompareOptions {
  run_dir: string;
  seeds: number[];
  variants?: Record<string, Partial<TrainConfigInput>>;
  log?: (line: string) => void;
  onStep?: (variant: string, seed: number, m: StepMetrics) => void;
}

export interface VariantSummary {
  variant: string;
  seeds: number;
  /** Mean RL reward over the last quarter of steps, mean and std over seeds. */
  final_reward_mean: number;
  final_reward_std: number;
  heldout_mean: number;
  heldout_std: number;
  /** Rollouts of the longest run (a run the held-out guard stopped has fewer). */
  rollouts: number;
  /** Runs the held-out guard stopped early. */
  stopped: number;
}

export interface CompareResult {
  run_dir: string;
  /** RL metrics per variant, one array per seed (what the plots are drawn from). */
  curves: Record<string, StepMetrics[][]>;
  summary: VariantSummary[];
  runs: { variant: string; seed: number; result: TrainResult }[];
  figures: string;
}

function merge(base: TrainConfigInput, over: Partial<TrainConfigInput>): TrainConfigInput {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = (base as Record<string, unknown>)[k];
    out[k] = v && typeof v === "object" && !Array.isArray(v) && b && typeof b === "object" ? { ...(b as object), ...(v as object) } : v;
  }
  return out as TrainConfigInput;
}

export async function compareVariants(base: TrainConfigInput, opts: CompareOptions): Promise<CompareResult> {
  const variants = opts.variants ?? DEFAULT_VARIANTS;
  const log = opts.log ?? (() => {});
  const runs: CompareResult["runs"] = [];
  const rl: Record<string, StepMetrics[][]> = {};
  for (const seed of opts.seeds) {
    const seedCfg = merge(base, { seed });
    // SFT once per seed; both arms resume from its final checkpoint.
    const sftDir = join(opts.run_dir, `seed-${seed}`, "sft");
    const cfg = TrainConfig.parse(seedCfg);
    if (cfg.sft.steps > 0 && !existsSync(join(sftDir, "summary.json"))) {
      log(`seed ${seed}: SFT (${cfg.sft.steps} steps)`);
      await new Trainer(merge(seedCfg, { rl: { ...cfg.rl, steps: 0 } }), { run_dir: sftDir, log }).train();
    }
    for (const [name, over] of Object.entries(variants)) {
      const dir = join(opts.run_dir, `seed-${seed}`, name);
      if (cfg.sft.steps > 0 && !existsSync(join(dir, "checkpoints"))) {
        mkdirSync(dir, { recursive: true });
        cpSync(join(sftDir, "checkpoints"), join(dir, "checkpoints"), { recursive: true });
        cpSync(join(sftDir, "metrics.jsonl"), join(dir, "metrics.jsonl"));
      }
      log(`seed ${seed}: ${name}`);
      const trainerOpts: TrainerOptions = { run_dir: dir, log, onStep: (m) => opts.onStep?.(name, seed, m) };
      const result = await new Trainer(merge(seedCfg, over), trainerOpts).train();
      runs.push({ variant: name, seed, result });
      (rl[name] ??= []).push(readMetrics(dir).filter((m) => m.phase === "rl"));
    }
  }
  const summary: VariantSummary[] = Object.entries(rl).map(([variant, perSeed]) => {
    const finals = perSeed.map((ms) => mean(ms.slice(-Math.max(1, Math.floor(ms.length / 4))).map((m) => m.reward_mean ?? 0)));
    const held = runs.filter((r) => r.variant === variant).map((r) => r.result.final.heldout_reward);
    return {
      variant, seeds: perSeed.length, final_reward_mean: mean(finals), final_reward_std: std(finals),
      heldout_mean: mean(held), heldout_std: std(held), rollouts: Math.max(0, ...perSeed.map((ms) => ms.at(-1)?.rollouts ?? 0)),
      stopped: runs.filter((r) => r.variant === variant && r.result.stopped).length,
    };
  });
  const figs = comparisonFigures(rl);
  const figures = join(opts.run_dir, "comparison.html");
  writeFileSync(figures, toHTML(figs, "GRPO vs GRPO+SDPO"));
  writeFileSync(join(opts.run_dir, "comparison.json"), JSON.stringify({ summary, runs, curves: rl }, null, 1));
  return { run_dir: opts.run_dir, curves: rl, summary, runs, figures };
}
