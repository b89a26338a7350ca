/**
 * lib/train/losses.ts against the papers' equations: test/fixtures/losses.json holds inputs, options,
 * loss values and central finite-difference gradients (numpy float64) written by
 * test/fixtures/make_loss_fixtures.py from the equations (not from the TypeScript); here each TS loss
 * runs on the same inputs in float32 and must agree on value and on its analytic (autodiff) gradient.
 * Then properties: the hint's signal survives one optimizer step in every SDPO mode and clip setting,
 * the sampled-token estimator is unbiased for ∇KL(p_S‖p_T), and the clip's documented effects.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BackendName, initBackend, loadTorchAddon, tf } from "../lib/backend/index.js";
import { composeLoss, LossWeights } from "../lib/train/channels.js";
import {
  dpoLoss,
  entropy,
  groupAdvantages,
  klK3,
  blendPolicyDistillation,
  policyGradientLoss,
  temperatureScaled,
  type PolicyGradientConfig,
  sdpoLoss,
  parseSdpoConfig,
  type SdpoConfig,
  sftLoss,
  stopGradient,
  tokenLogprobs,
} from "../lib/train/losses.js";
import { ROOT, tmp } from "./helpers.js";

type Nested = number | Nested[];
interface Fixture {
  shapes: { B: number; T: number; V: number };
  advantages: { name: string; rewards: number[]; num_generations: number; scale_rewards: "group" | "none"; expected: number[] }[];
  policy_gradient: {
    name: string;
    on_policy: boolean;
    inputs: { logp: number[][]; oldLogp: number[][]; refLogp: number[][]; advantages: number[]; mask: number[][] };
    options: Partial<PolicyGradientConfig>;
    expected: { loss: number; clip_ratio: number; kl: number };
    grad: { logp: number[][] };
  }[];
  sdpo: {
    name: string;
    inputs: { studentLogits: number[][][]; teacherLogits: number[][][]; sampledIds: number[][]; mask: number[][] };
    options: SdpoConfig;
    expected: { loss: number; per_token: number[][]; clipped_fraction: number };
    grad: { studentLogits: number[][][] };
    /** sampled_token only: one position's logits, the exact KL(p_S‖p_T) and its finite-difference gradient. */
    expected_kl?: { student: number[]; teacher: number[]; kl: number; grad: number[] };
  }[];
  tempered_blend: {
    name: string;
    inputs: { studentLogits: number[][][]; teacherLogits: number[][][]; sampledIds: number[][]; mask: number[][]; advantages: number[] };
    options: { temperature: number; distillation_weight: number; sdpo_blend: "convex" | "additive"; distillation_mode: "sampled_token" | "full_logits"; distillation_alpha: number };
    expected: { loss: number; policy_loss: number; distillation_loss: number };
    grad: { studentLogits: number[][][] };
  }[];
  dpo: {
    name: string;
    inputs: { policyChosenLogps: number[]; policyRejectedLogps: number[]; refChosenLogps: number[]; refRejectedLogps: number[] };
    options: { beta: number };
    expected: { loss: number; rewards_chosen: number[]; rewards_rejected: number[]; accuracy: number };
    grad: { policyChosenLogps: number[]; policyRejectedLogps: number[] };
  }[];
  tokens: {
    inputs: { logits: number[][][]; ids: number[][]; mask: number[][] };
    sft: { loss: number; grad: number[][][] };
    token_logprobs: number[][];
    entropy: { value: number[][]; grad_of_masked_sum: number[][][] };
  };
}

const FIXTURE = join(ROOT, "test", "fixtures", "losses.json");
const SCRIPT = join(ROOT, "test", "fixtures", "make_loss_fixtures.py");
const PYTHON = "/usr/bin/python3";
const fx = JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture;

// float32 autodiff against float64 finite differences: |a − e| ≤ ATOL + RTOL·|e|
const ATOL = 1e-4;
const RTOL = 1e-4;

const flat = (x: Nested): number[] => (Array.isArray(x) ? x.flatMap(flat) : [x]);

function expectClose(actual: tf.Tensor | number, expected: Nested, what: string, atol = ATOL, rtol = RTOL): void {
  const a = typeof actual === "number" ? [actual] : Array.from(actual.dataSync());
  const e = flat(expected);
  expect(a.length, `${what}: size`).toBe(e.length);
  for (let i = 0; i < e.length; i++) {
    const [ai, ei] = [a[i]!, e[i]!];
    if (!(Math.abs(ai - ei) <= atol + rtol * Math.abs(ei))) throw new Error(`${what}[${i}]: got ${ai}, expected ${ei} (|Δ| = ${Math.abs(ai - ei)})`);
  }
}

