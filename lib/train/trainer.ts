/**
 * The trainer: a config object plus one loop that reads top to bottom.
 *
 *   SFT-first (lm_ce on demonstrations, some of them hint-conditioned)  →  RL:
 *   for each step: draw prompts → G rollouts each → grade → group advantages →
 *     SDPO rows at failed rollouts (teacher = same weights, hint spliced into the context) →
 *     DPO pairs from the group (winner vs loser) →
 *     total = grpo + α·sdpo + β·dpo (+ lm_ce) → one Adam step
 *   every N steps: HeldOutGuard (proxy vs held-out), checkpoint (atomic, resumable).
 *
 * Metrics go to <run>/metrics.jsonl one line per step; plots and summary.json at the end.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { BACKENDS, initBackend, tf, type BackendInfo } from "../backend/index.js";
import { DpoPair, SdpoRow, SftRow, readRows } from "../collate/index.js";
import { Rng, loadConfigFile, mean, std } from "../core/index.js";
import { ToolCallEnv, ToolCallEnvConfig, STOP, type ToolCallTask } from "../env/index.js";
import { LayeredHintGenerator, RawErrorHintGenerator, SiblingBootstrapGenerator, TemplateHintGenerator, type HintGenerator, type LayerName } from "../hints/index.js";
import { HeldoutSplit } from "../store/index.js";
import { toHTML } from "../viz/index.js";
import { trainingFigures } from "./plots.js";
import { loadCheckpoint, loadLatestCheckpoint, restoreOptimizer, saveCheckpoint, type LoadedCheckpoint } from "./checkpoint.js";
import { HeldOutGuard, HeldOutGuardConfig, type GuardCheck } from "./guard.js";
import {
  DpoConfig, LossWeights, PolicyGradientConfig, ScaleRewards, SdpoConfig, composeLoss, dpoLoss, entropy, groupAdvantages, parseSdpoConfig, policyGradientLoss, sdpoLoss, sftLoss,
  stopGradient, tokenLogprobs,
} from "./losses.js";
import { TaskVariantConfig, taskVariant, type TaskVariant } from "./variants.js";
import { Policy, PolicyConfig } from "./model.js";
import { matmul } from "./ops.js";
import { sample } from "./sample.js";
import { BOS, encode } from "./tokenizer.js";

/**
 * The RL phase: sampling and optimiser settings, plus the policy-gradient loss's own config
 * (PolicyGradientConfig: epsilon, epsilon_high, beta, loss_type — its defaults, not restated here).
 * max_completion_length is TRL's name for the generation budget; dr_grpo also normalises by it.
 */
export const RlConfig = PolicyGradientConfig.omit({ max_completion_length: true }).extend({
  steps: z.number().int().min(0).default(40),
  prompts_per_step: z.number().int().positive().default(4),
  num_generations: z.number().int().min(2).default(8),
  max_completion_length: z.number().int().positive().default(40),
  temperature: z.number().min(0).default(1),
  top_k: z.number().int().min(0).default(0),
  top_p: z.number().gt(0).max(1).default(1),
  lr: z.number().positive().default(1e-3),
  scale_rewards: ScaleRewards.default("group"),
});

/**
 * The SDPO channel: the loss's own config (SdpoConfig: distillation_mode, distillation_alpha,
 * distillation_topk, distillation_topk_support, distillation_add_tail, distillation_kl_clip[_scope])
 * plus where the teacher and its hints come from (TRL SDPOConfig names: teacher_model_kind,
 * teacher_update_rate, teacher_sync_steps). Its weight in the total is loss_weights.sdpo.
 */
export const SdpoChannelConfig = SdpoConfig.extend({
  /** live: the current weights; ema: an exponential average of them; base: the post-SFT weights. */
  teacher_model_kind: z.enum(["live", "ema", "base"]).default("live"),
  teacher_update_rate: z.number().min(0).max(1).default(0.05),
  teacher_sync_steps: z.number().int().positive().default(1),
  /** Hint layers tried in order at each failed rollout (the seed's escalation order). */
  hint_layers: z.array(z.enum(["template", "raw_error", "sibling"])).default(["template", "raw_error", "sibling"]),
  /** Offline SDPO rows from traces (lib/collate SdpoRow JSONL), replayed alongside the on-policy ones. */
  data: z.string().optional(),
  rows_per_step: z.number().int().min(0).default(4),
});

