/**
 * The `torch` backend (lib/backend/torch.ts, libtorch through native/torch_backend.cc) against
 * tfjs's own cpu backend, which is the reference: every registered kernel on seeded random inputs
 * (broadcasting, scalars, empty and size-1 dimensions, negative axes, each dtype it accepts); the
 * kernels the lab actually runs (recorded from a Policy training step, sampling, every loss and Adam
 * on the cpu backend) must all be registered; the Policy's logits and gradients agree; a 50-step
 * training run follows wasm's loss curve. Skipped, saying why, only where setup could not build the
 * addon (build/torch_backend.status).
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TORCH_KERNELS, initBackend, loadTorchAddon, profileKernels, tf, withBackend } from "../lib/backend/index.js";
import { TORCH_FUSED_KERNELS, torchBuildStatusPath } from "../lib/backend/torch.js";
import { useFusedKernels } from "../lib/train/ops.js";
import { Policy, VOCAB_SIZE, dpoLoss, entropy, groupAdvantages, policyGradientLoss, sample, sdpoLoss, sftLoss, tokenLogprobs } from "../lib/train/index.js";

let why = "";
try {
  loadTorchAddon();
} catch (e) {
  why = (e as Error).message;
}
if (why) console.warn(`torch parity suite skipped: ${why}${existsSync(torchBuildStatusPath()) ? ` (${readFileSync(torchBuildStatusPath(), "utf8").trim()})` : ""}`);

// ---- seeded inputs --------------------------------------------------------------------------------

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Dtype = "float32" | "int32" | "bool";
interface Spec {
  shape: number[];
  dtype?: Dtype;
  /** [lo, hi): uniform floats, or integers for int32 (default [-2, 2) / [-5, 5)). */
  range?: [number, number];
  values?: number[];
}
type Inputs = Record<string, Spec> | Spec[];
interface Case {
  inputs: Inputs;
  attrs?: Record<string, unknown>;
  /** Relative and absolute tolerance for float outputs (default 1e-5). */
  tol?: number;
}

const f = (...shape: number[]): Spec => ({ shape });
const i32 = (shape: number[], range: [number, number] = [-5, 5]): Spec => ({ shape, dtype: "int32", range });
const bool = (...shape: number[]): Spec => ({ shape, dtype: "bool" });

function values(spec: Spec, next: () => number): number[] {
  if (spec.values) return spec.values;
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const dtype = spec.dtype ?? "float32";
  const [lo, hi] = spec.range ?? (dtype === "int32" ? [-5, 5] : [-2, 2]);
  return Array.from({ length: n }, () => (dtype === "bool" ? (next() < 0.5 ? 1 : 0) : dtype === "int32" ? Math.floor(lo + next() * (hi - lo)) : lo + next() * (hi - lo)));
}

const binaryCases = (range?: [number, number]): Case[] => {
  const s = (...shape: number[]): Spec => ({ shape, range });
  return [
    { inputs: { a: s(3, 4), b: s(3, 4) } },
    { inputs: { a: s(2, 1, 3), b: s(4, 3) } }, // broadcast both ways
    { inputs: { a: s(), b: s(2, 3) } }, // scalar
    { inputs: { a: s(1), b: s(5, 1) } },
    { inputs: { a: s(0, 3), b: s(3) } }, // empty
  ];
};
const intBinary = (range: [number, number] = [-5, 5]): Case[] => [
  { inputs: { a: i32([6], range), b: i32([6], range) } },
  { inputs: { a: i32([2, 3], range), b: i32([3], range) } },
];
const compareCases: Case[] = [...binaryCases(), { inputs: { a: { shape: [8], values: [1, 2, 3, 4, 5, 6, 7, 8] }, b: { shape: [8], values: [1, 3, 2, 4, 6, 5, 7, 9] } } }, ...intBinary()];
const unaryCases = (range?: [number, number], input = "x"): Case[] => [
  { inputs: { [input]: { shape: [3, 4], range } } },
  { inputs: { [input]: { shape: [], range } } },
  { inputs: { [input]: { shape: [2, 0, 3], range } } },
  { inputs: { [input]: { shape: [1, 5, 1], range } } },
];
const boolBinary: Case[] = [{ inputs: { a: bool(3, 4), b: bool(3, 4) } }, { inputs: { a: bool(2, 1), b: bool(3) } }];

