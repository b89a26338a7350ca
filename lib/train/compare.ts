/**
 * Arms compared at an equal number of rollouts over several seeds (GRPO vs GRPO + SDPO, and ablations).
 *
 * Per seed, every arm starts from the same warm start: the base config's SFT phase runs once for that
 * seed (from init_from, with the seed's data order on the seed's task split) and each arm resumes from
 * its final checkpoint, so within a seed the arms differ only in their overrides. A seed changes the SFT
 * data order, the task pool and its held-out split (env.seed follows the run seed unless the base
 * config pins it) and the RL sampling.
 *
 * Each finished run writes runs/<arm>/seed-<s>.json at once, so an interrupted sweep keeps what it has
 * and a rerun skips what is done; the summary is recomputed from whatever run files exist. Runs the
 * held-out guard stopped are reported on their own (seed, rollouts at the stop, held-out reward) and
 * never averaged with completed runs. Spread is the sample std (ddof 1); the difference between two
 * arms is paired by seed, with a percentile bootstrap CI over seeds.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { mean } from "../core/index.js";
import type { EnvTask, Environment } from "../env/index.js";
import { toHTML } from "../viz/index.js";
import { comparisonFigures } from "./plots.js";
import { bootstrapMeanCI, sampleStd, type BootstrapCI } from "./stats.js";
import { parseTrainConfig, readMetrics, type RunRecord, type StepMetrics, type TrainConfigInput, type VariantSummary } from "./config.js";
import { Trainer, type TrainerOptions } from "./trainer.js";
export type { RunRecord, StoppedRun, VariantSummary } from "./config.js";

/** The two arms of the comparison; only the SDPO channel's weight differs. */
export const DEFAULT_VARIANTS: Record<string, Partial<TrainConfigInput>> = {
  grpo: { loss_weights: { grpo: 1, sdpo: 0 } },
  "grpo+sdpo": { loss_weights: { grpo: 1, sdpo: 1 } },
};

/** The primary metric, declared (in the config, before any run) together with the arms it compares. */
export const PrimaryMetric = z.object({
  /**
   * heldout_greedy_reward: greedy reward on the evaluated held-out tasks after the last RL step (equal
   * rollouts in every arm); heldout_renamed_greedy_reward: the same on its v2 (renamed-key) tasks only
   * (task variant renamed_args); rl_tasks_greedy_pass: greedy pass rate, unhinted, on the RL tasks SFT never
   * showed (sft.task_fraction < 1: what RL taught, where the information had to come from the teacher or the reward).
   */
  metric: z.enum(["heldout_greedy_reward", "heldout_renamed_greedy_reward", "rl_tasks_greedy_pass"]).default("heldout_greedy_reward"),
  baseline: z.string().default("grpo"),
  treatment: z.string().default("grpo+sdpo"),
  /** Free text: when and how it was declared. */
  declared: z.string().optional(),
});
export type PrimaryMetric = z.infer<typeof PrimaryMetric>;

export interface CompareOptions {
  run_dir: string;
  seeds: number[];
  variants?: Record<string, Partial<TrainConfigInput>>;
  /** Seeds per arm where an arm runs on fewer seeds than `seeds` (ablations). */
  arm_seeds?: Record<string, number[]>;
  primary?: z.input<typeof PrimaryMetric>;
  log?: (line: string) => void;
  onStep?: (variant: string, seed: number, m: StepMetrics) => void;
  /** One environment for every run (default: each run opens its own from the config); runs on one
   *  environment share what it keeps, such as a grade cache. */
  env?: Environment<EnvTask>;
  /** Run every arm of a seed before the next seed (default: the primary pair over all seeds first). */
  by_seed?: boolean;
  /** Where each run's environment grades (TrainerOptions.grading: an executor's Sandbox face). */
  grading?: TrainerOptions["grading"];
}


