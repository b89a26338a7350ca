/**
 * The Policy's building blocks, in two implementations behind one interface (`FusedOps`):
 *
 *   - "native": fused kernels of the torch backend's addon (native/torch_backend.cc; registered as
 *     tfjs kernels named Lab* in lib/backend/torch.ts): layer norm, GELU, a linear layer, the
 *     embedding lookup, attention (scaled dot-product + bias + softmax), causal self-attention
 *     straight from the fused q/k/v projection (head split and merge inside; the all-masked score
 *     blocks above the diagonal neither computed nor stored), token log-probs (softmax
 *     cross-entropy), Adam's update, and the whole decode step with its sampling. Gradients are
 *     tf.customGrad functions whose backward is one native kernel.
 *   - "tfjs": the same maths as tfjs compositions (the reference; every backend runs it).
 *
 * `fusedOps()` picks one per backend, once (the first time a backend asks), and the model code
 * calls it without asking which it got. `useFusedKernels(false)` forces the compositions (the
 * benches' "before" profile; tests compare the two).
 *
 * Matrix products keep hand-written gradients: on the wasm backend a matMul with a transposed
 * operand is 8–12× slower than transposing explicitly and multiplying (measured: 1600×64 · (256×64)ᵀ
 * 37 ms vs 3 ms), and tfjs's own matMul gradient uses exactly those transposed forms. These ops
 * transpose explicitly in both directions (about 6× faster backward on wasm; neutral elsewhere).
 */
import { tf } from "../backend/index.js";

/** Swaps the last two axes (any rank ≥ 2). */
export function transposeLast<T extends tf.Tensor>(x: T): T {
  const r = x.rank;
  const perm = [...Array(r).keys()];
  [perm[r - 2], perm[r - 1]] = [perm[r - 1]!, perm[r - 2]!];
  return tf.transpose(x, perm);
}