/** Inputs and attrs for every kernel the torch backend registers. */
const CASES: Record<string, Case[]> = {
  Add: [...binaryCases(), ...intBinary()],
  Sub: [...binaryCases(), ...intBinary()],
  Multiply: [...binaryCases(), ...intBinary()],
  RealDiv: [...binaryCases([0.5, 3]), { inputs: { a: f(2, 3), b: { shape: [3], values: [-1.5, 0.25, 4] } } }],
  FloorDiv: [{ inputs: { a: i32([8], [-9, 9]), b: { shape: [8], dtype: "int32", values: [1, -2, 3, -4, 5, 2, -3, 7] } } }, { inputs: { a: f(2, 3), b: { shape: [3], values: [-1.5, 0.5, 2] } } }],
  Mod: [{ inputs: { a: i32([8], [-9, 9]), b: { shape: [8], dtype: "int32", values: [1, -2, 3, -4, 5, 2, -3, 7] } } }, { inputs: { a: f(3, 4), b: { shape: [4], values: [-1.5, 0.5, 2, 3] } } }],
  Maximum: [...binaryCases(), ...intBinary()],
  Minimum: [...binaryCases(), ...intBinary()],
  Pow: [...binaryCases([0.2, 2]), { inputs: { a: f(2, 3), b: { shape: [], values: [2] } } }, { inputs: { a: i32([5], [-3, 4]), b: { shape: [5], dtype: "int32", values: [0, 1, 2, 3, 2] } } }],
  SquaredDifference: [...binaryCases(), ...intBinary()],
  Greater: compareCases,
  GreaterEqual: compareCases,
  Less: compareCases,
  LessEqual: compareCases,
  Equal: compareCases,
  NotEqual: compareCases,
  LogicalAnd: boolBinary,
  LogicalOr: boolBinary,
  Select: [
    { inputs: { condition: bool(3, 4), t: f(3, 4), e: f(3, 4) } },
    { inputs: { condition: bool(5), t: i32([5]), e: i32([5]) } },
    { inputs: { condition: bool(0, 2), t: f(0, 2), e: f(0, 2) } },
  ],
  AddN: [{ inputs: [f(2, 3), f(2, 3), f(2, 3)] }, { inputs: [i32([4]), i32([4])] }, { inputs: [f()] }],

  Identity: [...unaryCases(), { inputs: { x: i32([3]) } }, { inputs: { x: bool(4) } }],
  Neg: [...unaryCases(), { inputs: { x: i32([5]) } }],
  Exp: unaryCases(),
  Log: unaryCases([0.01, 10]),
  Log1p: unaryCases([-0.9, 10]),
  Sqrt: unaryCases([0, 10]),
  Rsqrt: unaryCases([0.05, 10]),
  Square: [...unaryCases(), { inputs: { x: i32([5]) } }],
  Abs: [...unaryCases(), { inputs: { x: i32([5]) } }],
  Sign: [...unaryCases(), { inputs: { x: { shape: [3], values: [-2, 0, 3] } } }],
  Floor: unaryCases([-5, 5]),
  Ceil: unaryCases([-5, 5]),
  Reciprocal: unaryCases([0.1, 4]),
  Tanh: unaryCases([-6, 6]),
  Sigmoid: unaryCases([-10, 10]),
  Relu: unaryCases(),
  Erf: unaryCases([-3, 3]),
  Softplus: [...unaryCases([-30, 30]), { inputs: { x: { shape: [6], values: [-100, -20, -1e-3, 0, 15, 100] } } }],
  LogicalNot: [{ inputs: { x: bool(3, 4) } }, { inputs: { x: bool(0) } }],
  IsNan: [{ inputs: { x: { shape: [4], values: [NaN, 0, Infinity, -1] } } }],
  ZerosLike: [...unaryCases(), { inputs: { x: i32([3]) } }],
  OnesLike: [...unaryCases(), { inputs: { x: i32([3]) } }],
  Cast: [
    { inputs: { x: { shape: [6], values: [-2.7, -0.5, 0, 0.4, 1.9, 3] } }, attrs: { dtype: "int32" } },
    { inputs: { x: i32([2, 3]) }, attrs: { dtype: "float32" } },
    { inputs: { x: { shape: [4], values: [0, -0.1, 2, 0] } }, attrs: { dtype: "bool" } },
    { inputs: { x: bool(5) }, attrs: { dtype: "float32" } },
    { inputs: { x: bool(5) }, attrs: { dtype: "int32" } },
    { inputs: { x: i32([5], [-2, 2]) }, attrs: { dtype: "bool" } },
  ],
  ClipByValue: [{ inputs: { x: f(3, 4) }, attrs: { clipValueMin: -0.5, clipValueMax: 1.2 } }, { inputs: { x: f() }, attrs: { clipValueMin: 0, clipValueMax: 0.1 } }],
  Fill: [
    { inputs: {}, attrs: { shape: [2, 3], value: 1.5, dtype: "float32" } },
    { inputs: {}, attrs: { shape: [4], value: 7, dtype: "int32" } },
    { inputs: {}, attrs: { shape: [], value: -2, dtype: "float32" } },
  ],
  Range: [
    { inputs: {}, attrs: { start: 0, stop: 7, step: 1, dtype: "int32" } },
    { inputs: {}, attrs: { start: 0.5, stop: 3, step: 0.7, dtype: "float32" } },
    { inputs: {}, attrs: { start: 5, stop: 0, step: -2, dtype: "float32" } },
    { inputs: {}, attrs: { start: 3, stop: 3, step: 1, dtype: "int32" } },
  ],

  Sum: [
    { inputs: { x: f(3, 4, 5) }, attrs: { axis: [1], keepDims: false } },
    { inputs: { x: f(3, 4, 5) }, attrs: { axis: [0, 2], keepDims: true } },
    { inputs: { x: f(3, 4) }, attrs: { axis: -1, keepDims: false } },
    { inputs: { x: f(3, 4) }, attrs: { axis: null, keepDims: false } },
    { inputs: { x: i32([4, 3]) }, attrs: { axis: [0], keepDims: false } },
    { inputs: { x: f(0, 3) }, attrs: { axis: [0], keepDims: false } },
  ],
  Mean: [
    { inputs: { x: f(3, 4, 5) }, attrs: { axis: [2], keepDims: true } },
    { inputs: { x: f(3, 4) }, attrs: { axis: null, keepDims: false } },
    { inputs: { x: f(2, 3, 4) }, attrs: { axis: [-1, 0], keepDims: false } },
  ],
  Max: [
    { inputs: { x: f(4, 38, 7) }, attrs: { reductionIndices: 2, keepDims: true } },
    { inputs: { x: f(3, 4) }, attrs: { reductionIndices: [0, 1], keepDims: false } },
    { inputs: { x: i32([3, 4]) }, attrs: { reductionIndices: [0], keepDims: false } },
  ],
  Min: [
    { inputs: { x: f(4, 5, 6) }, attrs: { axis: [1], keepDims: false } },
    { inputs: { x: i32([3, 4]) }, attrs: { axis: -1, keepDims: true } },
  ],
  Prod: [
    { inputs: { x: { shape: [3, 4], range: [0.5, 1.5] } }, attrs: { axis: [1], keepDims: false } },
    { inputs: { x: { shape: [2, 3, 2], range: [0.5, 1.5] } }, attrs: { axis: [0, 2], keepDims: true } },
  ],
  Any: [
    { inputs: { x: bool(4, 6, 11) }, attrs: { axis: -1, keepDims: false } },
    { inputs: { x: bool(3, 4) }, attrs: { axis: [0, 1], keepDims: true } },
  ],
  All: [
    { inputs: { x: bool(4, 3) }, attrs: { axis: 1, keepDims: false } },
    { inputs: { x: bool(2, 3, 2) }, attrs: { axis: [0, 2], keepDims: false } },
  ],
  ArgMax: [{ inputs: { x: f(4, 7) }, attrs: { axis: 1 } }, { inputs: { x: f(5, 3) }, attrs: { axis: 0 } }, { inputs: { x: i32([2, 3, 9], [-100, 100]) }, attrs: { axis: -1 } }],
  ArgMin: [{ inputs: { x: f(4, 7) }, attrs: { axis: 1 } }, { inputs: { x: f(5, 3) }, attrs: { axis: [0] } }],
  Cumsum: [
    { inputs: { x: f(3, 5) }, attrs: { axis: 1, exclusive: false, reverse: false } },
    { inputs: { x: f(3, 5) }, attrs: { axis: 0, exclusive: true, reverse: false } },
    { inputs: { x: f(3, 5) }, attrs: { axis: 1, exclusive: false, reverse: true } },
    { inputs: { x: f(3, 5) }, attrs: { axis: 1, exclusive: true, reverse: true } }, // (the cpu reference mishandles negative axes)
  ],

  Reshape: [
    { inputs: { x: f(2, 3, 4) }, attrs: { shape: [6, -1] } },
    { inputs: { x: i32([2, 3]) }, attrs: { shape: [6] } },
    { inputs: { x: f(1) }, attrs: { shape: [] } },
    { inputs: { x: f(0, 4) }, attrs: { shape: [2, 0, 2] } },
  ],
  Transpose: [
    { inputs: { x: f(2, 3, 4) }, attrs: { perm: [2, 0, 1] } },
    { inputs: { x: i32([2, 5]) }, attrs: { perm: [1, 0] } },
    { inputs: { x: f(2, 3, 4, 5, 2) }, attrs: { perm: [2, 0, 3, 1, 4] } },
  ],
  ExpandDims: [{ inputs: { input: f(6) }, attrs: { dim: 1 } }, { inputs: { input: f(2, 3) }, attrs: { dim: -1 } }, { inputs: { input: f() }, attrs: { dim: 0 } }],
  Slice: [
    { inputs: { x: f(6, 9, 5) }, attrs: { begin: [0, 8, 0], size: [-1, 1, -1] } },
    { inputs: { x: i32([4, 5]) }, attrs: { begin: [1, 2], size: [2, 3] } },
    { inputs: { x: f(4, 5) }, attrs: { begin: [2, 0], size: [0, -1] } },
  ],
  Concat: [
    { inputs: [f(6, 2, 9, 8), f(6, 2, 1, 8)], attrs: { axis: 2 } },
    { inputs: [i32([2, 3]), i32([2, 1]), i32([2, 2])], attrs: { axis: -1 } },
    { inputs: [f(2, 3), f(0, 3)], attrs: { axis: 0 } },
  ],
  Pack: [{ inputs: [f(3, 3), f(3, 3)], attrs: { axis: 0 } }, { inputs: [i32([4]), i32([4]), i32([4])], attrs: { axis: 1 } }, { inputs: [f(2, 3)], attrs: { axis: -1 } }],
  Unpack: [{ inputs: { value: f(1, 5, 5) }, attrs: { axis: 0 } }, { inputs: { value: f(3, 4) }, attrs: { axis: 1 } }, { inputs: { value: i32([2, 3]) }, attrs: { axis: -1 } }],
  SplitV: [
    { inputs: { x: f(6, 4, 9) }, attrs: { numOrSizeSplits: [8, 1], axis: 2 } },
    { inputs: { x: f(6, 4) }, attrs: { numOrSizeSplits: 3, axis: 0 } },
    { inputs: { x: i32([2, 7]) }, attrs: { numOrSizeSplits: [2, -1, 1], axis: -1 } },
  ],
  Tile: [{ inputs: { x: f(2, 3) }, attrs: { reps: [2, 1] } }, { inputs: { x: i32([3]) }, attrs: { reps: [3] } }, { inputs: { x: f(1, 2, 1) }, attrs: { reps: [2, 2, 3] } }],
  Reverse: [{ inputs: { x: f(3, 4) }, attrs: { dims: [0] } }, { inputs: { x: f(2, 3, 4) }, attrs: { dims: [-1, 1] } }],
  PadV2: [
    { inputs: { x: f(2, 3) }, attrs: { paddings: [[1, 0], [0, 2]], constantValue: 0.5 } },
    { inputs: { x: i32([3]) }, attrs: { paddings: [[2, 1]], constantValue: 0 } },
  ],
  GatherV2: [
    { inputs: { x: f(6, 2, 9, 8), indices: i32([5], [0, 6]) }, attrs: { axis: 0, batchDims: 0 } },
    { inputs: { x: f(4, 7), indices: i32([2, 3], [0, 7]) }, attrs: { axis: 1, batchDims: 0 } },
    { inputs: { x: i32([5, 3]), indices: i32([4], [0, 5]) }, attrs: { axis: -2, batchDims: 0 } },
  ],
  OneHot: [
    { inputs: { indices: i32([12], [0, 257]) }, attrs: { dtype: "int32", depth: 257, onValue: 1, offValue: 0 } },
    { inputs: { indices: { shape: [2, 3], dtype: "int32", values: [0, 4, -1, 5, 2, 1] } }, attrs: { dtype: "float32", depth: 5, onValue: 2, offValue: -1 } },
  ],
  UnsortedSegmentSum: [
    { inputs: { x: f(5, 3), segmentIds: i32([5], [0, 3]) }, attrs: { numSegments: 3 } },
    { inputs: { x: f(6), segmentIds: i32([6], [0, 4]) }, attrs: { numSegments: 4 } },
  ],

  BatchMatMul: [
    { inputs: { a: f(2, 3, 4), b: f(2, 4, 5) }, attrs: { transposeA: false, transposeB: false }, tol: 1e-4 },
    { inputs: { a: f(2, 4, 3), b: f(2, 5, 4) }, attrs: { transposeA: true, transposeB: true }, tol: 1e-4 },
    { inputs: { a: f(1, 3, 4), b: f(3, 5, 4) }, attrs: { transposeA: false, transposeB: true }, tol: 1e-4 },
    { inputs: { a: f(1, 64, 32), b: f(1, 32, 96) }, attrs: { transposeA: false, transposeB: false }, tol: 1e-4 },
    { inputs: { a: f(3, 0, 4), b: f(3, 4, 2) }, attrs: { transposeA: false, transposeB: false } },
  ],
  Softmax: [
    { inputs: { logits: { shape: [2, 3, 9, 9], range: [-8, 8] } }, attrs: { dim: 3 } },
    { inputs: { logits: { shape: [5, 257], range: [-30, 30] } }, attrs: { dim: -1 } },
    { inputs: { logits: { shape: [3, 4], values: [0, -1e9, -1e9, -1e9, 1, 2, -1e9, -1e9, 1, 2, 3, 4] } }, attrs: { dim: -1 } },
  ],
  TopK: [{ inputs: { x: f(6, 12, 257) }, attrs: { k: 5, sorted: true } }, { inputs: { x: f(4, 9) }, attrs: { k: 9, sorted: true } }, { inputs: { x: i32([3, 50], [-1000, 1000]) }, attrs: { k: 1, sorted: true } }],
};

