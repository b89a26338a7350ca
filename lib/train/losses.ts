/**
 * The training losses as pure functions over tf tensors: no variables, no side effects; each returns
 * its tensors (the caller disposes them, or calls inside tf.tidy / tf.grad). Read top to bottom:
 *
 *   helpers        offTape, stopGradient, maskedMean, tokenLogprobs, entropy, temperatureScaled
 *   RL             groupAdvantages → klK3 → policyGradientLoss   (GRPO / Dr.GRPO / DAPO, as TRL)
 *   distillation   generalizedJsd → sdpoLoss                     (SDPO / OPSD self-distillation, as TRL)
 *   preferences    dpoLoss                                        (trace-replay DPO)
 *   supervised     sftLoss                                        (the lm_ce channel)
 *   blend          blendPolicyDistillation                        (TRL's (1 − w)·policy + w·distillation, or additive)
 *
 * The channels these losses are computed in (their rows, weights, metrics, and the total composeLoss)
 * are channels.ts's registry.
 *
 * Shapes: B sequences × T completion positions × V vocabulary. Every [B, T] `mask` is 1 on completion
 * tokens and 0 on padding. Option names follow TRL and the papers. Each loss is checked, value and
 * gradient, against values and central finite-difference gradients (float64) of the papers'
 * equations written out in numpy (test/fixtures/make_loss_fixtures.py).
 */
import { z } from "zod";
import { tf } from "../backend/index.js";
import { fusedOps } from "./ops.js";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/**
 * fn(x) computed off the gradient tape, with zero gradient back to x. The ops inside a tf.customGrad
 * forward are not recorded, so fn may use ops tfjs cannot differentiate (topk, comparisons) even when
 * x depends on the variables being differentiated.
 */
export function offTape<T extends tf.Tensor>(x: tf.Tensor, fn: (x: tf.Tensor) => T): T {
  const shape = x.shape;
  const op = tf.customGrad((...inputs) => ({
    value: fn(inputs[0] as tf.Tensor),
    gradFunc: () => tf.zeros(shape),
  }));
  return op(x) as T;
}

/** x with no gradient flowing back into it (torch `x.detach()`; tfjs has no tf.stopGradient). */
export function stopGradient<T extends tf.Tensor>(x: T): T {
  return offTape(x, (v) => v.clone() as T);
}

const asFloat = (x: tf.Tensor): tf.Tensor => (x.dtype === "float32" ? x : tf.cast(x, "float32"));
const asInt = (x: tf.Tensor): tf.Tensor => (x.dtype === "int32" ? x : tf.cast(x, "int32"));

/** sum(x·mask) / max(sum(mask), 1): the mean over completion tokens (0 when there are none). */
export function maskedMean(x: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.tidy(() => {
    const m = asFloat(mask);
    return tf.div(tf.sum(tf.mul(x, m)), tf.maximum(tf.sum(m), 1)) as tf.Scalar;
  });
}

/**
 * logits [B, T, V], ids [B, T] → log p(ids) [B, T]: log-softmax gathered at ids. The gather is
 * oneHot·sum, not tf.gather: the wasm backend has no gradient for gather (UnsortedSegmentSum).
 */
export function tokenLogprobs(logits: tf.Tensor3D, ids: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => fusedOps().tokenLogprobs(logits, asInt(ids)) as tf.Tensor2D); // logSoftmax · oneHot (fused on torch)
}

/** logits [B, T, V] → entropy −Σ p log p of each position's distribution [B, T]. */
export function entropy(logits: tf.Tensor3D): tf.Tensor2D {
  return tf.tidy(() => {
    const logp = tf.logSoftmax(logits);
    return tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), -1)) as tf.Tensor2D;
  });
}

/**
 * logits / temperature: the logits of the distribution the rollouts were sampled from. TRL's
 * GRPOTrainer and SDPOTrainer divide the model's logits by the sampling temperature before every
 * log-softmax of the RL step (SDPOTrainer._forward_logits: `return logits / self.temperature`), for the
 * policy's, the reference's, the student's and the teacher's alike, so the ratio, the KL and the
 * distillation divergence are all between tempered distributions: p_τ(v) = softmax(z / τ)_v.
 * temperature 0 (greedy sampling) has no such distribution and leaves the logits as they are.
 */
