/**
 * DiLoCo over an object store (Douillard et al., 2023, Alg. 1): each worker takes H inner
 * optimizer steps from the shared parameters θ, then publishes its pseudo-gradient
 * Δ_r = θ_start − θ_end as round_{NNNNNN}/rank_{RRRR}; the outer step averages the Δ_r of the
 * ranks present and applies SGD with Nesterov momentum: v ← μ·v + Δ, θ ← θ − lr·(Δ + μ·v).
 * Rank 0 leads each round: it waits for the others up to timeout_s (for a rank the last round
 * dropped, only as long again as the others took, at least 1 s), drops stragglers (logged),
 * and commits round_{NNNNNN}/{params.bin, momentum.bin, commit.json} (commit.json last, so a
 * round is complete exactly when it exists). A restarted worker resumes from the last commit.
 * With H = 1, outer lr 1 and no momentum this is synchronous data-parallel averaging.
 *
 * What a worker trains is a DilocoModel (parameters as one flat vector, H inner steps on its rank's
 * shard): the toy linear regression here by default, or lib/train's PolicyDilocoModel (the tfjs
 * policy on SFT rows) — the store stage never imports train.
 */
import { z } from "zod";
import { Rng } from "../core/index.js";
import type { Store } from "./store.js";

export const DilocoConfig = z.object({
  rounds: z.number().int().positive().default(5),
  /** H: inner steps per round. */
  inner_steps: z.number().int().positive().default(4),
  inner_lr: z.number().positive().default(0.05),
  outer_lr: z.number().positive().default(0.7),
  momentum: z.number().min(0).max(1).default(0.9),
  /** A rank missing this long after the leader published is dropped from the round. */
  timeout_s: z.number().positive().default(30),
  poll_ms: z.number().int().positive().default(50),
  // the toy objective: linear regression, one data shard per rank
  dim: z.number().int().positive().default(8),
  samples_per_worker: z.number().int().positive().default(64),
  /** Minibatch size (≥ samples_per_worker: full batch). */
  batch: z.number().int().positive().default(16),
  noise: z.number().min(0).default(0.1),
  seed: z.number().int().default(0),
});
export type DilocoConfig = z.infer<typeof DilocoConfig>;

export const RoundCommit = z.object({
  round: z.number().int(),
  ranks: z.array(z.number().int()),
  dropped: z.array(z.number().int()),
  loss: z.number(),
  committed_at: z.string(),
});
export type RoundCommit = z.infer<typeof RoundCommit>;

const pad = (n: number, w: number) => String(n).padStart(w, "0");
export const roundKey = (prefix: string, round: number) => `${prefix}/round_${pad(round, 6)}`;
export const rankKey = (prefix: string, round: number, rank: number) => `${roundKey(prefix, round)}/rank_${pad(rank, 4)}.bin`;

