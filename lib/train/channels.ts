/**
 * The loss channels, one registry entry each: its name, its weight's default, its config section, the
 * rows it needs, its loss (a named pure function of losses.ts, which cites the paper's equation) and its
 * metrics. The RL step (trainer.ts) loops over the enabled entries in registry order:
 *
 *   rows(ctx, cfg)        outside the gradient tape: the channel's rows, online (from the step's graded
 *                         groups) and replayed (from its data file), packed, with the constants the loss
 *                         reads (reference log-probs, teacher logits); may draw from the step's rng
 *   loss(ctx, batch, cfg) inside the tape: the loss on the batch, and the metric values read off it
 *   composeLoss           total = blend(w_grpo·L_grpo, L_sdpo) + Σ_additive w_c·L_c
 *
 * What derives from the registry: `LossWeights` (one weight per channel, its default from the entry),
 * the TrainConfig sections the channels own (rl, sdpo, dpo; channelSections), and the StepMetrics fields
 * (`loss_<name>` per channel and each channel's own metrics; channelMetricFields). Adding a channel is
 * one entry here (its loss a pure function in losses.ts); docs/contributing.md walks through one.
 *
 *   grpo   the policy-gradient loss on the step's rollouts (GRPO / Dr.GRPO / DAPO); always computed in
 *          the RL step (its clip ratio, KL and entropy are the step's diagnostics), weight 1 by default
 *   sdpo   self-distillation towards the hinted teacher (SDPO / OPSD), blended with grpo by sdpo_blend
 *   dpo    DPO on in-group pairs and replayed trace pairs
 *   lm_ce  token cross-entropy on demonstrations drawn as SFT draws them (the SFT phase is lm_ce alone at
 *          weight 1; loss_weights.lm_ce weights it during RL, an anchor on the SFT tasks)
 *
 * The world-model head (world_model.ts) is not a channel: it has its own parameters and its own step
 * after the trainer's, so its loss never enters this total (StepMetrics.loss_wm reports it).
 */
import { z } from "zod";
import { tf } from "../backend/index.js";
import type { DpoPair, SdpoRow, Seq } from "../collate/index.js";
import type { Rng } from "../core/index.js";
import type { EnvTask, Environment } from "../env/index.js";
import { HintsConfig, type LayeredHintGenerator } from "../hints/index.js";
import {
  DpoConfig, PolicyGradientConfig, ScaleRewards, SdpoBlend, SdpoConfig, blendPolicyDistillation, dpoLoss, entropy, groupAdvantages, policyGradientLoss, sdpoLoss,
  sftLoss, stopGradient, tokenLogprobs,
} from "./losses.js";
import type { Policy } from "./model.js";
import { completionLogits, disposePacked, packRows, type Packed } from "./pack.js";
import {
  completionIds, dpoSeqs, groupPairs, repromptMetrics, sdpoSeqs, sdpoSites, toSeq, type RepromptCounts, type RepromptOptions, type Rollout, type SdpoSite,
} from "./rollout.js";

// ---------------------------------------------------------------------------------------------
// The channels' config sections
// ---------------------------------------------------------------------------------------------

/**
 * The RL phase (the grpo channel's section): sampling and optimiser settings, plus the policy-gradient
 * loss's own config (PolicyGradientConfig: epsilon, epsilon_high, beta, loss_type — its defaults, not
 * restated here). max_completion_length is TRL's name for the generation budget; dr_grpo also normalises by it.
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
  /** Added to the run seed to seed the RL sampling stream (0: the run's own stream). Another offset
   *  from the same SFT checkpoint is a comparison's null arm: the same recipe, other rollouts. */
  sampling_seed_offset: z.number().int().default(0),
});
export type RlConfig = z.infer<typeof RlConfig>;

