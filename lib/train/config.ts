/**
 * The trainer's configuration (beside the losses whose configs it composes), the per-step metrics
 * and the run result: what a config file, metrics.jsonl and summary.json hold.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { BACKENDS } from "../backend/index.js";
import { describeIssues, loadConfigFile, strictSchema } from "../core/index.js";
import { CurriculumConfig } from "../curriculum/index.js";
import { EnvSpec, TaskVariantConfig } from "../env/index.js";
import { HeldOutGuardConfig, type GuardCheck } from "./guard.js";
import { LossWeights, channelMetricFields, channelSections } from "./channels.js";
import { parseSdpoConfig } from "./losses.js";
import { PolicyConfig } from "./model.js";
import { WorldModelConfig, type WorldModelEval } from "./world_model.js";
import type { BootstrapCI } from "./stats.js";
import type { GapCheck } from "./gap.js";

export { RlConfig, SdpoChannelConfig, DpoChannelConfig } from "./channels.js";

/**
 * sft.until: a convergence criterion for hint-conditioned SFT (issue 27). Every `every` SFT steps the
 * gap check (gap.ts) runs with the policy as both student and teacher on the first `tasks` held-out tasks
 * (never trained on, so a hinted pass there is read out of the hint, not recalled), for each hint source
 * SFT trains on (a passing sibling when sibling_fraction > 0; the feedback or the hint layers when it is
 * < 1). SFT ends once every source's hinted greedy pass is ≥ hinted_pass and its mean log-prob per
 * golden token ≥ golden_logp (when set), and (sft_pass set) the greedy unhinted pass on SFT tasks is ≥ sft_pass,
 * at `patience` checks in a row, or at sft.steps. Each check is
 * logged on its step (StepMetrics.sft_check); summary.json's sft_end says where SFT ended and why.
 */
export const SftUntil = z.object({
  every: z.number().int().positive().default(100),
  hinted_pass: z.number().min(0).max(1).default(1),
  golden_logp: z.number().max(0).nullable().default(null),
  /** And the greedy unhinted pass on SFT tasks shown unhinted (up to `tasks` of them) ≥ this: SFT fits its own demonstrations (null: not checked). */
  sft_pass: z.number().min(0).max(1).nullable().default(null),
  tasks: z.number().int().positive().default(16),
  patience: z.number().int().positive().default(1),
});