export interface CompareResult {
  run_dir: string;
  primary: PrimaryMetric;
  /** RL metrics per variant, one array per run (what the plots are drawn from; stopped runs are shorter). */
  curves: Record<string, StepMetrics[][]>;
  summary: VariantSummary[];
  runs: RunRecord[];
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

const runFile = (runDir: string, variant: string, seed: number) => join(runDir, "runs", variant.replace(/[^\w+.=-]/g, "_"), `seed-${seed}.json`);

export async function compareVariants(base: TrainConfigInput, opts: CompareOptions): Promise<CompareResult> {
  const variants = opts.variants ?? DEFAULT_VARIANTS;
  const primary = PrimaryMetric.parse(opts.primary ?? {});
  const log = opts.log ?? (() => {});
  // Every arm's config is checked before anything runs.
  for (const [name, over] of Object.entries(variants)) {
    try {
      parseTrainConfig(merge(base, over));
    } catch (e) {
      throw new Error(`arm ${name}: ${(e as Error).message}`);
    }
  }
  mkdirSync(opts.run_dir, { recursive: true });
  writeFileSync(join(opts.run_dir, "plan.json"), JSON.stringify({ primary, seeds: opts.seeds, arm_seeds: opts.arm_seeds ?? {}, base, variants }, null, 1));
  // The primary pair first over all seeds, then the other arms: a sweep cut short keeps the comparison it was for.
  const names = Object.keys(variants);
  const first = names.filter((n) => n === primary.baseline || n === primary.treatment);
  const rest = names.filter((n) => !first.includes(n));
  const seedsOf = (n: string) => opts.arm_seeds?.[n] ?? opts.seeds;
  const schedule = opts.by_seed
    ? opts.seeds.flatMap((s) => [...first, ...rest].filter((n) => seedsOf(n).includes(s)).map((n) => [n, s] as const))
    : [
      ...opts.seeds.flatMap((s) => first.filter((n) => seedsOf(n).includes(s)).map((n) => [n, s] as const)),
      ...opts.seeds.flatMap((s) => rest.filter((n) => seedsOf(n).includes(s)).map((n) => [n, s] as const)),
    ];
  for (const [name, seed] of schedule) {
    if (existsSync(runFile(opts.run_dir, name, seed))) continue;
    const seedCfg = merge(base, { seed });
    const cfg = parseTrainConfig(seedCfg);
    // SFT once per seed; every arm resumes from its final checkpoint.
    const sftDir = join(opts.run_dir, `seed-${seed}`, "sft");
    if (cfg.sft.steps > 0 && !existsSync(join(sftDir, "summary.json"))) {
      log(`seed ${seed}: SFT (${cfg.sft.steps} steps)`);
      await new Trainer(merge(seedCfg, { rl: { ...seedCfg.rl, steps: 0 } }), { run_dir: sftDir, log, env: opts.env, grading: opts.grading }).train();
    }
    const dir = join(opts.run_dir, `seed-${seed}`, name.replace(/[^\w+.=-]/g, "_"));
    if (cfg.sft.steps > 0 && !existsSync(join(dir, "checkpoints"))) {
      mkdirSync(dir, { recursive: true });
      cpSync(join(sftDir, "checkpoints"), join(dir, "checkpoints"), { recursive: true });
      cpSync(join(sftDir, "metrics.jsonl"), join(dir, "metrics.jsonl"));
    }
    log(`seed ${seed}: ${name}`);
    const trainerOpts: TrainerOptions = { run_dir: dir, log, onStep: (m) => opts.onStep?.(name, seed, m), env: opts.env, grading: opts.grading };
    const over = variants[name]!;
    const result = await new Trainer(merge(seedCfg, over), trainerOpts).train();
    const curve = readMetrics(dir).filter((m) => m.phase === "rl");
    const heldout = primary.metric === "heldout_renamed_greedy_reward" ? result.final.heldout_renamed_reward
      : primary.metric === "rl_tasks_greedy_pass" ? result.final.rl_tasks_pass : result.final.heldout_reward;
    if (heldout === undefined) throw new Error(`${primary.metric} needs ${primary.metric === "rl_tasks_greedy_pass" ? "sft.task_fraction < 1" : "variant renamed_args"}`);
    const record: RunRecord = { variant: name, seed, overrides: over, result, heldout, rollouts: curve.at(-1)?.rollouts ?? 0, stopped: result.stopped, curve };
    mkdirSync(join(opts.run_dir, "runs", name.replace(/[^\w+.=-]/g, "_")), { recursive: true });
    writeFileSync(runFile(opts.run_dir, name, seed), JSON.stringify(record));
  }
  return summarizeComparison(opts.run_dir, primary, names);
}

/** Reads runs/<arm>/seed-<s>.json under run_dir and writes comparison.json and comparison.html from them. */
export function summarizeComparison(runDir: string, primaryIn: z.input<typeof PrimaryMetric> = {}, order?: string[]): CompareResult {
  const primary = PrimaryMetric.parse(primaryIn);
  const root = join(runDir, "runs");
  const runs: RunRecord[] = existsSync(root)
    ? readdirSync(root).flatMap((d) => readdirSync(join(root, d)).filter((f) => f.endsWith(".json")).map((f) => JSON.parse(readFileSync(join(root, d, f), "utf8")) as RunRecord))
    : [];
  const names = [...new Set([...(order ?? []), ...runs.map((r) => r.variant)])].filter((n) => runs.some((r) => r.variant === n));
  const byArm = (n: string) => runs.filter((r) => r.variant === n).sort((a, b) => a.seed - b.seed);
  const completedHeldout = (n: string) => new Map(byArm(n).filter((r) => !r.stopped).map((r) => [r.seed, r.heldout]));
  const paired = (a: string, b: string): BootstrapCI | null => {
    if (a === b) return null;
    const A = completedHeldout(a);
    const B = completedHeldout(b);
    const seeds = [...A.keys()].filter((s) => B.has(s)).sort((x, y) => x - y);
    return bootstrapMeanCI(seeds.map((s) => A.get(s)! - B.get(s)!));
  };
  const nan = (x: number | null) => x ?? Number.NaN;
  const summary: VariantSummary[] = names.map((variant) => {
    const all = byArm(variant);
    const done = all.filter((r) => !r.stopped);
    const finals = done.map((r) => mean(r.curve.slice(-Math.max(1, Math.floor(r.curve.length / 4))).map((m) => m.reward_mean ?? 0)));
    const held = done.map((r) => r.heldout);
    return {
      variant, seeds: all.length, completed: done.length,
      final_reward_mean: mean(finals), final_reward_std: nan(sampleStd(finals)),
      heldout_mean: mean(held), heldout_std: nan(sampleStd(held)), heldout_values: done.map((r) => ({ seed: r.seed, heldout: r.heldout })),
      rollouts: Math.max(0, ...done.map((r) => r.rollouts)),
      stopped: all.length - done.length,
      stopped_runs: all.filter((r) => r.stopped).map((r) => ({ seed: r.seed, rollouts: r.rollouts, heldout: r.heldout, reason: r.stopped! })),
      vs_baseline: paired(variant, primary.baseline), vs_treatment: paired(variant, primary.treatment),
    };
  });
  const curves = Object.fromEntries(names.map((n) => [n, byArm(n).map((r) => r.curve)]));
  mkdirSync(runDir, { recursive: true });
  const figures = join(runDir, "comparison.html");
  if (names.length) writeFileSync(figures, toHTML(comparisonFigures(curves), "GRPO vs GRPO+SDPO"));
  const out: CompareResult = { run_dir: runDir, primary, curves, summary, runs, figures };
  writeFileSync(join(runDir, "comparison.json"), JSON.stringify({ primary, summary, runs: runs.map(({ curve: _c, ...r }) => r), curves }, null, 1));
  return out;
}