/**
 * The SDPO channel: the loss's own config (SdpoConfig: distillation_mode, distillation_alpha,
 * distillation_topk, distillation_topk_support, distillation_add_tail, distillation_kl_clip[_scope])
 * plus who the teacher is and what it is shown, named as TRL's SDPOConfig names them
 * (trl/experimental/sdpo/sdpo_config.py; the defaults are TRL's). Its weight is loss_weights.sdpo
 * (TRL distillation_weight), blended by loss_weights.sdpo_blend.
 *
 * What the teacher sees at each rollout (rollout.ts teacherHint; each SDPO row records its source):
 *   1. a successful sibling (use_successful_as_teacher): another rollout of the same group with reward
 *      ≥ success_reward_threshold, shown as the correct solution (source "sibling"); with
 *      dont_reprompt_on_self_success a rollout is never shown its own success;
 *   2. environment feedback (include_environment_feedback): the grade's error text, e.g. the failing
 *      assertion (source "feedback"; with a sibling too, "sibling+feedback"), unless
 *      environment_feedback_only_without_solution and a sibling was found;
 *   3. otherwise, at a failed rollout, the lab's hint layers (`hints`; source = the layer that fired).
 *      `hints: null` leaves only 1 and 2, the references' behaviour.
 * A rollout none of these speaks to gets no SDPO row.
 */
export const SdpoChannelConfig = SdpoConfig.extend({
  /** ema (TRL's default): an exponential average of the weights, updated by teacher_update_rate every
   *  teacher_sync_steps; base: the post-SFT weights, frozen; live: the current weights. */
  teacher_model_kind: z.enum(["live", "ema", "base"]).default("ema"),
  teacher_update_rate: z.number().min(0).max(1).default(0.05),
  teacher_sync_steps: z.number().int().positive().default(1),
  use_successful_as_teacher: z.boolean().default(true),
  success_reward_threshold: z.number().default(1),
  dont_reprompt_on_self_success: z.boolean().default(true),
  include_environment_feedback: z.boolean().default(false),
  environment_feedback_only_without_solution: z.boolean().default(false),
  /** TRL max_reprompt_len (SDPOConfig, default 10240): the teacher prompt's length cap in tokens, met by
   *  shortening the hint first (rollout.ts hintedPromptIds); the block size caps it too. */
  max_reprompt_len: z.number().int().positive().default(10240),
  /** The lab's hint layers, tried in order at a failed rollout neither a sibling nor the feedback
   *  covers (any lib/hints layer, judge and introspection included; an introspection layer with
   *  backend "policy" critiques with the policy being trained). Hint-conditioned SFT draws its hints
   *  from the feedback (include_environment_feedback) or, else, from these. null: none. The sibling
   *  layer here asks for 0.99 (a sibling that passed outright), above the layer's own default
   *  (lib/hints SIBLING_THRESHOLD, any reward above 0): a partial-credit sibling is not a solution to show. */
  hints: HintsConfig.nullable().default({ layers: [{ type: "template" }, { type: "raw_error" }, { type: "sibling", threshold: 0.99 }] }),
  /** Pre-flight gap check before the first RL step (trainer.ts gapCheck): training tasks sampled,
   *  student vs hinted teacher; 0 = off. */
  gap_check_tasks: z.number().int().min(0).default(8),
  /** Offline SDPO rows from traces (lib/collate SdpoRow JSONL), replayed alongside the on-policy ones. */
  data: z.string().optional(),
  rows_per_step: z.number().int().min(0).default(4),
});
export type SdpoChannelConfig = z.infer<typeof SdpoChannelConfig>;

/** The DPO channel: DpoConfig (beta: TRL DPOConfig.beta, the KL coefficient of the objective DPO solves) plus replay data. */
export const DpoChannelConfig = DpoConfig.extend({
  /** Trace-replay pairs (lib/collate DpoPair JSONL), replayed alongside the in-group pairs. */
  data: z.string().optional(),
  pairs_per_step: z.number().int().min(0).default(4),
});
export type DpoChannelConfig = z.infer<typeof DpoChannelConfig>;

/** The reprompting fields of the SDPO channel (rollout.ts teacherHint). */
export const repromptOptions = (c: SdpoChannelConfig): RepromptOptions => ({
  use_successful_as_teacher: c.use_successful_as_teacher, success_reward_threshold: c.success_reward_threshold,
  dont_reprompt_on_self_success: c.dont_reprompt_on_self_success, include_environment_feedback: c.include_environment_feedback,
  environment_feedback_only_without_solution: c.environment_feedback_only_without_solution,
  max_reprompt_len: c.max_reprompt_len,
});

