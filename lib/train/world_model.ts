/**
 * The world-model head: SDPO's second mode (systems-framing.md: "parameter-isolated adapter +
 * `<deliberate>` token, reading wm_tuples/, gated OFF by default").
 *
 * Given a state and an action (a wm_tuples item: what the OUTER tree or an interactive episode
 * recorded at one env step), the head predicts the env's next observation (next_state, byte by byte)
 * and the outcome (the best reward reachable below that step). It runs on the policy's own trunk,
 * read top to bottom:
 *
 *   [<deliberate>] state-tail "\n» " action "\n« " next_state
 *        │                                         ▲ next-state bytes: (h + h·A·B) · wteᵀ   (tied, frozen)
 *        └ BOS's slot + e_deliberate               └ outcome: σ(w_o · (h + h·A·B) + b_o) at the "« "
 *
 * Its parameters — the `<deliberate>` embedding e_deliberate [d], the low-rank adapter A [d, r],
 * B [r, d] on the trunk's final hidden state (B starts at 0: an untrained head reads next_state
 * exactly as the policy would), and the outcome probe w_o [d], b_o — are the only ones its loss
 * updates (tf.variableGrads over head.variables(), with its own Adam and gradient clip). The policy's
 * own forward never reads them, so without `<deliberate>` the policy's outputs are those of a run
 * without the head (test/world-model.test.ts checks it to numerical tolerance after training with it).
 *
 * Both placements the seed leaves open: inside the trainer's step (WorldModelStepper: one head step
 * per trainer step on the current trunk; `world_model: {enabled: true, …}` in the train config) and
 * as an offline pass over a store's wm_tuples (trainWorldModel; `composer-lab world-model train`).
 * evaluateWorldModel gives held-out next-state loss and outcome calibration against the outcome
 * prior and the policy without the adapter; worldModelScorer is the OUTER tree's confidence gate.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { tf } from "../backend/index.js";
import { lineChart, type Figure } from "../viz/index.js";
import { Rng, mean } from "../core/index.js";
import { HeldoutSplit, RunLayout, openStore, type SectionItem } from "../store/index.js";

type WmTuple = SectionItem<"wm_tuples">;
import { loadCheckpoint, saveCheckpoint } from "./checkpoint.js";
import { Policy } from "./model.js";
import { fusedAdam, matmul, transposeLast } from "./ops.js";
import { bootstrapMeanCI, type BootstrapCI } from "./stats.js";
import { BOS, encode } from "./tokenizer.js";

/** Where the head's wm_tuples come from: a store (a folder or s3://…) and a run id in it. */
export const WorldModelSource = z.object({ store: z.string().min(1), run: z.string().min(1) });
export type WorldModelSource = z.infer<typeof WorldModelSource>;

export const WorldModelConfig = z.object({
  /** Off by default (the seed's "gated OFF"): the trainer then never builds or reads the head. */
  enabled: z.boolean().default(false),
  /** The head's loss weight in the step's total (its gradient reaches the head's parameters only). */
  weight: z.number().min(0).default(1),
  /** Rank r of the adapter A [d, r] · B [r, d]. */
  adapter_rank: z.number().int().positive().default(4),
  /** The wm_tuples to read (required when enabled). */
  source: WorldModelSource.nullable().default(null),
  /** Within the head's loss: next-state CE + outcome_weight · outcome BCE. */
  outcome_weight: z.number().min(0).default(1),
  lr: z.number().positive().default(1e-2),
  batch_size: z.number().int().positive().default(8),
  /** The offline pass's steps (the trainer's placement takes one head step per trainer step). */
  steps: z.number().int().min(0).default(200),
  /** next_state bytes predicted per tuple at most (also capped at a quarter of the block). */
  next_state_bytes: z.number().int().positive().default(48),
  /** Share of the tuples' tasks held out for evaluation (by a seeded hash of the task id). */
  holdout_fraction: z.number().min(0).max(0.9).default(0.25),
  seed: z.number().int().default(0),
  grad_clip: z.number().positive().nullable().default(1),
});
export type WorldModelConfig = z.infer<typeof WorldModelConfig>;
export type WorldModelConfigInput = z.input<typeof WorldModelConfig>;

/** The part of a wm_tuples item the head reads. */
export type Transition = Pick<WmTuple, "state" | "action" | "next_state" | "outcome"> & { task_id?: string };

