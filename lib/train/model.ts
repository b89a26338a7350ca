/**
 * A decoder-only transformer (GPT-2 shape, pre-LayerNorm) in TensorFlow.js, read top to bottom:
 * token + position embeddings → n_layer × (attention, MLP) → final LayerNorm → logits tied to the
 * token embedding. Embedding lookups are oneHot(ids) × table: the wasm backend has no gradient for
 * tf.gather (UnsortedSegmentSum), and this form trains on every backend.
 *
 * Two entry points share one body: `forward` (the full sequence, differentiable, for training and
 * scoring) and `forwardCached` (only the new tokens, attending to cached keys/values, for sampling).
 * The body's blocks (layer norm, linear layers, GELU, attention, the embedding) come from
 * `fusedOps()` (lib/train/ops.ts): the torch backend's fused kernels, or the same maths as tfjs
 * compositions on every other backend. Where the backend runs the whole step natively
 * (`policyStep`), forwardCached makes one call per step for the batch, with the draw of the next
 * token in it when asked.
 */
import { z } from "zod";
import { tf } from "../backend/index.js";
import type { ContinuationScore } from "../hints/index.js";
import { fusedOps, type DrawSpec, type Drawn, type StepOutput, type StepWeights } from "./ops.js";
import { BOS, VOCAB_SIZE, encode } from "./tokenizer.js";