// ---- running a kernel on one backend ------------------------------------------------------------

interface Result {
  shape: number[];
  dtype: string;
  values: number[];
}

function runOn(backend: "cpu" | "torch", kernel: string, c: Case, seed: number): Result[] {
  const next = rng(seed);
  const make = (s: Spec) => tf.tensor(values(s, next), s.shape, s.dtype ?? "float32");
  return tf.tidy(() => {
    if (tf.getBackend() !== backend) throw new Error(`expected the ${backend} backend, on ${tf.getBackend()}`);
    const inputs = Array.isArray(c.inputs) ? c.inputs.map(make) : Object.fromEntries(Object.entries(c.inputs).map(([k, s]) => [k, make(s)]));
    const out = tf.engine().runKernel(kernel, inputs as unknown as tf.NamedTensorMap, (c.attrs ?? {}) as tf.NamedAttrMap) as tf.Tensor | tf.Tensor[];
    return (Array.isArray(out) ? out : [out]).map((t) => ({ shape: t.shape, dtype: t.dtype, values: Array.from(t.dataSync()) }));
  });
}

function expectSame(kernel: string, got: Result[], want: Result[], tol: number): void {
  expect(got.length, `${kernel}: number of outputs`).toBe(want.length);
  want.forEach((w, o) => {
    const g = got[o]!;
    expect(g.shape, `${kernel} output ${o}: shape`).toEqual(w.shape);
    expect(g.dtype, `${kernel} output ${o}: dtype`).toBe(w.dtype);
    for (let i = 0; i < w.values.length; i++) {
      const [a, e] = [g.values[i]!, w.values[i]!];
      const ok = Number.isNaN(e) ? Number.isNaN(a) : a === e || Math.abs(a - e) <= tol + tol * Math.abs(e);
      if (!ok) throw new Error(`${kernel} output ${o}[${i}] (shape ${JSON.stringify(w.shape)}): torch ${a}, cpu ${e} (|Δ| = ${Math.abs(a - e)})`);
    }
  });
}