/** The DPO channel: DpoConfig (beta: TRL DPOConfig.beta, the KL coefficient of the objective DPO solves) plus replay data. */
export const DpoChannelConfig = DpoConfig.extend({
  /** Trace-replay pairs (lib/collate DpoPair JSONL), replayed alongside the in-group pairs. */
  data: z.string().optional(),
  pairs_per_step: z.number().int().min(0).default(4),
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
  env: ToolCallEnvConfig.partial().default({}),
  /** Task variant: "toolcall" (lib/env as is) or "renamed_args" (lib/train/variants.ts: a share of tasks use
   *  renamed argument keys that only the error, and so the hint, reveals). */
  variant: TaskVariantConfig.default({}),
  heldout_fraction: z.number().min(0).max(0.9).default(0.2),
  sft: z.object({
    steps: z.number().int().min(0).default(120),
    batch_size: z.number().int().positive().default(16),
    lr: z.number().positive().default(3e-3),
    /** Fraction of demonstrations shown after a synthetic mistake with its hint (teaches the model to read hints, as pretraining does for a real LLM). */
    hint_fraction: z.number().min(0).max(1).default(0.2),
    /** SFT rows (lib/collate SftRow JSONL, e.g. from `composer-lab collate`) instead of the env's demonstrations. */
    data: z.string().optional(),
  }).default({}),
  rl: RlConfig.default({}),
  sdpo: SdpoChannelConfig.default({}),
  dpo: DpoChannelConfig.default({}),
  /** total = Σ loss_weights[c] · L_c over grpo, lm_ce, sdpo, dpo. */
  loss_weights: LossWeights.default({}),
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
};

/** TrainConfig with renamed fields refused by name and the SDPO option combinations checked. */
export const TrainConfigChecked = z
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
    try {
      parseSdpoConfig(c.sdpo);
    } catch (e) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["sdpo"], message: (e as Error).message });
    }
  });

/** Parses a TrainConfig (see TrainConfigChecked); throws a ZodError naming the field. */
export function parseTrainConfig(input: unknown): TrainConfig {
  return TrainConfigChecked.parse(input);
}

export const StepMetrics = z.object({
  step: z.number().int(),
  phase: z.enum(["sft", "rl"]),
  rollouts: z.number().int(),
  reward_mean: z.number().nullable(),
  reward_std: z.number().nullable(),
  valid_rate: z.number().nullable(),
  loss_total: z.number(),
  loss_lm_ce: z.number().nullable(),
  loss_grpo: z.number().nullable(),
  loss_sdpo: z.number().nullable(),
  loss_dpo: z.number().nullable(),
  sdpo_rows: z.number().int(),
  hint_layers: z.record(z.number()),
  /** Mean KL(teacher ‖ student) per token at hinted turns: how far the hint moves the teacher. */
  shift_kl: z.number().nullable(),
  clipped_fraction: z.number().nullable(),
  clip_ratio: z.number().nullable(),
  kl: z.number().nullable(),
  entropy: z.number().nullable(),
  grad_norm: z.number(),
  tokens_per_s: z.number(),
  elapsed_s: z.number(),
  heldout: z.object({ proxy: z.number(), heldout: z.number(), gap: z.number() }).optional(),
});
export type StepMetrics = z.infer<typeof StepMetrics>;

/** One step's metrics, and the tokens it processed (the loop turns them into tokens/s). */
interface StepResult {
  metrics: StepMetrics;
  tokens: number;
}

export interface TrainResult {
  run_dir: string;
  backend: string;
  steps: number;
  resumed_from: number | null;
  stopped: string | null;
  final: {
    train_reward: number;
    heldout_reward: number;
    rl_reward_last: number | null;
    /** renamed_args only: greedy reward on the held-out v2 (renamed-key) tasks among the evaluated ones, and their count. */
    heldout_renamed_reward?: number;
    heldout_renamed_n?: number;
  };
  guard: GuardCheck[];
  parameters: number;
  wall_s: number;
}

/** One prompt/completion pair in tokens (the unit the RL channels are computed over). */
interface SeqRow {
  prompt: number[];
  completion: number[];
}

/** Token ids with a target mask: mask[i] = 1 when ids[i] is trained on (predicted from i − 1). */
interface TokenRow {
  ids: number[];
  mask: number[];
}

/** prompt + completion as a TokenRow: the completion keeps ≤ block/2 tokens, the prompt is cut from the left. */
function seqToTokens(r: SeqRow, blockSize: number): TokenRow {
  const completion = r.completion.slice(0, Math.floor(blockSize / 2));
  const prompt = r.prompt.slice(-(blockSize + 1 - completion.length));
  return { ids: [...prompt, ...completion], mask: [...prompt.map(() => 0), ...completion.map(() => 1)] };
}

/**
 * Packs rows for one forward pass: input ids [B, T] (right-padded: causal attention never looks at
 * the padding), a selection tensor [B, C, T] that picks the logits predicting each target token
 * (a matmul, so gradients flow on every backend), targets [B, C] and their mask [B, C]. Rows longer
 * than block_size + 1 lose their oldest tokens.
 */