const toBytes = (v: Float32Array) => new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
const fromBytes = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A seeded Gaussian stream (Box–Muller over the lab's mulberry32). */
function gaussian(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.normal();
}

/** What a DiLoCo worker trains: parameters as one flat vector, the same θ₀ on every rank. */
export interface DilocoModel {
  init(): Float32Array | Promise<Float32Array>;
  /** H inner optimizer steps from θ on this rank's shard (round r uses minibatches (r−1)·H …); returns θ_end. */
  inner(theta: Float32Array, round: number): Float32Array | Promise<Float32Array>;
  /** This rank's loss at θ (the leader logs the mean over ranks). */
  loss(theta: Float32Array): number | Promise<number>;
}

/** The toy objective: y = X·w* + noise, a shard per rank; the model is the weight vector. */
export class ToyRegression implements DilocoModel {
  readonly X: Float32Array[];
  readonly y: Float32Array;
  constructor(readonly cfg: DilocoConfig, readonly rank: number) {
    const wStar = ToyRegression.trueWeights(cfg);
    const g = gaussian(cfg.seed * 1000 + rank + 1);
    this.X = Array.from({ length: cfg.samples_per_worker }, () => Float32Array.from({ length: cfg.dim }, () => g()));
    this.y = Float32Array.from(this.X, (x) => x.reduce((a, xi, i) => a + xi * wStar[i]!, 0) + cfg.noise * g());
  }
  static trueWeights(cfg: DilocoConfig): Float32Array {
    const g = gaussian(cfg.seed * 1000);
    return Float32Array.from({ length: cfg.dim }, () => g());
  }
  static init(cfg: DilocoConfig): Float32Array {
    return new Float32Array(cfg.dim); // zeros: every rank starts from the same θ
  }
  init(): Float32Array {
    return ToyRegression.init(this.cfg);
  }
  /** ∇ of the mean squared error over the minibatch used at inner step `step`. */
  grad(w: Float32Array, step: number): Float32Array {
    const n = this.X.length;
    const b = Math.min(this.cfg.batch, n);
    const gsum = new Float32Array(w.length);
    for (let j = 0; j < b; j++) {
      const i = (step * b + j) % n;
      const x = this.X[i]!;
      const err = x.reduce((a, xi, k) => a + xi * w[k]!, 0) - this.y[i]!;
      for (let k = 0; k < w.length; k++) gsum[k]! += (2 * err * x[k]!) / b;
    }
    return gsum;
  }
  loss(w: Float32Array): number {
    let s = 0;
    this.X.forEach((x, i) => {
      const e = x.reduce((a, xi, k) => a + xi * w[k]!, 0) - this.y[i]!;
      s += e * e;
    });
    return s / this.X.length;
  }
  /** H inner SGD steps from θ; returns θ_end. */
  inner(theta: Float32Array, round: number): Float32Array {
    const w = Float32Array.from(theta);
    for (let h = 0; h < this.cfg.inner_steps; h++) {
      const g = this.grad(w, (round - 1) * this.cfg.inner_steps + h);
      for (let k = 0; k < w.length; k++) w[k]! -= this.cfg.inner_lr * g[k]!;
    }
    return w;
  }
}

/** The outer step: v ← μ·v + Δ; θ ← θ − lr·(Δ + μ·v) (Nesterov). Pure. */
export function outerStep(theta: Float32Array, v: Float32Array, delta: Float32Array, lr: number, mu: number): { theta: Float32Array; v: Float32Array } {
  const v2 = Float32Array.from(v, (vi, k) => mu * vi + delta[k]!);
  return { theta: Float32Array.from(theta, (t, k) => t - lr * (delta[k]! + mu * v2[k]!)), v: v2 };
}

export function meanOf(vs: Float32Array[]): Float32Array {
  const out = new Float32Array(vs[0]!.length);
  for (const v of vs) for (let k = 0; k < v.length; k++) out[k]! += v[k]! / vs.length;
  return out;
}

/** The last round with a commit (0 = initial parameters), or -1. */
export async function lastCommittedRound(store: Store, prefix: string): Promise<number> {
  const keys = await store.list(`${prefix}/round_`);
  const rounds = keys.filter((k) => k.endsWith("/commit.json")).map((k) => Number(k.match(/round_(\d+)\//)![1]));
  return rounds.length ? Math.max(...rounds) : -1;
}

async function readCommit(store: Store, prefix: string, round: number): Promise<{ commit: RoundCommit; theta: Float32Array; v: Float32Array } | null> {
  const c = await store.get(`${roundKey(prefix, round)}/commit.json`);
  // Empty or torn: the commit is still being written (stores whose PUT is not atomic, e.g. s3rver's
  // files, show a growing object); the caller polls again.
  let parsed: unknown;
  try {
    parsed = c && c.length ? JSON.parse(c.toString("utf8")) : null;
  } catch {
    parsed = null;
  }
  if (!parsed) return null;
  const theta = await store.get(`${roundKey(prefix, round)}/params.bin`);
  const v = await store.get(`${roundKey(prefix, round)}/momentum.bin`);
  if (!theta || !v) throw new Error(`${store.uri}/${roundKey(prefix, round)}: commit without params`);
  return { commit: RoundCommit.parse(parsed), theta: fromBytes(theta), v: fromBytes(v) };
}

/** Polls until `round`'s commit is readable whole (a listed commit may still be being written). */
async function waitForCommit(o: { store: Store; prefix: string; rank: number }, round: number, cfg: { timeout_s: number; poll_ms: number }) {
  const deadline = Date.now() + cfg.timeout_s * 1000 * 3;
  let c: Awaited<ReturnType<typeof readCommit>>;
  while (!(c = await readCommit(o.store, o.prefix, round))) {
    if (Date.now() > deadline) throw new Error(`rank ${o.rank}: round ${round} was never committed in ${cfg.timeout_s * 3} s (is rank 0 alive?)`);
    await sleep(cfg.poll_ms);
  }
  return c;
}

async function writeCommit(store: Store, prefix: string, round: number, theta: Float32Array, v: Float32Array, commit: Omit<RoundCommit, "committed_at">): Promise<void> {
  await store.put(`${roundKey(prefix, round)}/params.bin`, toBytes(theta));
  await store.put(`${roundKey(prefix, round)}/momentum.bin`, toBytes(v));
  await store.put(`${roundKey(prefix, round)}/commit.json`, JSON.stringify({ ...commit, committed_at: new Date().toISOString() }));
}

export interface WorkerOptions {
  store: Store;
  /** Key prefix of this run's rendezvous (e.g. runs/<id>/diloco_rendezvous). */
  prefix: string;
  rank: number;
  workers: number;
  config?: Partial<DilocoConfig>;
  log?: (m: string) => void;
  /** Test hook: a pause inside each inner phase (to be killed mid-round). */
  inner_delay_ms?: number;
  /** The model of a rank (default: ToyRegression on the config's toy objective). The leader also
   *  builds every rank's model to log the global loss. */
  model?: (rank: number) => DilocoModel;
}

export interface WorkerResult {
  rank: number;
  resumed_from: number;
  rounds_done: number;
  final_round: number;
}

/** One DiLoCo worker (rank 0 also leads the outer steps). */
export async function runWorker(o: WorkerOptions): Promise<WorkerResult> {
  const cfg = DilocoConfig.parse(o.config ?? {});
  const log = o.log ?? (() => {});
  const make = o.model ?? ((r: number) => new ToyRegression(cfg, r));
  const model = make(o.rank);
  const all = o.rank === 0 ? Array.from({ length: o.workers }, (_, r) => (r === o.rank ? model : make(r))) : [];
  const globalLoss = async (w: Float32Array) => (await Promise.all(all.map((m) => m.loss(w)))).reduce((a, b) => a + b, 0) / all.length;
  let last = await lastCommittedRound(o.store, o.prefix);
  if (last < 0) {
    if (o.rank === 0) {
      const theta = await model.init();
      await writeCommit(o.store, o.prefix, 0, theta, new Float32Array(theta.length), { round: 0, ranks: [], dropped: [], loss: await globalLoss(theta) });
    }
    const deadline = Date.now() + cfg.timeout_s * 1000 * 3;
    while ((last = await lastCommittedRound(o.store, o.prefix)) < 0) {
      if (Date.now() > deadline) throw new Error(`rank ${o.rank}: no initial parameters after ${cfg.timeout_s * 3} s`);
      await sleep(cfg.poll_ms);
    }
  }
  const resumed_from = last;
  let state = await waitForCommit(o, last, cfg);
  let done = 0;
  const ranks = Array.from({ length: o.workers }, (_, r) => r);
  for (let round = last + 1; round <= cfg.rounds; round++) {
    const thetaEnd = await model.inner(state.theta, round);
    if (o.inner_delay_ms) await sleep(o.inner_delay_ms);
    const delta = Float32Array.from(state.theta, (t, k) => t - thetaEnd[k]!);
    await o.store.put(rankKey(o.prefix, round, o.rank), toBytes(delta));
    if (o.rank === 0) {
      const start = Date.now();
      let deadline = start + cfg.timeout_s * 1000;
      // a rank the last round dropped is waited for only as long again as the others took (≥ 1 s),
      // not the whole timeout every round: a worker the executor lost never comes back (a killed
      // rank cost each later round timeout_s); one that is only slow rejoins by keeping up
      const late = new Set(state.commit.dropped);
      let present: number[] = [];
      for (;;) {
        const keys = new Set(await o.store.list(`${roundKey(o.prefix, round)}/rank_`));
        present = ranks.filter((r) => keys.has(rankKey(o.prefix, round, r)));
        if (present.length === o.workers || Date.now() > deadline) break;
        if (late.size && ranks.every((r) => late.has(r) || present.includes(r))) {
          const now = Date.now();
          deadline = Math.min(deadline, now + Math.max(1000, now - start));
          late.clear();
        }
        await sleep(cfg.poll_ms);
      }
      const dropped = ranks.filter((r) => !present.includes(r));
      if (dropped.length) log(`round ${round}: dropping straggler rank(s) ${dropped.join(", ")} after ${cfg.timeout_s} s`);
      const deltas = await Promise.all(present.map(async (r) => fromBytes((await o.store.get(rankKey(o.prefix, round, r)))!)));
      const next = outerStep(state.theta, state.v, meanOf(deltas), cfg.outer_lr, cfg.momentum);
      const loss = await globalLoss(next.theta);
      await writeCommit(o.store, o.prefix, round, next.theta, next.v, { round, ranks: present, dropped, loss });
      log(`round ${round}: ${present.length}/${o.workers} ranks, loss ${loss.toFixed(5)}`);
    }
    // Everyone (the leader included) continues from the committed parameters.
    state = await waitForCommit(o, round, cfg);
    done++;
  }
  return { rank: o.rank, resumed_from, rounds_done: done, final_round: cfg.rounds };
}

export interface DilocoSummary {
  rounds: number;
  workers: number;
  droppedRanks: { round: number; rank: number }[];
  loss: number;
  lossHistory: number[];
  params: number[];
}

/** Reads what a run committed. */
export async function summarizeRun(store: Store, prefix: string, workers: number): Promise<DilocoSummary> {
  const last = await lastCommittedRound(store, prefix);
  if (last < 0) throw new Error(`${store.uri}/${prefix}: no committed round`);
  const lossHistory: number[] = [];
  const droppedRanks: { round: number; rank: number }[] = [];
  let params: number[] = [];
  for (let r = 0; r <= last; r++) {
    const c = await readCommit(store, prefix, r);
    if (!c) continue;
    lossHistory.push(c.commit.loss);
    for (const rank of c.commit.dropped) droppedRanks.push({ round: r, rank });
    params = Array.from(c.theta);
  }
  return { rounds: last, workers, droppedRanks, loss: lossHistory[lossHistory.length - 1]!, lossHistory, params };
}

/** Synchronous data-parallel SGD on the same shards (the reference DiLoCo must match with H=1,
 *  outer lr 1, no momentum). */
export function syncDataParallel(cfg: Partial<DilocoConfig>, workers: number, rounds: number): Float32Array {
  const c = DilocoConfig.parse(cfg);
  const models = Array.from({ length: workers }, (_, r) => new ToyRegression(c, r));
  let w = ToyRegression.init(c);
  for (let t = 1; t <= rounds; t++) {
    const g = meanOf(models.map((m) => m.grad(w, t - 1)));
    w = Float32Array.from(w, (wi, k) => wi - c.inner_lr * g[k]!);
  }
  return w;
}