/** a · b (batched over leading axes), with explicit transposes in the gradient. */
export const matmul = tf.customGrad(((a: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  save([a, b]);
  return {
    value: tf.matMul(a as tf.Tensor3D, b as tf.Tensor3D),
    gradFunc: (dy: tf.Tensor, [sa, sb]: tf.Tensor[]) => [tf.matMul(dy as tf.Tensor3D, transposeLast(sb!) as tf.Tensor3D), tf.matMul(transposeLast(sa!) as tf.Tensor3D, dy as tf.Tensor3D)],
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as <T extends tf.Tensor>(a: T, b: tf.Tensor) => T;

/**
 * Embedding lookup as oneHot(ids) · table (wasm has no gradient for gather's backward,
 * UnsortedSegmentSum), with the gradient taken for the table only.
 */
export function embed(ids: tf.Tensor1D, table: tf.Tensor): tf.Tensor2D {
  // oneHot(…, "float32") is broken on the wasm backend (int bits read as floats): cast instead.
  const f = tf.customGrad(((t: tf.Tensor, save: tf.GradSaveFunc) => {
    const oh = tf.oneHot(ids, table.shape[0]!).toFloat();
    save([oh]);
    return { value: tf.matMul(oh, t as tf.Tensor2D), gradFunc: (dy: tf.Tensor, [s]: tf.Tensor[]) => tf.matMul(transposeLast(s!) as tf.Tensor2D, dy as tf.Tensor2D) };
  }) as unknown as Parameters<typeof tf.customGrad>[0]);
  return f(table) as tf.Tensor2D;
}

/** How a decode step draws its next token (see lib/train/sample.ts `SamplingConfig`). */
export interface DrawSpec {
  /** 0: greedy (the first argmax). */
  temperature: number;
  /** 0: off. */
  top_k: number;
  /** 1: off. */
  top_p: number;
  /** One uniform in [0, 1) per row, in row order (unused when greedy). */
  uniforms: number[];
}

/** The tokens a step drew, one per row, and log_softmax(logits)[token] (untempered). */
export interface Drawn {
  tokens: number[];
  logprobs: number[];
}

/** The Policy's weights in the order the native decode step reads them (see policyStep in the addon). */
export interface StepWeights {
  /** [wte, wpe, (ln1_g, ln1_b, attn_w, attn_b, proj_w, proj_b, ln2_g, ln2_b, fc_w, fc_b, fc2_w, fc2_b) × L, lnf_g, lnf_b] */
  list: tf.Tensor[];
  n_layer: number;
  n_head: number;
  /** Positions the native key/value buffers make room for (block_size): later steps write into them. */
  capacity: number;
}

export interface StepOutput {
  logits: tf.Tensor3D;
  kv: { k: tf.Tensor4D; v: tf.Tensor4D }[];
  /** Present when a DrawSpec was given: the step drew natively. */
  next?: Drawn;
}

export interface FusedOps {
  readonly name: "native" | "tfjs";
  /** LayerNorm over the last axis (eps 1e-5), gain g and bias b [d]. */
  layerNorm<T extends tf.Tensor>(x: T, g: tf.Tensor, b: tf.Tensor): T;
  /** GELU, tanh approximation (GPT-2). */
  gelu<T extends tf.Tensor>(x: T): T;
  /** x [..., in] · w [in, out] + b [out] (w [out, in] with transposeW; b null: no bias) → [..., out]. */
  linear(x: tf.Tensor, w: tf.Tensor, b: tf.Tensor | null, transposeW?: boolean): tf.Tensor;
  /** table[ids]: ids [N] int32, table [V, d] → [N, d]; differentiable in the table. */
  embed(ids: tf.Tensor1D, table: tf.Tensor): tf.Tensor2D;
  /** softmax(q kᵀ · scale + bias) v: q [B, H, t, hd], k/v [B, H, Tk, hd], bias (0 / −1e9, constant) broadcastable to [B, H, t, Tk]. */
  attention(q: tf.Tensor4D, k: tf.Tensor4D, v: tf.Tensor4D, bias: tf.Tensor, scale: number): tf.Tensor4D;
  /**
   * Causal self-attention of a whole sequence (training, scoring) from the fused projection:
   * qkv [B, T, 3·D] (q, k, v side by side, head h at columns h·hd of each) → [B, T, D], the heads
   * merged back; per head softmax(q kᵀ / √hd + causal mask) v. Differentiable in qkv.
   */
  causalAttention(qkv: tf.Tensor3D, nHead: number): tf.Tensor3D;
  /** log_softmax(logits)[..., id]: logits [..., V], ids [...] int32 → [...] (the negated softmax cross-entropy). */
  tokenLogprobs(logits: tf.Tensor, ids: tf.Tensor): tf.Tensor;
  /** Adam's update of `vars` by `grads` (tfjs's AdamOptimizer maths), or null: tfjs's own. */
  adam: ((opt: AdamState, vars: tf.Variable[], grads: tf.Tensor[]) => void) | null;
  /**
   * The whole transformer on new tokens in one call, with the draw of the next token when `draw`
   * is given, or null: the model composes the ops above instead.
   */
  policyStep: ((w: StepWeights, ids: tf.Tensor2D, pos: tf.Tensor2D, bias: tf.Tensor4D, past: { k: tf.Tensor4D; v: tf.Tensor4D }[] | null, draw?: DrawSpec) => StepOutput) | null;
}

// ---- the tfjs compositions (the reference) -----------------------------------------------------

/** The causal attention bias [T, T]: 0 on and below the diagonal (the past), −1e9 above it. */
export function causalBias(T: number): tf.Tensor2D {
  const bias = new Float32Array(T * T);
  for (let i = 0; i < T; i++) bias.fill(-1e9, i * T + i + 1, (i + 1) * T);
  return tf.tensor2d(bias, [T, T]);
}

const referenceOps: FusedOps = {
  name: "tfjs",
  layerNorm<T extends tf.Tensor>(x: T, g: tf.Tensor, b: tf.Tensor): T {
    const { mean, variance } = tf.moments(x, -1, true);
    return x.sub(mean).div(variance.add(1e-5).sqrt()).mul(g).add(b) as T;
  },
  gelu<T extends tf.Tensor>(x: T): T {
    return x.mul(0.5).mul(tf.add(1, tf.tanh(x.add(x.mul(x).mul(x).mul(0.044715)).mul(Math.sqrt(2 / Math.PI))))) as T;
  },
  linear(x, w, b, transposeW = false) {
    const inner = x.shape[x.rank - 1]!;
    const W = transposeW ? transposeLast(w) : w;
    const y2 = matmul(x.reshape([-1, inner]), W);
    const y = b ? tf.add(y2, b) : y2;
    return y.reshape([...x.shape.slice(0, -1), W.shape[1]!]);
  },
  embed,
  attention(q, k, v, bias, scale) {
    const att = tf.softmax(tf.add(matmul(q, transposeLast(k)).mul(scale), bias));
    return matmul(att, v) as tf.Tensor4D;
  },
  causalAttention(qkv, nHead) {
    const [B, T, d3] = qkv.shape;
    const d = d3 / 3;
    const hd = d / nHead;
    const [q, k, v] = tf.unstack(qkv.reshape([B, T, 3, nHead, hd]).transpose([2, 0, 3, 1, 4])) as [tf.Tensor4D, tf.Tensor4D, tf.Tensor4D]; // each [B, H, T, hd]
    const y = referenceOps.attention(q, k, v, causalBias(T), 1 / Math.sqrt(hd));
    return y.transpose([0, 2, 1, 3]).reshape([B, T, d]) as tf.Tensor3D;
  },
  tokenLogprobs(logits, ids) {
    const V = logits.shape[logits.rank - 1]!;
    return tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(ids.toInt(), V)), -1);
  },
  adam: null,
  policyStep: null,
};

// ---- the native kernels ------------------------------------------------------------------------

/** Kernel names the torch backend registers (lib/backend/torch.ts); all must be there for "native". */
export const FUSED_KERNELS = [
  "LabLayerNorm", "LabLayerNormGrad", "LabGelu", "LabGeluGrad", "LabLinear", "LabLinearGrad", "LabEmbed", "LabEmbedGrad",
  "LabAttention", "LabAttentionGrad", "LabCausalAttention", "LabCausalAttentionGrad", "LabTokenLogprobs", "LabTokenLogprobsGrad", "LabAdam", "LabPolicyStep",
] as const;

type Kernel = (typeof FUSED_KERNELS)[number];
const run = (name: Kernel, inputs: tf.Tensor[], attrs: Record<string, unknown> = {}): tf.Tensor | tf.Tensor[] =>
  tf.engine().runKernel(name, inputs as unknown as tf.NamedTensorMap, attrs as unknown as tf.NamedAttrMap) as tf.Tensor | tf.Tensor[];
const runMany = (name: Kernel, inputs: tf.Tensor[], attrs: Record<string, unknown> = {}): tf.Tensor[] => run(name, inputs, attrs) as tf.Tensor[];
const run1 = (name: Kernel, inputs: tf.Tensor[], attrs: Record<string, unknown> = {}): tf.Tensor => run(name, inputs, attrs) as tf.Tensor;

type Grad = Parameters<typeof tf.customGrad>[0];
const grad = <F>(f: unknown): F => tf.customGrad(f as Grad) as unknown as F;

const nativeLayerNorm = grad<(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor) => tf.Tensor>((x: tf.Tensor, g: tf.Tensor, b: tf.Tensor, save: tf.GradSaveFunc) => {
  const [y, mean, rstd] = runMany("LabLayerNorm", [x, g, b]);
  save([x, g, mean!, rstd!]);
  return { value: y!, gradFunc: (dy: tf.Tensor, [sx, sg, sm, sr]: tf.Tensor[]) => runMany("LabLayerNormGrad", [dy, sx!, sg!, sm!, sr!]) };
});

const nativeGelu = grad<(x: tf.Tensor) => tf.Tensor>((x: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x]);
  return { value: run1("LabGelu", [x]), gradFunc: (dy: tf.Tensor, [sx]: tf.Tensor[]) => run1("LabGeluGrad", [dy, sx!]) };
});