/** One tuple as the head's input: ids (BOS first: the `<deliberate>` slot), where the outcome is read, the next-state targets. */
export interface WmRow {
  ids: number[];
  /** Index in ids whose hidden state predicts next_state[0] and the outcome (the end of "« "). */
  at: number;
  targets: number[];
  outcome: number;
}

/**
 * A tuple → its input row within block_size tokens: the next_state's first bytes (at most
 * next_state_bytes and a quarter of the block), the action (head and tail kept when long, at most a
 * third), and the state's tail in what is left (the latest observations and the function stub).
 */
export function wmRow(t: Transition, blockSize: number, nextStateBytes = 48): WmRow {
  const next = encode(t.next_state).slice(0, Math.max(1, Math.min(nextStateBytes, Math.floor(blockSize / 4))));
  const aMax = Math.floor(blockSize / 3);
  let action = encode(t.action);
  if (action.length > aMax) action = [...action.slice(0, Math.floor(aMax / 2)), ...encode("…"), ...action.slice(-(aMax - Math.floor(aMax / 2) - 3))];
  const sep1 = encode("\n» ");
  const sep2 = encode("\n« ");
  // inputs = [BOS] + ctx + next minus its last byte: at most blockSize tokens
  const room = Math.max(0, blockSize - 1 - sep1.length - action.length - sep2.length - Math.max(0, next.length - 1));
  const state = room > 0 ? encode(t.state).slice(-room) : [];
  const ctx = [...state, ...sep1, ...action, ...sep2];
  return { ids: [BOS, ...ctx, ...next.slice(0, -1)], at: ctx.length, targets: next, outcome: Math.min(1, Math.max(0, t.outcome)) };
}

/** Rows → tensors: ids [B, T] (right-padded), next-state selection [B, C, T], targets/mask [B, C], outcome selection [B, 1, T], outcomes [B]. */
function packWm(rows: WmRow[]) {
  const B = rows.length;
  const T = Math.max(1, ...rows.map((r) => r.ids.length));
  const C = Math.max(1, ...rows.map((r) => r.targets.length));
  const ids = new Int32Array(B * T).fill(BOS);
  const select = new Float32Array(B * C * T);
  const at = new Float32Array(B * T);
  const targets = new Int32Array(B * C);
  const mask = new Float32Array(B * C);
  rows.forEach((r, b) => {
    r.ids.forEach((x, i) => (ids[b * T + i] = x));
    at[b * T + r.at] = 1;
    r.targets.forEach((y, j) => {
      select[(b * C + j) * T + r.at + j] = 1;
      targets[b * C + j] = y;
      mask[b * C + j] = 1;
    });
  });
  return {
    ids: tf.tensor2d(ids, [B, T], "int32"), select: tf.tensor3d(select, [B, C, T]), at: tf.tensor3d(at, [B, 1, T]),
    targets: tf.tensor2d(targets, [B, C], "int32"), mask: tf.tensor2d(mask, [B, C]), outcome: tf.tensor1d(rows.map((r) => r.outcome)),
    T, tokens: rows.reduce((n, r) => n + r.ids.length, 0),
  };
}
type PackedWm = ReturnType<typeof packWm>;
const disposeWm = (p: PackedWm) => tf.dispose([p.ids, p.select, p.at, p.targets, p.mask, p.outcome]);

export interface WorldModelLoss {
  loss: tf.Scalar;
  /** Mean cross-entropy per next_state byte (nats). */
  next_state_ce: tf.Scalar;
  /** Mean binary cross-entropy of the outcome (soft labels in [0, 1]). */
  outcome_bce: tf.Scalar;
}

/**
 * The world-model head's loss: the mean cross-entropy of the next_state bytes (logits [B, C, V],
 * targets [B, C], mask [B, C]: the masked mean over every predicted byte) plus outcome_weight × the
 * mean binary cross-entropy of the outcome logits [B] against the outcomes [B] (soft labels in
 * [0, 1]; log σ written stably as −softplus(−x)). Pure: a function of its tensors only.
 */
