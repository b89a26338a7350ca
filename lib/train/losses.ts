/**
 * The training losses as pure functions over tf tensors: no variables, no side effects; each returns
 * its tensors (the caller disposes them, or calls inside tf.tidy / tf.grad). Read top to bottom:
 *
 *   helpers        offTape, stopGradient, maskedMean, tokenLogprobs, entropy
 *   RL             groupAdvantages → klK3 → policyGradientLoss   (GRPO / Dr.GRPO / DAPO, as TRL)
 *   distillation   generalizedJsd → sdpoLoss                     (SDPO / OPSD self-distillation)
 *   preferences    dpoLoss                                        (trace-replay DPO)
 *   supervised     sftLoss                                        (the lm_ce channel)
 *   total          composeLoss                                    (total = grpo + α·sdpo + β·dpo)
 *
 * Shapes: B sequences × T completion positions × V vocabulary. Every [B, T] `mask` is 1 on completion
 * tokens and 0 on padding. Option names follow TRL and the papers. Each loss is checked, value and
 * gradient, against an independent PyTorch implementation (test/fixtures/make_loss_fixtures.py).
 */
import { z } from "zod";
import { tf } from "../backend/index.js";

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
  return tf.tidy(() => {
    const V = logits.shape[2];
    return tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(asInt(ids), V)), -1) as tf.Tensor2D;
  });
}

/** logits [B, T, V] → entropy −Σ p log p of each position's distribution [B, T]. */
export function entropy(logits: tf.Tensor3D): tf.Tensor2D {
  return tf.tidy(() => {
    const logp = tf.logSoftmax(logits);
    return tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), -1)) as tf.Tensor2D;
  });
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

export const SdpoMode = z.enum(["sampled_token", "jsd", "top_k"]);
export type SdpoMode = z.infer<typeof SdpoMode>;

/** Options of the self-distillation loss (SDPO / OPSD names). */
export const SdpoConfig = z.object({
  /** sampled_token: reverse KL on the sampled token; jsd: full-vocabulary JSD; top_k: JSD on the teacher's top-k. */
  mode: SdpoMode.default("sampled_token"),
  /** JSD interpolation (TRL GKD `beta`, SDPO `distillation_alpha`): 0 forward KL, 1 reverse KL. Unused by sampled_token. */
  alpha: z.number().min(0).max(1).default(0.5),
  /** Teacher support size for mode top_k (clamped to V). */
  top_k: z.number().int().positive().default(20),
  /** OPSD --jsd_token_clip: cap on each divergence term; null disables. */
  token_clip: z.number().positive().nullable().default(0.05),
  /**
   * Where the cap applies. "vocab" (OPSD's code): on each vocabulary entry's pointwise term before the
   * vocabulary sum. "token": on the per-token sum. The same for sampled_token (one term per token).
   */
  token_clip_scope: z.enum(["vocab", "token"]).default("vocab"),
});
export type SdpoConfig = z.infer<typeof SdpoConfig>;

export interface SdpoInputs {
  /** [B, T, V] student logits on the completion positions (the differentiable input). */
  studentLogits: tf.Tensor3D;
  /** [B, T, V] teacher logits on the same positions (stop-gradient inside the loss). */
  teacherLogits: tf.Tensor3D;
  /** [B, T] int32: the tokens the student sampled. */
  sampledIds: tf.Tensor2D;
  /** [B, T] 1 on completion tokens. */
  mask: tf.Tensor2D;
}

export interface SdpoOutput {
  loss: tf.Scalar;
  /** [B, T] per-token divergence before the clip (sampled_token: d_t), 0 on padding. */
  per_token: tf.Tensor2D;
  /** Fraction of completion tokens the clip touched. */
  clipped_fraction: tf.Scalar;
}

/**
 * Self-distillation loss of SDPO ("Reinforcement Learning via Self-Distillation", arXiv:2601.20802) and
 * OPSD ("Self-Distilled Reasoner", arXiv:2601.18734 Eq. 8): the student on its own completion is pulled
 * towards the teacher (the same model given privileged context: a successful attempt, feedback, the
 * solution). The teacher passes through stopGradient here, so no gradient reaches it even if its logits
 * were computed inside the tape. Aggregate: mean over completion tokens (OPSD: jsd.sum() / mask.sum()).
 *
 * "sampled_token": the reverse KL(p_S ‖ p_T) estimated on the sampled token y_t ~ p_S,
 *   d_t = log p_S(y_t) − sg(log p_T(y_t)).
 *   Since ∇KL(p_S‖p_T) = E_{y~p_S}[(log p_S(y) − log p_T(y))·∇log p_S(y)] (the ∇log p_S term alone has
 *   zero mean), the per-token surrogate is sg(d_t)·log p_S(y_t) — OPSD's "thinking machines" loss
 *   −(sg(log p_T − log p_S))·log p_S. We report d_t as the value (a KL estimate, comparable with the
 *   other modes) and take sg(d_t)·∇log p_S(y_t) as the gradient: value d_t + sg(d_t)·(lp − sg(lp)).
 * "jsd": generalizedJsd over the full vocabulary.
 * "top_k": generalizedJsd over the teacher's top-k tokens, both distributions renormalised over those k
 *   (OPSD --top_k_loss). (SDPO's reference keeps the leftover mass as a tail bucket; this does not.)
 *
 * Clip (--jsd_token_clip of the OPSD code, github.com/siyan-zhao/OPSD, used there at 0.05): each
 * divergence term is capped, min(term, token_clip), so a capped term contributes the constant
 * token_clip and no gradient. opsd_trainer.py applies `jsd.clamp(max=token_clip)` to the pointwise
 * [B, T, V] terms, before the vocabulary sum: token_clip_scope "vocab", the default. It keeps a few
 * high-divergence (stylistic) tokens from dominating the update. "token" caps the per-token sum
 * instead; for sampled_token (one term per token) both cap d_t.
 */