export const TrainConfig = z.object({
  /** Seeds the policy init, the SFT data order, the RL sampling and (unless env.seed is set) the task pool and its held-out split. */
  seed: z.number().int().default(0),
  /** tfjs backend; unset = the default order (tensorflow → webgpu → wasm → cpu). */
  backend: z.enum(BACKENDS).optional(),
  model: PolicyConfig.partial().default({}),
  /** Start from this checkpoint's weights (a checkpoint folder, or a folder of them such as a run's
   *  checkpoints/): its model config wins over `model`. Ignored when the run resumes. */
  init_from: z.string().optional(),
  /** The environment (lib/env EnvSpec): the toy tool-call tasks (kind "toolcall", the default) or
   *  feature-deletion tasks from a store run (kind "feature_deletion"). */
  env: EnvSpec.default({}),
  /** Task variant: "toolcall" (lib/env as is) or "renamed_args" (lib/train/variants.ts: a share of tasks use
   *  renamed argument keys that only the error, and so the hint, reveals). */
  variant: TaskVariantConfig.default({}),
  /** toolcall: the share of tasks held out (feature_deletion: the store's holdout section). */
  heldout_fraction: z.number().min(0).max(0.9).default(0.2),
  /** RL tasks drawn by lib/curriculum's PassRateCurriculum (frontier weights, retire, quarantine);
   *  off: uniformly. Its seed defaults to the run seed. */
  curriculum: CurriculumConfig.partial().extend({ enabled: z.boolean().default(false) }).default({}),
  /** Completions graded at once (sandboxed grades run in parallel; default: the CPU count). */
  grade_concurrency: z.number().int().positive().optional(),
  sft: z.object({
    steps: z.number().int().min(0).default(120),
    batch_size: z.number().int().positive().default(16),
    lr: z.number().positive().default(3e-3),
    /** Fraction of demonstrations shown after a synthetic mistake with its hint (teaches the model to read hints, as pretraining does for a real LLM). */
    hint_fraction: z.number().min(0).max(1).default(0.2),
    /** Of the hint-conditioned rows, the share whose hint is a passing sibling (the demonstration shown
     *  as the correct solution, as the sibling teacher shows it) instead of the mistake's feedback or hint. */
    sibling_fraction: z.number().min(0).max(1).default(0),
    /** Share of the training tasks SFT draws from (by a hash of the task id). Below 1, RL draws from the
     *  other tasks only — tasks SFT never showed — and final.rl_tasks_pass scores them. */
    task_fraction: z.number().gt(0).max(1).default(1),
    /** Share of the SFT tasks (by a hash of the task id) whose demonstrations are only ever shown
     *  hint-conditioned: rows where the hint is needed, since the answer was never shown without it and
     *  cannot be recalled (the others teach recall of a task's answer; issue 27). 0: none. */
    hint_only_fraction: z.number().min(0).max(1).default(0),
    /** SFT rows (lib/collate SftRow JSONL, e.g. from `composer-lab collate`) instead of the env's demonstrations. */
    data: z.string().optional(),
    /** Train SFT until the hinted teacher knows the answer, with `steps` as the cap (null: exactly `steps`). */
    until: SftUntil.nullable().default(null),
  }).default({}),
  /** The loss channels' sections (channels.ts LOSS_CHANNELS): rl (grpo: RlConfig), sdpo (SdpoChannelConfig), dpo (DpoChannelConfig). */
  ...channelSections(),
  /** total = blend(grpo, sdpo) + Σ loss_weights[c] · L_c over the other channels (channels.ts composeLoss); one weight per channel. */
  loss_weights: LossWeights.default({}),
  /** The world-model head (world_model.ts): SDPO's second mode, a parameter-isolated adapter trained on
   *  wm_tuples with its own step after each trainer step; off by default. Its weighted loss joins loss_total. */
  world_model: WorldModelConfig.default({}),
  grad_clip: z.number().positive().nullable().default(1),
  heldout: HeldOutGuardConfig.default({}),
  checkpoint: z.object({ every: z.number().int().min(0).default(10), keep: z.number().int().positive().default(2) }).default({}),
});
export type TrainConfig = z.infer<typeof TrainConfig>;
export type TrainConfigInput = z.input<typeof TrainConfig>;

/**
 * Fields renamed by issue 13 (one name per concept, TRL's where TRL has one): an old config names
 * the old field and fails with the new name instead of silently training with defaults.
 */
export const RENAMED_FIELDS: Record<string, string> = {
  "loss_weights.alpha": "loss_weights.sdpo (the SDPO channel's weight; TRL distillation_weight)",
  "loss_weights.beta": "loss_weights.dpo (the DPO channel's weight)",
  "rl.max_new_tokens": "rl.max_completion_length (TRL's name)",
  "sdpo.mode": "sdpo.distillation_mode (sampled_token | full_logits [was jsd] | topk_logits [was top_k])",
  "sdpo.alpha": "sdpo.distillation_alpha (0 forward KL, 0.5 JSD, 1 reverse KL)",
  "sdpo.jsd_alpha": "sdpo.distillation_alpha (0 forward KL, 0.5 JSD, 1 reverse KL)",
  "sdpo.top_k": "sdpo.distillation_topk",
  "sdpo.token_clip": "sdpo.distillation_kl_clip (now off by default; see sdpoLoss for its scale)",
  "sdpo.token_clip_scope": "sdpo.distillation_kl_clip_scope",
  "sdpo.teacher": "sdpo.teacher_model_kind, sdpo.teacher_update_rate, sdpo.teacher_sync_steps",
  "sdpo.hint_layers": "sdpo.hints (a lib/hints HintsConfig: { layers: [{ type: template }, { type: raw_error }, { type: sibling, threshold: 0.99 }] })",
};

/** TrainConfig with renamed fields refused by name, unknown keys refused with the closest known one
 *  (lib/core strictSchema), and the SDPO option combinations checked. */