/** The policies a step can read: the one being trained, the post-SFT copy (`base`, when kept) and the EMA teacher (when kept). */
export interface StepPolicies {
  policy: Policy;
  base: Policy | null;
  ema: Policy | null;
}

/** The SDPO teacher sdpo.teacher_model_kind names: the policy itself (live), its EMA copy, or the frozen post-SFT weights (base). */
export function sdpoTeacher(c: Pick<SdpoChannelConfig, "teacher_model_kind">, p: StepPolicies): Policy {
  return c.teacher_model_kind === "live" ? p.policy : c.teacher_model_kind === "ema" ? p.ema! : p.base!;
}

// ---------------------------------------------------------------------------------------------
// The registry entry
// ---------------------------------------------------------------------------------------------

/** What a channel's rows and loss see of the RL step. */
export interface ChannelContext extends StepPolicies {
  env: Environment<EnvTask>;
  /** This step's graded groups: num_generations rollouts of each drawn task, in order. */
  groups: Rollout[][];
  step: number;
  /** The step's stream: replay draws and demonstration batches read it, in registry order. */
  rng: Rng;
  block_size: number;
  hints: LayeredHintGenerator | null;
  /** The RL step's logits: completion logits ÷ the sampling temperature (TRL; losses.ts temperatureScaled). */
  logits(policy: Policy, packed: Packed): tf.Tensor3D;
  /** Replayed rows from the channels' data files (sdpo.data, dpo.data), null when none. */
  replay: { sdpo: SdpoRow[] | null; dpo: DpoPair[] | null };
  /** A demonstration batch drawn as SFT draws it, from the SFT tasks (the trainer's sftRows). */
  demonstrations(): Promise<Seq[]>;
}

/** A channel's rows for one step, ready for its loss. */
export interface ChannelBatch<Rows> {
  rows: Rows;
  /** Tokens the channel's forward passes process (tokens/s). */
  tokens: number;
  /** Metric values known before the loss (row counts, who the teacher saw). */
  metrics: Record<string, number | null>;
  /** Rows per hint layer (the step's hint_layers). */
  hint_layers?: Record<string, number>;
  dispose(): void;
}

/** A channel's loss on its batch (absent when the batch has no rows) and the metric values read off it. */
export interface ChannelLoss {
  loss?: tf.Scalar;
  metrics: Record<string, number | null>;
}

/** A channel's options: the parsed config section (undefined for a channel whose section a phase owns). */
export type ChannelOptions<S> = S extends z.ZodTypeAny ? z.infer<S> : undefined;

export interface LossChannel<Section extends string, S extends z.ZodTypeAny | undefined, Rows, M extends z.ZodRawShape> {
  name: string;
  /** One line for docs and --help. */
  describe: string;
  /** Default of loss_weights[name]. */
  weight: number;
  /** How it enters the total: the policy and distillation terms are blended (sdpo_blend), the others added. */
  combine: "policy" | "distillation" | "additive";
  /** The TrainConfig section its options live in, and that section's schema (undefined: the section belongs to a phase, as sft to SFT). */
  section: Section;
  config: S;
  /** Whether the RL step computes it, given its weight (default: weight > 0). */
  enabled?(weight: number): boolean;
  /** Whether it reads the post-SFT reference policy (`base`, kept and saved once when any channel needs it). */
  needsBase?(cfg: ChannelOptions<S>, weight: number): boolean;
  /** The rows it needs (outside the tape). */
  rows(ctx: ChannelContext, cfg: ChannelOptions<S>): Promise<ChannelBatch<Rows>>;
  /** Its loss inside the tape. */
  loss(ctx: ChannelContext, batch: ChannelBatch<Rows>, cfg: ChannelOptions<S>): ChannelLoss;
  /** The StepMetrics fields it writes beside loss_<name> (zod), and their values on a step that did not compute it. */
  metrics: M;
  idle: Partial<z.infer<z.ZodObject<M>>>;
}

/** Identity with the entry's types inferred (the registry's entries are checked one by one). */
export function defineChannel<const Section extends string, S extends z.ZodTypeAny | undefined, Rows, M extends z.ZodRawShape>(entry: LossChannel<Section, S, Rows, M>): LossChannel<Section, S, Rows, M> {
  return entry;
}

const scalar = (x: tf.Scalar): number => x.dataSync()[0]!;