/** Kernel names run by `fn` (on whatever backend is active). */
const recordKernels = (fn: () => void): Set<string> => new Set(profileKernels(fn).map((k) => k.kernel));

/** One of everything the lab does with tfjs: a Policy training step (SFT loss, Adam), sampling with the KV cache, and each loss with its gradient. */
function labWorkload(): void {
  const policy = new Policy({ vocab_size: VOCAB_SIZE, block_size: 16, n_embd: 16, n_layer: 1, n_head: 2, seed: 1 });
  const opt = tf.train.adam(1e-3);
  tf.tidy(() => {
    const x = tf.tensor2d([[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]], [2, 6], "int32");
    const y = tf.tensor2d([[2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13]], [2, 6], "int32");
    const mask = tf.ones([2, 6]) as tf.Tensor2D;
    opt.minimize(() => sftLoss(policy.forward(x), y, mask), false, policy.variables());
    const logits = tf.randomNormal([2, 6, VOCAB_SIZE], 0, 1, "float32", 3) as tf.Tensor3D;
    const teacher = tf.randomNormal([2, 6, VOCAB_SIZE], 0, 1, "float32", 4) as tf.Tensor3D;
    const grad = (loss: (l: tf.Tensor3D) => tf.Scalar) => tf.grad((l: tf.Tensor) => loss(l as tf.Tensor3D))(logits);
    grad((l) => tf.sum(entropy(l)) as tf.Scalar);
    const logp = tokenLogprobs(logits, y);
    const adv = groupAdvantages([1, 0], 2, { scale_rewards: "group" });
    for (const loss_type of ["grpo", "dr_grpo", "dapo"] as const) {
      tf.grad((lp: tf.Tensor) => policyGradientLoss({ logp: lp as tf.Tensor2D, oldLogp: logp, refLogp: logp.add(0.1) as tf.Tensor2D, advantages: adv, mask, loss_type, beta: 0.04, max_completion_length: 6 }).loss)(logp);
    }
    for (const distillation_mode of ["sampled_token", "full_logits", "topk_logits"] as const) {
      const clip = distillation_mode === "sampled_token" ? {} : { is_clip: 2 };
      grad((l) => sdpoLoss({ studentLogits: l, teacherLogits: teacher, sampledIds: y, mask, distillation_mode, distillation_topk: 5, ...clip }).loss);
    }
    tf.grad((c: tf.Tensor) => dpoLoss({ policyChosenLogps: c as tf.Tensor1D, policyRejectedLogps: tf.tensor1d([-2, -1]), refChosenLogps: tf.tensor1d([-1, -1]), refRejectedLogps: tf.tensor1d([-1.5, -1]), beta: 0.1 }).loss)(tf.tensor1d([-1, -2]));
  });
  sample(policy, ["ab", "hello"], { max_new_tokens: 20, temperature: 1, top_k: 5, top_p: 0.9, seed: 2 });
  sample(policy, [[1, 2, 3]], { max_new_tokens: 3, temperature: 0 });
  opt.dispose();
  policy.dispose();
}