export const TrainConfigChecked = strictSchema(z
  .unknown()
  .superRefine((raw, ctx) => {
    if (!raw || typeof raw !== "object") return;
    for (const [old, now] of Object.entries(RENAMED_FIELDS)) {
      const [section, key] = old.split(".") as [string, string];
      const sec = (raw as Record<string, unknown>)[section];
      if (sec && typeof sec === "object" && key in sec) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [section, key], message: `renamed: use ${now}` });
    }
  })
  .pipe(TrainConfig)
  .superRefine((c, ctx) => {
    // A renamed field leaves the parse dirty with the raw input here: nothing more to check.
    if (!c?.sdpo) return;
    try {
      parseSdpoConfig(c.sdpo);
    } catch (e) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["sdpo"], message: (e as Error).message });
    }
    if (c.world_model?.enabled && !c.world_model.source) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["world_model", "source"], message: "required when world_model.enabled: { store: DIR|s3://…, run: RUN_ID } with wm_tuples" });
    if (c.loss_weights?.sdpo_blend === "convex" && c.loss_weights.sdpo > 1) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["loss_weights", "sdpo"], message: `sdpo_blend convex is (1 − w)·policy + w·distillation and needs 0 ≤ w ≤ 1 (got ${c.loss_weights.sdpo}); use sdpo_blend additive for grpo + w·sdpo` });
    }
  }));

/** Parses a TrainConfig (see TrainConfigChecked); throws an Error with one `path: message` line per issue. */
export function parseTrainConfig(input: unknown): TrainConfig {
  const r = TrainConfigChecked.safeParse(input);
  if (!r.success) throw new Error(describeIssues("train config", null, r.error.issues));
  return r.data;
}

export const StepMetrics = z.object({
  step: z.number().int(),
  phase: z.enum(["sft", "rl"]),
  rollouts: z.number().int(),
  reward_mean: z.number().nullable(),
  reward_std: z.number().nullable(),
  valid_rate: z.number().nullable(),
  /** RL: hacks per 100 of the step's grades (flagged grades and any reward on a canary; lib/env hack_rate.ts). */
  hack_rate: z.number().nullable().optional(),
  loss_total: z.number(),
  /** world_model.weight × the world-model head's loss at its step after this one (absent when the head is off). */
  loss_wm: z.number().nullable().optional(),
  /** loss_<channel> for each loss channel (null where the step did not compute it), then each channel's own metrics (channels.ts). */
  ...channelMetricFields(),
  /** RL: SDPO rows per hint layer; SFT: hint-conditioned demonstrations per layer. */
  hint_layers: z.record(z.number()),
  grad_norm: z.number(),
  tokens_per_s: z.number(),
  elapsed_s: z.number(),
  heldout: z.object({ proxy: z.number(), heldout: z.number(), gap: z.number() }).optional(),
  /** Curriculum state after the step (when enabled) and the events it raised. */
  curriculum: z.object({
    live: z.number().int(), retired: z.number().int(), quarantined: z.number().int(), median: z.number(),
    events: z.array(z.object({ kind: z.string(), task_id: z.string().optional(), p: z.number().optional(), median: z.number().optional() })),
  }).optional(),
  /** Seconds spent grading this step's rollouts. */
  grade_s: z.number().optional(),
  /** SFT with sft.until: the convergence check run after this step (held-out tasks, policy as student and hinted teacher). */
  sft_check: z.object({
    tasks: z.number().int(),
    /** sft.until.sft_pass set: the greedy unhinted pass on SFT tasks shown unhinted. */
    sft_pass: z.number().optional(),
    by_source: z.array(z.object({ source: z.string(), n: z.number().int(), student_pass: z.number(), teacher_pass: z.number(), teacher_logp: z.number() })),
    met: z.boolean(),
  }).optional(),
});
export type StepMetrics = z.infer<typeof StepMetrics>;