// ---------------------------------------------------------------------------------------------
// The registry
// ---------------------------------------------------------------------------------------------

/** The seq log-probs Σ_t log π(y_t) of each packed row (untempered, as DPO's implicit reward reads them). */
const seqLogps = (pol: Policy, pk: Packed) => tokenLogprobs(completionLogits(pol, pk), pk.targets).mul(pk.mask).sum(1) as tf.Tensor1D;

const grpo = defineChannel({
  name: "grpo",
  describe: "policy gradient on the step's rollouts (GRPO / Dr.GRPO / DAPO; losses.ts policyGradientLoss)",
  weight: 1,
  combine: "policy",
  section: "rl",
  config: RlConfig,
  enabled: () => true,
  needsBase: (c) => c.beta > 0,
  async rows(ctx, c) {
    const rollouts = ctx.groups.flat();
    const packed = packRows(rollouts.map((r) => toSeq(r.prompt_ids, completionIds(r.completion), ctx.block_size)), ctx.block_size);
    const advantages = groupAdvantages(rollouts.map((r) => r.grade.reward), c.num_generations, { scale_rewards: c.scale_rewards });
    // The reference is computed outside the tape (a constant of the loss).
    const reference = ctx.base ?? ctx.policy;
    const refLogp = c.beta > 0 ? tf.tidy(() => tokenLogprobs(ctx.logits(reference, packed), packed.targets)) : null;
    return {
      rows: { packed, advantages, refLogp }, tokens: packed.tokens + rollouts.reduce((n, r) => n + r.completion.ids.length, 0), metrics: {},
      dispose: () => { tf.dispose([advantages, ...(refLogp ? [refLogp] : [])]); disposePacked(packed); },
    };
  },
  loss(ctx, { rows: { packed, advantages, refLogp } }, c) {
    const logits = ctx.logits(ctx.policy, packed);
    const logp = tokenLogprobs(logits, packed.targets);
    // A diagnostic read off the same forward (a value only; not part of the loss).
    const ent = scalar(entropy(logits).mul(packed.mask).sum().div(packed.mask.sum().maximum(1)) as tf.Scalar);
    const pg = policyGradientLoss({
      logp, oldLogp: stopGradient(logp), advantages, mask: packed.mask, ...(refLogp ? { refLogp } : {}),
      epsilon: c.epsilon, ...(c.epsilon_high !== undefined ? { epsilon_high: c.epsilon_high } : {}),
      beta: c.beta, loss_type: c.loss_type, max_completion_length: c.max_completion_length,
    });
    return { loss: pg.loss, metrics: { clip_ratio: scalar(pg.clip_ratio), kl: pg.kl ? scalar(pg.kl) : null, entropy: ent } };
  },
  metrics: {
    /** Fraction of completion tokens in the clipped region (TRL clip_ratio/region_mean). */
    clip_ratio: z.number().nullable(),
    /** Mean k3 KL to the reference (rl.beta > 0). */
    kl: z.number().nullable(),
    /** Mean entropy of the policy's (tempered) distribution over the rollouts' completion tokens. */
    entropy: z.number().nullable(),
  },
  idle: { clip_ratio: null, kl: null, entropy: null },
});