export const PolicyConfig = z.object({
  vocab_size: z.number().int().positive().default(VOCAB_SIZE),
  block_size: z.number().int().positive().default(128),
  n_layer: z.number().int().positive().default(2),
  n_head: z.number().int().positive().default(4),
  n_embd: z.number().int().positive().default(64),
  /** MLP hidden width; 4·n_embd when absent (GPT-2). */
  n_inner: z.number().int().positive().optional(),
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

/** Keys and values per layer, [B, H, T_so_far, hd] each. */
interface LayerKV {
  k: tf.Tensor4D;
  v: tf.Tensor4D;
}

/**
 * Attention state of a batch being decoded. Rows of different lengths are left-padded: row r's
 * token in column c has position c − pad[r], and columns < pad[r] are masked out as keys. So the
 * next token of row r sits at column `length` and position `length − pad[r]` (= tokens[r].length).
 */
export interface KVCache {
  layers: LayerKV[];
  /** Columns held (T_so_far, padding included). */
  length: number;
  /** Left padding of each row. */
  pad: number[];
  /** Each row's tokens so far, unpadded: kept to re-encode the window once it is full. */
  tokens: number[][];
}

export class Policy {
  readonly config: PolicyConfig;
  readonly wte: tf.Variable;
  readonly wpe: tf.Variable;
  readonly blocks: Block[];
  readonly lnf_g: tf.Variable;
  readonly lnf_b: tf.Variable;

  constructor(config: Partial<PolicyConfig> = {}) {
    const parsed = PolicyConfig.parse(config);
    const c = (this.config = { ...parsed, n_inner: parsed.n_inner ?? 4 * parsed.n_embd });
    if (c.n_embd % c.n_head !== 0) throw new Error(`n_embd (${c.n_embd}) must be divisible by n_head (${c.n_head})`);
    let seed = c.seed;
    // tfjs treats a falsy seed as "no seed" (Math.random), so seed 0 would leave the first tensor
    // (the token embedding) different on every run: draw 0 is shifted to a fixed non-zero seed.
    const nextSeed = () => (seed === 0 ? (seed++, 0x5eed) : seed++);
    const normal = (shape: number[], std = 0.02) => tf.variable(tf.randomNormal(shape, 0, std, "float32", nextSeed()));
    const ones = (n: number) => tf.variable(tf.ones([n]));
    const zeros = (shape: number[]) => tf.variable(tf.zeros(shape));
    const d = c.n_embd;
    const inner = c.n_inner;
    this.wte = normal([c.vocab_size, d]);
    this.wpe = normal([c.block_size, d], 0.01);
    // GPT-2: residual projections scaled by 1/sqrt(2 n_layer)
    const projStd = 0.02 / Math.sqrt(2 * c.n_layer);
    this.blocks = Array.from({ length: c.n_layer }, () => ({
      ln1_g: ones(d), ln1_b: zeros([d]),
      attn_w: normal([d, 3 * d]), attn_b: zeros([3 * d]),
      proj_w: normal([d, d], projStd), proj_b: zeros([d]),
      ln2_g: ones(d), ln2_b: zeros([d]),
      fc_w: normal([d, inner]), fc_b: zeros([inner]),
      fc2_w: normal([inner, d], projStd), fc2_b: zeros([d]),
    }));
    this.lnf_g = ones(d);
    this.lnf_b = zeros([d]);
  }

  /** Every trainable variable with a stable, readable name ("wte", "h.0.attn_w", …), in creation order. */
  namedVariables(): [string, tf.Variable][] {
    return [
      ["wte", this.wte], ["wpe", this.wpe],
      ...this.blocks.flatMap((b, i) => Object.entries(b).map(([k, v]) => [`h.${i}.${k}`, v] as [string, tf.Variable])),
      ["lnf_g", this.lnf_g], ["lnf_b", this.lnf_b],
    ];
  }

  /** Every trainable variable, in a stable order (the order optimizer state is saved in). */
  variables(): tf.Variable[] {
    return this.namedVariables().map(([, v]) => v);
  }

  parameterCount(): number {
    return this.variables().reduce((n, v) => n + v.size, 0);
  }

  /** ids [B, T] (T ≤ block_size) → logits [B, T, vocab]. Differentiable. */
  forward(ids: tf.Tensor2D): tf.Tensor3D {
    return tf.tidy(() => {
      const T = ids.shape[1];
      if (T > this.config.block_size) throw new Error(`sequence of ${T} tokens exceeds block_size ${this.config.block_size}`);
      return this.body(ids, tf.range(0, T, 1, "int32"), "causal", null).logits;
    });
  }

  /**
   * The trunk's final hidden states (after the last LayerNorm, before the tied output projection)
   * [B, T, d] for ids [B, T], with `offset` (broadcastable to [B, T, d]) added to the input
   * embeddings: a control token's own embedding (lib/train/world_model.ts puts `<deliberate>` in the
   * first slot this way). Differentiable; without an offset, `forward` is this times wteᵀ.
   */
  hidden(ids: tf.Tensor2D, offset: tf.Tensor | null = null): tf.Tensor3D {
    return tf.tidy(() => {
      const T = ids.shape[1];
      if (T > this.config.block_size) throw new Error(`sequence of ${T} tokens exceeds block_size ${this.config.block_size}`);
      return this.body(ids, tf.range(0, T, 1, "int32"), "causal", null, offset).hidden;
    });
  }

  /**
   * ids [B, t]: only the tokens not yet seen, attending to `cache` (null: a fresh batch, whose rows
   * are left-padded by `pad`). Returns their logits [B, t, vocab] and the cache extended by them.
   * The passed cache is consumed (its tensors are disposed): keep using the returned one.
   *
   * Once a row would pass block_size tokens, the learned positions run out: then every row is
   * re-encoded from its last block_size tokens (a sliding window, as `forward` on that window would
   * see it). From there on each step costs a full block again, exactly like uncached decoding.
   *
   * With `draw`, a backend that runs the step natively also draws each row's next token from the
   * last position's logits and returns it as `next` (lib/train/sample.ts draws itself when `next`
   * is absent: the same rule, see drawToken there).
   */
  forwardCached(ids: tf.Tensor2D, cache: KVCache | null, pad?: number[], draw?: DrawSpec): { logits: tf.Tensor3D; cache: KVCache; next?: Drawn } {
    const { block_size } = this.config;
    const [B, t] = ids.shape;
    if (t === 0) throw new Error("forwardCached needs at least one new token");
    if (t > block_size) throw new Error(`${t} new tokens exceed block_size ${block_size}`);
    const rowsPad = cache?.pad ?? pad ?? new Array<number>(B).fill(0);
    if (rowsPad.length !== B || (cache && cache.tokens.length !== B)) throw new Error(`batch of ${B} rows does not match the cache/pad (${rowsPad.length})`);
    const fresh = (ids.arraySync() as number[][]).map((row, r) => (cache ? row : row.slice(rowsPad[r]!)));
    const tokens = fresh.map((row, r) => [...(cache?.tokens[r] ?? []), ...row]);
    const past = cache?.length ?? 0;

    if (past + t > block_size) {
      // The window is full: re-encode each row's last block_size tokens as a fresh batch.
      if (cache) disposeCache(cache);
      const windows = tokens.map((row) => row.slice(-block_size));
      const W = Math.max(...windows.map((w) => w.length));
      const padded = tf.tensor2d(windows.map((w) => [...new Array<number>(W - w.length).fill(BOS), ...w]), [B, W], "int32");
      const full = this.forwardCached(padded, null, windows.map((w) => W - w.length), draw);
      padded.dispose();
      const logits = tf.tidy(() => full.logits.slice([0, W - t, 0], [B, t, -1]) as tf.Tensor3D);
      full.logits.dispose();
      return { logits, cache: full.cache, next: full.next };
    }

    // Positions and the attention bias, built on the CPU: query i sits in column past + i.
    const Tk = past + t;
    const pos = new Int32Array(B * t);
    const bias = new Float32Array(B * t * Tk);
    for (let r = 0; r < B; r++) {
      for (let i = 0; i < t; i++) {
        pos[r * t + i] = Math.max(0, past + i - rowsPad[r]!); // padding gets position 0; it is never attended to
        for (let c = 0; c < Tk; c++) if (c > past + i || c < rowsPad[r]!) bias[(r * t + i) * Tk + c] = -1e9;
      }
    }
    const step = fusedOps().policyStep;
    let next: Drawn | undefined;
    const out = tf.tidy(() => {
      const args = [tf.tensor2d(pos, [B, t], "int32"), tf.tensor4d(bias, [B, 1, t, Tk])] as const;
      const r: StepOutput = step ? step(this.stepWeights(), ids, ...args, cache?.layers ?? null, draw) : this.body(ids, ...args, cache?.layers ?? null);
      next = r.next;
      return { logits: r.logits, k: r.kv.map((l) => l.k), v: r.kv.map((l) => l.v) };
    });
    if (cache) disposeCache(cache);
    const layers = out.k.map((k, l) => ({ k, v: out.v[l]! }));
    return { logits: out.logits, cache: { layers, length: Tk, pad: [...rowsPad], tokens }, next };
  }

  /** The weights in the order the native decode step reads them. */
  private stepWeights(): StepWeights {
    const list = [this.wte, this.wpe, ...this.blocks.flatMap((b) => [b.ln1_g, b.ln1_b, b.attn_w, b.attn_b, b.proj_w, b.proj_b, b.ln2_g, b.ln2_b, b.fc_w, b.fc_b, b.fc2_w, b.fc2_b]), this.lnf_g, this.lnf_b];
    return { list, n_layer: this.config.n_layer, n_head: this.config.n_head, capacity: this.config.block_size };
  }

  /**
   * The transformer on new tokens ids [B, t] at positions `pos` ([t] shared, or [B, t] per row),
   * attending to `past` keys/values and to themselves under `bias` (0 or −1e9, broadcastable to
   * [B, H, t, T_past + t]). Returns logits and every layer's keys/values including the new ones.
   * bias "causal": a whole sequence (forward, hidden): causal self-attention straight from the fused
   * q/k/v projection (fusedOps().causalAttention), and no keys/values kept (kv is empty).
   */
  private body(ids: tf.Tensor2D, pos: tf.Tensor, bias: tf.Tensor | "causal", past: LayerKV[] | null, offset: tf.Tensor | null = null): { logits: tf.Tensor3D; kv: LayerKV[]; hidden: tf.Tensor3D } {
    const { n_head, n_embd: d } = this.config;
    const f = fusedOps();
    const [B, t] = ids.shape;
    const hd = d / n_head;
    const tok = f.embed(ids.reshape([-1]) as tf.Tensor1D, this.wte).reshape([B, t, d]);
    const posEmb = f.embed(pos.reshape([-1]) as tf.Tensor1D, this.wpe).reshape([...pos.shape, d]);
    let x = (offset ? tok.add(posEmb).add(offset) : tok.add(posEmb)) as tf.Tensor3D;
    const kv: LayerKV[] = [];
    this.blocks.forEach((b, l) => {
      const qkv = f.linear(f.layerNorm(x, b.ln1_g, b.ln1_b), b.attn_w, b.attn_b) as tf.Tensor3D;
      let y: tf.Tensor;
      if (bias === "causal") {
        y = f.causalAttention(qkv, n_head);
      } else {
        const [q, kNew, vNew] = tf.unstack(qkv.reshape([B, t, 3, n_head, hd]).transpose([2, 0, 3, 1, 4])) as [tf.Tensor4D, tf.Tensor4D, tf.Tensor4D]; // each [B, H, t, hd]
        const prev = past?.[l];
        const k = prev ? tf.concat([prev.k, kNew], 2) : kNew;
        const v = prev ? tf.concat([prev.v, vNew], 2) : vNew;
        kv.push({ k, v });
        y = f.attention(q, k, v, bias, 1 / Math.sqrt(hd)).transpose([0, 2, 1, 3]).reshape([B, t, d]);
      }
      x = x.add(f.linear(y, b.proj_w, b.proj_b));
      x = x.add(f.linear(f.gelu(f.linear(f.layerNorm(x, b.ln2_g, b.ln2_b), b.fc_w, b.fc_b)), b.fc2_w, b.fc2_b));
    });
    const hidden = f.layerNorm(x, this.lnf_g, this.lnf_b);
    return { logits: f.linear(hidden, this.wte, null, true) as tf.Tensor3D, kv, hidden };
  }

  dispose(): void {
    for (const v of this.variables()) v.dispose();
  }
}

export function disposeCache(cache: KVCache): void {
  for (const { k, v } of cache.layers) tf.dispose([k, v]);
}

/**
 * Keeps only `rows` of the batch (e.g. those still generating), in that order, and drops the left
 * padding they no longer need. Consumes `cache`.
 */
export function selectCacheRows(cache: KVCache, rows: number[]): KVCache {
  const pad = rows.map((r) => cache.pad[r]!);
  const trim = Math.min(...pad);
  const idx = tf.tensor1d(rows, "int32");
  const layers = cache.layers.map(({ k, v }) =>
    tf.tidy(() => ({
      k: tf.gather(k, idx, 0).slice([0, 0, trim, 0], [-1, -1, -1, -1]) as tf.Tensor4D,
      v: tf.gather(v, idx, 0).slice([0, 0, trim, 0], [-1, -1, -1, -1]) as tf.Tensor4D,
    })),
  );
  idx.dispose();
  disposeCache(cache);
  return { layers, length: cache.length - trim, pad: pad.map((p) => p - trim), tokens: rows.map((r) => cache.tokens[r]!) };
}

export type { ContinuationScore };

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
