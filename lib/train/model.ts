/**
 * A decoder-only transformer (GPT-2 shape, pre-LayerNorm) in TensorFlow.js, read top to bottom:
 * token + position embeddings → n_layer × (attention, MLP) → final LayerNorm → logits tied to the
 * token embedding. Embedding lookups are oneHot(ids) × table: the wasm backend has no gradient for
 * tf.gather (UnsortedSegmentSum), and this form trains on every backend.
 */
import { z } from "zod";
import { tf } from "../backend/index.js";
import { BOS, VOCAB_SIZE, encode } from "./tokenizer.js";

export const PolicyConfig = z.object({
  vocab_size: z.number().int().positive().default(VOCAB_SIZE),
  block_size: z.number().int().positive().default(128),
  n_layer: z.number().int().positive().default(2),
  n_head: z.number().int().positive().default(4),
  n_embd: z.number().int().positive().default(64),
  seed: z.number().int().default(0),
});
export type PolicyConfig = z.infer<typeof PolicyConfig>;

interface Block {
  ln1_g: tf.Variable; ln1_b: tf.Variable;
  attn_w: tf.Variable; attn_b: tf.Variable;
  proj_w: tf.Variable; proj_b: tf.Variable;
  ln2_g: tf.Variable; ln2_b: tf.Variable;
  fc_w: tf.Variable; fc_b: tf.Variable;
  fc2_w: tf.Variable; fc2_b: tf.Variable;
}

export class Policy {
  readonly config: PolicyConfig;
  readonly wte: tf.Variable;
  readonly wpe: tf.Variable;
  readonly blocks: Block[];
  readonly lnf_g: tf.Variable;
  readonly lnf_b: tf.Variable;

  constructor(config: Partial<PolicyConfig> = {}) {
    const c = (this.config = PolicyConfig.parse(config));
    if (c.n_embd % c.n_head !== 0) throw new Error(`n_embd (${c.n_embd}) must be divisible by n_head (${c.n_head})`);
    let seed = c.seed;
    const normal = (shape: number[], std = 0.02) => tf.variable(tf.randomNormal(shape, 0, std, "float32", seed++));
    const ones = (n: number) => tf.variable(tf.ones([n]));
    const zeros = (shape: number[]) => tf.variable(tf.zeros(shape));
    const d = c.n_embd;
    this.wte = normal([c.vocab_size, d]);
    this.wpe = normal([c.block_size, d], 0.01);
    // GPT-2: residual projections scaled by 1/sqrt(2 n_layer)
    const projStd = 0.02 / Math.sqrt(2 * c.n_layer);
    this.blocks = Array.from({ length: c.n_layer }, () => ({
      ln1_g: ones(d), ln1_b: zeros([d]),
      attn_w: normal([d, 3 * d]), attn_b: zeros([3 * d]),
      proj_w: normal([d, d], projStd), proj_b: zeros([d]),
      ln2_g: ones(d), ln2_b: zeros([d]),
      fc_w: normal([d, 4 * d]), fc_b: zeros([4 * d]),
      fc2_w: normal([4 * d, d], projStd), fc2_b: zeros([d]),
    }));
    this.lnf_g = ones(d);
    this.lnf_b = zeros([d]);
  }

  /** Every trainable variable, in a stable order. */
  variables(): tf.Variable[] {
    return [this.wte, this.wpe, ...this.blocks.flatMap((b) => Object.values(b) as tf.Variable[]), this.lnf_g, this.lnf_b];
  }

  parameterCount(): number {
    return this.variables().reduce((n, v) => n + v.size, 0);
  }