export function temperatureScaled<T extends tf.Tensor>(logits: T, temperature: number): T {
  if (!(temperature >= 0) || !Number.isFinite(temperature)) throw new Error(`temperatureScaled: temperature must be a finite number ≥ 0, got ${temperature}`);
  if (temperature === 0 || temperature === 1) return logits;
  return tf.div(logits, temperature) as T;
}

// ---------------------------------------------------------------------------------------------
// RL: group-relative advantages and the clipped policy-gradient loss
// ---------------------------------------------------------------------------------------------

export const ScaleRewards = z.enum(["group", "none"]);
export type ScaleRewards = z.infer<typeof ScaleRewards>;

/**
 * Group-relative advantages, GRPO outcome supervision (DeepSeekMath arXiv:2402.03300 §4.1.2):
 * Â_i = (r_i − mean(r_group)) / (std(r_group) + 1e-4). rewards are laid out as consecutive groups of
 * num_generations completions of one prompt. The std is the unbiased (ddof = 1) estimator: TRL's
 * GRPOTrainer uses torch's `.std()`, which is Bessel-corrected, and adds 1e-4. scale_rewards "none"
 * keeps only the mean-centering: Dr.GRPO ("Understanding R1-Zero-Like Training", arXiv:2503.20783)
 * drops the std division, whose question-level difficulty bias up-weights too easy or too hard groups.
 */
export function groupAdvantages(rewards: number[] | tf.Tensor1D, num_generations: number, opts: { scale_rewards: ScaleRewards }): tf.Tensor1D {
  const n = Array.isArray(rewards) ? rewards.length : rewards.shape[0];
  const G = num_generations;
  if (!Number.isInteger(G) || G < 1 || n % G !== 0) throw new Error(`groupAdvantages: ${n} rewards do not split into groups of num_generations=${G}`);
  if (opts.scale_rewards === "group" && G < 2) throw new Error("groupAdvantages: scale_rewards 'group' needs num_generations ≥ 2 (the unbiased std of one sample is undefined)");
  return tf.tidy(() => {
    const r = tf.reshape(Array.isArray(rewards) ? tf.tensor1d(rewards, "float32") : asFloat(rewards), [-1, G]);
    const centered = tf.sub(r, tf.mean(r, 1, true));
    let adv = centered;
    if (opts.scale_rewards === "group") {
      const std = tf.sqrt(tf.div(tf.sum(tf.square(centered), 1, true), G - 1));
      adv = tf.div(centered, tf.add(std, 1e-4));
    }
    return tf.reshape(adv, [-1]) as tf.Tensor1D;
  });
}

/**
 * Per-token k3 estimator of KL(π_θ ‖ π_ref) (Schulman, "Approximating KL divergence", 2020; DeepSeekMath
 * Eq. 4): exp(ref − logp) − (ref − logp) − 1. Unbiased, always ≥ 0, low variance. logp, refLogp are
 * the per-token log-probs of the sampled tokens.
 */
export function klK3<T extends tf.Tensor>(logp: T, refLogp: tf.Tensor): T {
  return tf.tidy(() => {
    const d = tf.sub(refLogp, logp);
    return tf.sub(tf.sub(tf.exp(d), d), 1) as T;
  });
}

export const LossType = z.enum(["grpo", "dr_grpo", "dapo"]);
export type LossType = z.infer<typeof LossType>;

/** Options of the clipped policy-gradient loss, named as TRL's GRPOConfig names them. */
export const PolicyGradientConfig = z.object({
  /** PPO clip range: the ratio is clipped to [1 − epsilon, 1 + epsilon_high]. */
  epsilon: z.number().min(0).default(0.2),
  /** DAPO clip-higher upper range (DAPO uses 0.28); defaults to epsilon. */
  epsilon_high: z.number().min(0).optional(),
  /** Weight of the k3 KL penalty to the reference policy; 0 drops it (Dr.GRPO, DAPO). */
  beta: z.number().min(0).default(0),
  loss_type: LossType.default("dapo"),
  /** The generation budget; dr_grpo divides by B · max_completion_length. */
  max_completion_length: z.number().int().positive().optional(),
});
export type PolicyGradientConfig = z.infer<typeof PolicyGradientConfig>;

