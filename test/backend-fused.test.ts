/**
 * The torch backend's fused kernels (lib/train/ops.ts fusedOps(), native/torch_backend.cc) against
 * references that can disagree with them: the same maths as tfjs compositions run on the cpu backend
 * (values and gradients, op by op and for the whole Policy), central finite differences of the
 * fused ops themselves, tfjs's own Adam on the cpu backend, and for sampling the cpu backend's
 * greedy tokens and the exact shaped distribution (temperature, top-k, top-p) computed here.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend, loadTorchAddon, profileKernels, tf, withBackend } from "../lib/backend/index.js";
import { Rng } from "../lib/core/index.js";
import { Policy, encode, sample, sftLoss } from "../lib/train/index.js";
import { fusedAdam, fusedOps, useFusedKernels, type FusedOps } from "../lib/train/ops.js";
import { maxAbsDiff } from "./support/tiny-train.js";

let torchWhy = "";
try {
  loadTorchAddon();
} catch (e) {
  torchWhy = (e as Error).message;
}

beforeAll(async () => {
  if (!torchWhy) await initBackend("torch");
});

/** Seeded normal-ish values (sum of uniforms), so both backends get the same inputs. */
function values(n: number, seed: number, scale = 1): Float32Array {
  const r = new Rng(seed);
  return Float32Array.from({ length: n }, () => scale * (r.next() + r.next() + r.next() - 1.5) * 2);
}

type Arrays = number[][];
/** fn on the torch backend (fused native kernels) and on the cpu backend (the tfjs compositions). */
async function bothSides(fn: (f: FusedOps) => Arrays): Promise<{ native: Arrays; reference: Arrays }> {
  expect(fusedOps().name).toBe("native");
  const native = tf.tidy(() => fn(fusedOps()));
  const reference = await withBackend("cpu", async () => {
    expect(fusedOps().name).toBe("tfjs");
    return tf.tidy(() => fn(fusedOps()));
  });
  return { native, reference };
}

/** Value of fn(inputs) and the gradients of Σ fn(inputs)·w for a fixed random w, as flat arrays. */
function valueAndGrads(fn: (...xs: tf.Tensor[]) => tf.Tensor, inputs: tf.Tensor[], seed = 99): Arrays {
  const y = fn(...inputs);
  const w = tf.tensor(values(y.size, seed), y.shape);
  const g = tf.grads((...xs: tf.Tensor[]) => tf.sum(tf.mul(fn(...xs), w)))(inputs);
  return [Array.from(y.dataSync()), ...g.map((t) => Array.from(t.dataSync()))];
}

function expectClose(a: Arrays, b: Arrays, tol: number): void {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => {
    expect(x.length, `output ${i}`).toBe(b[i]!.length);
    const scale = Math.max(1, ...b[i]!.map(Math.abs));
    expect(maxAbsDiff(x, b[i]!) / scale, `output ${i}`).toBeLessThan(tol);
  });
}

/** Central differences of Σ fn(x)·w in x, at a few coordinates, next to the analytic gradient. */
function finiteDifferences(fn: (x: tf.Tensor) => tf.Tensor, x: Float32Array, shape: number[], coords: number[], h = 1e-2): { fd: number[]; analytic: number[] } {
  return tf.tidy(() => {
    const y0 = fn(tf.tensor(x, shape));
    const w = tf.tensor(values(y0.size, 5), y0.shape);
    const f = (v: Float32Array) => tf.sum(tf.mul(fn(tf.tensor(v, shape)), w)).dataSync()[0]!;
    const analytic = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(fn(t), w)))(tf.tensor(x, shape)).dataSync();
    const fd = coords.map((i) => {
      const up = Float32Array.from(x);
      const down = Float32Array.from(x);
      up[i] += h;
      down[i] -= h;
      return (f(up) - f(down)) / (2 * h);
    });
    return { fd, analytic: coords.map((i) => analytic[i]!) };
  });
}

