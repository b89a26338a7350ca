/**
 * The SDPO controls (issue 27 §2), run through the CLI exactly as anyone reruns them:
 * `composer-lab experiment sdpo-control --json --seeds …`. On the hint_answer environment the answer is
 * only in the environment's feedback; after hint-conditioned SFT, on RL tasks SFT never showed:
 *   positive control: SDPO shown the feedback, with TRL's EMA teacher (here; the CLI runs a frozen
 *     base teacher too), reaches ≥ 0.8 greedy pass; GRPO alone stays ≤ 0.2 (its 0/1 reward is never hit,
 *     so its groups carry no signal);
 *   negative control: the same SDPO with a same-length uninformative hint gains nothing (≤ SFT + 0.2).
 * Every arm keeps the same lm_ce anchor on the SFT tasks (lib/train control.ts says why). The thresholds
 * are asserted on each seed the test runs, so a broken teacher, loss, reprompt, EMA or lm_ce path fails it.
 * To fit the test's budget the SFT checkpoint is the committed one (datasets/train/sdpo-control/run,
 * `--sft-from`, checked to match the recipe, its last sft.until check read again here; hint-conditioned
 * SFT and sft.until are covered by test/sdpo-teacher.test.ts), the frozen-teacher arm is left out and RL runs 80 of the
 * recipe's 140 steps (seed 1's EMA arm is at 1.0 from step 50; see below); `experiment sdpo-control --json --seeds 1,2,3,4,5`
 * trains SFT too and runs all five arms' 140 steps (docs/results.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend/index.js";
import { mean } from "../lib/core/index.js";
import { HintAnswerEnvironment, renderMessages, type HintAnswerTask } from "../lib/env/index.js";
import { Trainer, controlBaseConfig, SdpoControlOptions, loadLatestCheckpoint, parseTrainConfig, readMetrics, sample, sftRlTasks, type TrainResult } from "../lib/train/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

describe("the RL step's lm_ce channel (the controls' anchor)", () => {
  beforeAll(async () => {
    await initBackend();
  });
  it("with loss_weights.lm_ce > 0 each RL step adds an SFT-task demonstration loss to the total; at 0 it has none", async () => {
    const base = controlBaseConfig(SdpoControlOptions.parse({ sft_steps: 4, rl_steps: 3 }));
    const lossOf = async (lm_ce: number) => {
      const dir = tmp("lm-ce-");
      await new Trainer({ ...base, loss_weights: { grpo: 1, sdpo: 0, lm_ce }, sdpo: { ...base.sdpo, gap_check_tasks: 0 } }, { run_dir: dir }).train();
      return readMetrics(dir).filter((m) => m.phase === "rl");
    };
    const on = await lossOf(1);
    expect(on).toHaveLength(3);
    for (const m of on) {
      expect(m.loss_lm_ce).toBeGreaterThan(0.5); // ≈ ln 8 per answer letter after 4 SFT steps, not 0
      // GRPO's groups are all 0 reward here (its loss 0), so the total is the anchor's loss
      expect(m.loss_total).toBeCloseTo(m.loss_grpo! + m.loss_lm_ce!, 5);
    }
    for (const m of await lossOf(0)) expect(m.loss_lm_ce).toBeNull();
  }, 120_000);
});

describe("the committed control SFT (datasets/train/sdpo-control/run/seed-1/sft) and sft.until", () => {
  it("its last convergence check, read again from the checkpoint with the env's own prompts: hinted pass on held-out tasks, unhinted pass on SFT tasks", async () => {
    await initBackend();
    const cfg = parseTrainConfig(controlBaseConfig(SdpoControlOptions.parse({ seed: 1 })));
    const u = cfg.sft.until!;
    const dir = join(ROOT, "datasets", "train", "sdpo-control", "run", "seed-1", "sft");
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as TrainResult;
    const last = readMetrics(dir).filter((m) => m.sft_check).at(-1)!;
    expect(summary.sft_end!.step).toBe(last.step); // SFT ended at a check (met, or the cap, which is checked too)
    const ck = (await loadLatestCheckpoint(join(dir, "checkpoints")))!;
    expect(ck.step).toBe(summary.sft_end!.step);
    if (cfg.env.kind !== "hint_answer") throw new Error("not the hint_answer env");
    const { kind: _k, ...envCfg } = cfg.env;
    const env = new HintAnswerEnvironment(envCfg);
    const greedyPass = (tasks: HintAnswerTask[], hint: (t: HintAnswerTask) => string | null) => {
      const outs = sample(ck.policy, tasks.map((t) => renderMessages(env.prompt(t, hint(t)))), { max_new_tokens: cfg.rl.max_completion_length, temperature: 0, stop: [env.stop] });
      return outs.map((o, i) => (o.text.trim() === tasks[i]!.answer ? 1 : 0));
    };
    const held = env.splits().holdout.slice(0, u.tasks);
    const unhinted = greedyPass(held, () => null);
    const failed = held.filter((_, i) => !unhinted[i]); // the feedback exists where the student fails
    const feedback = mean(greedyPass(failed, (t) => `expected ${t.answer}`));
    const sibling = mean(greedyPass(held, (t) => `solution: ${t.answer}`));
    const recall = mean(greedyPass(sftRlTasks(env.splits().train, cfg.sft.task_fraction).sft.slice(0, u.tasks), () => null));
    const logged = Object.fromEntries(last.sft_check!.by_source.map((b) => [b.source, b.teacher_pass]));
    // one task's worth of slack: batch composition (left padding) may flip a near-tie of the greedy argmax
    expect(Math.abs(feedback - logged.feedback!)).toBeLessThanOrEqual(1 / u.tasks + 1e-9);
    expect(Math.abs(sibling - logged.sibling!)).toBeLessThanOrEqual(1 / u.tasks + 1e-9);
    expect(Math.abs(recall - last.sft_check!.sft_pass!)).toBeLessThanOrEqual(1 / u.tasks + 1e-9);
    expect(mean(unhinted)).toBeLessThanOrEqual(0.125); // held-out answers are nowhere in SFT
    if (summary.sft_end!.reason === "converged") {
      expect(summary.sft_end!.step).toBeLessThan(cfg.sft.steps);
      for (const x of [logged.feedback!, logged.sibling!]) expect(x).toBeGreaterThanOrEqual(u.hinted_pass);
      expect(last.sft_check!.sft_pass!).toBeGreaterThanOrEqual(u.sft_pass!);
    } else {
      expect(summary.sft_end).toMatchObject({ step: cfg.sft.steps, reason: "cap" });
    }
  }, 60_000);
});

const SEEDS = [1];
const RL_STEPS = 80;

describe("experiment sdpo-control (real trainer, tiny policy, hint_answer env)", () => {
  it(`positive control: SDPO (TRL's EMA teacher) with the feedback as the hint takes unseen RL tasks from ≈ 0 to ≥ 0.8, GRPO stays ≤ 0.2; negative control: an uninformative hint gives no gain (seeds ${SEEDS.join(", ")})`, () => {
    const dir = tmp("sdpo-control-");
    // --no-frozen: the issue asks for a frozen or an EMA teacher; the frozen arm (≥ 0.8 on 4 of 5 seeds, 1.0 on
    // seed 1: docs/results.md) is left to `experiment sdpo-control` to keep this test within its budget.
    // --rl-steps 80 (the recipe's 140 halved, nearly): on seed 1 the EMA arm's greedy pass on its 6 RL tasks, every
    // 10 RL steps from 0, is 0, .33, .17, .67, .67, then 1.0 from step 50 to 140; GRPO and the uninformative hint
    // are 0 at every one of those checkpoints (docs/results.md). So 80 steps assert the same outcome on every arm
    // with 30 steps of margin, and the negative controls get 30 more steps than the positive one needed to gain.
    const r = cli(["experiment", "sdpo-control", "--json", "--run-dir", dir, "--seeds", SEEDS.join(","), "--sft-from", "datasets/train/sdpo-control/run", "--no-frozen", "--rl-steps", String(RL_STEPS)]);
    const out = oneJson(r.stdout);
    type Arm = { arm: string; rollouts: number; sdpo_rows: number; gap_check: { by_source: { source: string; teacher_pass: number; student_pass: number }[]; warning: string | null } | null };
    type Seed = { seed: number; sft_rl_tasks_pass: number; rl_tasks_n: number; pass_rates: Record<string, number>; positive_ok: boolean; negative_ok: boolean; arms: Arm[] };
    const perSeed = out.per_seed as Seed[];
    expect(perSeed.map((s) => s.seed)).toEqual(SEEDS);
    for (const s of perSeed) {
      const at = `seed ${s.seed}: ${JSON.stringify(s.pass_rates)}`;
      // ≈ 0 before RL: the answers of the RL tasks are nowhere in SFT
      expect(s.sft_rl_tasks_pass, at).toBeLessThanOrEqual(0.2);
      expect(s.rl_tasks_n, at).toBeGreaterThanOrEqual(5);
      expect(s.pass_rates.grpo, at).toBeLessThanOrEqual(0.2);
      expect(s.pass_rates.sdpo, at).toBeUndefined(); // --no-frozen
      expect(s.pass_rates["sdpo-ema"], at).toBeGreaterThanOrEqual(0.8);
      expect(s.pass_rates["sdpo-uninformative"], at).toBeLessThanOrEqual(s.sft_rl_tasks_pass + 0.2);
      expect(s.positive_ok && s.negative_ok, at).toBe(true);
      // Each arm ran the same rollouts; the SDPO arms' rows came from the feedback (and passing siblings), and
      // the gap check saw a better teacher with the real feedback and no better one with the uninformative hint.
      expect(new Set(s.arms.map((a) => a.rollouts)).size, at).toBe(1);
      expect(s.arms[0]!.rollouts, at).toBe(RL_STEPS * 32);
      const arm = (n: string) => s.arms.find((a) => a.arm === n)!;
      expect(arm("grpo").sdpo_rows).toBe(0);
      expect(arm("sdpo-ema").sdpo_rows).toBeGreaterThan(0);
      const fb = (n: string) => arm(n).gap_check!.by_source.find((x) => x.source === "feedback")!;
      expect(fb("sdpo-ema").teacher_pass).toBeGreaterThan(fb("sdpo-ema").student_pass);
      expect(fb("sdpo-uninformative").teacher_pass).toBeLessThanOrEqual(fb("sdpo-uninformative").student_pass);
      expect(arm("sdpo-uninformative").gap_check!.warning).toMatch(/not better/);
    }
    // the summary is the per-seed figures' mean and spread
    const summary = out.summary as { arm: string; n: number; per_seed: number[]; mean: number }[];
    for (const a of summary) {
      expect(a.per_seed).toEqual(perSeed.map((s) => s.pass_rates[a.arm]));
      expect(a.mean).toBeCloseTo(a.per_seed.reduce((x, y) => x + y, 0) / a.n, 12);
    }
    expect(out.ok).toBe(true);
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
  }, 400_000);
});