export interface PolicyGradientInputs {
  /** [B, T] log π_θ of the sampled completion tokens (the differentiable input). */
  logp: tf.Tensor2D;
  /** [B, T] log π_θ_old of the same tokens, from the sampling policy (treated as a constant). */
  oldLogp: tf.Tensor2D;
  /** [B] one advantage per completion (groupAdvantages). */
  advantages: tf.Tensor1D;
  /** [B, T] 1 on completion tokens. */
  mask: tf.Tensor2D;
  /** [B, T] log π_ref, needed when beta > 0 (a constant). */
  refLogp?: tf.Tensor2D;
}

export interface PolicyGradientOutput {
  loss: tf.Scalar;
  /** Fraction of completion tokens whose ratio sits in the clipped region (TRL's clip_ratio/region_mean). */
  clip_ratio: tf.Scalar;
  /** Mean k3 KL to the reference over completion tokens, when refLogp is given. */
  kl?: tf.Scalar;
}

/**
 * The clipped surrogate of GRPO (DeepSeekMath arXiv:2402.03300 Eq. 3, its gradient Eq. 21), per token:
 *
 *   ratio = exp(logp − oldLogp)
 *   l_t   = −min(ratio·Â, clip(ratio, 1 − ε, 1 + ε_high)·Â) + β·k3_t
 *
 * aggregated exactly as TRL GRPOTrainer._compute_loss does for each loss_type:
 *   "grpo":    mean over each sequence's completion tokens, then mean over the B sequences (Eq. 3's
 *              1/|o_i| — biased towards short correct and long wrong answers, per Dr.GRPO);
 *   "dr_grpo": Σ masked l_t / (B · max_completion_length) (arXiv:2503.20783: a constant normaliser);
 *   "dapo":    Σ masked l_t / number of completion tokens (DAPO arXiv:2503.14476 Eq. 8, token-level
 *              loss; with epsilon_high its clip-higher).
 * oldLogp, refLogp and advantages pass through stopGradient, so on-policy callers may hand logp itself
 * as oldLogp: the ratio is then exactly 1 and the gradient is Â·∇logp, as in TRL (old = logp.detach()).
 */
export function policyGradientLoss(args: PolicyGradientInputs & z.input<typeof PolicyGradientConfig>): PolicyGradientOutput {
  const { logp, oldLogp, advantages, mask, refLogp, ...options } = args;
  const { epsilon, epsilon_high, beta, loss_type, max_completion_length } = PolicyGradientConfig.parse(options);
  if (beta > 0 && !refLogp) throw new Error("policyGradientLoss: beta > 0 needs refLogp");
  if (loss_type === "dr_grpo" && max_completion_length === undefined) throw new Error("policyGradientLoss: loss_type 'dr_grpo' needs max_completion_length");
  const epsHigh = epsilon_high ?? epsilon;
  return tf.tidy(() => {
    const m = asFloat(mask);
    const A = tf.expandDims(stopGradient(asFloat(advantages)), 1); // [B, 1]
    const ratio = tf.exp(tf.sub(logp, stopGradient(oldLogp)));
    const unclipped = tf.mul(ratio, A);
    const clipped = tf.mul(tf.clipByValue(ratio, 1 - epsilon, 1 + epsHigh), A);
    let perToken = tf.neg(tf.minimum(unclipped, clipped));
    let kl: tf.Scalar | undefined;
    if (refLogp) {
      const k3 = klK3(logp, stopGradient(refLogp));
      if (beta !== 0) perToken = tf.add(perToken, tf.mul(k3, beta));
      kl = maskedMean(stopGradient(k3), m);
    }
    const summed = tf.mul(perToken, m);
    let loss: tf.Scalar;
    if (loss_type === "grpo") loss = tf.mean(tf.div(tf.sum(summed, 1), tf.maximum(tf.sum(m, 1), 1)));
    else if (loss_type === "dr_grpo") loss = tf.div(tf.sum(summed), logp.shape[0] * max_completion_length!);
    else loss = tf.div(tf.sum(summed), tf.maximum(tf.sum(m), 1));
    // TRL's region clip: the clip binds (zero gradient) only when it limits the objective in Â's direction.
    const isLow = tf.logicalAnd(tf.less(ratio, 1 - epsilon), tf.less(A, 0));
    const isHigh = tf.logicalAnd(tf.greater(ratio, 1 + epsHigh), tf.greater(A, 0));
    const clip_ratio = maskedMean(tf.cast(tf.logicalOr(isLow, isHigh), "float32"), m);
    return kl ? { loss, clip_ratio, kl } : { loss, clip_ratio };
  });
}