  /** ids [B, T] (T ≤ block_size) → logits [B, T, vocab]. */
  forward(ids: tf.Tensor2D): tf.Tensor3D {
    return tf.tidy(() => {
      const { n_head, n_embd: d, vocab_size } = this.config;
      const [B, T] = ids.shape;
      if (T > this.config.block_size) throw new Error(`sequence of ${T} tokens exceeds block_size ${this.config.block_size}`);
      const tok = tf.matMul(tf.oneHot(ids.reshape([-1]), vocab_size), this.wte).reshape([B, T, d]);
      const pos = tf.matMul(tf.oneHot(tf.range(0, T, 1, "int32"), this.config.block_size), this.wpe);
      let x: tf.Tensor3D = tok.add(pos);
      const hd = d / n_head;
      const mask = tf.linalg.bandPart(tf.ones([T, T]), -1, 0); // lower-triangular: attend to the past
      const negInf = tf.mul(tf.sub(1, mask), -1e9);
      for (const b of this.blocks) {
        const h = layerNorm(x, b.ln1_g, b.ln1_b);
        const qkv = tf.add(tf.matMul(h.reshape([B * T, d]), b.attn_w), b.attn_b).reshape([B, T, 3, n_head, hd]);
        const [q, k, v] = tf.unstack(qkv.transpose([2, 0, 3, 1, 4])) as [tf.Tensor4D, tf.Tensor4D, tf.Tensor4D]; // each [B, H, T, hd]
        const att = tf.softmax(tf.add(tf.matMul(q, k, false, true).mul(1 / Math.sqrt(hd)), negInf));
        const y = tf.matMul(att, v).transpose([0, 2, 1, 3]).reshape([B * T, d]);
        x = x.add(tf.add(tf.matMul(y, b.proj_w), b.proj_b).reshape([B, T, d]));
        const h2 = layerNorm(x, b.ln2_g, b.ln2_b).reshape([B * T, d]);
        const m = tf.add(tf.matMul(gelu(tf.add(tf.matMul(h2, b.fc_w), b.fc_b)), b.fc2_w), b.fc2_b);
        x = x.add(m.reshape([B, T, d]));
      }
      const out = layerNorm(x, this.lnf_g, this.lnf_b).reshape([B * T, d]);
      return tf.matMul(out, this.wte, false, true).reshape([B, T, vocab_size]);
    });
  }

  dispose(): void {
    for (const v of this.variables()) v.dispose();
  }
}

function layerNorm<T extends tf.Tensor>(x: T, g: tf.Tensor, b: tf.Tensor, eps = 1e-5): T {
  const { mean, variance } = tf.moments(x, -1, true);
  return x.sub(mean).div(variance.add(eps).sqrt()).mul(g).add(b) as T;
}

/** GELU, tanh approximation (GPT-2). */
function gelu(x: tf.Tensor): tf.Tensor {
  return x.mul(0.5).mul(tf.add(1, tf.tanh(x.add(x.pow(3).mul(0.044715)).mul(Math.sqrt(2 / Math.PI)))));
}

export interface ContinuationScore {
  /** log p(token) for each continuation token actually scored. */
  tokenLogprobs: number[];
  /** Full next-token log-distributions at those positions (for exact KL), when the model has them. */
  logDists?: Float32Array[];
  /** Continuation tokens left out because the window is full. */
  truncated: number;
}

/**
 * Scores `continuation` after `context`: the window is the last block_size tokens, so a long
 * context is cut from the left and at most block_size/2 continuation tokens are scored.
 */
export function scoreContinuation(policy: Policy, context: string, continuation: string): ContinuationScore {
  const T = policy.config.block_size;
  let cont = encode(continuation);
  const maxCont = Math.floor(T / 2);
  const truncated = Math.max(0, cont.length - maxCont);
  cont = cont.slice(0, maxCont);
  if (cont.length === 0) return { tokenLogprobs: [], logDists: [], truncated };
  const ctx = encode(context, { bos: true }).slice(-(T + 1 - cont.length) || undefined);
  if (ctx.length === 0) ctx.push(BOS);
  const seq = [...ctx, ...cont];
  const input = seq.slice(0, -1);
  const logits = policy.forward(tf.tensor2d([input], [1, input.length], "int32"));
  const logp = tf.tidy(() => tf.logSoftmax(logits.squeeze([0])));
  logits.dispose();
  const rows = logp.arraySync() as number[][];
  logp.dispose();
  const start = ctx.length - 1;
  const tokenLogprobs: number[] = [];
  const logDists: Float32Array[] = [];
  for (let i = 0; i < cont.length; i++) {
    const row = rows[start + i]!;
    tokenLogprobs.push(row[cont[i]!]!);
    logDists.push(Float32Array.from(row));
  }
  return { tokenLogprobs, logDists, truncated };
}

/** Greedy or temperature sampling of up to `maxTokens` bytes after `prompt`. */
export function generate(policy: Policy, prompt: string, opts: { maxTokens?: number; temperature?: number; seed?: number } = {}): string {
  const T = policy.config.block_size;
  const ids = encode(prompt, { bos: true });
  const out: number[] = [];
  let seed = opts.seed ?? 0;
  for (let i = 0; i < (opts.maxTokens ?? 64); i++) {
    const window = [...ids, ...out].slice(-T);
    const next = tf.tidy(() => {
      const logits = policy.forward(tf.tensor2d([window], [1, window.length], "int32")).slice([0, window.length - 1, 0], [1, 1, -1]).reshape([1, -1]);
      if (!opts.temperature) return logits.argMax(-1).dataSync()[0]!;
      return tf.multinomial(logits.div(opts.temperature) as tf.Tensor2D, 1, seed++).dataSync()[0]!;
    });
    if (next === BOS) break;
    out.push(next);
  }
  return new TextDecoder().decode(Uint8Array.from(out.filter((t) => t < 256)));
}