describe.skipIf(!!why)("torch backend vs the cpu backend", () => {
  let before: string;
  beforeAll(async () => {
    before = tf.getBackend();
    await initBackend("cpu");
    await initBackend("torch");
  });
  afterAll(async () => {
    if (before) await tf.setBackend(before);
  });

  it("every registered kernel has parity cases, and every case's kernel is registered", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(TORCH_KERNELS).sort());
  });

  it.each(Object.keys(CASES).map((k) => [k] as const))("%s matches the cpu backend", async (kernel) => {
    const cases = CASES[kernel]!;
    for (const [i, c] of cases.entries()) {
      const seed = 1000 + i;
      await tf.setBackend("cpu");
      const want = runOn("cpu", kernel, c, seed);
      await tf.setBackend("torch");
      const got = runOn("torch", kernel, c, seed);
      expectSame(`${kernel} case ${i}`, got, want, c.tol ?? 1e-5);
    }
  });

  it("the lab's workload (Policy step, Adam, sampling, every loss and gradient) uses only registered kernels", async () => {
    await tf.setBackend("cpu");
    const used = recordKernels(labWorkload);
    expect(used.size).toBeGreaterThan(30);
    const missing = [...used].filter((k) => !(k in TORCH_KERNELS));
    expect(missing, "kernels the lab runs that the torch backend lacks").toEqual([]);
    // …and the same workload runs on torch itself, leaking no native tensor: whatever tfjs still
    // tracks afterwards (the Policy's initial-value tensors, on every backend) is exactly what the
    // cpu backend leaves too, and the addon holds one handle per tfjs data buffer.
    const delta = (fn: () => void) => {
      const m0 = tf.memory();
      fn();
      const m1 = tf.memory();
      return { tensors: m1.numTensors - m0.numTensors, buffers: m1.numDataBuffers - m0.numDataBuffers };
    };
    const onCpu = delta(labWorkload);
    await tf.setBackend("torch");
    const addon = loadTorchAddon();
    // With the fused kernels off the torch backend runs exactly the cpu backend's kernels; with them
    // on (the default) the same workload runs through the Lab* kernels instead. Either way nothing leaks.
    for (const fused of [false, true]) {
      const was = useFusedKernels(fused);
      try {
        const handles = addon.live();
        let usedOnTorch = new Set<string>();
        const onTorch = delta(() => (usedOnTorch = recordKernels(labWorkload)));
        expect(onTorch).toEqual(onCpu);
        expect(addon.live() - handles).toBe(onTorch.buffers);
        if (!fused) expect([...usedOnTorch].sort()).toEqual([...used].sort());
        else expect([...usedOnTorch].filter((k) => !(k in TORCH_KERNELS) && !(k in TORCH_FUSED_KERNELS))).toEqual([]);
        if (fused) expect([...usedOnTorch].filter((k) => k.startsWith("Lab"))).toEqual(expect.arrayContaining(["LabCausalAttention", "LabCausalAttentionGrad", "LabEmbed", "LabEmbedGrad", "LabGelu", "LabGeluGrad", "LabLayerNorm", "LabLayerNormGrad", "LabLinear", "LabLinearGrad", "LabPolicyStep"]));
      } finally {
        useFusedKernels(was);
      }
    }
  });

  it("a kernel it lacks fails naming the kernel (no fallback)", async () => {
    await tf.setBackend("torch");
    expect(() => tf.tidy(() => tf.cumprod(tf.tensor1d([1, 2, 3])))).toThrow(/Kernel 'Cumprod' not registered for backend 'torch'/);
    expect(() => tf.tidy(() => tf.tensor1d(["a"] as unknown as number[], "string" as "float32"))).toThrow(/torch backend has no string tensors/);
  });

  it("the Policy's logits and every parameter's gradient agree with the cpu backend", async () => {
    const cfg = { vocab_size: VOCAB_SIZE, block_size: 32, n_embd: 32, n_layer: 2, n_head: 4, seed: 7 };
    const run = () => {
      const policy = new Policy(cfg);
      let out!: { logits: number[]; loss: number; grads: (readonly [string, number[]])[] };
      tf.tidy(() => {
        const ids = tf.tensor2d(Array.from({ length: 3 * 24 }, (_, i) => (i * 37) % 256), [3, 24], "int32");
        const y = tf.tensor2d(Array.from({ length: 3 * 24 }, (_, i) => (i * 11 + 5) % 256), [3, 24], "int32");
        const logits = Array.from(policy.forward(ids).dataSync());
        const { value, grads } = tf.variableGrads(() => sftLoss(policy.forward(ids), y, tf.ones([3, 24]) as tf.Tensor2D), policy.variables());
        out = { logits, loss: value.dataSync()[0]!, grads: policy.namedVariables().map(([n, v]) => [n, Array.from(grads[v.name]!.dataSync())] as const) };
      });
      policy.dispose();
      return out;
    };
    await tf.setBackend("cpu");
    const want = run();
    await tf.setBackend("torch");
    const got = run();
    expect(Math.abs(got.loss - want.loss)).toBeLessThan(1e-5);
    const maxDiff = (a: number[], b: number[]) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]!)), 0);
    const maxAbs = (a: number[]) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    expect(maxDiff(got.logits, want.logits)).toBeLessThan(1e-4);
    for (const [i, [name, g]] of got.grads.entries()) {
      const w = want.grads[i]![1];
      expect(maxDiff(g, w), `∂loss/∂${name}`).toBeLessThanOrEqual(1e-5 + 1e-3 * maxAbs(w));
    }
  });
});