// ---------------------------------------------------------------------------------------------
// Self-distillation: student vs a stop-gradient teacher on the student's own completions
// ---------------------------------------------------------------------------------------------

/**
 * Pointwise generalized JSD terms [.., V] between student and teacher log-probs, in the convention of
 * TRL's GKDTrainer.generalized_jsd_loss (GKD arXiv:2306.13649 Eq. 1; the same code sits in OPSD's
 * trainer and SDPO's reference): with mixture m = alpha·p_T + (1 − alpha)·p_S,
 *   JSD_alpha = alpha·KL(p_T ‖ m) + (1 − alpha)·KL(p_S ‖ m),
 * and the endpoints taken as TRL special-cases them: alpha = 0 is the forward KL(p_T ‖ p_S), alpha = 1
 * the reverse KL(p_S ‖ p_T). Summing over the last axis gives the per-token divergence.
 */
export function generalizedJsd(studentLogp: tf.Tensor, teacherLogp: tf.Tensor, alpha: number): tf.Tensor {
  if (!(alpha >= 0 && alpha <= 1)) throw new Error(`generalizedJsd: alpha must lie in [0, 1], got ${alpha}`);
  return tf.tidy(() => {
    const kl = (logP: tf.Tensor, logQ: tf.Tensor) => tf.mul(tf.exp(logP), tf.sub(logP, logQ)); // pointwise KL(P‖Q)
    if (alpha === 0) return kl(teacherLogp, studentLogp);
    if (alpha === 1) return kl(studentLogp, teacherLogp);
    // log m by logsumexp: stable where either distribution is tiny
    const logM = tf.logSumExp(tf.stack([tf.add(studentLogp, Math.log1p(-alpha)), tf.add(teacherLogp, Math.log(alpha))]), 0);
    return tf.add(tf.mul(kl(teacherLogp, logM), alpha), tf.mul(kl(studentLogp, logM), 1 - alpha));
  });
}

export const DistillationMode = z.enum(["sampled_token", "full_logits", "topk_logits"]);
export type DistillationMode = z.infer<typeof DistillationMode>;

/**
 * Options of the self-distillation loss, named as TRL's SDPOConfig / SelfDistillationConfig
 * (trl/experimental/sdpo, trl/experimental/self_distillation) name them.
 */
export const SdpoConfig = z.object({
  /**
   * sampled_token: the reverse KL estimated on the sampled token (SDPO's and TRL's default);
   * full_logits: generalised JSD over the whole vocabulary; topk_logits: the same on a top-k support.
   */
  distillation_mode: DistillationMode.default("sampled_token"),
  /**
   * Divergence interpolation, the SDPO/SDFT convention (TRL `distillation_alpha`): 0 forward
   * KL(p_T‖p_S), 0.5 symmetric JSD, 1 reverse KL(p_S‖p_T). TRL SDPOConfig's default 1.0;
   * sampled_token is defined only at 1 (the reverse KL).
   */
  distillation_alpha: z.number().min(0).max(1).default(1),
  /**
   * Support size of topk_logits (TRL `distillation_topk`, 100 there for a ~152k-entry vocabulary).
   * The lab's byte vocabulary has 257 entries and its policy puts nearly all mass on a handful of
   * bytes, so 20 entries cover the distribution's bulk; clamped to V.
   */
  distillation_topk: z.number().int().positive().default(20),
  /** Whose top-k defines the support (TRL `topk_support`): SDPO's convention is the student's. */
  distillation_topk_support: z.enum(["student", "teacher"]).default("student"),
  /**
   * Add a tail bucket holding each side's leftover mass 1 − P_topk (TRL `distillation_add_tail`), so
   * the divergence approximates the full-vocabulary one; false renormalises over the k tokens (the
   * divergence of the top-k conditionals, OPSD's --top_k_loss).
   */
  distillation_add_tail: z.boolean().default(true),
  /**
   * Cap on each divergence term (TRL `distillation_kl_clip`; OPSD `--jsd_token_clip`), null = off.
   * Not defined for sampled_token: none of the references clip that mode. See sdpoLoss for its scale.
   */
  distillation_kl_clip: z.number().positive().nullable().default(null),
  /**
   * Where the cap applies: "token" (TRL compute_divergence) on each position's divergence, summed over
   * the vocabulary; "vocab" (OPSD opsd_trainer.py) on each vocabulary entry's pointwise term before the sum.
   */
  distillation_kl_clip_scope: z.enum(["token", "vocab"]).default("token"),
  /**
   * Importance-sampling correction of the distillation loss (TRL SDPOConfig `distillation_is_clip`,
   * default 2.0; trl/experimental/sdpo/loss_utils.py apply_importance_sampling_clipping): each token's
   * loss is multiplied by the detached ratio min(π_θ(y_t)/π_old(y_t), c), the log-ratio first clamped to
   * [−20, 20], where π_old is the policy that sampled the rollout (sdpoLoss `oldLogp`). null: off. It
   * applies only where the rollout policy differs from the current one: TRL passes no old log-probs
   * when each batch of rollouts gets one update, and neither does this trainer (one update per RL step,
   * ratio ≡ 1), so in the lab's RL step it is a no-op unless a caller passes `oldLogp`.
   */
  distillation_is_clip: z.number().positive().nullable().default(2),
});
export type SdpoConfig = z.infer<typeof SdpoConfig>;

