/**
 * Sampling from the policy with a KV cache: prefill the (left-padded) prompts once, then feed one
 * token per row per step. Each step takes one uniform per row from the lab's seeded Rng (in row
 * order), so a run is reproducible and its randomness checkpoints as one integer; the distribution
 * shaping (temperature, top-k, top-p) and the draw from that uniform follow one rule (drawToken),
 * run natively inside the decode step where the backend has one (the torch backend: one call per
 * token for the whole batch, only the drawn tokens read back), else here on the read-back logits.
 *
 * A completion's `ids` are every generated token, up to and including a stop sequence's tokens or
 * the EOS token, and `logprobs` are their log-probabilities under the model's untempered
 * distribution (log_softmax of the logits) — exactly what a trainer needs to score the rollout.
 * `text` is the decoded bytes without the stop sequence and EOS.
 */
import { z } from "zod";
import { tf } from "../backend/index.js";
import { Rng } from "../core/index.js";
import { selectCacheRows, disposeCache, type Policy } from "./model.js";
import type { DrawSpec, Drawn } from "./ops.js";
import { BOS, decode, encode } from "./tokenizer.js";

export const SamplingConfig = z.object({
  max_new_tokens: z.number().int().nonnegative().default(64),
  /** 0: greedy (argmax; draws nothing from the Rng). */
  temperature: z.number().min(0).default(1),
  /** Keep the k most likely tokens; 0: off. */
  top_k: z.number().int().nonnegative().default(0),
  /** Keep the smallest set of most likely tokens whose probability reaches p; 1: off. */
  top_p: z.number().gt(0).max(1).default(1),
  /** A row ends when its generated text ends with one of these. */
  stop: z.array(z.string()).default([]),
  /** Seeds a fresh Rng when no `rng` is passed. */
  seed: z.number().int().default(0),
});
export type SamplingConfig = z.infer<typeof SamplingConfig>;

export interface Completion {
  /** Decoded generation, without a matched stop sequence or EOS. */
  text: string;
  /** Generated token ids, including a matched stop sequence's tokens or the EOS token. */
  ids: number[];
  /** log p(ids[i]) under log_softmax(logits), untempered and unfiltered. */
  logprobs: number[];
  stop_reason: "stop" | "length" | "eos";
  /** The stop sequence that ended the row, when stop_reason is "stop". */
  stop_sequence?: string;
}

/**
 * Samples a completion for each prompt (text, encoded with a leading BOS; or token ids as given).
 * Prompts longer than block_size keep their last block_size tokens. With `rng`, draws advance it
 * (save `rng.state` to resume the stream); otherwise a fresh Rng(seed) is used. Draws go row by
 * row within a step, so a row's sample depends on the rows beside it: same batch, same seed, same
 * result.
 */
export function sample(policy: Policy, prompts: (string | number[])[], opts: Partial<SamplingConfig> & { rng?: Rng } = {}): Completion[] {
  const c = SamplingConfig.parse(opts);
  const rng = opts.rng ?? new Rng(c.seed);
  const { block_size: T, vocab_size: V } = policy.config;
  const rows = prompts.map((p) => {
    const ids = typeof p === "string" ? encode(p, { bos: true }) : [...p];
    return ids.length ? ids.slice(-T) : [BOS];
  });
  // Longest first, so of two stops ending at the same token the longer one is cut from the text.
  const stops = c.stop.filter((s) => s.length > 0).map((s) => ({ text: s, ids: encode(s) })).sort((a, b) => b.ids.length - a.ids.length);
  const out: Completion[] = rows.map(() => ({ text: "", ids: [], logprobs: [], stop_reason: "length" }));
  if (rows.length === 0 || c.max_new_tokens === 0) return out;

  // One uniform per row per step, drawn before the step (row order): the same stream whichever side draws.
  const spec = (n: number): DrawSpec => ({ temperature: c.temperature, top_k: c.top_k, top_p: c.top_p, uniforms: c.temperature === 0 ? [] : Array.from({ length: n }, () => rng.next()) });
  // Prefill: rows left-padded to a common width (the pad value is never attended to).
  const W = Math.max(...rows.map((r) => r.length));
  const pad = rows.map((r) => W - r.length);
  const input = tf.tensor2d(rows.map((r, i) => [...new Array<number>(pad[i]!).fill(BOS), ...r]), [rows.length, W], "int32");
  let draw = spec(rows.length);
  let { logits, cache, next: drawn } = policy.forwardCached(input, null, pad, draw);
  input.dispose();

  let active = rows.map((_, i) => i); // completion index of each cache row
  for (;;) {
    const picked = drawn ?? drawLast(logits, V, draw);
    logits.dispose();
    const keep: number[] = [];
    const next: number[] = [];
    active.forEach((row, j) => {
      const tok = picked.tokens[j]!;
      const o = out[row]!;
      o.ids.push(tok);
      o.logprobs.push(picked.logprobs[j]!);
      const stop = tok === BOS ? undefined : stops.find((s) => endsWith(o.ids, s.ids));
      if (tok !== BOS && !stop && o.ids.length < c.max_new_tokens) {
        keep.push(j);
        next.push(tok);
        return;
      }
      o.stop_reason = tok === BOS ? "eos" : stop ? "stop" : "length";
      if (stop) o.stop_sequence = stop.text;
      o.text = decode(o.ids.slice(0, o.ids.length - (stop?.ids.length ?? 0))); // decode drops EOS
    });
    if (keep.length === 0) break;
    if (keep.length < active.length) cache = selectCacheRows(cache, keep);
    active = keep.map((j) => active[j]!);
    const x = tf.tensor2d(next, [next.length, 1], "int32");
    draw = spec(next.length);
    ({ logits, cache, next: drawn } = policy.forwardCached(x, cache, undefined, draw));
    x.dispose();
  }
  disposeCache(cache);
  return out;
}

