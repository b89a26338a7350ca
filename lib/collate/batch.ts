/** Fitting prompt + completion into a window, and padding a batch (the trainer makes tensors). */
import type { Seq } from "./schema.js";

/** The last `room` ids, keeping a leading BOS in place. */
export function leftTruncate(ids: number[], room: number, bos: number | null = null): number[] {
  if (ids.length <= room) return ids;
  if (room <= 0) return [];
  if (bos !== null && ids[0] === bos) return [bos, ...ids.slice(ids.length - (room - 1))];
  return ids.slice(ids.length - room);
}

/**
 * How many completion tokens to keep next to a prompt of `promptLen` in `maxLen`: all of them when
 * they fit, else whatever the prompt leaves but never less than half the window (so the prompt is cut
 * first, and the completion only down to maxLen/2).
 */
export function completionBudget(promptLen: number, completionLen: number, maxLen: number): number {
  if (!Number.isInteger(maxLen) || maxLen < 2) throw new RangeError(`maxLen must be an integer ≥ 2 (got ${maxLen})`);
  return Math.min(completionLen, Math.max(maxLen - promptLen, Math.floor(maxLen / 2)));
}

/** prompt ++ completion in at most maxLen tokens (prompt left-truncated), mask on the completion. */
export function promptCompletion(prompt: number[], completion: number[], maxLen = Infinity, bos: number | null = null): Seq {
  let c = completion;
  let p = prompt;
  if (Number.isFinite(maxLen) && p.length + c.length > maxLen) {
    c = c.slice(0, completionBudget(p.length, c.length, maxLen));
    p = leftTruncate(p, maxLen - c.length, bos);
  }
  return { ids: [...p, ...c], mask: [...p.map(() => 0), ...c.map(() => 1)] };
}

export interface Batch {
  ids: number[][];
  mask: number[][];
  lengths: number[];
}

/** Right-pads every sequence to the longest with `padId` (mask 0 on padding). */
export function padBatch(seqs: readonly Seq[], padId: number): Batch {
  const width = Math.max(0, ...seqs.map((s) => s.ids.length));
  const batch: Batch = { ids: [], mask: [], lengths: [] };
  seqs.forEach((s, i) => {
    if (s.mask.length !== s.ids.length) throw new Error(`padBatch: sequence ${i} has ${s.ids.length} ids but ${s.mask.length} mask entries`);
    const pad = width - s.ids.length;
    batch.ids.push([...s.ids, ...new Array<number>(pad).fill(padId)]);
    batch.mask.push([...s.mask, ...new Array<number>(pad).fill(0)]);
    batch.lengths.push(s.ids.length);
  });
  return batch;
}