export function worldModelLoss(a: { nextLogits: tf.Tensor3D; targets: tf.Tensor2D; mask: tf.Tensor2D; outcomeLogits: tf.Tensor1D; outcome: tf.Tensor1D; outcome_weight: number }): WorldModelLoss {
  return tf.tidy(() => {
    const logp = tf.logSoftmax(a.nextLogits);
    const picked = tf.sum(tf.mul(logp, tf.oneHot(a.targets, a.nextLogits.shape[2]).toFloat()), -1);
    const next_state_ce = tf.neg(tf.sum(tf.mul(picked, a.mask))).div(tf.maximum(tf.sum(a.mask), 1)) as tf.Scalar;
    const x = a.outcomeLogits;
    // −[y log σ(x) + (1 − y) log(1 − σ(x))] = softplus(x) − y·x
    const outcome_bce = tf.mean(tf.sub(tf.softplus(x), tf.mul(a.outcome, x))) as tf.Scalar;
    const loss = next_state_ce.add(outcome_bce.mul(a.outcome_weight)) as tf.Scalar;
    return { loss, next_state_ce, outcome_bce };
  });
}

const HEAD_FORMAT = "composer-lab-wm-head/1";
export const WorldModelHeadFile = z.object({
  format: z.literal(HEAD_FORMAT),
  config: WorldModelConfig,
  n_embd: z.number().int().positive(),
  weights: z.object({ e_deliberate: z.array(z.number()), A: z.array(z.number()), B: z.array(z.number()), w_o: z.array(z.number()), b_o: z.array(z.number()) }),
  /** The trunk it was trained on: a weights-only policy checkpoint beside head.json. */
  trunk: z.string(),
  /** The outcome prior of its training tuples, and what the run that wrote it measured. */
  prior: z.number(),
  trained_steps: z.number().int(),
  eval: z.unknown().optional(),
});
export type WorldModelHeadFile = z.infer<typeof WorldModelHeadFile>;

/** The head's parameters and its forward passes over a trunk it does not own. */
export class WorldModelHead {
  readonly e_deliberate: tf.Variable;
  readonly A: tf.Variable;
  readonly B: tf.Variable;
  readonly w_o: tf.Variable;
  readonly b_o: tf.Variable;
  trainedSteps = 0;

  constructor(readonly config: WorldModelConfig, readonly n_embd: number, prior = 0.5) {
    const d = n_embd;
    const r = config.adapter_rank;
    const p = Math.min(1 - 1e-3, Math.max(1e-3, prior));
    this.e_deliberate = tf.variable(tf.zeros([d]));
    this.A = tf.variable(tf.randomNormal([d, r], 0, 1 / Math.sqrt(d), "float32", config.seed + 0x77));
    this.B = tf.variable(tf.zeros([r, d]));
    this.w_o = tf.variable(tf.zeros([d, 1]));
    this.b_o = tf.variable(tf.tensor1d([Math.log(p / (1 - p))]));
  }

  variables(): tf.Variable[] {
    return [this.e_deliberate, this.A, this.B, this.w_o, this.b_o];
  }

  parameterCount(): number {
    return this.variables().reduce((n, v) => n + v.size, 0);
  }

  /** Next-state logits [B, C, V] and outcome logits [B] for packed rows (differentiable in the head's parameters). */
  private forward(policy: Policy, p: PackedWm): { nextLogits: tf.Tensor3D; outcomeLogits: tf.Tensor1D } {
    const d = this.n_embd;
    const [B, T] = p.ids.shape;
    // <deliberate>: the first slot's input embedding gets the head's own vector
    const offset = tf.concat([this.e_deliberate.reshape([1, 1, d]), tf.zeros([1, T - 1, d])], 1);
    const h = policy.hidden(p.ids, offset);
    const flat = h.reshape([B * T, d]);
    const adapted = flat.add(matmul(matmul(flat, this.A), this.B)).reshape([B, T, d]);
    const nextLogits = matmul(matmul(p.select, adapted), transposeLast(policy.wte)) as tf.Tensor3D;
    const at = matmul(p.at, adapted).reshape([B, d]);
    const outcomeLogits = matmul(at, this.w_o).reshape([B]).add(this.b_o) as tf.Tensor1D;
    return { nextLogits, outcomeLogits };
  }