/** SdpoConfig with the combinations the references refuse rejected (TRL SDPOConfig.__post_init__). */
export function parseSdpoConfig(options: z.input<typeof SdpoConfig>): SdpoConfig {
  const c = SdpoConfig.parse(options);
  if (c.distillation_mode === "sampled_token" && c.distillation_alpha !== 1) {
    throw new Error(`sdpo: distillation_mode sampled_token is the reverse KL and needs distillation_alpha 1 (got ${c.distillation_alpha}); use full_logits or topk_logits for other divergences`);
  }
  if (c.distillation_mode === "sampled_token" && c.distillation_kl_clip !== null) {
    throw new Error("sdpo: distillation_kl_clip is not defined for distillation_mode sampled_token (no reference clips it: a clipped token gets zero gradient, which removes the push-down of the sampled token)");
  }
  if (c.distillation_kl_clip !== null && c.distillation_kl_clip_scope === "vocab" && !(c.distillation_alpha > 0 && c.distillation_alpha < 1)) {
    throw new Error(`sdpo: distillation_kl_clip_scope vocab needs 0 < distillation_alpha < 1 (got ${c.distillation_alpha}): at the KL endpoints the per-entry terms p·log(p/q) are signed, and capping only the positive ones reverses the gradient on the very entries the teacher disagrees about`);
  }
  return c;
}

export interface SdpoInputs {
  /** [B, T, V] student logits on the completion positions (the differentiable input). */
  studentLogits: tf.Tensor3D;
  /** [B, T, V] teacher logits on the same positions (stop-gradient inside the loss). */
  teacherLogits: tf.Tensor3D;
  /** [B, T] int32: the tokens the student sampled. */
  sampledIds: tf.Tensor2D;
  /** [B, T] 1 on completion tokens. */
  mask: tf.Tensor2D;
  /**
   * [B, T] log-probs of `sampledIds` under the policy that sampled them (TRL old_per_token_logps, on the
   * same temperature-scaled logits as the student's); with distillation_is_clip set, the per-token loss
   * is weighted by the clipped importance ratio. Absent: no correction (TRL's behaviour without them).
   */
  oldLogp?: tf.Tensor2D;
}

export interface SdpoOutput {
  loss: tf.Scalar;
  /** [B, T] per-token divergence before any clip (sampled_token: d_t), 0 on padding. */
  per_token: tf.Tensor2D;
  /** Fraction of completion tokens the clip touched (0 when the clip is off). */
  clipped_fraction: tf.Scalar;
}

/**
 * log of the leftover mass of a top-k support: log Σ_{v ∉ K} p(v) = log(1 − P_topk), from the full
 * log-probs [.., V] and the support's multi-hot [.., V] (a logsumexp over the other entries: exact
 * where 1 − P_topk is tiny, unlike log(1 − Σ p)).
 */
function tailLogprob(logp: tf.Tensor, support: tf.Tensor): tf.Tensor {
  return tf.logSumExp(tf.add(logp, tf.mul(support, -1e9)), -1, true);
}