/** One customGrad per (transposeW, bias) combination. */
const nativeLinears = new Map<string, (...t: tf.Tensor[]) => tf.Tensor>();
function nativeLinear(transW: boolean, hasBias: boolean): (...t: tf.Tensor[]) => tf.Tensor {
  const key = `${transW}${hasBias}`;
  let f = nativeLinears.get(key);
  if (!f) {
    f = grad<(...t: tf.Tensor[]) => tf.Tensor>((...args: unknown[]) => {
      const save = args.pop() as tf.GradSaveFunc;
      const [x, w] = args as tf.Tensor[];
      save([x!, w!]);
      return {
        value: run1("LabLinear", args as tf.Tensor[], { transposeW: transW }),
        gradFunc: (dy: tf.Tensor, [sx, sw]: tf.Tensor[]) => runMany("LabLinearGrad", [dy, sx!, sw!], { transposeW: transW, hasBias }),
      };
    });
    nativeLinears.set(key, f);
  }
  return f;
}

const nativeOps: FusedOps = {
  name: "native",
  layerNorm: <T extends tf.Tensor>(x: T, g: tf.Tensor, b: tf.Tensor) => nativeLayerNorm(x, g, b) as T,
  gelu: <T extends tf.Tensor>(x: T) => nativeGelu(x) as T,
  linear: (x, w, b, transposeW = false) => (b ? nativeLinear(transposeW, true)(x, w, b) : nativeLinear(transposeW, false)(x, w)),
  embed(ids, table) {
    const rows = table.shape[0]!;
    // ids is saved with the tape (a tensor closed over would be disposed before the backward runs)
    return grad<(t: tf.Tensor) => tf.Tensor2D>((t: tf.Tensor, save: tf.GradSaveFunc) => {
      save([ids]);
      return { value: run1("LabEmbed", [t, ids]), gradFunc: (dy: tf.Tensor, [sids]: tf.Tensor[]) => run1("LabEmbedGrad", [dy, sids!], { rows }) };
    })(table);
  },
  attention(q, k, v, bias, scale) {
    return grad<(q: tf.Tensor, k: tf.Tensor, v: tf.Tensor) => tf.Tensor4D>((q: tf.Tensor, k: tf.Tensor, v: tf.Tensor, save: tf.GradSaveFunc) => {
      const [out, probs] = runMany("LabAttention", [q, k, v, bias], { scale });
      save([q, k, v, probs!]);
      return { value: out!, gradFunc: (dy: tf.Tensor, [sq, sk, sv, sp]: tf.Tensor[]) => runMany("LabAttentionGrad", [dy, sq!, sk!, sv!, sp!], { scale }) };
    })(q, k, v);
  },
  causalAttention(qkv, nHead) {
    return grad<(x: tf.Tensor) => tf.Tensor3D>((x: tf.Tensor, save: tf.GradSaveFunc) => {
      // heads: q (scaled), k, v in head-major order; probs: the blocks on and below the diagonal, packed
      const [y, heads, probs] = runMany("LabCausalAttention", [x], { nHead });
      save([heads!, probs!]);
      return { value: y!, gradFunc: (dy: tf.Tensor, [sh, sp]: tf.Tensor[]) => run1("LabCausalAttentionGrad", [dy, sh!, sp!], { nHead }) };
    })(qkv);
  },
  tokenLogprobs(logits, ids) {
    return grad<(l: tf.Tensor) => tf.Tensor>((l: tf.Tensor, save: tf.GradSaveFunc) => {
      const [logp, lse] = runMany("LabTokenLogprobs", [l, ids]);
      save([l, ids, lse!]);
      return { value: logp!, gradFunc: (dy: tf.Tensor, [sl, sids, slse]: tf.Tensor[]) => run1("LabTokenLogprobsGrad", [dy, sl!, sids!, slse!]) };
    })(logits);
  },
  adam(opt, vars, grads) {
    const n = vars.length;
    if (n === 0) return;
    const t = opt.iterations + 1;
    const outs = runMany("LabAdam", [...vars, ...grads, ...opt.m, ...opt.v], {
      lr: opt.learningRate, beta1: opt.beta1, beta2: opt.beta2, epsilon: opt.epsilon,
      correction1: 1 - opt.beta1 ** t, correction2: 1 - opt.beta2 ** t,
    });
    for (let i = 0; i < n; i++) {
      vars[i]!.assign(outs[i]!);
      opt.m[i]!.assign(outs[n + i]!);
      opt.v[i]!.assign(outs[2 * n + i]!);
    }
    tf.dispose(outs);
  },
  policyStep(w, ids, pos, bias, past, draw) {
    const L = w.n_layer;
    const sampling = draw ? [draw.temperature, draw.top_k, draw.top_p, ...(draw.temperature > 0 ? draw.uniforms : [])] : null;
    const outs = runMany("LabPolicyStep", [...w.list, ids, pos, bias, ...(past ?? []).flatMap((l) => [l.k, l.v])], { nLayer: L, nHead: w.n_head, hasPast: !!past, sampling, capacity: w.capacity });
    const kv = Array.from({ length: L }, (_, l) => ({ k: outs[1 + 2 * l] as tf.Tensor4D, v: outs[2 + 2 * l] as tf.Tensor4D }));
    let next: Drawn | undefined;
    if (draw) {
      const [tok, lp] = outs.slice(1 + 2 * L);
      next = { tokens: Array.from(tok!.dataSync()), logprobs: Array.from(lp!.dataSync()) };
      tf.dispose([tok!, lp!]);
    }
    return { logits: outs[0] as tf.Tensor3D, kv, next };
  },
};