  /** One Adam step on `rows`: the gradient is taken for the head's parameters only. */
  step(policy: Policy, rows: WmRow[], optimizer: tf.Optimizer, weight = 1): { loss: number; next_state_ce: number; outcome_bce: number; grad_norm: number; tokens: number } {
    if (policy.config.n_embd !== this.n_embd) throw new Error(`world-model head of width ${this.n_embd} on a trunk of width ${policy.config.n_embd}`);
    const p = packWm(rows);
    let ce = 0;
    let bce = 0;
    const { value, grads } = tf.variableGrads(() => {
      const f = this.forward(policy, p);
      const l = worldModelLoss({ ...f, targets: p.targets, mask: p.mask, outcome: p.outcome, outcome_weight: this.config.outcome_weight });
      ce = l.next_state_ce.dataSync()[0]!;
      bce = l.outcome_bce.dataSync()[0]!;
      return l.loss.mul(weight) as tf.Scalar;
    }, this.variables());
    const norm = tf.tidy(() => tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))).dataSync()[0]!);
    const clip = this.config.grad_clip;
    if (clip !== null && norm > clip) for (const k of Object.keys(grads)) {
      const g = grads[k]!;
      grads[k] = g.mul(clip / (norm + 1e-6));
      g.dispose();
    }
    optimizer.applyGradients(grads);
    const loss = value.dataSync()[0]!;
    tf.dispose([value, ...Object.values(grads)]);
    const tokens = p.tokens;
    disposeWm(p);
    this.trainedSteps++;
    return { loss, next_state_ce: ce, outcome_bce: bce, grad_norm: norm, tokens };
  }

  /**
   * Per row: the predicted outcome p = σ(logit), the head's next-state CE (nats per byte) and, with
   * `baseline`, the plain policy's CE on the same bytes (no `<deliberate>`, no adapter).
   */
  predict(policy: Policy, rows: WmRow[], opts: { baseline?: boolean; batch?: number } = {}): { p: number[]; ce: number[]; policy_ce: number[]; bytes: number[] } {
    const out = { p: [] as number[], ce: [] as number[], policy_ce: [] as number[], bytes: [] as number[] };
    const bs = opts.batch ?? 16;
    for (let i = 0; i < rows.length; i += bs) {
      const chunk = rows.slice(i, i + bs);
      const pk = packWm(chunk);
      const r = tf.tidy(() => {
        const f = this.forward(policy, pk);
        const perRow = (logits: tf.Tensor3D) => {
          const picked = tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(pk.targets, logits.shape[2]).toFloat()), -1);
          return tf.neg(tf.sum(tf.mul(picked, pk.mask), 1)).div(tf.maximum(tf.sum(pk.mask, 1), 1));
        };
        const base = opts.baseline ? perRow(matmul(pk.select, policy.forward(pk.ids)) as tf.Tensor3D) : null;
        return { p: tf.sigmoid(f.outcomeLogits).arraySync() as number[], ce: perRow(f.nextLogits).arraySync() as number[], base: base ? (base.arraySync() as number[]) : [] };
      });
      disposeWm(pk);
      out.p.push(...r.p);
      out.ce.push(...r.ce);
      out.policy_ce.push(...r.base);
      out.bytes.push(...chunk.map((c) => c.targets.length));
    }
    return out;
  }

  toFile(trunk: string, prior: number, evalResult?: unknown): WorldModelHeadFile {
    const arr = (v: tf.Variable) => Array.from(v.dataSync());
    return {
      format: HEAD_FORMAT, config: this.config, n_embd: this.n_embd, trunk, prior, trained_steps: this.trainedSteps,
      weights: { e_deliberate: arr(this.e_deliberate), A: arr(this.A), B: arr(this.B), w_o: arr(this.w_o), b_o: arr(this.b_o) },
      ...(evalResult !== undefined ? { eval: evalResult } : {}),
    };
  }

  static fromFile(f: WorldModelHeadFile): WorldModelHead {
    const h = new WorldModelHead(f.config, f.n_embd, f.prior);
    const set = (v: tf.Variable, xs: number[], what: string) => {
      if (xs.length !== v.size) throw new Error(`head.json: weights.${what} has ${xs.length} values, expected ${v.size}`);
      v.assign(tf.tensor(xs, v.shape));
    };
    set(h.e_deliberate, f.weights.e_deliberate, "e_deliberate");
    set(h.A, f.weights.A, "A");
    set(h.B, f.weights.B, "B");
    set(h.w_o, f.weights.w_o, "w_o");
    set(h.b_o, f.weights.b_o, "b_o");
    h.trainedSteps = f.trained_steps;
    return h;
  }

  dispose(): void {
    for (const v of this.variables()) v.dispose();
  }
}