describe.skipIf(!!torchWhy)("fused kernels on the torch backend", () => {
  const TOL = 1e-5; // float32 sums in a different order (the policy tests' tolerance is 1e-4)

  it("layer norm and GELU: values and gradients as the tfjs compositions give on cpu", async () => {
    const { native, reference } = await bothSides((f) => [
      ...valueAndGrads((x, g, b) => f.layerNorm(x, g, b), [tf.tensor(values(120, 1), [3, 5, 8]), tf.tensor(values(8, 2, 0.5).map((v) => 1 + v), [8]), tf.tensor(values(8, 3), [8])]),
      ...valueAndGrads((x) => f.gelu(x), [tf.tensor(values(64, 4, 3), [4, 16])]),
      // 8 lanes at a time natively and a scalar tail (67 = 8·8 + 3); |x| up to 18, where tanh saturates
      ...valueAndGrads((x) => f.gelu(x), [tf.tensor(values(67, 30, 6), [67])]),
    ]);
    expectClose(native, reference, TOL);
  });

  it("linear (with and without bias, transposed weight) and the embedding (repeated ids accumulate)", async () => {
    const { native, reference } = await bothSides((f) => {
      const x = tf.tensor(values(48, 5), [2, 3, 8]);
      const w = tf.tensor(values(48, 6), [8, 6]);
      const b = tf.tensor(values(6, 7), [6]);
      const ids = tf.tensor1d([0, 3, 3, 6, 1, 3, 0, 2, 5, 3], "int32");
      return [
        ...valueAndGrads((x, w, b) => f.linear(x, w, b), [x, w, b]),
        ...valueAndGrads((x, w) => f.linear(x, w, null), [x, w]),
        ...valueAndGrads((x, w) => f.linear(x, w, null, true), [x, tf.tensor(values(48, 8), [6, 8])]),
        ...valueAndGrads((t) => f.embed(ids, t), [tf.tensor(values(28, 9), [7, 4])]),
      ];
    });
    expectClose(native, reference, TOL);
  });

  it("attention: causal and per-row padding masks, keys longer than queries (the cached case)", async () => {
    const causal = new Float32Array(25).map((_, i) => (i % 5 > Math.floor(i / 5) ? -1e9 : 0));
    const padded = new Float32Array(2 * 5 * 7).map((_, i) => {
      const [r, q, c] = [Math.floor(i / 35), Math.floor(i / 7) % 5, i % 7];
      return c > 2 + q || c < r ? -1e9 : 0; // row 1 has one column of left padding
    });
    const { native, reference } = await bothSides((f) => [
      ...valueAndGrads((q, k, v) => f.attention(q as tf.Tensor4D, k as tf.Tensor4D, v as tf.Tensor4D, tf.tensor2d(causal, [5, 5]), 0.5), [
        tf.tensor(values(80, 10), [2, 2, 5, 4]), tf.tensor(values(80, 11), [2, 2, 5, 4]), tf.tensor(values(80, 12), [2, 2, 5, 4]),
      ]),
      ...valueAndGrads((q, k, v) => f.attention(q as tf.Tensor4D, k as tf.Tensor4D, v as tf.Tensor4D, tf.tensor4d(padded, [2, 1, 5, 7]), 0.5), [
        tf.tensor(values(80, 13), [2, 2, 5, 4]), tf.tensor(values(112, 14), [2, 2, 7, 4]), tf.tensor(values(112, 15), [2, 2, 7, 4]),
      ]),
    ]);
    expectClose(native, reference, TOL);
  });

  it("causal attention from the fused q/k/v projection: values and d qkv as the split/attention/merge composition on cpu, across query blocks", async () => {
    // T = 150 spans three query blocks of the native kernel (64, 64, 22 rows), T = 5 one partial block;
    // the inputs are spread (scale 3) so that the probabilities are far from uniform
    const { native, reference } = await bothSides((f) => [
      ...valueAndGrads((x) => f.causalAttention(x as tf.Tensor3D, 2), [tf.tensor(values(2 * 150 * 24, 17, 3), [2, 150, 24])]),
      ...valueAndGrads((x) => f.causalAttention(x as tf.Tensor3D, 3), [tf.tensor(values(1 * 5 * 18, 18), [1, 5, 18])]),
    ]);
    expectClose(native, reference, TOL);
    // causal: a query's output does not move when a later position's q, k or v does
    const f = fusedOps();
    const moved = tf.tidy(() => {
      const x = values(150 * 24, 19);
      const y0 = f.causalAttention(tf.tensor(x, [1, 150, 24]) as tf.Tensor3D, 2).dataSync();
      x.fill(5, 100 * 24); // positions 100…149, every column
      const y1 = f.causalAttention(tf.tensor(x, [1, 150, 24]) as tf.Tensor3D, 2).dataSync();
      return [maxAbsDiff(y0.slice(0, 100 * 8), y1.slice(0, 100 * 8)), maxAbsDiff(y0.slice(100 * 8), y1.slice(100 * 8))];
    });
    expect(moved[0]).toBe(0);
    expect(moved[1]).toBeGreaterThan(1e-2);
  });

  it("token log-probs (softmax cross-entropy): an id outside [0, V) gives 0 and no gradient, as oneHot · logSoftmax", async () => {
    const { native, reference } = await bothSides((f) => {
      const ids = tf.tensor2d([[0, 10, 4], [-1, 11, 7]], [2, 3], "int32");
      return valueAndGrads((l) => f.tokenLogprobs(l, ids), [tf.tensor(values(66, 16, 3), [2, 3, 11])]);
    });
    expectClose(native, reference, TOL);
    expect(native[0]![3]).toBe(0);
    expect(native[0]![4]).toBe(0);
    expect(native[1]!.slice(33, 55).every((g) => g === 0)).toBe(true); // rows of the two invalid ids
  });

  it("the fused backward kernels agree with central finite differences of the fused forwards", () => {
    const f = fusedOps();
    const coords = [0, 7, 19, 33, 58];
    const checks = [
      finiteDifferences((x) => f.layerNorm(x, tf.tensor1d([1.5, 0.5, 1, 2]), tf.tensor1d([0, 1, 0, -1])), values(60, 20), [15, 4], coords),
      finiteDifferences((x) => f.gelu(x), values(60, 21, 2), [60], coords),
      finiteDifferences((q) => f.attention(q as tf.Tensor4D, tf.tensor(values(48, 22), [1, 2, 6, 4]) as tf.Tensor4D, tf.tensor(values(48, 23), [1, 2, 6, 4]) as tf.Tensor4D, tf.zeros([6, 6]), 0.5), values(48, 24), [1, 2, 6, 4], [0, 7, 19, 33, 47]),
      finiteDifferences((k) => f.attention(tf.tensor(values(48, 25), [1, 2, 6, 4]) as tf.Tensor4D, k as tf.Tensor4D, tf.tensor(values(48, 26), [1, 2, 6, 4]) as tf.Tensor4D, tf.zeros([6, 6]), 0.5), values(48, 27), [1, 2, 6, 4], [1, 8, 20, 34, 46]),
      // T = 70, one head of 2 (scale 1/√2): the second query block reads keys of the first (q, k and v columns probed)
      finiteDifferences((x) => f.causalAttention(x as tf.Tensor3D, 1), values(70 * 6, 29, 2), [1, 70, 6], [10 * 6, 64 * 6, 65 * 6 + 1, 3 * 6 + 2, 66 * 6 + 3, 5, 69 * 6 + 4]),
      finiteDifferences((l) => f.tokenLogprobs(l, tf.tensor1d([3, 0, 5], "int32")), values(18, 28, 2), [3, 6], [0, 3, 7, 11, 17]),
    ];
    for (const { fd, analytic } of checks) {
      fd.forEach((d, i) => expect(Math.abs(d - analytic[i]!), `fd ${d} vs ${analytic[i]}`).toBeLessThan(2e-3 + 1e-2 * Math.abs(d)));
    }
  });

  const CFG = { block_size: 16, n_layer: 2, n_head: 2, n_embd: 16, seed: 3 };
  const batch = () => ({
    x: tf.tensor2d([[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16]], [2, 8], "int32"),
    y: tf.tensor2d([[2, 3, 4, 5, 6, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17]], [2, 8], "int32"),
    m: tf.tensor2d([[1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1, 1, 1]], [2, 8]),
  });

  it("the Policy's loss and every variable's gradient match the cpu backend's compositions, and the unfused torch run", async () => {
    const lossAndGrads = (): Arrays => {
      const p = new Policy(CFG);
      const { x, y, m } = batch();
      const { value, grads } = tf.variableGrads(() => sftLoss(p.forward(x), y, m), p.variables());
      const out = [[value.dataSync()[0]!], ...p.variables().map((v) => Array.from(grads[v.name]!.dataSync()))];
      tf.dispose([value, x, y, m, ...Object.values(grads)]);
      p.dispose();
      return out;
    };
    const { native, reference } = await bothSides(() => lossAndGrads());
    expectClose(native, reference, 1e-5);
    useFusedKernels(false);
    try {
      expect(fusedOps().name).toBe("tfjs");
      expectClose(native, lossAndGrads(), 1e-5);
    } finally {
      useFusedKernels(true);
    }
  });

  it("FusedAdam (one native update) follows tfjs's Adam on cpu, and its state restores into a fresh optimizer", async () => {
    // The same variables and the same gradients on both sides, so only the update rule is compared.
    const shapes = [[5, 3], [3], [4, 2, 2]];
    const descend = (make: () => tf.Optimizer, steps: number): Arrays => {
      const vars = shapes.map((s, i) => tf.variable(tf.tensor(values(tf.util.sizeFromShape(s), 40 + i), s)));
      const opt = make();
      for (let t = 0; t < steps; t++) {
        const grads = vars.map((v, i) => ({ name: v.name, tensor: tf.tensor(values(v.size, 100 * t + i, i === 1 ? 1e-3 : 1), v.shape) }));
        opt.applyGradients(grads);
        tf.dispose(grads.map((g) => g.tensor));
      }
      const out = vars.map((v) => Array.from(v.dataSync()));
      opt.dispose();
      tf.dispose(vars);
      return out;
    };
    const fused = descend(() => fusedAdam(1e-2, 0.9, 0.999, 1e-8), 5);
    const reference = await withBackend("cpu", async () => descend(() => tf.train.adam(1e-2, 0.9, 0.999, 1e-8), 5));
    expectClose(fused, reference, 1e-6);
    const init = shapes.map((s, i) => Array.from(values(tf.util.sizeFromShape(s), 40 + i)));
    expect(maxAbsDiff(fused[0]!, init[0]!)).toBeGreaterThan(2e-2); // it moved (5 steps of ≈ lr each)

    // Training the Policy: 2 steps, save, 2 more in a fresh FusedAdam = 4 uninterrupted steps.
    const p = new Policy(CFG);
    const { x, y, m } = batch();
    const step = (o: tf.Optimizer) => tf.dispose(o.minimize(() => sftLoss(p.forward(x), y, m), true, p.variables()) ?? []);
    const init2 = p.variables().map((v) => tf.clone(v));
    const straight = fusedAdam(1e-2, 0.9, 0.999, 1e-8);
    for (let i = 0; i < 4; i++) step(straight);
    const uninterrupted = p.variables().map((v) => Array.from(v.dataSync()));
    p.variables().forEach((v, i) => v.assign(init2[i]!));
    const a = fusedAdam(1e-2, 0.9, 0.999, 1e-8);
    step(a);
    step(a);
    const saved = await a.getWeights();
    expect(saved.length).toBe(1 + 2 * p.variables().length);
    const b = fusedAdam(1e-2, 0.9, 0.999, 1e-8);
    await b.setWeights(saved.map((w) => ({ name: w.name, tensor: w.tensor.clone() })));
    expect(b.iterations).toBe(2);
    step(b);
    step(b);
    expectClose(p.variables().map((v) => Array.from(v.dataSync())), uninterrupted, 1e-6);
    tf.dispose([x, y, m, ...init2]);
    for (const o of [straight, a, b]) o.dispose();
    p.dispose();
  });
});

