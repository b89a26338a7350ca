/**
 * Statistics for comparisons over a handful of seeds: the sample standard deviation (ddof = 1; the
 * population std understates spread at n = 3–5) and a paired percentile bootstrap of a mean difference.
 */
import { Rng, mean } from "../core/index.js";

/** Sample standard deviation (ddof = 1); null for fewer than two values. */
export function sampleStd(xs: number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
}

export interface BootstrapCI {
  /** Mean of the paired differences treatment − baseline. */
  mean_diff: number;
  /** Percentile interval of the resampled means. */
  lo: number;
  hi: number;
  level: number;
  /** Pairs (seeds) the difference is over. */
  n: number;
  resamples: number;
}

/**
 * Percentile bootstrap CI of mean(diffs): resample the paired differences (one per seed) with
 * replacement `resamples` times. With n ≤ 5 the percentile interval is known to be too narrow (it
 * cannot reflect more spread than the few values show); it is reported as measured, with n beside it.
 */
export function bootstrapMeanCI(diffs: number[], opts: { resamples?: number; level?: number; seed?: number } = {}): BootstrapCI | null {
  const n = diffs.length;
  if (n === 0) return null;
  const resamples = opts.resamples ?? 10_000;
  const level = opts.level ?? 0.95;
  const rng = new Rng(opts.seed ?? 13);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += diffs[Math.floor(rng.next() * n)]!;
    means[b] = s / n;
  }
  means.sort();
  const q = (p: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(p * resamples)))]!;
  return { mean_diff: mean(diffs), lo: q((1 - level) / 2), hi: q(1 - (1 - level) / 2), level, n, resamples };
}