const sdpo = defineChannel({
  name: "sdpo",
  describe: "self-distillation towards the hinted teacher on the student's own completions (SDPO / OPSD; losses.ts sdpoLoss)",
  weight: 0,
  combine: "distillation",
  section: "sdpo",
  config: SdpoChannelConfig,
  needsBase: (c) => c.teacher_model_kind !== "live",
  async rows(ctx, c) {
    const bs = ctx.block_size;
    const layers: Record<string, number> = {};
    const sites: SdpoSite[] = [];
    const counts: RepromptCounts = { rollouts: 0, success_groups: 0, with_solution: 0, feedback_available: 0, feedback_used: 0, reprompted: 0 };
    for (const group of ctx.groups) {
      const r = await sdpoSites(ctx.env, group, ctx.hints, bs, repromptOptions(c));
      sites.push(...r.sites);
      for (const [l, n] of Object.entries(r.layers)) layers[l] = (layers[l] ?? 0) + n;
      for (const k of Object.keys(counts) as (keyof RepromptCounts)[]) counts[k] += r.counts[k];
    }
    for (const row of draw(ctx.rng, ctx.replay.sdpo, c.rows_per_step)) {
      layers[`replay:${row.layer}`] = (layers[`replay:${row.layer}`] ?? 0) + 1;
      sites.push({ ...row, layer: `replay:${row.layer}` });
    }
    const seqs = sites.map((s) => sdpoSeqs(s, bs));
    const student = sites.length ? packRows(seqs.map((r) => r.student), bs) : null;
    const teacher = sites.length ? packRows(seqs.map((r) => r.teacher), bs) : null;
    // The teacher's logits are computed outside the tape (a constant of the loss).
    const teacherPolicy = sdpoTeacher(c, ctx);
    const teacherLogits = teacher ? tf.tidy(() => ctx.logits(teacherPolicy, teacher)) : null;
    return {
      rows: { student, teacher, teacherLogits, options: SdpoConfig.parse(c) }, tokens: (student?.tokens ?? 0) + (teacher?.tokens ?? 0),
      metrics: { sdpo_rows: sites.length, ...(counts.rollouts > 0 ? repromptMetrics(counts, ctx.groups.length) : {}) }, hint_layers: layers,
      dispose: () => { teacherLogits?.dispose(); disposePacked(student); disposePacked(teacher); },
    };
  },
  loss(ctx, { rows: { student: sStudent, teacher: sTeacher, teacherLogits, options } }) {
    if (!sStudent || !sTeacher || !teacherLogits) return { metrics: { shift_kl: null, teacher_student_gap: null, clipped_fraction: null } };
    const student = ctx.logits(ctx.policy, sStudent);
    const r = sdpoLoss({ studentLogits: student, teacherLogits, sampledIds: sTeacher.targets, mask: sTeacher.mask, ...options });
    const lt = tf.logSoftmax(teacherLogits);
    const nTok = sTeacher.mask.sum().maximum(1);
    const shift = scalar(tf.exp(lt).mul(lt.sub(tf.logSoftmax(student))).sum(-1).mul(sTeacher.mask).sum().div(nTok) as tf.Scalar);
    const gap = scalar(tokenLogprobs(teacherLogits, sTeacher.targets).sub(tokenLogprobs(student, sTeacher.targets)).mul(sTeacher.mask).sum().div(nTok) as tf.Scalar);
    return { loss: r.loss, metrics: { shift_kl: shift, teacher_student_gap: gap, clipped_fraction: scalar(r.clipped_fraction) } };
  },
  metrics: {
    sdpo_rows: z.number().int(),
    /** Mean KL(teacher ‖ student) per token at hinted turns: how far the hint moves the teacher. */
    shift_kl: z.number().nullable(),
    /** Mean over the SDPO rows' completion tokens of log p_T(y) − log p_S(y) (y the student's tokens,
     *  both tempered): the teacher–student gap the distillation closes (> 0: the teacher likes them more). */
    teacher_student_gap: z.number().nullable().optional(),
    /** TRL's self_distillation/* metrics (SDPOTrainer): groups with a rollout at or above
     *  success_reward_threshold, and shares of the step's rollouts that had a successful sibling,
     *  feedback available, feedback used, and any SDPO row (reprompt_sample_fraction). */
    success_group_fraction: z.number().nullable().optional(),
    success_sample_fraction: z.number().nullable().optional(),
    feedback_available_fraction: z.number().nullable().optional(),
    feedback_used_fraction: z.number().nullable().optional(),
    reprompt_sample_fraction: z.number().nullable().optional(),
    /** Fraction of the SDPO rows' tokens the distillation clip touched. */
    clipped_fraction: z.number().nullable(),
  },
  idle: { sdpo_rows: 0, shift_kl: null, clipped_fraction: null },
});