const t2 = (x: number[][]) => tf.tensor2d(x);
const t3 = (x: number[][][]) => tf.tensor3d(x);
const ids2 = (x: number[][]) => tf.tensor2d(x, undefined, "int32");
const scalar = (x: tf.Tensor | undefined): number => x!.dataSync()[0]!;

function sdpoInputs(c: Fixture["sdpo"][number]) {
  return {
    studentLogits: t3(c.inputs.studentLogits),
    teacherLogits: t3(c.inputs.teacherLogits),
    sampledIds: ids2(c.inputs.sampledIds),
    mask: t2(c.inputs.mask),
  };
}

// The fixture comparisons run on every CPU backend tfjs trains on here: cpu, wasm, and torch (the
// libtorch addon) where setup could build it (test/torch-parity.test.ts says why when it could not).
const torchBuilt = (() => {
  try {
    return !!loadTorchAddon();
  } catch {
    return false;
  }
})();
describe.each(["cpu", "wasm", ...(torchBuilt ? ["torch"] : [])] as BackendName[])("losses vs the equations (numpy float64, finite differences) on the %s backend", (backend) => {
  beforeAll(async () => {
    await initBackend(backend);
  });

  it.each(fx.advantages.map((c) => [c.name, c] as const))("groupAdvantages %s", (_, c) => {
    tf.tidy(() => {
      expectClose(groupAdvantages(c.rewards, c.num_generations, { scale_rewards: c.scale_rewards }), c.expected, "advantages");
      expectClose(groupAdvantages(tf.tensor1d(c.rewards), c.num_generations, { scale_rewards: c.scale_rewards }), c.expected, "advantages (tensor input)");
    });
  });

  it.each(fx.policy_gradient.map((c) => [c.name, c] as const))("policyGradientLoss %s", (_, c) => {
    tf.tidy(() => {
      const logp = t2(c.inputs.logp);
      const old = t2(c.inputs.oldLogp);
      const rest = { refLogp: t2(c.inputs.refLogp), advantages: tf.tensor1d(c.inputs.advantages), mask: t2(c.inputs.mask), ...c.options };
      // On-policy, oldLogp is logp itself: stopGradient inside the loss must keep the ratio's gradient right.
      const run = (x: tf.Tensor2D) => policyGradientLoss({ logp: x, oldLogp: c.on_policy ? x : old, ...rest });
      const out = run(logp);
      expectClose(out.loss, c.expected.loss, "loss");
      expectClose(out.clip_ratio, c.expected.clip_ratio, "clip_ratio");
      expectClose(out.kl!, c.expected.kl, "kl");
      expectClose(tf.grad((x: tf.Tensor) => run(x as tf.Tensor2D).loss)(logp), c.grad.logp, "∂loss/∂logp");
    });
  });

  // The RL step as the trainer composes it: logits ÷ the sampling temperature (TRL), on-policy DAPO and the
  // SDPO divergence on the tempered logits, blended by distillation_weight (convex as TRL, or additive).
  it.each(fx.tempered_blend.map((c) => [c.name, c] as const))("temperatureScaled + policy loss + sdpoLoss, blended: %s", (_, c) => {
    tf.tidy(() => {
      const o = c.options;
      const teacher = t3(c.inputs.teacherLogits);
      const ids = ids2(c.inputs.sampledIds);
      const mask = t2(c.inputs.mask);
      const advantages = tf.tensor1d(c.inputs.advantages);
      const parts = (x: tf.Tensor3D) => {
        const s = temperatureScaled(x, o.temperature);
        const lp = tokenLogprobs(s, ids);
        const pg = policyGradientLoss({ logp: lp, oldLogp: lp, advantages, mask, loss_type: "dapo" }).loss;
        const sd = sdpoLoss({ studentLogits: s, teacherLogits: temperatureScaled(teacher, o.temperature), sampledIds: ids, mask, distillation_mode: o.distillation_mode, distillation_alpha: o.distillation_alpha }).loss;
        return { pg, sd, total: composeLoss({ grpo: pg, sdpo: sd }, { grpo: 1, sdpo: o.distillation_weight, sdpo_blend: o.sdpo_blend }) };
      };
      const student = t3(c.inputs.studentLogits);
      const p = parts(student);
      expectClose(p.pg, c.expected.policy_loss, "policy loss");
      expectClose(p.sd, c.expected.distillation_loss, "distillation loss");
      expectClose(p.total, c.expected.loss, "total");
      expectClose(blendPolicyDistillation(p.pg, p.sd, o.distillation_weight, o.sdpo_blend), c.expected.loss, "blendPolicyDistillation");
      expectClose(tf.grad((x: tf.Tensor) => parts(x as tf.Tensor3D).total)(student), c.grad.studentLogits, "∂total/∂raw student logits");
    });
  });

  it.each(fx.sdpo.map((c) => [c.name, c] as const))("sdpoLoss %s", (_, c) => {
    tf.tidy(() => {
      const inputs = sdpoInputs(c);
      const out = sdpoLoss({ ...inputs, ...c.options });
      expectClose(out.loss, c.expected.loss, "loss");
      expectClose(out.per_token, c.expected.per_token, "per_token");
      expectClose(out.clipped_fraction, c.expected.clipped_fraction, "clipped_fraction");
      const [gS, gT] = tf.grads((s: tf.Tensor, t: tf.Tensor) => sdpoLoss({ ...inputs, studentLogits: s as tf.Tensor3D, teacherLogits: t as tf.Tensor3D, ...c.options }).loss)([
        inputs.studentLogits,
        inputs.teacherLogits,
      ]);
      expectClose(gS!, c.grad.studentLogits, "∂loss/∂studentLogits");
      // the teacher is stop-gradient: exactly zero, not merely small
      expect(Array.from(gT!.dataSync()).every((v) => v === 0)).toBe(true);
    });
  });

  it("sdpoLoss sampled_token: averaged over y ~ p_S, the per-token gradient is ∇KL(p_S‖p_T) (finite differences of the exact KL)", () => {
    const c = fx.sdpo.find((x) => x.expected_kl)!;
    const e = c.expected_kl!;
    tf.tidy(() => {
      const V = e.student.length;
      const student = tf.tensor3d([[e.student]]);
      const teacher = tf.tensor3d([[e.teacher]]);
      const pS = Array.from(tf.softmax(student).dataSync());
      const mask = tf.tensor2d([[1]]);
      let expected = tf.zeros([V]);
      let kl = 0;
      for (let y = 0; y < V; y++) {
        const sampledIds = tf.tensor2d([[y]], [1, 1], "int32");
        const f = (s: tf.Tensor) => sdpoLoss({ studentLogits: s as tf.Tensor3D, teacherLogits: teacher, sampledIds, mask }).loss;
        expected = tf.add(expected, tf.mul(tf.grad(f)(student).reshape([V]), pS[y]!));
        kl += pS[y]! * scalar(f(student)); // the value d_t averages to the KL too
      }
      expectClose(expected, e.grad, "E_y[∂loss/∂studentLogits]");
      expectClose(kl, e.kl, "E_y[d_t]");
    });
  });

  it.each(fx.dpo.map((c) => [c.name, c] as const))("dpoLoss %s", (_, c) => {
    tf.tidy(() => {
      const pc = tf.tensor1d(c.inputs.policyChosenLogps);
      const pr = tf.tensor1d(c.inputs.policyRejectedLogps);
      const ref = { refChosenLogps: tf.tensor1d(c.inputs.refChosenLogps), refRejectedLogps: tf.tensor1d(c.inputs.refRejectedLogps), beta: c.options.beta };
      const out = dpoLoss({ policyChosenLogps: pc, policyRejectedLogps: pr, ...ref });
      expectClose(out.loss, c.expected.loss, "loss");
      expectClose(out.rewards_chosen, c.expected.rewards_chosen, "rewards_chosen");
      expectClose(out.rewards_rejected, c.expected.rewards_rejected, "rewards_rejected");
      expectClose(out.accuracy, c.expected.accuracy, "accuracy");
      const [gc, gr] = tf.grads((a: tf.Tensor, b: tf.Tensor) => dpoLoss({ policyChosenLogps: a as tf.Tensor1D, policyRejectedLogps: b as tf.Tensor1D, ...ref }).loss)([pc, pr]);
      expectClose(gc!, c.grad.policyChosenLogps, "∂loss/∂policyChosenLogps");
      expectClose(gr!, c.grad.policyRejectedLogps, "∂loss/∂policyRejectedLogps");
    });
  });

  it("sftLoss, tokenLogprobs and entropy (values and gradients)", () => {
    tf.tidy(() => {
      const { inputs, sft } = fx.tokens;
      const logits = t3(inputs.logits);
      const ids = ids2(inputs.ids);
      const mask = t2(inputs.mask);
      expectClose(sftLoss(logits, ids, mask), sft.loss, "sft loss");
      expectClose(tf.grad((x: tf.Tensor) => sftLoss(x as tf.Tensor3D, ids, mask))(logits), sft.grad, "∂sft/∂logits");
      expectClose(tokenLogprobs(logits, ids), fx.tokens.token_logprobs, "tokenLogprobs");
      expectClose(entropy(logits), fx.tokens.entropy.value, "entropy");
      expectClose(tf.grad((x: tf.Tensor) => tf.sum(tf.mul(entropy(x as tf.Tensor3D), mask)))(logits), fx.tokens.entropy.grad_of_masked_sum, "∂Σentropy/∂logits");
    });
  });
});

