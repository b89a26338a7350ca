/** `composer-lab train` and `composer-lab compare`. */
import { InvalidArgumentError, Option, type Command } from "commander";
import { join } from "node:path";
import { scratchDir, timestampSlug } from "../../core/index.js";
import { DEFAULT_VARIANTS, Trainer, compareVariants, loadTrainConfig, TrainConfig, type TrainerOptions } from "../../train/index.js";
import { fromRows, tableText } from "../../viz/index.js";
import { tallyText, withExecutor, type ExecutorTally } from "../executor.js";
import { executorChoice, jsonOpt } from "../options.js";
import { backendOption, resolveBackend } from "../backend.js";
import { emit, log } from "../output.js";
import { realNumber, wholeNumber } from "../args.js";
import type { BackendChoice } from "../../backend/index.js";

type TrainCli = { config?: string; runDir?: string; backend?: BackendChoice; executor: string; json?: boolean };

const configOf = (o: TrainCli): TrainConfig => {
  const overrides = o.backend && o.backend !== "auto" ? { backend: o.backend } : {};
  return o.config ? loadTrainConfig(o.config, overrides) : TrainConfig.parse(overrides);
};

type Grading = NonNullable<TrainerOptions["grading"]>;

/**
 * Runs `fn` with the grading `--executor` names: feature-deletion tasks grade in a sandbox, so the
 * executor (local: env.sandbox's pool on this host) is opened, handed to the trainer and closed
 * after; the toy env grades in this process, where only `local` makes sense.
 */
async function withGrading<T>(config: TrainConfig, executor: string, fn: (grading?: Grading) => Promise<T>): Promise<{ out: T; grading: ExecutorTally | null }> {
  const env = config.env;
  if (env.kind !== "feature_deletion") {
    if (executor !== "local") throw new Error(`--executor ${executor}: the ${env.kind} environment grades in this process; --executor applies to env.kind feature_deletion`);
    return { out: await fn(), grading: null };
  }
  return withExecutor(executor, { sandbox: env.sandbox, concurrency: config.grade_concurrency }, async (ex) => ({ out: await fn({ executor: ex.name, sandbox: ex.asSandbox() }), grading: ex.tally() }));
}

const executorOption = () => executorChoice().default("local", "local: the sandbox env.sandbox names, on this host");

export function registerTrain(program: Command): void {
  program
    .command("train")
    .description("SFT warm start then GRPO (+ SDPO hints, DPO replay) on the environment the config names (the toy tool-calling env, or feature-deletion tasks graded in the sandbox); metrics JSONL, checkpoints and plots in the run folder (rerun with the same --run-dir to resume)")
    .option("--config <file>", "TrainConfig as JSON or YAML (see datasets/configs/)")
    .option("--run-dir <dir>", "run folder (default scratch/runs/train-<timestamp>)")
    .addOption(backendOption())
    .addOption(executorOption())
    .addOption(jsonOpt())
    .action(async (o: TrainCli) => {
      const config = configOf(o);
      const backend = await resolveBackend({ backend: config.backend });
      const run_dir = o.runDir ?? join(scratchDir(), "runs", `train-${timestampSlug()}`);
      const { out: result, grading } = await withGrading(config, o.executor, (g) => new Trainer({ ...config, backend: backend.name }, { run_dir, log, grading: g }).train());
      emit(!!o.json, { ok: true, ...result, grading }, () =>
        [
          `run: ${result.run_dir} (${result.steps} steps on ${result.backend}${result.resumed_from !== null ? `, resumed from step ${result.resumed_from}` : ""})`,
          grading ? `graded on ${tallyText(grading)}` : "",
          `greedy reward: train ${result.final.train_reward.toFixed(3)}, held-out ${result.final.heldout_reward.toFixed(3)}`,
          result.stopped ? `stopped: ${result.stopped}` : "",
          `metrics: ${join(result.run_dir, "metrics.jsonl")}  plots: ${join(result.run_dir, "training.html")}`,
        ].filter(Boolean).join("\n"),
      );
    });
  program
    .command("compare")
    .description("GRPO alone vs GRPO+SDPO(hints) at an equal number of rollouts over several seeds (same SFT start per seed)")
    .option("--config <file>", "base TrainConfig as JSON or YAML")
    .option("--seeds <n>", "number of seeds (0..n-1)", wholeNumber(1), 3)
    .option("--sdpo-weight <w>", "loss_weights.sdpo of the grpo+sdpo arm (the SDPO channel's weight; TRL distillation_weight)", realNumber(0, Infinity, { above: true }), 1)
    .addOption(new Option("--alpha <a>", "renamed: --sdpo-weight").hideHelp().argParser((): never => {
      throw new InvalidArgumentError("renamed: use --sdpo-weight (loss_weights.sdpo, the SDPO channel's weight); \"alpha\" elsewhere is sdpo.distillation_alpha, the divergence's interpolation");
    }))
    .option("--run-dir <dir>", "output folder (default scratch/runs/compare-<timestamp>)")
    .addOption(backendOption())
    .addOption(executorOption())
    .addOption(jsonOpt())
    .action(async (o: TrainCli & { seeds: number; sdpoWeight: number }) => {
      const { seeds, sdpoWeight } = o;
      const config = configOf(o);
      const backend = await resolveBackend({ backend: config.backend });
      const run_dir = o.runDir ?? join(scratchDir(), "runs", `compare-${timestampSlug()}`);
      const variants = { ...DEFAULT_VARIANTS, "grpo+sdpo": { loss_weights: { grpo: 1, sdpo: sdpoWeight } } };
      const { out: r, grading } = await withGrading(config, o.executor, (g) => compareVariants({ ...config, backend: backend.name }, { run_dir, seeds: Array.from({ length: seeds }, (_, i) => i), variants, log, grading: g }));
      emit(!!o.json, { ok: true, run_dir: r.run_dir, figures: r.figures, backend: backend.name, executor: o.executor, grading, summary: r.summary }, () =>
        [...(grading ? [`graded on ${tallyText(grading)}`] : []), tableText(fromRows(r.summary.map((s) => ({ ...s, final_reward_mean: +s.final_reward_mean.toFixed(3), final_reward_std: +s.final_reward_std.toFixed(3), heldout_mean: +s.heldout_mean.toFixed(3), heldout_std: +s.heldout_std.toFixed(3) })))), `plots: ${r.figures}`].join("\n"),
      );
    });
}