describe.skipIf(!!torchWhy)("native sampling (one decode call per token for the batch)", () => {
  const CFG = { block_size: 32, n_layer: 2, n_head: 2, n_embd: 16, seed: 5 };
  /** A policy with peaked next-token distributions (an untrained one is near uniform over 257 bytes). */
  const peaked = () => {
    const p = new Policy(CFG);
    p.wte.assign(tf.mul(p.wte, 10));
    return p;
  };
  const prompts = ["hello", "ab", "the quick", "x"];

  it("greedy: the same tokens and log-probs as the cpu backend, in one LabPolicyStep call per token and no logits read back", async () => {
    const run = () => {
      const p = peaked();
      const out = sample(p, prompts, { max_new_tokens: 20, temperature: 0 });
      p.dispose();
      return out;
    };
    let native: ReturnType<typeof run> = [];
    const profile = profileKernels(() => void (native = run()));
    const reference = await withBackend("cpu", async () => run());
    expect(native.map((c) => c.ids)).toEqual(reference.map((c) => c.ids));
    native.forEach((c, i) => expect(maxAbsDiff(c.logprobs, reference[i]!.logprobs)).toBeLessThan(1e-4));
    const steps = Math.max(...native.map((c) => c.ids.length));
    const calls = Object.fromEntries(profile.map((k) => [k.kernel, k.calls]));
    expect(calls.LabPolicyStep).toBe(steps); // the prefill and then one per token
    for (const k of ["BatchMatMul", "LabLinear", "LabAttention", "Softmax", "Slice"]) expect(calls[k], k).toBeUndefined();
  });

  it("temperature / top-k / top-p: the same draws as the cpu backend from the same seed, and the shaped distribution's frequencies", async () => {
    const opts = { max_new_tokens: 16, temperature: 0.8, top_k: 12, top_p: 0.9, seed: 11 };
    const run = () => {
      const p = peaked();
      const out = sample(p, prompts, opts);
      p.dispose();
      return out.map((c) => c.ids);
    };
    const native = run();
    const reference = await withBackend("cpu", async () => run());
    expect(native).toEqual(reference); // same uniforms, same rule: a boundary flip would need a 1e-6 logit change at a cut

    // 4000 rows of one prompt in one batch: the first token's frequencies vs softmax(l/T) cut to top-k then top-p
    const p = peaked();
    const N = 4000;
    const first = sample(p, Array.from({ length: N }, () => "the"), { ...opts, max_new_tokens: 1 }).map((c) => c.ids[0]!);
    const logits = await withBackend("cpu", async () => {
      const q = peaked();
      const ids = encode("the", { bos: true });
      const l = tf.tidy(() => q.forward(tf.tensor2d([ids], [1, ids.length], "int32")).slice([0, ids.length - 1, 0], [1, 1, -1]).dataSync());
      q.dispose();
      return l;
    });
    p.dispose();
    const order = Array.from(logits.keys()).sort((a, b) => logits[b]! - logits[a]! || a - b).slice(0, opts.top_k);
    const w = order.map((i) => Math.exp((logits[i]! - logits[order[0]!]!) / opts.temperature));
    const total = w.reduce((a, b) => a + b, 0);
    let keep = 0;
    for (let acc = 0; keep < w.length && acc < opts.top_p * total; keep++) acc += w[keep]!;
    const mass = w.slice(0, keep).reduce((a, b) => a + b, 0);
    const want = new Map(order.slice(0, keep).map((t, i) => [t, w[i]! / mass]));
    expect(want.size).toBeGreaterThan(2); // a real choice, not greedy in disguise
    const seen = new Map<number, number>();
    for (const t of first) seen.set(t, (seen.get(t) ?? 0) + 1);
    for (const t of seen.keys()) expect(want.has(t), `token ${t} is outside the top-k/top-p set`).toBe(true);
    let tv = 0;
    for (const [t, q] of want) tv += Math.abs(q - (seen.get(t) ?? 0) / N) / 2;
    expect(tv).toBeLessThan(0.04); // sampling noise at N = 4000 over ≤ 12 tokens: ≈ 0.02
  });
});