// ---- the choice -------------------------------------------------------------------------------

let enabled = true;
const chosen = new Map<string, FusedOps>();

/** The ops for the active tfjs backend: the native kernels where it registers all of them, else the compositions. */
export function fusedOps(): FusedOps {
  if (!enabled) return referenceOps;
  const backend = tf.getBackend();
  let ops = chosen.get(backend);
  if (!ops) {
    ops = FUSED_KERNELS.every((k) => tf.getKernel(k, backend)) ? nativeOps : referenceOps;
    chosen.set(backend, ops);
  }
  return ops;
}

/** false: every backend uses the tfjs compositions (until called with true). Returns the previous setting. */
export function useFusedKernels(on: boolean): boolean {
  const before = enabled;
  enabled = on;
  return before;
}

// ---- Adam -------------------------------------------------------------------------------------

/** What the fused update reads from an optimizer. */
export interface AdamState {
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  iterations: number;
  m: tf.Variable[];
  v: tf.Variable[];
}

interface AdamInternals {
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  accBeta1: tf.Variable;
  accBeta2: tf.Variable;
  accumulatedFirstMoment: ({ originalName: string; variable: tf.Variable } | undefined)[];
  accumulatedSecondMoment: ({ originalName: string; variable: tf.Variable } | undefined)[];
}

