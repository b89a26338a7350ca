/**
 * lib/train/losses.ts against an independent PyTorch implementation: test/fixtures/losses.json holds
 * inputs, options, loss values and gradients (float64) written by test/fixtures/make_loss_fixtures.py;
 * here each TS loss runs on the same inputs in float32 and must agree on value and gradient.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BackendName, initBackend, tf } from "../lib/backend/index.js";
import {
  composeLoss,
  dpoLoss,
  entropy,
  groupAdvantages,
  klK3,
  LossWeights,
  policyGradientLoss,
  type PolicyGradientConfig,
  sdpoLoss,
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
    options: Omit<SdpoConfig, "token_clip"> & { token_clip: number | null };
    expected: { loss: number; per_token: number[][]; clipped_fraction: number };
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

// float32 against float64: |a − e| ≤ ATOL + RTOL·|e|
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

// The fixture comparisons run on both CPU backends tfjs trains on here.
describe.each(["cpu", "wasm"] as BackendName[])("losses vs PyTorch on the %s backend", (backend) => {
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
  const jsdCase = fx.sdpo.find((c) => c.options.mode === "jsd" && c.options.token_clip === null && c.options.alpha === 0.5)!;

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
      for (const mode of ["sampled_token", "jsd", "top_k"] as const) {
        const opts = { sampledIds, mask, mode, top_k: 4, token_clip: null };
        const teacherConst = tf.add(studentLogits, shift) as tf.Tensor3D;
        const gConst = tf.grad((s: tf.Tensor) => sdpoLoss({ studentLogits: s as tf.Tensor3D, teacherLogits: teacherConst, ...opts }).loss)(studentLogits);
        const gTape = tf.grad((s: tf.Tensor) => sdpoLoss({ studentLogits: s as tf.Tensor3D, teacherLogits: tf.add(s, shift) as tf.Tensor3D, ...opts }).loss)(studentLogits);
        expect(Array.from(gTape.dataSync()), mode).toEqual(Array.from(gConst.dataSync()));
      }
    });
  });

  it("sdpoLoss: the clip lowers the loss when it binds, caps each token's contribution, and a huge clip changes nothing", () => {
    tf.tidy(() => {
      const inputs = sdpoInputs(jsdCase);
      for (const mode of ["sampled_token", "jsd", "top_k"] as const) {
        for (const token_clip_scope of ["vocab", "token"] as const) {
          const base = { ...inputs, mode, top_k: 4, token_clip_scope };
          const free = sdpoLoss({ ...base, token_clip: null });
          const clipped = sdpoLoss({ ...base, token_clip: 0.05 });
          const huge = sdpoLoss({ ...base, token_clip: 1e9 });
          const what = `${mode}/${token_clip_scope}`;
          expect(scalar(clipped.clipped_fraction), what).toBeGreaterThan(0);
          expect(scalar(clipped.loss), what).toBeLessThan(scalar(free.loss));
          expect(scalar(huge.loss), what).toBeCloseTo(scalar(free.loss), 6);
          expect(scalar(huge.clipped_fraction), what).toBe(0);
          expect(scalar(free.clipped_fraction), what).toBe(0);
          // per-token cap: no token contributes more than the clip (vocab scope: V entries of at most the clip)
          const perTokenMax = token_clip_scope === "token" || mode === "sampled_token" ? 0.05 : 0.05 * fx.shapes.V;
          expect(scalar(clipped.loss), what).toBeLessThanOrEqual(perTokenMax + 1e-6);
        }
      }
    });
  });

  it("sdpoLoss: JSD endpoints are the forward (alpha 0) and reverse (alpha 1) KL", () => {
    tf.tidy(() => {
      const inputs = sdpoInputs(jsdCase);
      const lpS = tf.logSoftmax(inputs.studentLogits);
      const lpT = tf.logSoftmax(inputs.teacherLogits);
      const kl = (p: tf.Tensor, q: tf.Tensor) => tf.sum(tf.mul(tf.exp(p), tf.sub(p, q)), -1).mul(inputs.mask);
      const a0 = sdpoLoss({ ...inputs, mode: "jsd", alpha: 0, token_clip: null });
      const a1 = sdpoLoss({ ...inputs, mode: "jsd", alpha: 1, token_clip: null });
      expectClose(a0.per_token, flat(kl(lpT, lpS).arraySync() as Nested), "alpha 0 = KL(p_T‖p_S)", 1e-5);
      expectClose(a1.per_token, flat(kl(lpS, lpT).arraySync() as Nested), "alpha 1 = KL(p_S‖p_T)", 1e-5);
      // identical distributions: zero divergence for every alpha and mode
      for (const mode of ["sampled_token", "jsd", "top_k"] as const) {
        const same = sdpoLoss({ ...inputs, teacherLogits: inputs.studentLogits, mode, alpha: 0.3, top_k: 4 });
        expect(Math.abs(scalar(same.loss)), mode).toBeLessThan(1e-6);
      }
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

  it("composeLoss: total = grpo_w·grpo + lm_ce_w·lm_ce + α·sdpo + β·dpo; missing channels count 0", () => {
    tf.tidy(() => {
      const ch = { grpo: tf.scalar(1), lm_ce: tf.scalar(2), sdpo: tf.scalar(3), dpo: tf.scalar(4) };
      expect(LossWeights.parse({})).toEqual({ lm_ce: 0, alpha: 0, beta: 0, grpo: 1 });
      expect(scalar(composeLoss(ch, {}))).toBe(1); // defaults: GRPO alone
      expect(scalar(composeLoss(ch, { grpo: 1, alpha: 0.5, beta: 0.25 }))).toBeCloseTo(1 + 1.5 + 1, 6);
      expect(scalar(composeLoss(ch, { grpo: 0, lm_ce: 1 }))).toBe(2); // SFT-first
      expect(scalar(composeLoss(ch, { grpo: 2, lm_ce: 3, alpha: 5, beta: 7 }))).toBeCloseTo(2 + 6 + 15 + 28, 5);
      expect(scalar(composeLoss({ sdpo: tf.scalar(3) }, { alpha: 2 }))).toBe(6); // grpo missing → 0
      expect(scalar(composeLoss({ grpo: tf.scalar(1), dpo: tf.scalar(NaN) }, { beta: 0 }))).toBe(1); // weight 0: left out
      // gradients reach each channel scaled by its weight
      const g = tf.grads((a: tf.Tensor, b: tf.Tensor) => composeLoss({ grpo: tf.square(a) as tf.Scalar, sdpo: tf.square(b) as tf.Scalar }, { alpha: 0.5 }))([tf.scalar(3), tf.scalar(2)]);
      expect(g.map(scalar)).toEqual([6, 2]);
    });
  });
});

// The fixture is a pure function of the script: regenerate it and compare.
const torchCheck = spawnSync(PYTHON, ["-c", "import torch"], { encoding: "utf8" });
const hasTorch = torchCheck.status === 0;
const reproduceTitle = hasTorch
  ? "make_loss_fixtures.py reproduces test/fixtures/losses.json"
  : `make_loss_fixtures.py reproduces test/fixtures/losses.json — SKIPPED: ${PYTHON} cannot import torch (apt-get install python3-torch)`;

describe("the PyTorch fixture", () => {
  it.skipIf(!hasTorch)(reproduceTitle, () => {
    const out = join(tmp("losses-fixture-"), "losses.json");
    const r = spawnSync(PYTHON, [SCRIPT, out], { encoding: "utf8", timeout: 170_000 });
    expect(r.status, r.stderr).toBe(0);
    const fresh = JSON.parse(readFileSync(out, "utf8")) as unknown;
    // same structure, names and options; numbers equal up to libm differences across machines
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