export interface TrainResult {
  run_dir: string;
  backend: string;
  /** Where the environment's grades ran (lib/executor: local, swarm, slurm; absent in summaries written before it was recorded). */
  executor?: string;
  steps: number;
  resumed_from: number | null;
  stopped: string | null;
  final: {
    train_reward: number;
    heldout_reward: number;
    rl_reward_last: number | null;
    /** Greedy pass rate (reward 1) on the evaluated held-out tasks. */
    heldout_pass?: number;
    /** sft.task_fraction < 1: greedy pass rate, unhinted, on the RL tasks (those SFT never showed), and their count. */
    rl_tasks_pass?: number;
    rl_tasks_n?: number;
    /** Greedy reward on each tagged subset of the evaluated held-out tasks (the env's tag()), with its size. */
    heldout_by_tag?: Record<string, { reward: number; n: number }>;
    /** renamed_args only: greedy reward on the held-out v2 (renamed-key) tasks among the evaluated ones, and their count. */
    heldout_renamed_reward?: number;
    heldout_renamed_n?: number;
    /** Hacks per 100 RL grades over the run (the steps' hack_rate, averaged; issue 26 §5). */
    hack_rate?: number | null;
  };
  guard: GuardCheck[];
  /** The pre-flight gap check before RL (absent when off or when the run resumed inside RL). */
  gap_check?: GapCheck;
  /** world_model.enabled: the head's held-out evaluation at the end (null: no held-out tuples). */
  world_model?: WorldModelEval | null;
  /** Where SFT ended: the step, and whether sft.until's criterion ended it ("converged") or sft.steps did ("cap"; "steps" without sft.until). */
  sft_end?: { step: number; reason: "converged" | "cap" | "steps"; checks: number };
  parameters: number;
  wall_s: number;
}


/** One finished run, as written to runs/<arm>/seed-<s>.json. */
export interface RunRecord {
  variant: string;
  seed: number;
  overrides: Partial<TrainConfigInput>;
  result: TrainResult;
  /** The primary metric of this run (PrimaryMetric.metric at its last step). */
  heldout: number;
  rollouts: number;
  stopped: string | null;
  /** RL steps' metrics. */
  curve: StepMetrics[];
}

export interface StoppedRun {
  seed: number;
  rollouts: number;
  heldout: number;
  reason: string;
}

export interface VariantSummary {
  variant: string;
  /** Runs finished (completed + stopped). */
  seeds: number;
  /** Completed runs (not stopped by the guard): the statistics below are over these only. */
  completed: number;
  /** Sampled RL reward over each completed run's last quarter of steps: mean and sample std (NaN when n < 2). */
  final_reward_mean: number;
  final_reward_std: number;
  /** The primary metric over completed runs: mean and sample std (NaN when n < 2). */
  heldout_mean: number;
  heldout_std: number;
  heldout_values: { seed: number; heldout: number }[];
  /** Rollouts of a completed run. */
  rollouts: number;
  /** Runs the held-out guard stopped (count), and each of them. */
  stopped: number;
  stopped_runs: StoppedRun[];
  /** Paired by seed (seeds where both runs completed): this arm − the baseline / treatment arm. */
  vs_baseline: BootstrapCI | null;
  vs_treatment: BootstrapCI | null;
}

/** Reads a run's metrics.jsonl (line-numbered errors on bad lines). */
export function readMetrics(runDir: string): StepMetrics[] {
  const path = join(runDir, "metrics.jsonl");
  return readFileSync(path, "utf8").split("\n").flatMap((line, i) => {
    if (!line.trim()) return [];
    const r = StepMetrics.safeParse(JSON.parse(line));
    if (!r.success) throw new Error(`${path}:${i + 1}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
    return [r.data];
  });
}

/** Reads a TrainConfig from JSON or YAML; errors name the file and the field. */
export function loadTrainConfig(file: string, overrides: Partial<TrainConfigInput> = {}): TrainConfig {
  const c = loadConfigFile(file, TrainConfigChecked, overrides);
  // Paths in a config file are relative to the file, so configs travel with their data.
  const here = (p: string | undefined) => (p === undefined ? undefined : resolve(dirname(file), p));
  const env = c.env.kind === "feature_deletion"
    ? { ...c.env, store: /^s3:\/\//.test(c.env.store) ? c.env.store : here(c.env.store)!, pool: c.env.pool === undefined ? undefined : here(c.env.pool) }
    : c.env;
  return {
    ...c,
    env,
    ...(c.init_from ? { init_from: here(c.init_from) } : {}),
    sft: { ...c.sft, ...(c.sft.data ? { data: here(c.sft.data) } : {}) },
    sdpo: { ...c.sdpo, ...(c.sdpo.data ? { data: here(c.sdpo.data) } : {}) },
    dpo: { ...c.dpo, ...(c.dpo.data ? { data: here(c.dpo.data) } : {}) },
    world_model: { ...c.world_model, ...(c.world_model.source && !/^s3:\/\//.test(c.world_model.source.store) ? { source: { ...c.world_model.source, store: here(c.world_model.source.store)! } } : {}) },
  };
}