const dpo = defineChannel({
  name: "dpo",
  describe: "DPO on in-group (chosen, rejected) pairs and replayed trace pairs (losses.ts dpoLoss)",
  weight: 0,
  combine: "additive",
  section: "dpo",
  config: DpoChannelConfig,
  needsBase: (_c, weight) => weight > 0,
  async rows(ctx, c) {
    const bs = ctx.block_size;
    const pairs: Pick<DpoPair, "prompt_ids" | "chosen_ids" | "rejected_ids">[] = [
      ...ctx.groups.flatMap((g, k) => groupPairs(g, { group_id: `step-${ctx.step}-task-${k}` })),
      ...draw(ctx.rng, ctx.replay.dpo, c.pairs_per_step),
    ];
    const seqs = pairs.map((p) => dpoSeqs(p, bs));
    const chosen = pairs.length ? packRows(seqs.map((r) => r.chosen), bs) : null;
    const rejected = pairs.length ? packRows(seqs.map((r) => r.rejected), bs) : null;
    // The reference's sequence log-probs are computed outside the tape (constants of the loss).
    const reference = ctx.base ?? ctx.policy;
    const ref = chosen && rejected ? [tf.tidy(() => seqLogps(reference, chosen)), tf.tidy(() => seqLogps(reference, rejected))] as const : null;
    return {
      rows: { chosen, rejected, ref }, tokens: (chosen?.tokens ?? 0) + (rejected?.tokens ?? 0), metrics: {},
      dispose: () => { tf.dispose([...(ref ?? [])]); disposePacked(chosen); disposePacked(rejected); },
    };
  },
  loss(ctx, { rows: { chosen, rejected, ref } }, c) {
    if (!chosen || !rejected || !ref) return { metrics: {} };
    const r = dpoLoss({ policyChosenLogps: seqLogps(ctx.policy, chosen), policyRejectedLogps: seqLogps(ctx.policy, rejected), refChosenLogps: ref[0], refRejectedLogps: ref[1], beta: c.beta });
    return { loss: r.loss, metrics: {} };
  },
  metrics: {},
  idle: {},
});

const lm_ce = defineChannel({
  name: "lm_ce",
  describe: "token cross-entropy on demonstrations drawn as SFT draws them, from the SFT tasks (losses.ts sftLoss)",
  weight: 0,
  combine: "additive",
  section: "sft",
  config: undefined,
  async rows(ctx) {
    const packed = packRows(await ctx.demonstrations(), ctx.block_size);
    return { rows: packed, tokens: packed.tokens, metrics: {}, dispose: () => disposePacked(packed) };
  },
  loss(ctx, { rows: lm }) {
    return { loss: sftLoss(completionLogits(ctx.policy, lm), lm.targets, lm.mask), metrics: {} };
  },
  metrics: {},
  idle: {},
});

/** n rows drawn with replacement from the step's rng ([] when there are none, and then no draw). */
function draw<T>(rng: Rng, xs: T[] | null, n: number): T[] {
  return xs?.length ? Array.from({ length: n }, () => xs[Math.floor(rng.next() * xs.length)]!) : [];
}

/**
 * The loss channels, in the order the RL step gathers their rows and computes their losses (that
 * order fixes the step's rng draws and the gradient tape, so a new channel goes at the end).
 */
export const LOSS_CHANNELS = { grpo, sdpo, dpo, lm_ce } as const;
export type ChannelName = keyof typeof LOSS_CHANNELS;
type Entry = (typeof LOSS_CHANNELS)[ChannelName];
export const CHANNEL_NAMES = Object.keys(LOSS_CHANNELS) as ChannelName[];

// ---------------------------------------------------------------------------------------------
// What derives from the registry: the weights, the total, the config sections, the metrics
// ---------------------------------------------------------------------------------------------

/**
 * Channel weights: total = Σ_channel loss_weights[channel] · L_channel, except that the policy (grpo)
 * and distillation (sdpo) channels are blended by sdpo_blend (blendPolicyDistillation). SFT-first
 * training is lm_ce alone ({ lm_ce: 1, grpo: 0 }); GRPO + SDPO is { grpo: 1, sdpo: w } (w is TRL's
 * distillation_weight). The weights are named by channel, so no weight shares a name with a loss's own
 * options (the KL `beta` of policyGradientLoss, DPO's `beta`, `distillation_alpha`).
 */
export const LossWeights = z.object({
  ...(Object.fromEntries(Object.values(LOSS_CHANNELS).map((c) => [c.name, z.number().min(0).default(c.weight)])) as { [K in ChannelName]: z.ZodDefault<z.ZodNumber> }),
  sdpo_blend: SdpoBlend.default("convex"),
});
export type LossWeights = z.infer<typeof LossWeights>;