describe("loss properties", () => {
  beforeAll(async () => {
    await initBackend();
  });
  const jsdCase = fx.sdpo.find((c) => c.options.distillation_mode === "full_logits" && c.options.distillation_kl_clip === null && c.options.distillation_alpha === 0.5)!;

  it("stopGradient is the identity forward and passes exactly zero gradient", () => {
    tf.tidy(() => {
      const x = tf.tensor1d([1, -2, 3]);
      expect(Array.from(stopGradient(x).dataSync())).toEqual([1, -2, 3]);
      const g = tf.grad((v: tf.Tensor) => tf.sum(tf.add(tf.mul(stopGradient(tf.square(v)), 5), v)))(x);
      expect(Array.from(g.dataSync())).toEqual([1, 1, 1]);
    });
  });

  it("sdpoLoss: a teacher computed from the student inside the tape adds no gradient", () => {
    tf.tidy(() => {
      const { studentLogits, sampledIds, mask } = sdpoInputs(jsdCase);
      const shift = t3(jsdCase.inputs.teacherLogits).sub(studentLogits);
      for (const distillation_mode of ["sampled_token", "full_logits", "topk_logits"] as const) {
        const opts = { sampledIds, mask, distillation_mode, distillation_topk: 4 };
        const teacherConst = tf.add(studentLogits, shift) as tf.Tensor3D;
        const gConst = tf.grad((s: tf.Tensor) => sdpoLoss({ studentLogits: s as tf.Tensor3D, teacherLogits: teacherConst, ...opts }).loss)(studentLogits);
        const gTape = tf.grad((s: tf.Tensor) => sdpoLoss({ studentLogits: s as tf.Tensor3D, teacherLogits: tf.add(s, shift) as tf.Tensor3D, ...opts }).loss)(studentLogits);
        expect(Array.from(gTape.dataSync()), distillation_mode).toEqual(Array.from(gConst.dataSync()));
      }
    });
  });

  // The constructed case of issue 13, on the lab's 257-entry byte vocabulary: the student put 31% of its
  // mass on the wrong byte B (and sampled it), 1.8% on A; the teacher, given the hint, puts 24% on A and
  // 0.6% on B. One SGD step on the student's logits must lower p_S(B) and raise p_S(A).
  const VB = 257;
  const A = "l".charCodeAt(0);
  const Bw = "c".charCodeAt(0);
  function constructedCase() {
    const noise = Array.from({ length: VB }, (_, i) => 0.5 * Math.sin(1.7 * i + 0.3)); // fixed, deterministic
    const s = noise.slice();
    const t = noise.slice();
    s[Bw]! += 5, s[A]! += 2.5, t[A]! += 5, t[Bw]! += 1;
    return { student: s, teacher: t };
  }
  /** One SGD step (lr 1) on the student's logits; returns Δp_S(B), Δp_S(A). */
  function oneStep(options: Parameters<typeof parseSdpoConfig>[0], sampled = Bw): { dB: number; dA: number } {
    return tf.tidy(() => {
      const { student, teacher } = constructedCase();
      const logits = tf.variable(tf.tensor3d([[student]]));
      const teacherLogits = tf.tensor3d([[teacher]]);
      const p0 = Array.from(tf.softmax(logits).dataSync());
      const opt = tf.train.sgd(1);
      opt.minimize(() => sdpoLoss({ studentLogits: logits as unknown as tf.Tensor3D, teacherLogits, sampledIds: tf.tensor2d([[sampled]], [1, 1], "int32"), mask: tf.tensor2d([[1]]), ...options }).loss);
      const p1 = Array.from(tf.softmax(logits).dataSync());
      opt.dispose();
      logits.dispose();
      return { dB: p1[Bw]! - p0[Bw]!, dA: p1[A]! - p0[A]! };
    });
  }
  const logitModes = [
    { distillation_mode: "full_logits" as const },
    { distillation_mode: "topk_logits" as const, distillation_topk_support: "student" as const, distillation_add_tail: true },
    { distillation_mode: "topk_logits" as const, distillation_topk_support: "student" as const, distillation_add_tail: false },
    { distillation_mode: "topk_logits" as const, distillation_topk_support: "teacher" as const, distillation_add_tail: true },
    { distillation_mode: "topk_logits" as const, distillation_topk_support: "teacher" as const, distillation_add_tail: false },
  ];
  const unclipped = [
    { distillation_mode: "sampled_token" as const },
    ...logitModes.flatMap((m) => [0, 0.5, 1].map((distillation_alpha) => ({ ...m, distillation_alpha }))),
  ];

  it.each(unclipped.map((o) => [JSON.stringify(o), o] as const))("one step with the clip off (the default) lowers p_S(B) and raises p_S(A): %s", (_, o) => {
    const { dB, dA } = oneStep(o);
    expect(dB).toBeLessThan(-1e-4);
    expect(dA).toBeGreaterThan(0);
  });

  it("sampled_token: a sampled token the teacher prefers (A) is pushed up, whatever the size of the log-ratio", () => {
    const { dA } = oneStep({ distillation_mode: "sampled_token" }, A);
    expect(dA).toBeGreaterThan(1e-4);
  });

  // OPSD's per-entry clip at its 0.05 on this 257-entry case: the entries A and B carry terms above 0.05
  // and lose their gradient; the uncapped entries' terms then push the other way, so the step REVERSES:
  // p_S(B) rises. make_loss_fixtures.py's equations give the same numbers (Δp_S(B) = +0.00215 full /
  // tail, +0.00333 renormalised top-k, by finite differences), so this is the clipped objective, not an
  // implementation slip — and why the clip is off by default. A per-entry cap above every entry's term
  // changes nothing.
  it.each(logitModes.map((o) => [JSON.stringify(o), o] as const))("clip, vocabulary scope at OPSD's 0.05 (alpha 0.5) reverses the step on the constructed case — p_S(B) rises, p_S(A) falls; at 1.0 it is the unclipped step: %s", (_, o) => {
    const free = oneStep({ ...o, distillation_alpha: 0.5 });
    const opsd = oneStep({ ...o, distillation_alpha: 0.5, distillation_kl_clip: 0.05, distillation_kl_clip_scope: "vocab" });
    expect(opsd.dB).toBeGreaterThan(1e-3);
    expect(opsd.dA).toBeLessThan(0);
    const loose = oneStep({ ...o, distillation_alpha: 0.5, distillation_kl_clip: 1, distillation_kl_clip_scope: "vocab" });
    expect(loose.dB).toBeCloseTo(free.dB, 7);
    expect(loose.dA).toBeCloseTo(free.dA, 7);
    expect(loose.dB).toBeLessThan(-1e-4);
  });

  it.each(logitModes.flatMap((o) => [0, 0.5, 1].map((distillation_alpha) => [JSON.stringify({ ...o, distillation_alpha }), { ...o, distillation_alpha }] as const)))(
    "clip, token scope: binding (0.05 < this token's divergence), the step is exactly zero; not binding (100), the same step as unclipped: %s",
    (_, o) => {
      expect(oneStep({ ...o, distillation_kl_clip: 0.05, distillation_kl_clip_scope: "token" })).toEqual({ dB: 0, dA: 0 });
      const free = oneStep(o);
      const loose = oneStep({ ...o, distillation_kl_clip: 100, distillation_kl_clip_scope: "token" });
      expect(loose.dB).toBeCloseTo(free.dB, 7);
      expect(loose.dA).toBeCloseTo(free.dA, 7);
    },
  );

  it("config: sampled_token is the reverse KL and takes no clip; a vocabulary-scope clip needs 0 < alpha < 1; the defaults are TRL's", () => {
    expect(() => parseSdpoConfig({ distillation_mode: "sampled_token", distillation_alpha: 0.5 })).toThrow(/distillation_alpha 1/);
    expect(() => parseSdpoConfig({ distillation_mode: "sampled_token", distillation_kl_clip: 0.05 })).toThrow(/not defined for distillation_mode sampled_token/);
    expect(() => parseSdpoConfig({ distillation_mode: "full_logits", distillation_alpha: 1, distillation_kl_clip: 0.05, distillation_kl_clip_scope: "vocab" })).toThrow(/0 < distillation_alpha < 1/);
    expect(parseSdpoConfig({})).toEqual({
      distillation_mode: "sampled_token", distillation_alpha: 1, distillation_topk: 20, distillation_topk_support: "student", distillation_add_tail: true,
      distillation_kl_clip: null, distillation_kl_clip_scope: "token", distillation_is_clip: 2,
    });
  });

  it("sdpoLoss: a huge clip changes nothing; a binding one lowers the loss and caps each token (token scope) or entry (vocab scope)", () => {
    tf.tidy(() => {
      const inputs = sdpoInputs(jsdCase);
      for (const distillation_mode of ["full_logits", "topk_logits"] as const) {
        for (const distillation_kl_clip_scope of ["vocab", "token"] as const) {
          const base = { ...inputs, distillation_mode, distillation_alpha: 0.5, distillation_topk: 4, distillation_kl_clip_scope };
          const free = sdpoLoss(base);
          const clipped = sdpoLoss({ ...base, distillation_kl_clip: 0.05 });
          const huge = sdpoLoss({ ...base, distillation_kl_clip: 1e9 });
          const what = `${distillation_mode}/${distillation_kl_clip_scope}`;
          expect(scalar(clipped.clipped_fraction), what).toBeGreaterThan(0);
          expect(scalar(clipped.loss), what).toBeLessThan(scalar(free.loss));
          expect(scalar(huge.loss), what).toBeCloseTo(scalar(free.loss), 6);
          expect(scalar(huge.clipped_fraction), what).toBe(0);
          expect(scalar(free.clipped_fraction), what).toBe(0);
          // per-token cap: token scope ≤ c; vocab scope ≤ c per entry (V entries, plus the tail bucket for top-k)
          const perTokenMax = distillation_kl_clip_scope === "token" ? 0.05 : 0.05 * (fx.shapes.V + 1);
          expect(scalar(clipped.loss), what).toBeLessThanOrEqual(perTokenMax + 1e-6);
        }
      }
    });
  });

  it("sdpoLoss: alpha 0 / 1 are the forward / reverse KL; identical distributions give zero in every mode", () => {
    tf.tidy(() => {
      const inputs = sdpoInputs(jsdCase);
      const lpS = tf.logSoftmax(inputs.studentLogits);
      const lpT = tf.logSoftmax(inputs.teacherLogits);
      const kl = (p: tf.Tensor, q: tf.Tensor) => tf.sum(tf.mul(tf.exp(p), tf.sub(p, q)), -1).mul(inputs.mask);
      const a0 = sdpoLoss({ ...inputs, distillation_mode: "full_logits", distillation_alpha: 0 });
      const a1 = sdpoLoss({ ...inputs, distillation_mode: "full_logits", distillation_alpha: 1 });
      expectClose(a0.per_token, flat(kl(lpT, lpS).arraySync() as Nested), "alpha 0 = KL(p_T‖p_S)", 1e-5);
      expectClose(a1.per_token, flat(kl(lpS, lpT).arraySync() as Nested), "alpha 1 = KL(p_S‖p_T)", 1e-5);
      for (const distillation_mode of ["sampled_token", "full_logits", "topk_logits"] as const) {
        for (const distillation_add_tail of [true, false]) {
          const same = sdpoLoss({ ...inputs, teacherLogits: inputs.studentLogits, distillation_mode, distillation_topk: 4, distillation_add_tail });
          expect(Math.abs(scalar(same.loss)), distillation_mode).toBeLessThan(1e-6);
        }
      }
    });
  });

  it("sdpoLoss topk_logits: the tail bucket makes the top-k divergence approach the full one as k grows; renormalised top-k does not bound it", () => {
    tf.tidy(() => {
      const inputs = sdpoInputs(jsdCase);
      const full = scalar(sdpoLoss({ ...inputs, distillation_mode: "full_logits", distillation_alpha: 0.5 }).loss);
      const tail = [2, 4, 8, 10].map((k) => scalar(sdpoLoss({ ...inputs, distillation_mode: "topk_logits", distillation_alpha: 0.5, distillation_topk: k }).loss));
      // merging categories never increases an f-divergence (data processing): each tail value ≤ full, rising to it
      for (const v of tail) expect(v).toBeLessThanOrEqual(full + 1e-6);
      expect(tail[3]!).toBeGreaterThan(tail[0]!);
      expect(Math.abs(tail[3]! - full)).toBeLessThan(Math.abs(tail[0]! - full));
    });
  });

  it("policyGradientLoss: on-policy with beta 0 the loss is −(masked mean of Â), per loss_type", () => {
    tf.tidy(() => {
      const logp = tf.tensor2d([[-1, -2, -0.5], [-0.3, -1, -1]]);
      const mask = tf.tensor2d([[1, 1, 1], [1, 0, 0]]);
      const advantages = tf.tensor1d([2, -1]);
      const loss = (loss_type: "grpo" | "dr_grpo" | "dapo") =>
        scalar(policyGradientLoss({ logp, oldLogp: logp, advantages, mask, loss_type, max_completion_length: 5 }).loss);
      expect(loss("grpo")).toBeCloseTo(-(2 + -1) / 2, 6); // per-sequence means 2 and −1
      expect(loss("dapo")).toBeCloseTo(-(3 * 2 - 1) / 4, 6); // 4 completion tokens
      expect(loss("dr_grpo")).toBeCloseTo(-(3 * 2 - 1) / (2 * 5), 6); // B · max_completion_length
      expect(() => policyGradientLoss({ logp, oldLogp: logp, advantages, mask, loss_type: "dr_grpo" })).toThrow(/max_completion_length/);
      expect(() => policyGradientLoss({ logp, oldLogp: logp, advantages, mask, beta: 0.1 })).toThrow(/refLogp/);
    });
  });

  it("klK3 is exp(ref − logp) − (ref − logp) − 1: zero on-policy, positive otherwise", () => {
    tf.tidy(() => {
      const logp = tf.tensor1d([-1, -2, -0.5]);
      const ref = tf.tensor1d([-1, -1, -3]);
      const k = Array.from(klK3(logp, ref).dataSync());
      expect(k[0]).toBe(0);
      expect(k[1]).toBeCloseTo(Math.exp(1) - 1 - 1, 6);
      expect(k[2]).toBeCloseTo(Math.exp(-2.5) + 2.5 - 1, 6);
    });
  });

  it("groupAdvantages: ddof 1 std, zero for a group with equal rewards, and argument checks", () => {
    tf.tidy(() => {
      const a = Array.from(groupAdvantages([0, 1, 1, 1], 2, { scale_rewards: "group" }).dataSync());
      const std = Math.sqrt(0.5); // unbiased std of {0, 1}
      expect(a[0]).toBeCloseTo(-0.5 / (std + 1e-4), 5);
      expect(a[1]).toBeCloseTo(0.5 / (std + 1e-4), 5);
      expect(a.slice(2)).toEqual([0, 0]);
      expect(() => groupAdvantages([1, 2, 3], 2, { scale_rewards: "none" })).toThrow(/groups/);
      expect(() => groupAdvantages([1, 2], 1, { scale_rewards: "group" })).toThrow(/num_generations/);
    });
  });

  it("composeLoss: total = Σ loss_weights[c]·L_c over grpo, lm_ce, sdpo, dpo; missing channels count 0", () => {
    tf.tidy(() => {
      const ch = { grpo: tf.scalar(1), lm_ce: tf.scalar(2), sdpo: tf.scalar(3), dpo: tf.scalar(4) };
      expect(LossWeights.parse({})).toEqual({ grpo: 1, lm_ce: 0, sdpo: 0, dpo: 0, sdpo_blend: "convex" });
      expect(scalar(composeLoss(ch, {}))).toBe(1); // defaults: GRPO alone
      // convex (TRL): (1 − w)·grpo + w·sdpo, the other channels added
      expect(scalar(composeLoss(ch, { grpo: 1, sdpo: 0.5, dpo: 0.25 }))).toBeCloseTo(0.5 * 1 + 0.5 * 3 + 1, 6);
      expect(scalar(composeLoss(ch, { grpo: 1, sdpo: 1 }))).toBeCloseTo(3, 6); // w = 1: pure distillation
      expect(() => composeLoss(ch, { sdpo: 2 })).toThrow(/convex needs 0 ≤ distillation weight ≤ 1/);
      // additive (the lab's earlier form): grpo + w·sdpo
      expect(scalar(composeLoss(ch, { grpo: 1, sdpo: 0.5, dpo: 0.25, sdpo_blend: "additive" }))).toBeCloseTo(1 + 1.5 + 1, 6);
      expect(scalar(composeLoss(ch, { grpo: 0, lm_ce: 1 }))).toBe(2); // SFT-first
      expect(scalar(composeLoss(ch, { grpo: 2, lm_ce: 3, sdpo: 5, dpo: 7, sdpo_blend: "additive" }))).toBeCloseTo(2 + 6 + 15 + 28, 5);
      expect(scalar(composeLoss({ sdpo: tf.scalar(3) }, { sdpo: 2, sdpo_blend: "additive" }))).toBe(6); // grpo missing → 0
      expect(scalar(composeLoss({ grpo: tf.scalar(1), dpo: tf.scalar(NaN) }, { dpo: 0 }))).toBe(1); // weight 0: left out
      expect(scalar(composeLoss({ grpo: tf.scalar(NaN), sdpo: tf.scalar(3) }, { sdpo: 1 }))).toBe(3); // convex w = 1: the policy term is left out
      // gradients reach each channel scaled by its coefficient
      const g = tf.grads((a: tf.Tensor, b: tf.Tensor) => composeLoss({ grpo: tf.square(a) as tf.Scalar, sdpo: tf.square(b) as tf.Scalar }, { sdpo: 0.5, sdpo_blend: "additive" }))([tf.scalar(3), tf.scalar(2)]);
      expect(g.map(scalar)).toEqual([6, 2]);
      const gc = tf.grads((a: tf.Tensor, b: tf.Tensor) => composeLoss({ grpo: tf.square(a) as tf.Scalar, sdpo: tf.square(b) as tf.Scalar }, { sdpo: 0.25 }))([tf.scalar(3), tf.scalar(2)]);
      expect(gc.map(scalar)).toEqual([4.5, 1]);
      // temperatureScaled: logits / τ; τ = 0 (greedy) and 1 leave them as they are
      expect(Array.from(temperatureScaled(tf.tensor1d([1, -2]), 0.5).dataSync())).toEqual([2, -4]);
      expect(Array.from(temperatureScaled(tf.tensor1d([1, -2]), 0).dataSync())).toEqual([1, -2]);
      expect(() => temperatureScaled(tf.tensor1d([1]), -1)).toThrow(/≥ 0/);
    });
  });
});

