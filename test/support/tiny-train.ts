/** A tiny, deterministic training setup shared by the checkpoint tests and their child process. */
import { tf } from "../../lib/backend/index.js";
import type { Rng } from "../../lib/core/random.js";
import type { Policy, PolicyConfig } from "../../lib/train/model.js";
import { encode } from "../../lib/train/tokenizer.js";

export const TINY: Partial<PolicyConfig> = { block_size: 16, n_layer: 1, n_head: 2, n_embd: 16, seed: 7 };

const CORPUS = encode("the quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. ");

/** One Adam step of next-byte prediction on B windows drawn from the corpus by `rng`. */
export function trainStep(policy: Policy, optimizer: tf.Optimizer, rng: Rng, B = 2, T = 12): number {
  const starts = Array.from({ length: B }, () => Math.floor(rng.next() * (CORPUS.length - T - 1)));
  const x = tf.tensor2d(starts.map((s) => CORPUS.slice(s, s + T)), [B, T], "int32");
  const y = tf.tensor2d(starts.map((s) => CORPUS.slice(s + 1, s + T + 1)), [B, T], "int32");
  const target = tf.oneHot(y, policy.config.vocab_size);
  const loss = optimizer.minimize(() => tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(policy.forward(x)), target), -1))) as tf.Scalar, true, policy.variables())!;
  const value = loss.dataSync()[0]!;
  tf.dispose([x, y, target, loss]);
  return value;
}

/** Every weight, flattened, in policy.variables() order. */
export function flatWeights(policy: Policy): Float32Array {
  const parts = policy.variables().map((v) => v.dataSync() as Float32Array);
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) (out.set(p, o), (o += p.length));
  return out;
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