/**
 * tfjs's AdamOptimizer whose update is one native kernel for every variable where the backend has
 * it (fusedOps().adam), and tfjs's own otherwise. Same state (moments, iterations), so getWeights /
 * setWeights and checkpoints are unchanged; a drop-in for tf.train.adam(lr, beta1, beta2, epsilon).
 */
export class FusedAdam extends tf.AdamOptimizer {
  override applyGradients(variableGradients: Parameters<tf.AdamOptimizer["applyGradients"]>[0]): void {
    const update = fusedOps().adam;
    if (!update) return super.applyGradients(variableGradients);
    const self = this as unknown as AdamInternals;
    const names = Array.isArray(variableGradients) ? variableGradients.map((v) => v.name) : Object.keys(variableGradients);
    const registered = tf.engine().registeredVariables;
    const vars: tf.Variable[] = [];
    const grads: tf.Tensor[] = [];
    const m: tf.Variable[] = [];
    const v: tf.Variable[] = [];
    names.forEach((name, i) => {
      const value = registered[name]!;
      self.accumulatedFirstMoment[i] ??= { originalName: `${name}/m`, variable: tf.tidy(() => tf.zerosLike(value).variable(false)) };
      self.accumulatedSecondMoment[i] ??= { originalName: `${name}/v`, variable: tf.tidy(() => tf.zerosLike(value).variable(false)) };
      const g: tf.Tensor | undefined = Array.isArray(variableGradients) ? variableGradients[i]!.tensor : variableGradients[name];
      if (g == null) return;
      vars.push(value);
      grads.push(g);
      m.push(self.accumulatedFirstMoment[i]!.variable);
      v.push(self.accumulatedSecondMoment[i]!.variable);
    });
    const t = this.iterations + 1;
    tf.tidy(() => update({ learningRate: self.learningRate, beta1: self.beta1, beta2: self.beta2, epsilon: self.epsilon, iterations: this.iterations, m, v }, vars, grads));
    // tfjs keeps β^(t+1) in two scalars for its own path (and setWeights): keep them true.
    tf.tidy(() => {
      self.accBeta1.assign(tf.scalar(self.beta1 ** (t + 1)));
      self.accBeta2.assign(tf.scalar(self.beta2 ** (t + 1)));
    });
    this.incrementIterations();
  }
}

/** tf.train.adam's signature (epsilon: the backend's when absent), fused where the backend can. */
export function fusedAdam(learningRate: number, beta1 = 0.9, beta2 = 0.999, epsilon?: number): FusedAdam {
  return new FusedAdam(learningRate, beta1, beta2, epsilon);
}