function packRows(input: (SeqRow | TokenRow)[], blockSize: number) {
  const rows = input.map((r) => {
    const t = "ids" in r ? r : seqToTokens(r, blockSize);
    const cut = Math.max(0, t.ids.length - (blockSize + 1));
    const ids = t.ids.slice(cut);
    const mask = t.mask.slice(cut);
    mask[0] = 0; // the first token has no prediction
    return { ids, positions: mask.flatMap((m, i) => (m ? [i] : [])) };
  });
  const T = Math.max(1, ...rows.map((r) => r.ids.length - 1));
  const C = Math.max(1, ...rows.map((r) => r.positions.length));
  const B = rows.length;
  const ids = new Int32Array(B * T).fill(BOS);
  const select = new Float32Array(B * C * T);
  const targets = new Int32Array(B * C);
  const mask = new Float32Array(B * C);
  rows.forEach((r, b) => {
    r.ids.slice(0, -1).forEach((t, i) => (ids[b * T + i] = t));
    r.positions.forEach((p, j) => {
      select[(b * C + j) * T + p - 1] = 1;
      targets[b * C + j] = r.ids[p]!;
      mask[b * C + j] = 1;
    });
  });
  return {
    ids: tf.tensor2d(ids, [B, T], "int32"),
    select: tf.tensor3d(select, [B, C, T]),
    targets: tf.tensor2d(targets, [B, C], "int32"),
    mask: tf.tensor2d(mask, [B, C]),
    tokens: rows.reduce((n, r) => n + r.ids.length, 0),
  };
}
type Packed = ReturnType<typeof packRows>;
const disposePacked = (p: Packed) => tf.dispose([p.ids, p.select, p.targets, p.mask]);

/** Logits at the completion positions only: [B, C, V]. */
const completionLogits = (policy: Policy, p: Packed): tf.Tensor3D => tf.tidy(() => matmul(p.select, policy.forward(p.ids)));

function hintGenerator(layers: LayerName[]): LayeredHintGenerator {
  const make: Partial<Record<LayerName, () => HintGenerator>> = {
    template: () => new TemplateHintGenerator(),
    raw_error: () => new RawErrorHintGenerator(),
    sibling: () => new SiblingBootstrapGenerator(0.99),
  };
  return new LayeredHintGenerator(layers.map((l) => make[l]!()));
}

function copyWeights(from: Policy, to: Policy, rate = 1): void {
  const src = from.variables();
  to.variables().forEach((v, i) => v.assign(tf.tidy(() => (rate === 1 ? src[i]!.clone() : v.mul(1 - rate).add(src[i]!.mul(rate))))));
}

function clonePolicy(p: Policy): Policy {
  const q = new Policy(p.config);
  copyWeights(p, q);
  return q;
}

/** Global-norm gradient clipping (returns the pre-clip norm). */
function clipGrads(grads: tf.NamedTensorMap, maxNorm: number | null): number {
  const norm = tf.tidy(() => tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))).dataSync()[0]!);
  if (maxNorm !== null && norm > maxNorm) {
    for (const k of Object.keys(grads)) {
      const g = grads[k]!;
      grads[k] = g.mul(maxNorm / (norm + 1e-6));
      g.dispose();
    }
  }
  return norm;
}

export interface TrainerOptions {
  run_dir: string;
  /** Called after each step (live plots in notebooks). */
  onStep?: (m: StepMetrics) => void;
  log?: (line: string) => void;
}

export class Trainer {
  readonly config: TrainConfig;
  readonly env: ToolCallEnv;
  readonly train_tasks: ToolCallTask[];
  readonly heldout_tasks: ToolCallTask[];
  readonly variant: TaskVariant;
  /** The tasks unhinted SFT demonstrations are drawn from (train_tasks, less the v2 ones in renamed_args unless sft_renamed "always"). */
  readonly sft_tasks: ToolCallTask[];
  private readonly hints: LayeredHintGenerator;
  private sftData: TokenRow[] | null = null;
  private sdpoData: SdpoRow[] | null = null;
  private dpoData: DpoPair[] | null = null;

  constructor(config: TrainConfigInput, readonly opts: TrainerOptions) {
    this.config = parseTrainConfig(config);
    // The task pool and its held-out split follow env.seed (default: the run seed), so runs with
    // different seeds can share one environment and one SFT start.
    this.env = new ToolCallEnv({ seed: this.config.seed, ...this.config.env });
    const split = new HeldoutSplit(this.config.heldout_fraction, this.env.config.seed).split(this.env.tasks, (t) => t.task_id);
    this.train_tasks = split.train;
    this.variant = taskVariant(this.config.variant);
    // renamed_args: unless sft_renamed is "always", unhinted SFT demonstrations come from v1 tasks only
    // ("hinted_only" lets v2 tasks into hint-conditioned batches), so no unhinted v2 call is in the warm start.
    this.sft_tasks = this.config.variant.sft_renamed === "always" ? this.train_tasks : this.train_tasks.filter((t) => !this.variant.isRenamed(t));
    this.heldout_tasks = split.holdout;
    if (this.train_tasks.length === 0) throw new Error("no training tasks: raise env.n_tasks or lower heldout_fraction");
    this.hints = hintGenerator(this.config.sdpo.hint_layers);
  }

  async train(): Promise<TrainResult> {
    const c = this.config;
    const started = Date.now();
    const log = this.opts.log ?? (() => {});
    const backend: BackendInfo = await initBackend(c.backend);
    log(`backend: ${backend.name} (${backend.provider})`);
    const dir = this.opts.run_dir;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify({ ...c, backend_used: backend.name }, null, 2));
    const metricsPath = join(dir, "metrics.jsonl");
    const ckptDir = join(dir, "checkpoints");
    const totalSteps = c.sft.steps + c.rl.steps;