// The fixture is a pure function of the script: regenerate it and compare.
const numpyCheck = spawnSync(PYTHON, ["-c", "import numpy"], { encoding: "utf8" });
const hasNumpy = numpyCheck.status === 0;
const reproduceTitle = hasNumpy
  ? "make_loss_fixtures.py reproduces test/fixtures/losses.json"
  : `make_loss_fixtures.py reproduces test/fixtures/losses.json — SKIPPED: ${PYTHON} cannot import numpy (apt-get install python3-numpy)`;

describe("the equations fixture", () => {
  it.skipIf(!hasNumpy)(reproduceTitle, () => {
    const out = join(tmp("losses-fixture-"), "losses.json");
    const r = spawnSync(PYTHON, [SCRIPT, out], { encoding: "utf8", timeout: 170_000 });
    expect(r.status, r.stderr).toBe(0);
    const fresh = JSON.parse(readFileSync(out, "utf8")) as unknown;
    // same structure, names and options; numbers equal up to libm / numpy differences across machines
    const compare = (a: unknown, b: unknown, path: string): void => {
      if (typeof a === "number" && typeof b === "number") {
        if (!(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)))) throw new Error(`${path}: regenerated ${a}, stored ${b}`);
      } else if (Array.isArray(a) && Array.isArray(b)) {
        expect(a.length, path).toBe(b.length);
        a.forEach((v, i) => compare(v, b[i], `${path}[${i}]`));
      } else if (a && b && typeof a === "object" && typeof b === "object") {
        expect(Object.keys(a), path).toEqual(Object.keys(b));
        for (const k of Object.keys(a)) compare((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      } else {
        expect(a, path).toEqual(b);
      }
    };
    compare(fresh, fx, "losses.json");
  });
});