/** One loss per channel (a missing one counts 0). */
export type LossChannels = { [K in ChannelName]?: tf.Scalar };

const byCombine = (k: AnyChannel["combine"]) => Object.values(LOSS_CHANNELS).filter((c) => c.combine === k).map((c) => c.name as ChannelName);
const POLICY = byCombine("policy");
const DISTILLATION = byCombine("distillation");
const ADDITIVE = byCombine("additive");
if (POLICY.length !== 1 || DISTILLATION.length !== 1) throw new Error("LOSS_CHANNELS: exactly one policy and one distillation channel (sdpo_blend blends the two)");

/**
 * total = blendPolicyDistillation(w_grpo·L_grpo, L_sdpo; w_sdpo, sdpo_blend) + Σ_additive w_c·L_c (dpo,
 * lm_ce, in registry order). A missing channel counts 0; a channel whose weight is 0 is left out
 * altogether (so a NaN in an unused channel cannot leak into the total).
 */
export function composeLoss(channels: LossChannels, weights: z.input<typeof LossWeights> = {}): tf.Scalar {
  const w = LossWeights.parse(weights);
  const [p, d] = [POLICY[0]!, DISTILLATION[0]!];
  return tf.tidy(() => {
    const pl = channels[p];
    const policy = pl && w[p] !== 0 ? (tf.mul(pl, w[p]) as tf.Scalar) : undefined;
    let total = blendPolicyDistillation(policy, channels[d], w[d], w.sdpo_blend);
    for (const k of ADDITIVE) {
      const x = channels[k];
      if (x && w[k] !== 0) total = tf.add(total, tf.mul(x, w[k]));
    }
    return total;
  });
}

/** The TrainConfig sections the channels own ({ rl, sdpo, dpo }), each defaulting to its schema's defaults. */
export type ChannelSections = { [E in Entry as E["config"] extends z.ZodTypeAny ? E["section"] : never]: z.ZodDefault<Exclude<E["config"], undefined>> };
export function channelSections(): ChannelSections {
  return Object.fromEntries(Object.values(LOSS_CHANNELS).flatMap((c) => (c.config ? [[c.section, (c.config as z.AnyZodObject).default({})]] : []))) as unknown as ChannelSections;
}

type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** The StepMetrics fields the channels write: loss_<name> per channel, then each channel's own metrics. */
export type ChannelMetricFields = { [K in ChannelName as `loss_${K}`]: z.ZodNullable<z.ZodNumber> } & Merge<Entry["metrics"]>;
export function channelMetricFields(): ChannelMetricFields {
  const losses = Object.fromEntries(CHANNEL_NAMES.map((n) => [`loss_${n}`, z.number().nullable()]));
  return Object.assign(losses, ...Object.values(LOSS_CHANNELS).map((c) => c.metrics)) as ChannelMetricFields;
}

/** The channel fields of a step that computed none of them (an SFT step): loss_<name> null and each channel's idle metrics. */
export function idleChannelMetrics(): z.infer<z.ZodObject<ChannelMetricFields>> {
  return Object.assign(Object.fromEntries(CHANNEL_NAMES.map((n) => [`loss_${n}`, null])), ...Object.values(LOSS_CHANNELS).map((c) => c.idle));
}

/** A registry entry with its types erased (what the RL step loops over). */
export type AnyChannel = LossChannel<string, z.ZodTypeAny | undefined, unknown, z.ZodRawShape>;

/**
 * Every channel with its options (its section of the train config), its weight and whether the RL step
 * computes it, in registry order. `config` is a parsed TrainConfig (structurally: this module sits
 * below config.ts, which derives its sections from the registry).
 */
export function enabledOrNot(config: { loss_weights: LossWeights }): { ch: AnyChannel; cfg: unknown; weight: number; enabled: boolean }[] {
  const w = config.loss_weights;
  return Object.values(LOSS_CHANNELS).map((c) => ({
    ch: c as AnyChannel,
    cfg: (config as unknown as Record<string, unknown>)[c.section],
    weight: w[c.name as ChannelName],
    enabled: c.enabled ? c.enabled(w[c.name as ChannelName]) : w[c.name as ChannelName] > 0,
  }));
}