/**
 * Self-distillation loss of SDPO ("Reinforcement Learning via Self-Distillation", Hübotter et al.,
 * arXiv:2601.20802) and OPSD ("Self-Distilled Reasoner", arXiv:2601.18734): the student on its own
 * completion is pulled towards the teacher — the same model given privileged context (a hint, the
 * environment's feedback, a successful attempt). The teacher passes through stopGradient, so no
 * gradient reaches it even if its logits were computed inside the tape. Aggregate: mean over
 * completion tokens.
 *
 * "sampled_token" (SDPO's default; TRL compute_sampled_token_self_distillation_loss): the reverse
 *   KL(p_S ‖ p_T) on the sampled token y_t ~ p_S. Its gradient is
 *     ∇ KL(p_S‖p_T) = E_{y~p_S}[(log p_S(y) − log p_T(y)) · ∇ log p_S(y)]
 *   (the E[∇ log p_S] term is zero), so the per-token surrogate is sg(d_t) · log p_S(y_t) with
 *   d_t = log p_S(y_t) − sg(log p_T(y_t)): the log-ratio detached times the student log-prob, exactly
 *   TRL's `log_ratio.detach() * student_per_token_logps`. A token the teacher finds less likely than
 *   the student (d_t > 0) is pushed down in proportion to d_t; one it finds more likely is pushed up.
 *   No clip: none of the references clip this mode (clipping d_t from above would remove exactly the
 *   push-down of the wrong token the hint exists to give). Value reported: d_t (a per-token KL
 *   estimate, comparable with the other modes); gradient sg(d_t)·∇ log p_S(y_t).
 * "full_logits": the generalised JSD (generalizedJsd, GKD Eq. 1 in SDPO's convention) over the whole
 *   vocabulary at each position (TRL compute_full_logit_self_distillation_loss).
 * "topk_logits" (TRL compute_topk_self_distillation_loss): the same on the top-k entries of the
 *   student (default; SDPO's convention) or the teacher (distillation_topk_support), the other side's
 *   probabilities read at those entries. With distillation_add_tail (default) each side gets one more
 *   category holding its leftover mass 1 − P_topk, so both are proper distributions over k + 1
 *   categories; without it both are renormalised over the k entries (OPSD's --top_k_loss). The
 *   support is a non-differentiable selection (a constant for the gradient).
 *
 * Importance sampling (TRL `distillation_is_clip`, lasgroup `is_clip`; with `oldLogp` only): each
 *   token's loss (sampled_token: its surrogate, so value and gradient alike) is multiplied by the
 *   detached w_t = min(exp(clamp(log π_θ(y_t) − log π_old(y_t), −20, 20)), c), before the mean. The
 *   trainer takes one update per batch of rollouts and passes no oldLogp (w ≡ 1, as TRL then); a
 *   caller that reuses rollouts across updates passes them. `per_token` stays the uncorrected divergence.
 * Clip (distillation_kl_clip, off by default): min(term, c), so a capped term contributes the
 *   constant c and no gradient. Scope "token" (TRL) caps each position's divergence summed over the
 *   vocabulary; "vocab" (OPSD's --jsd_token_clip = 0.05) caps each vocabulary entry's pointwise term.
 *   Scale: for 0 < α < 1 each pointwise term is ≥ 0 (log-sum inequality) and at most
 *   m(v)·log(1/min(α, 1 − α)) where m = α p_T + (1 − α) p_S (at α = 0.5: ≤ ln 2 · m(v)), so a
 *   per-entry cap c binds only at entries holding mixture mass ≥ c / ln 2 (≈ 0.07 for c = 0.05), at
 *   most ln 2 / c ≈ 14 of them whatever V is. On a 152k-entry vocabulary with a spread-out
 *   distribution that is a few outlier entries; on the lab's 257-entry byte vocabulary, where the
 *   policy puts most mass on 1–3 bytes, it is the very entries the hint disagrees about, and their
 *   terms lose their gradient — the teacher's preferred token and the student's wrong one. A
 *   token-scope cap c binds on positions whose whole divergence exceeds c (JSD at α = 0.5 ≤ ln 2).
 */
