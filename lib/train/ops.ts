/**
 * Matrix products with hand-written gradients. On the wasm backend a matMul with a transposed
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