/** A source's wm_tuples, validated by the store's schema. */
export async function readWmTuples(source: WorldModelSource): Promise<WmTuple[]> {
  const tuples = await new RunLayout(openStore(source.store), source.run).read("wm_tuples");
  if (!tuples.length) throw new Error(`world_model.source: ${source.store} run ${source.run} has no wm_tuples`);
  return tuples;
}

/** Train / held-out tuples, split by task (a seeded hash of the task id: held-out tasks are never trained on). */
export function splitWmTuples<T extends Transition>(tuples: T[], fraction: number, seed: number): { train: T[]; heldout: T[] } {
  if (fraction <= 0) return { train: tuples, heldout: [] };
  const s = new HeldoutSplit(fraction, seed);
  const r = s.split(tuples, (t) => t.task_id ?? t.state);
  return { train: r.train, heldout: r.holdout };
}

/**
 * The trainer's placement: one head step per trainer step, on a batch of the source's training
 * tuples and the current trunk, with its own Adam (the policy's optimizer never sees the head).
 */
export class WorldModelStepper {
  private rng: Rng;
  private optimizer: tf.Optimizer;
  private rows: WmRow[];
  readonly heldout: WmRow[];
  readonly prior: number;

  private constructor(readonly config: WorldModelConfig, readonly head: WorldModelHead, train: Transition[], heldout: Transition[], blockSize: number) {
    this.rng = new Rng((config.seed * 0x2545f491 + 0x3c6ef372) | 0);
    this.optimizer = fusedAdam(config.lr);
    this.rows = train.map((t) => wmRow(t, blockSize, config.next_state_bytes));
    this.heldout = heldout.map((t) => wmRow(t, blockSize, config.next_state_bytes));
    this.prior = mean(train.map((t) => Math.min(1, Math.max(0, t.outcome))));
  }

  /** Reads the source, splits it, and builds a head for `policy`'s trunk (restored from `restoreDir`/head.json when there). */
  static async open(config: WorldModelConfig, policy: Policy, restoreDir?: string): Promise<WorldModelStepper> {
    if (!config.source) throw new Error("world_model.source: required when world_model.enabled (a store and a run with wm_tuples)");
    const { train, heldout } = splitWmTuples(await readWmTuples(config.source), config.holdout_fraction, config.seed);
    if (!train.length) throw new Error(`world_model.source: every task's tuples are held out (holdout_fraction ${config.holdout_fraction})`);
    const prior = mean(train.map((t) => Math.min(1, Math.max(0, t.outcome))));
    const file = restoreDir && join(restoreDir, "head.json");
    const head = file && existsSync(file) ? WorldModelHead.fromFile(WorldModelHeadFile.parse(JSON.parse(readFileSync(file, "utf8")))) : new WorldModelHead(config, policy.config.n_embd, prior);
    return new WorldModelStepper(config, head, train, heldout, policy.config.block_size);
  }

  step(policy: Policy): { loss: number; next_state_ce: number; outcome_bce: number } {
    const batch = Array.from({ length: Math.min(this.config.batch_size, this.rows.length) }, () => this.rows[Math.floor(this.rng.next() * this.rows.length)]!);
    return this.head.step(policy, batch, this.optimizer, this.config.weight);
  }

  evaluate(policy: Policy): WorldModelEval | null {
    return this.heldout.length ? evaluateRows(policy, this.head, this.heldout, this.prior) : null;
  }

  dispose(): void {
    this.optimizer.dispose();
    this.head.dispose();
  }
}

export const ReliabilityBin = z.object({ lo: z.number(), hi: z.number(), n: z.number().int(), mean_p: z.number().nullable(), mean_y: z.number().nullable() });
export const OutcomeScores = z.object({ brier: z.number(), accuracy: z.number(), log_loss: z.number(), ece: z.number() });
export const WorldModelEval = z.object({
  /** Held-out tuples and their next_state bytes. */
  n: z.number().int(),
  bytes: z.number().int(),
  next_state: z.object({
    /** Mean CE per next_state byte (nats), averaged per tuple: the head, and the policy without the adapter (no `<deliberate>`). */
    head_ce: z.number(), policy_ce: z.number(),
    /** Per-tuple (policy − head) CE: bootstrap CI of the mean (tuples of a task are correlated: it is optimistic). */
    diff_ci: z.custom<BootstrapCI | null>(),
  }),
  outcome: z.object({
    /** Positive = outcome ≥ 0.5; Brier and log loss against the soft outcome. */
    positive_rate: z.number(),
    head: OutcomeScores,
    /** The training tuples' mean outcome, predicted for every tuple. */
    prior: OutcomeScores.extend({ p: z.number() }),
    /** Per-tuple (prior − head) squared error: bootstrap CI of the mean. */
    brier_diff_ci: z.custom<BootstrapCI | null>(),
    reliability: z.array(ReliabilityBin),
  }),
});
export type WorldModelEval = z.infer<typeof WorldModelEval>;