/** Loss curves of 50 Adam steps of the same Policy on the same batches. */
function lossCurve(steps: number): number[] {
  const policy = new Policy({ vocab_size: VOCAB_SIZE, block_size: 32, n_embd: 32, n_layer: 2, n_head: 4, seed: 3 });
  const opt = tf.train.adam(3e-3);
  const next = rng(42);
  const text = Buffer.from("def add(a, b):\n    return a + b\n\nclass Stack:\n    def push(self, x):\n        self.items.append(x)\n".repeat(4));
  const losses: number[] = [];
  for (let s = 0; s < steps; s++) {
    const rows = Array.from({ length: 4 }, () => {
      const off = Math.floor(next() * (text.length - 33));
      return Array.from(text.subarray(off, off + 33));
    });
    const loss = tf.tidy(() => {
      const all = tf.tensor2d(rows, [4, 33], "int32");
      const x = all.slice([0, 0], [4, 32]) as tf.Tensor2D;
      const y = all.slice([0, 1], [4, 32]) as tf.Tensor2D;
      return opt.minimize(() => sftLoss(policy.forward(x), y, tf.ones([4, 32]) as tf.Tensor2D), true, policy.variables())!;
    });
    losses.push(loss.dataSync()[0]!);
    loss.dispose();
  }
  opt.dispose();
  policy.dispose();
  return losses;
}

describe.skipIf(!!why)("training on torch follows wasm", () => {
  /** Stated tolerance: the two curves may differ by at most this much at any of the 50 steps (float32, different summation orders). */
  const CURVE_TOL = 1e-4;

  it(`50 Adam steps: |loss_torch − loss_wasm| ≤ ${CURVE_TOL} at every step, and the loss falls`, async () => {
    const wasm = await withBackend("wasm", async () => lossCurve(50));
    const torch = await withBackend("torch", async () => lossCurve(50));
    const diffs = torch.map((l, i) => Math.abs(l - wasm[i]!));
    console.log(`torch vs wasm over 50 steps: max |Δloss| ${Math.max(...diffs).toExponential(2)}; loss ${wasm[0]!.toFixed(4)} → ${wasm[49]!.toFixed(4)} (wasm), ${torch[0]!.toFixed(4)} → ${torch[49]!.toFixed(4)} (torch)`);
    expect(Math.max(...diffs)).toBeLessThanOrEqual(CURVE_TOL);
    expect(torch[49]!).toBeLessThan(torch[0]! - 1);
  });
});