    // Resume from the last complete checkpoint, else start fresh.
    let policy: Policy;
    let step = 0;
    let rng = new Rng(c.seed);
    const guard = new HeldOutGuard(c.heldout);
    const ck = await loadLatestCheckpoint(ckptDir);
    let resumedFrom: number | null = null;
    let saved: LoadedCheckpoint | null = null;
    let savedPhase: string | null = null;
    let rollouts = 0;
    if (ck) {
      policy = ck.policy;
      step = ck.step;
      rng.state = ck.rngState;
      saved = ck;
      const extra = ck.extra as { phase?: string; guard_state?: { strikes: number; history: GuardCheck[] }; rollouts?: number } | undefined;
      savedPhase = extra?.phase ?? null;
      if (extra?.guard_state) guard.restore(extra.guard_state);
      rollouts = extra?.rollouts ?? 0;
      resumedFrom = step;
      log(`resumed from ${ck.path} (step ${step})`);
      // Metrics lines past the checkpoint belong to the lost tail of the killed run.
      if (existsSync(metricsPath)) {
        const kept = readFileSync(metricsPath, "utf8").split("\n").filter((l) => l.trim() && (JSON.parse(l) as StepMetrics).step <= step);
        writeFileSync(metricsPath, kept.map((l) => l + "\n").join(""));
      }
    } else if (c.init_from) {
      const init = (await loadLatestCheckpoint(c.init_from)) ?? (await loadLatestCheckpoint(join(c.init_from, "checkpoints"))) ?? (await loadCheckpoint(c.init_from));
      policy = init.policy;
      log(`initialised from ${init.path}`);
      writeFileSync(metricsPath, "");
    } else {
      policy = new Policy({ ...c.model, seed: c.seed });
      writeFileSync(metricsPath, "");
    }

    await this.loadData(policy.config.vocab_size);

    // The post-SFT policy is the KL reference and the "base" teacher; saved once so resumes agree.
    const baseDir = join(dir, "base");
    let base: Policy | null = null;
    const needBase = c.rl.beta > 0 || c.sdpo.teacher_model_kind !== "live" || c.loss_weights.dpo > 0;
    const ensureBase = async () => {
      if (base || !needBase) return;
      const savedBase = await loadLatestCheckpoint(baseDir);
      if (savedBase) base = savedBase.policy;
      else {
        base = clonePolicy(policy);
        await saveCheckpoint(baseDir, { policy: base, step, rngState: rng.state, keep: 1 });
      }
    };
    // The ema teacher (live uses the policy, base uses `base`). It is not checkpointed: after a
    // resume it restarts from the current weights.
    let teacher: Policy | null = null;

    let phase: "sft" | "rl" | null = null;
    let optimizer: tf.Optimizer | null = null;
    let stopped: string | null = null;
    let lastRl: number | null = null;

    while (step < totalSteps && !stopped) {
      const nextPhase = step < c.sft.steps ? "sft" : "rl";
      if (nextPhase !== phase) {
        phase = nextPhase;
        optimizer?.dispose();
        optimizer = tf.train.adam(phase === "sft" ? c.sft.lr : c.rl.lr);
        // Each phase has its own Adam; only a checkpoint from this same phase restores its moments.
        if (saved && savedPhase === phase) await restoreOptimizer(optimizer, saved);
        saved = null;
        if (phase === "rl") {
          // RL draws from its own stream of the run seed (an SFT checkpoint shared by several
          // seeds still gives each its own rollouts); a resumed RL checkpoint keeps its saved state.
          if (savedPhase !== "rl") rng = new Rng((c.seed * 0x9e3779b1 + 0x7f4a7c15) | 0);
          await ensureBase();
          if (c.sdpo.teacher_model_kind === "ema") teacher = clonePolicy(policy);
        }
      }
      const t0 = Date.now();
      const { metrics: m, tokens } = phase === "sft" ? await this.sftStep(policy, optimizer!, rng, step) : await this.rlStep(policy, optimizer!, rng, step, base, teacher);
      if (phase === "rl") {
        rollouts += c.rl.prompts_per_step * c.rl.num_generations;
        lastRl = m.reward_mean;
        if (teacher && (step + 1) % c.sdpo.teacher_sync_steps === 0) copyWeights(policy, teacher, c.sdpo.teacher_update_rate);
      }
      step++;
      m.step = step;
      m.rollouts = rollouts;
      m.elapsed_s = (Date.now() - started) / 1000;
      m.tokens_per_s = tokens / Math.max(1e-3, (Date.now() - t0) / 1000);
      const rlStep = step - c.sft.steps;
      if (phase === "rl" && guard.due(rlStep)) {
        const proxy = this.evaluate(policy, this.train_tasks.slice(0, c.heldout.n_tasks));
        const held = this.evaluate(policy, this.heldout_tasks.slice(0, c.heldout.n_tasks));
        const check = guard.check(step, proxy, held);
        m.heldout = { proxy, heldout: held, gap: check.gap };
        if (check.stop) stopped = check.reason!;
      }
      appendFileSync(metricsPath, JSON.stringify(StepMetrics.parse(m)) + "\n");
      this.opts.onStep?.(m);
      if (step % 10 === 0 || step === totalSteps) {
        log(`step ${step}/${totalSteps} ${phase} loss ${m.loss_total.toFixed(3)}${m.reward_mean !== null ? ` reward ${m.reward_mean.toFixed(3)}` : ""}`);
      }
      if (stopped || step === totalSteps || (c.checkpoint.every > 0 && step % c.checkpoint.every === 0)) {
        await saveCheckpoint(ckptDir, { policy, optimizer: optimizer!, rngState: rng.state, step, keep: c.checkpoint.keep, extra: { phase, rollouts, guard_state: guard.state } });
      }
    }
    if (stopped) {
      writeFileSync(join(dir, "STOPPED"), stopped + "\n");
      log(stopped);
    }