export function sdpoLoss(args: SdpoInputs & z.input<typeof SdpoConfig>): SdpoOutput {
  const { studentLogits, teacherLogits, sampledIds, mask, oldLogp, ...options } = args;
  const c = parseSdpoConfig(options);
  const clip = c.distillation_kl_clip;
  return tf.tidy(() => {
    const m = asFloat(mask);
    const teacher = stopGradient(teacherLogits);
    // TRL apply_importance_sampling_clipping: a detached per-token weight, or none.
    const isWeight = c.distillation_is_clip !== null && oldLogp
      ? stopGradient(tf.minimum(tf.exp(tf.clipByValue(tf.sub(tokenLogprobs(studentLogits, sampledIds), oldLogp), -20, 20)), c.distillation_is_clip))
      : null;
    const corrected = (perToken: tf.Tensor) => (isWeight ? tf.mul(perToken, isWeight) : perToken);

    if (c.distillation_mode === "sampled_token") {
      const lpS = tokenLogprobs(studentLogits, sampledIds);
      const d = stopGradient(tf.sub(lpS, tokenLogprobs(teacher, sampledIds)));
      const surrogate = tf.add(d, tf.mul(d, tf.sub(lpS, stopGradient(lpS)))); // value d, gradient sg(d)·∇lpS
      return { loss: maskedMean(corrected(surrogate), m), per_token: tf.mul(d, m) as tf.Tensor2D, clipped_fraction: tf.scalar(0) };
    }

    const V = studentLogits.shape[2];
    const alpha = c.distillation_alpha;
    let logpS: tf.Tensor = tf.logSoftmax(studentLogits);
    let logpT: tf.Tensor = tf.logSoftmax(teacher);
    let pointwise: tf.Tensor; // [B, T, V'] terms that sum to the per-token divergence
    const k = Math.min(c.distillation_topk, V);
    if (c.distillation_mode === "topk_logits" && k < V) {
      // Multi-hot of the support (from oneHot, not gather: see tokenLogprobs).
      const side = c.distillation_topk_support === "student" ? studentLogits : teacher;
      const support = offTape(side, (t) => tf.sum(tf.oneHot(tf.topk(t, k).indices, V), 2));
      if (c.distillation_add_tail) {
        const onSupport = tf.mul(generalizedJsd(logpS, logpT, alpha), support); // off-support terms zeroed
        const tail = generalizedJsd(tailLogprob(logpS, support), tailLogprob(logpT, support), alpha); // [B, T, 1]
        pointwise = tf.concat([onSupport, tail], -1);
      } else {
        // Renormalise over the k entries: the other logits are pushed to −1e9, their terms zeroed.
        const offset = tf.mul(tf.sub(support, 1), 1e9);
        logpS = tf.logSoftmax(tf.add(studentLogits, offset));
        logpT = tf.logSoftmax(tf.add(teacher, offset));
        pointwise = tf.mul(generalizedJsd(logpS, logpT, alpha), support);
      }
    } else {
      pointwise = generalizedJsd(logpS, logpT, alpha);
    }
    const raw = tf.sum(pointwise, -1);

    let perToken: tf.Tensor = raw;
    let clippedTokens: tf.Tensor | null = null;
    if (clip !== null && c.distillation_kl_clip_scope === "vocab") {
      perToken = tf.sum(tf.minimum(pointwise, clip), -1);
      clippedTokens = offTape(pointwise, (p) => tf.any(tf.greater(p, clip), -1));
    } else if (clip !== null) {
      perToken = tf.minimum(raw, clip);
      clippedTokens = offTape(raw, (r) => tf.greater(r, clip));
    }
    return {
      loss: maskedMean(corrected(perToken), m),
      per_token: tf.mul(stopGradient(raw), m) as tf.Tensor2D,
      clipped_fraction: clippedTokens ? maskedMean(tf.cast(clippedTokens, "float32"), m) : tf.scalar(0),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Preferences: DPO on trace-replay pairs
// ---------------------------------------------------------------------------------------------

export const DpoConfig = z.object({
  /** Temperature of the implicit reward β·log(π/π_ref) (TRL DPOConfig.beta). */
  beta: z.number().positive().default(0.1),
});
export type DpoConfig = z.infer<typeof DpoConfig>;

export interface DpoInputs {
  /** [B] sequence log-probs (summed over completion tokens) of the chosen / rejected completions. */
  policyChosenLogps: tf.Tensor1D;
  policyRejectedLogps: tf.Tensor1D;
  /** [B] the same under the frozen reference (constants). */
  refChosenLogps: tf.Tensor1D;
  refRejectedLogps: tf.Tensor1D;
}

export interface DpoOutput {
  loss: tf.Scalar;
  /** [B] implicit rewards β·(log π − log π_ref) of chosen / rejected (constants, for logging). */
  rewards_chosen: tf.Tensor1D;
  rewards_rejected: tf.Tensor1D;
  /** Fraction of pairs with rewards_chosen > rewards_rejected. */
  accuracy: tf.Scalar;
}

/**
 * DPO (arXiv:2305.18290 Eq. 7; TRL DPOTrainer loss_type "sigmoid", no label smoothing):
 *   loss = −mean log σ(β·((log π_c − log π_ref,c) − (log π_r − log π_ref,r))).
 */
export function dpoLoss(args: DpoInputs & z.input<typeof DpoConfig>): DpoOutput {
  const { policyChosenLogps, policyRejectedLogps, refChosenLogps, refRejectedLogps, ...options } = args;
  const { beta } = DpoConfig.parse(options);
  return tf.tidy(() => {
    const chosen = tf.sub(policyChosenLogps, stopGradient(refChosenLogps));
    const rejected = tf.sub(policyRejectedLogps, stopGradient(refRejectedLogps));
    // −log σ(z) = softplus(−z). (Not tf.logSigmoid: its custom gradient closes over z without keeping
    // it, so the gradient fails once tf.tidy has disposed z.)
    const loss = tf.mean(tf.softplus(tf.neg(tf.mul(tf.sub(chosen, rejected), beta)))) as tf.Scalar;
    const rewards_chosen = tf.mul(stopGradient(chosen), beta) as tf.Tensor1D;
    const rewards_rejected = tf.mul(stopGradient(rejected), beta) as tf.Tensor1D;
    const accuracy = tf.mean(tf.cast(tf.greater(rewards_chosen, rewards_rejected), "float32")) as tf.Scalar;
    return { loss, rewards_chosen, rewards_rejected, accuracy };
  });
}

// ---------------------------------------------------------------------------------------------
// Supervised: token cross-entropy (the lm_ce channel)
// ---------------------------------------------------------------------------------------------

/**
 * Supervised fine-tuning's negative log-likelihood (the maximum-likelihood objective of language modelling;
 * TRL SFTTrainer's completion-only loss): L = −(1/N) Σ_t mask_t · log p_θ(y_t | y_<t), N = Σ_t mask_t, the
 * mean over masked (completion) tokens. logits [B, T, V], targets [B, T] int32.
 */
export function sftLoss(logits: tf.Tensor3D, targets: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => maskedMean(tf.neg(tokenLogprobs(logits, targets)), mask));
}

// ---------------------------------------------------------------------------------------------
// The policy / distillation blend (channels.ts composeLoss sums the channels with it)
// ---------------------------------------------------------------------------------------------

/**
 * How the SDPO channel enters the total. "convex" (TRL SDPOTrainer.compute_loss): (1 − w)·policy +
 * w·distillation with w = loss_weights.sdpo ∈ [0, 1] (TRL distillation_weight: 1 = pure
 * self-distillation, 0 = the policy loss alone). "additive" (the lab's earlier form): policy + w·distillation.
 */
export const SdpoBlend = z.enum(["convex", "additive"]);
export type SdpoBlend = z.infer<typeof SdpoBlend>;

/**
 * The policy / distillation blend of TRL's SDPOTrainer.compute_loss:
 *   convex:   L = (1 − w)·L_policy + w·L_distill   (w ∈ [0, 1], TRL distillation_weight)
 *   additive: L = L_policy + w·L_distill
 * A missing term counts 0 (a step with no SDPO row has L_distill = 0, as TRL's masked mean over no
 * reprompted token gives); a term whose coefficient is 0 is left out (its NaN cannot leak in).
 */
export function blendPolicyDistillation(policy: tf.Scalar | undefined, distillation: tf.Scalar | undefined, weight: number, blend: SdpoBlend): tf.Scalar {
  if (blend === "convex" && !(weight >= 0 && weight <= 1)) throw new Error(`blendPolicyDistillation: convex needs 0 ≤ distillation weight ≤ 1, got ${weight}`);
  const wPolicy = blend === "convex" ? 1 - weight : 1;
  return tf.tidy(() => {
    let total = tf.scalar(0);
    if (policy && wPolicy !== 0) total = tf.add(total, tf.mul(policy, wPolicy));
    if (distillation && weight !== 0) total = tf.add(total, tf.mul(distillation, weight));
    return total as tf.Scalar;
  });
}