/** Brier, accuracy at 0.5, log loss and expected calibration error (10 equal-width bins) of predictions p against soft outcomes y. */
export function outcomeScores(p: number[], y: number[], bins = 10): z.infer<typeof OutcomeScores> & { reliability: z.infer<typeof ReliabilityBin>[] } {
  const n = p.length;
  const eps = 1e-6;
  const reliability = Array.from({ length: bins }, (_, b) => {
    const lo = b / bins;
    const hi = (b + 1) / bins;
    const idx = p.flatMap((x, i) => (x >= lo && (x < hi || (b === bins - 1 && x <= hi)) ? [i] : []));
    return { lo, hi, n: idx.length, mean_p: idx.length ? mean(idx.map((i) => p[i]!)) : null, mean_y: idx.length ? mean(idx.map((i) => y[i]!)) : null };
  });
  return {
    brier: mean(p.map((x, i) => (x - y[i]!) ** 2)),
    accuracy: mean(p.map((x, i) => ((x >= 0.5) === (y[i]! >= 0.5) ? 1 : 0))),
    log_loss: mean(p.map((x, i) => -(y[i]! * Math.log(Math.max(eps, x)) + (1 - y[i]!) * Math.log(Math.max(eps, 1 - x))))),
    ece: reliability.reduce((s, b) => s + (b.n ? (b.n / n) * Math.abs(b.mean_p! - b.mean_y!) : 0), 0),
    reliability,
  };
}

function evaluateRows(policy: Policy, head: WorldModelHead, rows: WmRow[], prior: number): WorldModelEval {
  const r = head.predict(policy, rows, { baseline: true });
  const y = rows.map((x) => x.outcome);
  const h = outcomeScores(r.p, y);
  const pr = outcomeScores(rows.map(() => prior), y);
  const { reliability, ...headScores } = h;
  const { reliability: _r, ...priorScores } = pr;
  return {
    n: rows.length, bytes: r.bytes.reduce((a, b) => a + b, 0),
    next_state: { head_ce: mean(r.ce), policy_ce: mean(r.policy_ce), diff_ci: bootstrapMeanCI(r.policy_ce.map((b, i) => b - r.ce[i]!)) },
    outcome: {
      positive_rate: mean(y.map((v) => (v >= 0.5 ? 1 : 0))), head: headScores, prior: { ...priorScores, p: prior },
      brier_diff_ci: bootstrapMeanCI(y.map((v, i) => (prior - v) ** 2 - (r.p[i]! - v) ** 2)), reliability,
    },
  };
}

/** Held-out next-state loss and outcome calibration of `head` on `tuples`, against the prior and the policy without the adapter. */
export function evaluateWorldModel(policy: Policy, head: WorldModelHead, tuples: Transition[], prior: number): WorldModelEval {
  if (!tuples.length) throw new Error("evaluateWorldModel: no tuples");
  return evaluateRows(policy, head, tuples.map((t) => wmRow(t, policy.config.block_size, head.config.next_state_bytes)), prior);
}

export interface WorldModelTrainResult {
  head: WorldModelHead;
  prior: number;
  train: number;
  heldout: number;
  history: { step: number; loss: number; next_state_ce: number; outcome_bce: number }[];
  eval: WorldModelEval | null;
  seconds: number;
}