    // The guard may have just evaluated these same weights on these same tasks (greedy): reuse it.
    const last = guard.history.at(-1);
    const atEnd = last?.step === step ? last : null;
    const final = {
      train_reward: atEnd?.proxy ?? this.evaluate(policy, this.train_tasks.slice(0, c.heldout.n_tasks)),
      heldout_reward: atEnd?.heldout ?? this.evaluate(policy, this.heldout_tasks.slice(0, c.heldout.n_tasks)),
      rl_reward_last: lastRl,
      ...this.renamedHeldout(policy),
    };
    const result: TrainResult = {
      run_dir: dir, backend: backend.name, steps: step, resumed_from: resumedFrom, stopped, final,
      guard: guard.history, parameters: policy.parameterCount(), wall_s: (Date.now() - started) / 1000,
    };
    writeFileSync(join(dir, "summary.json"), JSON.stringify(result, null, 2));
    writeFileSync(join(dir, "training.html"), toHTML(trainingFigures(readMetrics(dir)), "composer-lab training run"));
    optimizer?.dispose();
    for (const p of new Set([policy, base, teacher])) p?.dispose();
    return result;
  }

  /** Offline rows from lib/collate JSONL files (errors name the file and line). */
  private async loadData(vocab: number): Promise<void> {
    const c = this.config;
    const check = (file: string, rows: number[][][]) => {
      rows.forEach((seqs, i) => {
        for (const ids of seqs) if (ids.some((t) => t < 0 || t >= vocab)) throw new Error(`${file}: row ${i + 1}: token ids outside the policy's vocabulary (0..${vocab - 1}); collate with the byte tokenizer`);
      });
    };
    if (c.sft.data) {
      const rows = await readRows(c.sft.data, SftRow);
      if (!rows.length) throw new Error(`${c.sft.data}: no SFT rows`);
      check(c.sft.data, rows.map((r) => [r.ids]));
      this.sftData = rows.map((r) => ({ ids: r.ids, mask: r.loss_mask }));
    }
    if (c.sdpo.data) {
      this.sdpoData = await readRows(c.sdpo.data, SdpoRow);
      check(c.sdpo.data, this.sdpoData.map((r) => [r.student_prompt_ids, r.teacher_prompt_ids, r.completion_ids]));
    }
    if (c.dpo.data) {
      this.dpoData = await readRows(c.dpo.data, DpoPair);
      check(c.dpo.data, this.dpoData.map((r) => [r.prompt_ids, r.chosen_ids, r.rejected_ids]));
    }
  }

  /** renamed_args: greedy reward on the evaluated held-out tasks that are v2 (empty for toolcall). */
  private renamedHeldout(policy: Policy): { heldout_renamed_reward?: number; heldout_renamed_n?: number } {
    if (this.variant.name !== "renamed_args") return {};
    const v2 = this.heldout_tasks.slice(0, this.config.heldout.n_tasks).filter((t) => this.variant.isRenamed(t));
    return { heldout_renamed_reward: this.evaluate(policy, v2), heldout_renamed_n: v2.length };
  }

  /** Greedy reward on a task list (the guard's and the final evaluation). */
  evaluate(policy: Policy, tasks: ToolCallTask[]): number {
    if (tasks.length === 0) return 0;
    const outs = sample(policy, tasks.map((t) => this.variant.prompt(t)), { max_new_tokens: this.config.rl.max_completion_length, temperature: 0, stop: [STOP] });
    return mean(outs.map((o, i) => this.variant.grade(tasks[i]!, o.text).reward));
  }

  /**
   * The teacher's context as token ids: the prompt with the hint spliced in, the hint shortened from its
   * end ("...") until prompt + completion fit the block. Packing cuts an over-long context from the
   * left, which for a hinted prompt (300–390 bytes with a schema hint, block 256) removed the tool list
   * and the task: the teacher then saw the hint but not what was asked, and distilling it pushed the
   * student's correct argument values down.
   */
  hintedPrompt(task: ToolCallTask, hint: string, completionLength: number, blockSize: number): number[] {
    const room = blockSize + 1 - Math.min(completionLength, Math.floor(blockSize / 2));
    let h = hint;
    for (;;) {
      const ids = encode(this.variant.teacherPrompt(task, h), { bos: true });
      const over = ids.length - room;
      if (over <= 0 || h.length === 0) return ids;
      h = h.length > over + 3 ? `${h.slice(0, h.length - over - 3).trimEnd()}...` : "";
    }
  }

  /**
   * A demonstration batch. With probability hint_fraction the whole batch is hint-conditioned (each
   * prompt carries the hint for a synthetic mistake): hinted prompts are ~2× longer, and mixing
   * them into every batch would pad every batch to their length.
   */
  private async sftRows(rng: Rng, blockSize: number): Promise<(SeqRow | TokenRow)[]> {
    const c = this.config.sft;
    const data = this.sftData;
    if (data) return Array.from({ length: c.batch_size }, () => data[Math.floor(rng.next() * data.length)]!);
    const hinted = rng.next() < c.hint_fraction;
    const rows: SeqRow[] = [];
    // One row at a time: each draws from rng in turn, so the batch is the same for a given state.
    for (let i = 0; i < c.batch_size; i++) {
      const pool = hinted && this.config.variant.sft_renamed === "hinted_only" ? this.train_tasks : this.sft_tasks;
      const task = pool[Math.floor(rng.next() * pool.length)]!;
      const completion = encode(this.variant.demonstration(task));
      let prompt = encode(this.variant.prompt(task), { bos: true });
      if (hinted) {
        const err = this.variant.grade(task, this.variant.corrupt(task, rng)).error;
        const hint = err ? await this.hints.generate(err) : null;
        if (hint) prompt = this.hintedPrompt(task, hint.hint, completion.length, blockSize);
      }
      rows.push({ prompt, completion });
    }
    return rows;
  }

  private async sftStep(policy: Policy, optimizer: tf.Optimizer, rng: Rng, step: number): Promise<StepResult> {
    const packed = packRows(await this.sftRows(rng, policy.config.block_size), policy.config.block_size);
    const { value, grads } = tf.variableGrads(() => sftLoss(completionLogits(policy, packed), packed.targets, packed.mask), policy.variables());
    const grad_norm = clipGrads(grads, this.config.grad_clip);
    optimizer.applyGradients(grads);
    const loss = value.dataSync()[0]!;
    tf.dispose([value, ...Object.values(grads)]);
    const tokens = packed.tokens;
    disposePacked(packed);
    const metrics: StepMetrics = {
      step, phase: "sft", rollouts: 0, reward_mean: null, reward_std: null, valid_rate: null, loss_total: loss, loss_lm_ce: loss,
      loss_grpo: null, loss_sdpo: null, loss_dpo: null, sdpo_rows: 0, hint_layers: {}, shift_kl: null, clipped_fraction: null,
      clip_ratio: null, kl: null, entropy: null, grad_norm, tokens_per_s: 0, elapsed_s: 0,
    };
    return { metrics, tokens };
  }

  private async rlStep(policy: Policy, optimizer: tf.Optimizer, rng: Rng, step: number, base: Policy | null, emaTeacher: Policy | null): Promise<StepResult> {
    const c = this.config;
    const G = c.rl.num_generations;
    const w = c.loss_weights;
    const tasks = Array.from({ length: c.rl.prompts_per_step }, () => this.train_tasks[Math.floor(rng.next() * this.train_tasks.length)]!);
    const prompts = tasks.flatMap((t) => Array<string>(G).fill(this.variant.prompt(t)));
    const outs = sample(policy, prompts, { max_new_tokens: c.rl.max_completion_length, temperature: c.rl.temperature, top_k: c.rl.top_k, top_p: c.rl.top_p, stop: [STOP], rng });
    const grades = outs.map((o, i) => this.variant.grade(tasks[Math.floor(i / G)]!, o.text));
    const rewards = grades.map((g) => g.reward);
    const rows: SeqRow[] = outs.map((o, i) => ({ prompt: encode(prompts[i]!, { bos: true }), completion: o.ids.length ? o.ids : [BOS] }));

    // SDPO rows: each failed rollout whose error a hint layer can speak to. Teacher context = the
    // same prompt with the hint spliced before the call; the distilled tokens are the student's own.
    const sdpoIdx: number[] = [];
    const teacherRows: SeqRow[] = [];
    const layers: Record<string, number> = {};
    if (w.sdpo > 0) {
      for (let i = 0; i < outs.length; i++) {
        const err = grades[i]!.error;
        if (!err) continue;
        const g0 = Math.floor(i / G) * G;
        const siblings = grades.slice(g0, g0 + G).map((g, j) => ({ reward: g.reward, solution_excerpt: outs[g0 + j]!.text.trim() })).filter((_, j) => g0 + j !== i);
        const hint = await this.hints.generate({ ...err, sibling_rollouts: siblings });
        if (!hint) continue;
        layers[hint.layer] = (layers[hint.layer] ?? 0) + 1;
        sdpoIdx.push(i);
        teacherRows.push({ prompt: this.hintedPrompt(tasks[Math.floor(i / G)]!, hint.hint, rows[i]!.completion.length, policy.config.block_size), completion: rows[i]!.completion });
      }
    }

    // DPO pairs: within each group, every loser against the group's best (when it won outright).
    const pairs: { chosen: number; rejected: number }[] = [];
    if (w.dpo > 0) {
      for (let g0 = 0; g0 < outs.length; g0 += G) {
        const group = rewards.slice(g0, g0 + G);
        const best = group.indexOf(Math.max(...group));
        for (let j = 0; j < G; j++) if (group[j]! < group[best]!) pairs.push({ chosen: g0 + best, rejected: g0 + j });
      }
    }

    const packed = packRows(rows, policy.config.block_size);
    const advantages = groupAdvantages(rewards, G, { scale_rewards: c.rl.scale_rewards });
    // Everything the teacher and reference contribute is computed outside the gradient tape.
    const refLogp = c.rl.beta > 0 || pairs.length ? tf.tidy(() => tokenLogprobs(completionLogits(base ?? policy, packed), packed.targets)) : null;
    const teacherPolicy = c.sdpo.teacher_model_kind === "live" ? policy : c.sdpo.teacher_model_kind === "ema" ? emaTeacher! : base!;
    const tPacked = teacherRows.length ? packRows(teacherRows, policy.config.block_size) : null;
    const teacherLogits = tPacked ? completionLogits(teacherPolicy, tPacked) : null;
    // Replayed trace data (lib/collate): SDPO rows (teacher = the same weights on the hinted prompt)
    // and DPO pairs (the failed action vs the recovery), a few per step.
    const draw = <T>(xs: T[] | null, n: number): T[] => (xs?.length ? Array.from({ length: n }, () => xs[Math.floor(rng.next() * xs.length)]!) : []);
    const bs = policy.config.block_size;
    const replaySdpo = w.sdpo > 0 ? draw(this.sdpoData, c.sdpo.rows_per_step) : [];
    for (const r of replaySdpo) layers[`replay:${r.layer}`] = (layers[`replay:${r.layer}`] ?? 0) + 1;
    const rsS = replaySdpo.length ? packRows(replaySdpo.map((r) => ({ prompt: r.student_prompt_ids, completion: r.completion_ids })), bs) : null;
    const rsT = replaySdpo.length ? packRows(replaySdpo.map((r) => ({ prompt: r.teacher_prompt_ids, completion: r.completion_ids })), bs) : null;
    const rsTeacher = rsT ? completionLogits(teacherPolicy, rsT) : null;
    const replayDpo = w.dpo > 0 ? draw(this.dpoData, c.dpo.pairs_per_step) : [];
    const rdC = replayDpo.length ? packRows(replayDpo.map((p) => ({ prompt: p.prompt_ids, completion: p.chosen_ids })), bs) : null;
    const rdR = replayDpo.length ? packRows(replayDpo.map((p) => ({ prompt: p.prompt_ids, completion: p.rejected_ids })), bs) : null;
    const seqLogps = (pol: Policy, pk: Packed) => tokenLogprobs(completionLogits(pol, pk), pk.targets).mul(pk.mask).sum(1) as tf.Tensor1D;
    const refReplay: [tf.Tensor1D, tf.Tensor1D] | null = rdC && rdR ? [tf.tidy(() => seqLogps(base ?? policy, rdC)), tf.tidy(() => seqLogps(base ?? policy, rdR))] : null;
    // Student rows for SDPO are a subset of the rollouts: a one-hot row selector keeps it one forward.
    const rowSelect = sdpoIdx.length ? tf.oneHot(tf.tensor1d(sdpoIdx, "int32"), rows.length).toFloat() : null;

    const sdpoOptions = SdpoConfig.parse(c.sdpo); // the loss's own fields of the channel config
    const channels: Record<string, number | null> = { grpo: null, sdpo: null, dpo: null };
    let clipRatio: number | null = null;
    let kl: number | null = null;
    let clippedFraction: number | null = null;
    let ent: number | null = null;
    let shift: number | null = null;
    const { value, grads } = tf.variableGrads(() => {
      const logits = completionLogits(policy, packed);
      const logp = tokenLogprobs(logits, packed.targets);
      // Diagnostics read off the same forward (values only; they are not part of the loss).
      ent = entropy(logits).mul(packed.mask).sum().div(packed.mask.sum().maximum(1)).dataSync()[0]!;
      const pg = policyGradientLoss({
        logp, oldLogp: stopGradient(logp), advantages, mask: packed.mask, ...(refLogp ? { refLogp } : {}),
        epsilon: c.rl.epsilon, ...(c.rl.epsilon_high !== undefined ? { epsilon_high: c.rl.epsilon_high } : {}),
        beta: c.rl.beta, loss_type: c.rl.loss_type, max_completion_length: c.rl.max_completion_length,
      });
      channels.grpo = pg.loss.dataSync()[0]!;
      clipRatio = pg.clip_ratio.dataSync()[0]!;
      if (pg.kl) kl = pg.kl.dataSync()[0]!;
      let sdpo: tf.Scalar | undefined;
      if (rowSelect && teacherLogits && tPacked) {
        const [B, C, V] = logits.shape;
        const student = matmul(rowSelect, logits.reshape([B, C * V])).reshape([sdpoIdx.length, C, V]) as tf.Tensor3D;
        // Teacher windows may be shorter (C_t ≤ C); pad to C and use the teacher's own mask.
        const Ct = teacherLogits.shape[1];
        const studentT = Ct < C ? student.slice([0, 0, 0], [-1, Ct, -1]) : student;
        const r = sdpoLoss({
          studentLogits: studentT as tf.Tensor3D, teacherLogits, sampledIds: tPacked.targets, mask: tPacked.mask,
          ...sdpoOptions,
        });
        sdpo = r.loss;
        channels.sdpo = r.loss.dataSync()[0]!;
        const lt = tf.logSoftmax(teacherLogits);
        shift = tf.exp(lt).mul(lt.sub(tf.logSoftmax(studentT))).sum(-1).mul(tPacked.mask).sum().div(tPacked.mask.sum().maximum(1)).dataSync()[0]!;
        clippedFraction = r.clipped_fraction.dataSync()[0]!;
      }
      if (rsS && rsT && rsTeacher) {
        const r = sdpoLoss({
          studentLogits: completionLogits(policy, rsS), teacherLogits: rsTeacher, sampledIds: rsT.targets, mask: rsT.mask,
          ...sdpoOptions,
        });
        // Weighted by rows, so on-policy and replayed rows count alike.
        const nOn = sdpoIdx.length;
        sdpo = sdpo ? (sdpo.mul(nOn).add(r.loss.mul(replaySdpo.length)).div(nOn + replaySdpo.length) as tf.Scalar) : r.loss;
        channels.sdpo = sdpo.dataSync()[0]!;
      }
      let dpo: tf.Scalar | undefined;
      const chosen: tf.Tensor1D[] = [], rejected: tf.Tensor1D[] = [], refChosen: tf.Tensor1D[] = [], refRejected: tf.Tensor1D[] = [];
      if (pairs.length && refLogp) {
        const seqLogp = logp.mul(packed.mask).sum(1) as tf.Tensor1D;
        const refSeq = refLogp.mul(packed.mask).sum(1) as tf.Tensor1D;
        const pick = (xs: tf.Tensor1D, idx: number[]) => tf.matMul(tf.oneHot(tf.tensor1d(idx, "int32"), rows.length).toFloat(), xs.reshape([-1, 1])).reshape([-1]) as tf.Tensor1D;
        const ch = pairs.map((p) => p.chosen);
        const rj = pairs.map((p) => p.rejected);
        chosen.push(pick(seqLogp, ch)), rejected.push(pick(seqLogp, rj)), refChosen.push(pick(refSeq, ch)), refRejected.push(pick(refSeq, rj));
      }
      if (rdC && rdR && refReplay) {
        chosen.push(seqLogps(policy, rdC)), rejected.push(seqLogps(policy, rdR)), refChosen.push(refReplay[0]), refRejected.push(refReplay[1]);
      }
      if (chosen.length) {
        const r = dpoLoss({ policyChosenLogps: tf.concat(chosen), policyRejectedLogps: tf.concat(rejected), refChosenLogps: tf.concat(refChosen), refRejectedLogps: tf.concat(refRejected), beta: c.dpo.beta });
        dpo = r.loss;
        channels.dpo = r.loss.dataSync()[0]!;
      }
      return composeLoss({ grpo: pg.loss, ...(sdpo ? { sdpo } : {}), ...(dpo ? { dpo } : {}) }, w);
    }, policy.variables());
    const grad_norm = clipGrads(grads, c.grad_clip);
    optimizer.applyGradients(grads);

    const total = value.dataSync()[0]!;
    const tokens = packed.tokens + (tPacked?.tokens ?? 0) + outs.reduce((n, o) => n + o.ids.length, 0);
    tf.dispose([value, ...Object.values(grads), advantages, ...(refLogp ? [refLogp] : []), ...(teacherLogits ? [teacherLogits] : []), ...(rowSelect ? [rowSelect] : [])]);
    disposePacked(packed);
    if (tPacked) disposePacked(tPacked);
    for (const pk of [rsS, rsT, rdC, rdR]) if (pk) disposePacked(pk);
    tf.dispose([...(rsTeacher ? [rsTeacher] : []), ...(refReplay ?? [])]);
    const metrics: StepMetrics = {
      step, phase: "rl", rollouts: 0, reward_mean: mean(rewards), reward_std: std(rewards), valid_rate: mean(grades.map((g) => (g.valid_call ? 1 : 0))),
      loss_total: total, loss_lm_ce: null, loss_grpo: channels.grpo ?? null, loss_sdpo: channels.sdpo ?? null, loss_dpo: channels.dpo ?? null,
      sdpo_rows: sdpoIdx.length + replaySdpo.length, hint_layers: layers, shift_kl: shift, clipped_fraction: clippedFraction, clip_ratio: clipRatio, kl,
      entropy: ent, grad_norm, tokens_per_s: 0, elapsed_s: 0,
    };
    return { metrics, tokens };
  }
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
  return {
    ...c,
    ...(c.init_from ? { init_from: here(c.init_from) } : {}),
    sft: { ...c.sft, ...(c.sft.data ? { data: here(c.sft.data) } : {}) },
    sdpo: { ...c.sdpo, ...(c.sdpo.data ? { data: here(c.sdpo.data) } : {}) },
    dpo: { ...c.dpo, ...(c.dpo.data ? { data: here(c.dpo.data) } : {}) },
  };
}
