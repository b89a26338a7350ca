/**
 * Issue 27: two TRL SDPOConfig options, checked against test/fixtures/sdpo-trl.json, which
 * test/fixtures/make_sdpo_trl_fixtures.py computes independently (numpy float64 from the divergences'
 * definitions, finite-difference gradients; a brute-force search over candidate hints):
 *   distillation_is_clip — the distillation loss's per-token terms weighted by the detached
 *     min(π_θ/π_old, c) (TRL apply_importance_sampling_clipping), in every distillation mode;
 *   max_reprompt_len — the teacher prompt's length cap, met by shortening the hint first (the task is
 *     kept), TRL's left cut only when the unhinted prompt is still too long.
 * Plus the defaults are TRL's, and the trainer's step with old log-probs absent is the uncorrected loss.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { initBackend, tf } from "../lib/backend/index.js";
import { HintAnswerEnvironment, type HintAnswerTask } from "../lib/env/index.js";
import { SdpoChannelConfig, SdpoConfig, hintedPromptIds, sdpoLoss } from "../lib/train/index.js";
import { ROOT, tmp } from "./helpers.js";

type N = number | N[];
interface IsCase {
  name: string;
  inputs: { studentLogits: number[][][]; teacherLogits: number[][][]; sampledIds: number[][]; mask: number[][]; oldLogp: number[][] };
  options: Record<string, unknown>;
  expected: { loss: number; loss_uncorrected: number; weights: number[][] };
  grad: { studentLogits: number[][][] };
}
interface RepromptCase { task_id: string; hint: string; completion_length: number; block_size: number; max_reprompt_len: number; expected_ids: number[]; kept_hint: string; length: number }
const FIXTURE = join(ROOT, "test", "fixtures", "sdpo-trl.json");
const SCRIPT = join(ROOT, "test", "fixtures", "make_sdpo_trl_fixtures.py");
const PYTHON = "/usr/bin/python3";
const fx = JSON.parse(readFileSync(FIXTURE, "utf8")) as { is_clip: IsCase[]; reprompt: RepromptCase[] };

const flat = (x: N): number[] => (Array.isArray(x) ? x.flatMap(flat) : [x]);
function expectClose(actual: tf.Tensor | number, expected: N, what: string, atol = 1e-4, rtol = 1e-4): void {
  const a = typeof actual === "number" ? [actual] : Array.from(actual.dataSync());
  const e = flat(expected);
  expect(a.length, `${what}: size`).toBe(e.length);
  for (let i = 0; i < e.length; i++) {
    if (!(Math.abs(a[i]! - e[i]!) <= atol + rtol * Math.abs(e[i]!))) throw new Error(`${what}[${i}]: got ${a[i]}, expected ${e[i]}`);
  }
}

beforeAll(async () => {
  await initBackend("cpu");
});

describe("distillation_is_clip (TRL SDPOConfig, default 2.0) vs numpy float64", () => {
  it("the defaults are TRL's (distillation_is_clip 2.0, max_reprompt_len 10240)", () => {
    expect(SdpoConfig.parse({}).distillation_is_clip).toBe(2);
    const ch = SdpoChannelConfig.parse({});
    expect(ch.distillation_is_clip).toBe(2);
    expect(ch.max_reprompt_len).toBe(10240);
    expect(SdpoConfig.parse({ distillation_is_clip: null }).distillation_is_clip).toBeNull();
    expect(() => SdpoConfig.parse({ distillation_is_clip: 0 })).toThrow();
  });

  for (const c of fx.is_clip) {
    it(c.name, () => {
      const inputs = {
        studentLogits: tf.tensor3d(c.inputs.studentLogits), teacherLogits: tf.tensor3d(c.inputs.teacherLogits),
        sampledIds: tf.tensor2d(c.inputs.sampledIds, undefined, "int32"), mask: tf.tensor2d(c.inputs.mask), oldLogp: tf.tensor2d(c.inputs.oldLogp),
      };
      const opts = c.options as z.input<typeof SdpoConfig>;
      const out = sdpoLoss({ ...inputs, ...opts });
      const big = Math.abs(c.expected.loss) > 1e3;
      expectClose(out.loss, c.expected.loss, "loss", 1e-4, big ? 1e-3 : 1e-4);
      // without old log-probs there is no correction (TRL's behaviour when it has none)
      const { oldLogp: _o, ...noOld } = inputs;
      expectClose(sdpoLoss({ ...noOld, ...opts }).loss, c.expected.loss_uncorrected, "loss without oldLogp");
      if (c.options.distillation_is_clip !== null) expect(Math.abs(c.expected.loss - c.expected.loss_uncorrected)).toBeGreaterThan(1e-3);
      const g = tf.grad((x: tf.Tensor) => sdpoLoss({ ...opts, ...inputs, studentLogits: x as tf.Tensor3D }).loss)(inputs.studentLogits);
      expectClose(g, c.grad.studentLogits, "grad", big ? 1e-2 : 1e-4, big ? 1e-3 : 1e-4);
    });
  }
});

describe("max_reprompt_len (TRL SDPOConfig, default 10240) vs a brute-force search", () => {
  const env = new HintAnswerEnvironment({ n_tasks: 4, n_holdout: 0, seed: 1 });
  for (const c of fx.reprompt) {
    it(`hint ${JSON.stringify(c.hint.slice(0, 16))}…, block ${c.block_size}, cap ${c.max_reprompt_len} → ${c.length} ids (${JSON.stringify(c.kept_hint.slice(0, 12))})`, () => {
      const task: HintAnswerTask = { task_id: c.task_id, answer: "abcd", decoy: "dcba" };
      const ids = hintedPromptIds(env, task, c.hint, c.completion_length, c.block_size, c.max_reprompt_len);
      expect(ids).toEqual(c.expected_ids);
      expect(ids.length).toBeLessThanOrEqual(c.max_reprompt_len);
    });
  }
  it("the default cap changes nothing at the block sizes the lab trains", () => {
    const task: HintAnswerTask = { task_id: "xvt", answer: "abcd", decoy: "dcba" };
    for (const hint of ["expected cfhb", "solution: " + "x".repeat(80)]) expect(hintedPromptIds(env, task, hint, 6, 256, 10240)).toEqual(hintedPromptIds(env, task, hint, 6, 256));
  });
});

const hasNumpy = spawnSync(PYTHON, ["-c", "import numpy"], { encoding: "utf8" }).status === 0;
describe("the TRL options' fixture", () => {
  it.skipIf(!hasNumpy)(`make_sdpo_trl_fixtures.py reproduces test/fixtures/sdpo-trl.json${hasNumpy ? "" : " — SKIPPED: no numpy"}`, () => {
    const out = join(tmp("sdpo-trl-fixture-"), "sdpo-trl.json");
    const r = spawnSync(PYTHON, [SCRIPT, out], { encoding: "utf8", timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const fresh = JSON.parse(readFileSync(out, "utf8")) as unknown;
    const cmp = (a: unknown, b: unknown, path: string): void => {
      if (typeof a === "number" && typeof b === "number") {
        if (!(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)))) throw new Error(`${path}: regenerated ${a}, stored ${b}`);
      } else if (Array.isArray(a) && Array.isArray(b)) {
        expect(a.length, path).toBe(b.length);
        a.forEach((v, i) => cmp(v, b[i], `${path}[${i}]`));
      } else if (a && b && typeof a === "object" && typeof b === "object") {
        expect(Object.keys(a), path).toEqual(Object.keys(b));
        for (const k of Object.keys(a)) cmp((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      } else expect(a, path).toEqual(b);
    };
    cmp(fresh, fx, "sdpo-trl.json");
  });
});