/** Greedy or temperature sampling of up to `maxTokens` bytes after `prompt` (the text only). */
export function generate(policy: Policy, prompt: string, opts: { maxTokens?: number; temperature?: number; seed?: number } = {}): string {
  return sample(policy, [prompt], { max_new_tokens: opts.maxTokens ?? 64, temperature: opts.temperature ?? 0, seed: opts.seed ?? 0 })[0]!.text;
}

/** Reads the last position's logits [B, V] back and draws each row's token here (drawToken). */
function drawLast(logits: tf.Tensor3D, V: number, spec: DrawSpec): Drawn {
  const t = logits.shape[1];
  const lastT = logits.slice([0, t - 1, 0], [-1, 1, -1]);
  const last = lastT.dataSync() as Float32Array; // [B · V]
  lastT.dispose();
  const tokens: number[] = [];
  const logprobs: number[] = [];
  for (let j = 0; j < logits.shape[0]; j++) {
    const l = last.subarray(j * V, (j + 1) * V);
    const tok = drawToken(l, spec, spec.uniforms[j] ?? 0);
    tokens.push(tok);
    logprobs.push(logSoftmaxAt(l, tok));
  }
  return { tokens, logprobs };
}

/**
 * The draw rule (the native decode step follows it too: sampleRows in native/torch_backend.cc):
 * temperature 0 → the first argmax; else the tokens most likely first (ties by id), cut to the top
 * k, weighted softmax(l / temperature), cut to the smallest prefix whose mass reaches top_p, and the
 * token where u · mass falls in that order.
 */
export function drawToken(l: Float32Array, c: Pick<DrawSpec, "temperature" | "top_k" | "top_p">, u: number): number {
  return c.temperature === 0 ? argmax(l) : draw(l, c, u);
}

function argmax(l: Float32Array): number {
  let best = 0;
  for (let i = 1; i < l.length; i++) if (l[i]! > l[best]!) best = i;
  return best;
}

/** log_softmax(l)[tok], in float64. */
function logSoftmaxAt(l: Float32Array, tok: number): number {
  let m = -Infinity;
  for (const x of l) m = Math.max(m, x);
  let s = 0;
  for (const x of l) s += Math.exp(x - m);
  return l[tok]! - m - Math.log(s);
}

/** One draw from softmax(l / temperature), restricted to the top-k, then to the top-p mass, at uniform u. */
function draw(l: Float32Array, c: Pick<DrawSpec, "temperature" | "top_k" | "top_p">, u0: number): number {
  // Most likely first; ties by id, so the order (hence the draw) is deterministic.
  let order = Array.from(l.keys()).sort((a, b) => l[b]! - l[a]! || a - b);
  if (c.top_k > 0) order = order.slice(0, c.top_k);
  const m = l[order[0]!]!;
  let p = order.map((i) => Math.exp((l[i]! - m) / c.temperature));
  let total = p.reduce((a, b) => a + b, 0);
  if (c.top_p < 1) {
    let n = 0;
    for (let acc = 0; n < p.length && acc < c.top_p * total; n++) acc += p[n]!;
    order = order.slice(0, Math.max(1, n));
    p = p.slice(0, order.length);
    total = p.reduce((a, b) => a + b, 0);
  }
  let u = u0 * total;
  for (let i = 0; i < order.length; i++) if ((u -= p[i]!) < 0) return order[i]!;
  return order[order.length - 1]!; // rounding left u a hair above 0
}

function endsWith(ids: number[], tail: number[]): boolean {
  if (tail.length > ids.length) return false;
  for (let i = 1; i <= tail.length; i++) if (ids[ids.length - i] !== tail[tail.length - i]) return false;
  return true;
}