/** The offline placement: `config.steps` head steps over the training tuples on a frozen trunk, then the held-out evaluation. */
export function trainWorldModel(policy: Policy, tuples: Transition[], config: WorldModelConfigInput, opts: { onStep?: (s: { step: number; loss: number }) => void } = {}): WorldModelTrainResult {
  const t0 = performance.now();
  const c = WorldModelConfig.parse(config);
  const { train, heldout } = splitWmTuples(tuples, c.holdout_fraction, c.seed);
  if (!train.length) throw new Error("trainWorldModel: no training tuples");
  const prior = mean(train.map((t) => Math.min(1, Math.max(0, t.outcome))));
  const head = new WorldModelHead(c, policy.config.n_embd, prior);
  const rows = train.map((t) => wmRow(t, policy.config.block_size, c.next_state_bytes));
  const rng = new Rng((c.seed * 0x2545f491 + 0x3c6ef372) | 0);
  const optimizer = fusedAdam(c.lr);
  const history: WorldModelTrainResult["history"] = [];
  for (let s = 1; s <= c.steps; s++) {
    const batch = Array.from({ length: Math.min(c.batch_size, rows.length) }, () => rows[Math.floor(rng.next() * rows.length)]!);
    const r = head.step(policy, batch, optimizer, c.weight);
    history.push({ step: s, loss: r.loss, next_state_ce: r.next_state_ce, outcome_bce: r.outcome_bce });
    opts.onStep?.({ step: s, loss: r.loss });
  }
  optimizer.dispose();
  const ev = heldout.length ? evaluateWorldModel(policy, head, heldout, prior) : null;
  return { head, prior, train: train.length, heldout: heldout.length, history, eval: ev, seconds: (performance.now() - t0) / 1000 };
}

/** Writes the head (head.json) and, beside it, its trunk as a weights-only checkpoint (trunk/). */
export async function saveWorldModel(dir: string, head: WorldModelHead, policy: Policy, opts: { prior: number; step?: number; eval?: unknown }): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await saveCheckpoint(join(dir, "trunk"), { policy, rngState: 0, step: opts.step ?? 0, keep: 1 });
  writeFileSync(join(dir, "head.json"), JSON.stringify(head.toFile("trunk", opts.prior, opts.eval)) + "\n");
  return dir;
}

/** A saved head and its trunk (`--gate-checkpoint DIR`: a folder with head.json and trunk/). */
export async function loadWorldModel(dir: string): Promise<{ head: WorldModelHead; policy: Policy; file: WorldModelHeadFile }> {
  const path = join(dir, "head.json");
  if (!existsSync(path)) throw new Error(`${dir}: no head.json (a world-model head folder is written by \`composer-lab world-model train --out DIR\` or a train run's world_model/)`);
  const raw = JSON.parse(readFileSync(path, "utf8"));
  const r = WorldModelHeadFile.safeParse(raw);
  if (!r.success) throw new Error(`${path}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
  const ck = await loadCheckpoint(resolve(dir, r.data.trunk));
  return { head: WorldModelHead.fromFile(r.data), policy: ck.policy, file: r.data };
}

/**
 * The head as an outcome scorer (lib/outer's confidence gate takes any object of this shape): for a
 * state and the actions proposed at it (the texts wm_tuples carry), the predicted outcome of each.
 */
export function worldModelScorer(policy: Policy, head: WorldModelHead, name = "world-model"): { name: string; score(state: string, actions: string[]): Promise<number[]> } {
  return {
    name,
    score: async (state, actions) => {
      if (!actions.length) return [];
      const rows = actions.map((action) => wmRow({ state, action, next_state: " ", outcome: 0 }, policy.config.block_size, head.config.next_state_bytes));
      return head.predict(policy, rows).p;
    },
  };
}

/** The reliability diagram of one or more evaluations: each bin's mean predicted outcome (x) against the
 *  mean observed outcome (y), the head beside the prior, and the diagonal a calibrated predictor lies on. */
export function reliabilityFigure(evals: Record<string, WorldModelEval>, opts: { title?: string } = {}): Figure {
  const series: Record<string, { x: number[]; y: (number | null)[] }> = { calibrated: { x: [0, 1], y: [0, 1] } };
  for (const [name, e] of Object.entries(evals)) {
    const bins = e.outcome.reliability.filter((b) => b.n > 0);
    series[`${name} (Brier ${e.outcome.head.brier.toFixed(3)}, ECE ${e.outcome.head.ece.toFixed(3)}, n ${e.n})`] = { x: bins.map((b) => b.mean_p!), y: bins.map((b) => b.mean_y!) };
  }
  const first = Object.values(evals)[0];
  if (first) series[`prior p = ${first.outcome.prior.p.toFixed(2)} (Brier ${first.outcome.prior.brier.toFixed(3)})`] = { x: [first.outcome.prior.p], y: [first.outcome.positive_rate] };
  return lineChart(series, { title: opts.title ?? "world-model head: outcome calibration (held-out tuples)", xTitle: "predicted outcome (bin mean)", yTitle: "observed outcome (bin mean)" });
}
