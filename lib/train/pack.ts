/** Windowed sequences → the tensors of one forward pass, and the logits at their completion positions. */
import { tf } from "../backend/index.js";
import type { Seq } from "../collate/index.js";
import type { Policy } from "./model.js";
import { matmul } from "./ops.js";
import { BOS } from "./tokenizer.js";

/**
 * Packs windowed sequences (lib/collate's promptCompletion / sdpoSequences: at most block_size + 1
 * tokens) for one forward pass: input ids [B, T] (right-padded: causal attention never looks at the
 * padding), a selection tensor [B, C, T] that picks the logits predicting each target token (a
 * matmul, so gradients flow on every backend), targets [B, C] and their mask [B, C].
 */
export function packRows(input: Seq[], blockSize: number) {
  const rows = input.map((t) => {
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
export type Packed = ReturnType<typeof packRows>;
export const disposePacked = (p: Packed | null) => p && tf.dispose([p.ids, p.select, p.targets, p.mask]);

/** Logits at the completion positions only: [B, C, V]. */
export const completionLogits = (policy: Policy, p: Packed): tf.Tensor3D => tf.tidy(() => matmul(p.select, policy.forward(p.ids)));