export function sdpoLoss(args: SdpoInputs & z.input<typeof SdpoConfig>): SdpoOutput {
  const { studentLogits, teacherLogits, sampledIds, mask, ...options } = args;
  const { mode, alpha, top_k, token_clip, token_clip_scope } = SdpoConfig.parse(options);
  return tf.tidy(() => {
    const m = asFloat(mask);
    const teacher = stopGradient(teacherLogits);
    const notClipped = (x: tf.Tensor) => (token_clip === null ? tf.onesLike(x).cast("bool") : tf.lessEqual(x, token_clip));
    const cap = (x: tf.Tensor) => (token_clip === null ? x : tf.minimum(x, token_clip));

    if (mode === "sampled_token") {
      const lpS = tokenLogprobs(studentLogits, sampledIds);
      const d = tf.sub(lpS, tokenLogprobs(teacher, sampledIds));
      const dConst = stopGradient(d);
      const surrogate = tf.add(dConst, tf.mul(dConst, tf.sub(lpS, stopGradient(lpS)))); // value d, gradient d·∇lp
      const keep = offTape(d, notClipped);
      const perToken = tf.where(keep, surrogate, tf.fill(d.shape, token_clip ?? 0));
      return {
        loss: maskedMean(perToken, m),
        per_token: tf.mul(dConst, m) as tf.Tensor2D,
        clipped_fraction: maskedMean(tf.cast(tf.logicalNot(keep), "float32"), m),
      };
    }

    let logpS: tf.Tensor = tf.logSoftmax(studentLogits);
    let logpT: tf.Tensor = tf.logSoftmax(teacher);
    let support: tf.Tensor | undefined; // [B, T, V] 1 on the teacher's top-k
    const V = studentLogits.shape[2];
    if (mode === "top_k" && top_k < V) {
      // Multi-hot of the teacher's top-k (from oneHot, not gather: see tokenLogprobs); the other logits
      // are pushed to −1e9 so both softmaxes renormalise over the k tokens, and their terms are zeroed.
      support = offTape(teacher, (t) => tf.sum(tf.oneHot(tf.topk(t, top_k).indices, V), 2));
      const offset = tf.mul(tf.sub(support, 1), 1e9);
      logpS = tf.logSoftmax(tf.add(studentLogits, offset));
      logpT = tf.logSoftmax(tf.add(teacher, offset));
    }
    let pointwise = generalizedJsd(logpS, logpT, alpha);
    if (support) pointwise = tf.mul(pointwise, support);
    const raw = tf.sum(pointwise, -1);

    let perToken: tf.Tensor;
    let clippedTokens: tf.Tensor;
    if (token_clip_scope === "vocab") {
      perToken = tf.sum(cap(pointwise), -1);
      clippedTokens = offTape(pointwise, (p) => tf.any(tf.logicalNot(notClipped(p)), -1));
    } else {
      perToken = cap(raw);
      clippedTokens = offTape(raw, (r) => tf.logicalNot(notClipped(r)));
    }
    return {
      loss: maskedMean(perToken, m),
      per_token: tf.mul(stopGradient(raw), m) as tf.Tensor2D,
      clipped_fraction: maskedMean(tf.cast(clippedTokens, "float32"), m),
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

/** Mean next-token cross-entropy −log p(target) over masked tokens: logits [B, T, V], targets [B, T] int32. */
export function sftLoss(logits: tf.Tensor3D, targets: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar {
  return tf.tidy(() => maskedMean(tf.neg(tokenLogprobs(logits, targets)), mask));
}

// ---------------------------------------------------------------------------------------------
// The total
// ---------------------------------------------------------------------------------------------

/**
 * Channel weights. The systems framing is total = grpo + α·sdpo + β·trace_replay_dpo; SFT-first
 * training is lm_ce alone ({ lm_ce: 1, grpo: 0 }). (This beta weighs the DPO channel; it is not the
 * KL beta of policyGradientLoss nor DPO's own beta.)
 */
export const LossWeights = z.object({
  lm_ce: z.number().min(0).default(0),
  alpha: z.number().min(0).default(0),
  beta: z.number().min(0).default(0),
  grpo: z.number().min(0).default(1),
});
export type LossWeights = z.infer<typeof LossWeights>;

export interface LossChannels {
  lm_ce?: tf.Scalar;
  sdpo?: tf.Scalar;
  dpo?: tf.Scalar;
  grpo?: tf.Scalar;
}

/**
 * total = grpo_w·grpo + lm_ce_w·lm_ce + α·sdpo + β·dpo. A missing channel counts 0; a channel whose
 * weight is 0 is left out altogether (so a NaN in an unused channel cannot leak into the total).
 */
export function composeLoss(channels: LossChannels, weights: z.input<typeof LossWeights> = {}): tf.Scalar {
  const w = LossWeights.parse(weights);
  const terms: [tf.Scalar | undefined, number][] = [
    [channels.grpo, w.grpo],
    [channels.lm_ce, w.lm_ce],
    [channels.sdpo, w.alpha],
    [channels.dpo, w.beta],
  ];
  return tf.tidy(() =>
    terms.reduce<tf.Scalar>((total, [x, wt]) => (x && wt !== 0 ? tf.add(total, tf.mul(x, wt)) : total), tf.scalar(0)),
  );
}
