/**
 * Issue 27 §1 and §4: who the SDPO teacher is shown (TRL's reprompting rules, composed with the lab's
 * hint layers; each row records its source), the SFT / RL task split, and FD micro tasks whose hints
 * carry what the prompt lacks (variant hidden_constants: the docstring and name hide the constant, the
 * real grade's failing assertion or a passing sibling's body carries it), end to end on the committed
 * datasets/fd-micro-hidden with real bwrap grades: hint-conditioned SFT rows from both sources, the
 * pre-flight gap check, and TRL's metrics logged.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend/index.js";
import { FeatureDeletionEnvironment, HintAnswerEnvironment, goldenBody, renderMessages, type EnvGrade, type HintAnswerTask } from "../lib/env/index.js";
import { defaultLayered } from "../lib/hints/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { FAMILIES, MICRO_VARIANTS, microFunctions } from "../lib/tasks/index.js";
import { Policy, StepMetrics, Trainer, feedbackOf, loadTrainConfig, readMetrics, sdpoSites, sftRlTasks, teacherHint, trainingFigures, type GapCheck, type RepromptCounts, type RepromptOptions, type Rollout, type TrainConfigInput } from "../lib/train/index.js";
import { repromptMetrics } from "../lib/train/rollout.js";
import { copyWeights } from "../lib/train/trainer.js";
import { decode, encode } from "../lib/train/tokenizer.js";
import { Rng } from "../lib/core/index.js";
import { ROOT, tmp } from "./helpers.js";

beforeAll(async () => {
  await initBackend();
});

const TRL: RepromptOptions = { use_successful_as_teacher: true, success_reward_threshold: 1, dont_reprompt_on_self_success: true, include_environment_feedback: false, environment_feedback_only_without_solution: false, max_reprompt_len: 10240 };
const failed = (msg: string): EnvGrade => ({ reward: 0, components: {}, valid: true, passed: false, error: { error_kind: "failing_test", behavior_dim: "tool_use", error_message: msg, test_name: "t", assertion_excerpt: msg } });
const ok: EnvGrade = { reward: 1, components: {}, valid: true, passed: true, error: null };

describe("teacherHint: TRL's reprompting, then the lab's layers", () => {
  const group = [
    { reward: 0, text: "return x", grade: failed("assert 0 == 2") },
    { reward: 1, text: "return x + 2", grade: ok },
    { reward: 0.5, text: "return x + 3", grade: failed("assert 3 == 2") },
  ];

  it("a successful sibling is the teacher's context; a rollout is never shown its own success; the feedback only when asked", async () => {
    const a = await teacherHint(group, 0, TRL, null);
    expect(a.hint).toEqual({ hint: "solution: return x + 2", layer: "sibling" });
    expect(a).toMatchObject({ has_solution: true, feedback_available: true, feedback_used: false });
    // the successful rollout itself: its only successful sibling is itself → no row (dont_reprompt_on_self_success)
    expect((await teacherHint(group, 1, TRL, null)).hint).toBeNull();
    // without that rule it is shown its own success
    expect((await teacherHint(group, 1, { ...TRL, dont_reprompt_on_self_success: false }, null)).hint?.layer).toBe("sibling");
    // a partial reward below success_reward_threshold is not a success
    expect((await teacherHint(group, 0, { ...TRL, success_reward_threshold: 0.4 }, null)).hint?.hint).toBe("solution: return x + 2");
    const both = await teacherHint(group, 2, { ...TRL, include_environment_feedback: true }, null);
    expect(both.hint).toEqual({ hint: "solution: return x + 2\nfailed: assert 3 == 2", layer: "sibling+feedback" });
    const only = await teacherHint(group, 2, { ...TRL, include_environment_feedback: true, environment_feedback_only_without_solution: true }, null);
    expect(only.hint?.layer).toBe("sibling");
    const alone = [group[0]!, group[2]!];
    expect((await teacherHint(alone, 0, { ...TRL, include_environment_feedback: true }, null)).hint).toEqual({ hint: "failed: assert 0 == 2", layer: "feedback" });
    expect((await teacherHint(alone, 0, TRL, null)).hint).toBeNull(); // the references' default: no sibling, no feedback → no row
  });

  it("the lab's hint layers answer only failed rollouts neither a sibling nor the feedback covers, and name themselves", async () => {
    const alone = [group[0]!, group[2]!];
    const h = await teacherHint(alone, 0, TRL, defaultLayered());
    expect(h.hint?.layer).toBe("template");
    expect(h.hint?.hint).toContain("assert 0 == 2");
    expect((await teacherHint(group, 0, TRL, defaultLayered())).hint?.layer).toBe("sibling"); // the sibling first
    expect((await teacherHint([group[1]!], 0, { ...TRL, dont_reprompt_on_self_success: true }, defaultLayered())).hint).toBeNull(); // a success gets no layer hint
  });

  it("feedbackOf: the failing assertion when the grade has one, else the error text", () => {
    expect(feedbackOf(failed("assert 1 == 2"))).toBe("failed: assert 1 == 2");
    expect(feedbackOf({ ...ok, passed: false, reward: 0, error: { error_kind: "wrong_answer", behavior_dim: "tool_use", error_message: " expected abcd " } })).toBe("expected abcd");
    expect(feedbackOf(ok)).toBeNull();
  });
});

describe("sft.task_fraction: SFT and RL on disjoint tasks", () => {
  it("splits by a hash of the task id, disjoint and covering; fraction 1 gives every task to both", () => {
    const tasks = new HintAnswerEnvironment({ n_tasks: 200 }).splits().train;
    const { sft, rl } = sftRlTasks(tasks, 0.8);
    expect(sft.length + rl.length).toBe(200);
    expect(sft.some((t) => rl.includes(t))).toBe(false);
    expect(rl.length).toBeGreaterThan(20); // ≈ 40
    expect(rl.length).toBeLessThan(60);
    expect(sftRlTasks(tasks, 0.8)).toEqual({ sft, rl });
    expect(sftRlTasks(tasks, 1)).toEqual({ sft: tasks, rl: tasks });
  });
});

describe("hint_answer environment (the control's)", () => {
  it("the answer is in the feedback (answer) or not (uninformative, same length); the tasks do not depend on the hint mode", async () => {
    const a = new HintAnswerEnvironment({ seed: 3 });
    const u = new HintAnswerEnvironment({ seed: 3, hint: "uninformative" });
    const t = a.splits().train[0]!;
    expect(u.splits().train[0]).toEqual(t);
    expect(await a.grade(t, t.answer + "\n")).toMatchObject({ reward: 1, passed: true, error: null });
    const ga = await a.grade(t, "zzzz\n");
    const gu = await u.grade(t, "zzzz\n");
    expect(ga.reward).toBe(0);
    expect(feedbackOf(ga)).toBe(`expected ${t.answer}`);
    expect(feedbackOf(gu)).toBe(`expected ${t.decoy}`);
    expect(t.decoy).not.toBe(t.answer);
    expect(t.decoy.length).toBe(t.answer.length);
    expect(a.prompt(t)[0]!.content).not.toContain(t.answer);
    expect(a.prompt(t, feedbackOf(ga))[0]!.content).toContain(t.answer);
  });
});

describe("micro variant hidden_constants (lib/tasks/micro.ts registry entry)", () => {
  it("neither docstring nor name states the constant; the first test's expected value shows it; the stated variant is unchanged", () => {
    const fns = microFunctions({ n: 60, seed: 5, per_package: 12, variant: "hidden_constants" });
    const fams = new Set(fns.map((f) => f.family));
    expect([...fams].every((f) => FAMILIES.find((x) => x.name === f)!.hidden)).toBe(true);
    expect(fams.size).toBeGreaterThanOrEqual(6);
    for (const f of fns) {
      const constant = f.source.split("\n").slice(2).join("\n").match(/\d+|"[^"]*"/)![0]; // the body's literal
      const [, doc] = f.source.split("\n");
      // the family's constant-free docstring: no number, no quoted tag
      expect(doc!.trim(), f.name).toBe(`"""${FAMILIES.find((x) => x.name === f.family)!.hidden!.doc}"""`);
      expect(doc, f.name).not.toMatch(/\d/);
      expect(f.name, f.name).toMatch(new RegExp(`^${f.family}_k[0-9a-z]{1,4}(_b)*$`)); // a tag, not the constant
      const firstAssert = f.tests.split("\n")[1]!;
      expect(firstAssert, f.name).toContain(constant.replace(/"/g, ""));
    }
    // the stated variant is the generator as before (the committed task sets were written by it)
    const stated = microFunctions({ n: 3, seed: 1, per_package: 12 });
    expect(stated[0]!.source).toBe('def add_9(x):\n    """Return x plus 9."""\n    return x + 9');
    expect(Object.keys(MICRO_VARIANTS).sort()).toEqual(["hidden_constants", "stated"]);
  });

  it("on datasets/fd-micro-hidden (real bwrap grades): a wrong body's feedback carries the golden constant; hinted SFT rows come from the feedback and from passing siblings; the gap check and TRL's metrics are logged", async () => {
    const config = loadTrainConfig(join(ROOT, "datasets", "configs", "fd-micro-hidden.yaml"));
    if (config.env.kind !== "feature_deletion") throw new Error("not a feature_deletion config");
    const env = await FeatureDeletionEnvironment.open({ sandbox: await getSandbox(config.env.sandbox), store: config.env.store, run_id: config.env.run_id, pool: config.env.pool });
    const task = env.splits().train.find((t) => /\.add_/.test(t.task_id))!;
    const golden = goldenBody(task);
    const k = golden.match(/\d+/)![0];
    expect(env.prompt(task)[0]!.content).not.toMatch(new RegExp(`\\b${k}\\b`));
    const g = await env.grade(task, "    return x\n\n");
    expect(g.reward).toBe(0);
    expect(feedbackOf(g)).toBe(`failed: assert 0 == ${k}`);

    const dir = tmp("fd-hidden-");
    const r = await new Trainer({
      ...config, sft: { ...config.sft, steps: 2, batch_size: 8, hint_fraction: 1, sibling_fraction: 0.5 },
      rl: { ...config.rl, steps: 1, prompts_per_step: 2, num_generations: 4, max_completion_length: 24 },
      loss_weights: { grpo: 1, sdpo: 0.5, dpo: 0 }, sdpo: { ...config.sdpo, gap_check_tasks: 3 }, heldout: { every: 0, n_tasks: 2, proxy_tasks: 2 }, checkpoint: { every: 0, keep: 1 },
    }, { run_dir: dir, env }).train();
    const ms = readMetrics(dir);
    const sftLayers = ms.filter((m) => m.phase === "sft").reduce<Record<string, number>>((a, m) => { for (const [l, n] of Object.entries(m.hint_layers)) a[l] = (a[l] ?? 0) + n; return a; }, {});
    expect(sftLayers.sibling).toBeGreaterThan(0);
    expect(sftLayers.feedback).toBeGreaterThan(0);
    const rl = ms.find((m) => m.phase === "rl")!;
    expect(StepMetrics.parse(rl).reprompt_sample_fraction).toBeGreaterThan(0); // an untrained policy fails: the feedback feeds rows
    expect(rl.feedback_used_fraction).toBeGreaterThan(0);
    expect(rl.success_group_fraction).not.toBeUndefined();
    expect(Object.keys(rl.hint_layers).every((l) => ["sibling", "feedback", "sibling+feedback"].includes(l))).toBe(true); // hints: null
    expect(rl.teacher_student_gap).not.toBeNull();
    expect(r.final.rl_tasks_n).toBeGreaterThan(0);
    const gap = JSON.parse(readFileSync(join(dir, "gap_check.json"), "utf8")) as GapCheck;
    expect(gap.tasks).toBe(3);
    expect(gap.by_source.map((s) => s.source)).toContain("sibling");
    expect(r.gap_check).toEqual(gap);
    expect(readFileSync(join(dir, "training.html"), "utf8")).toContain("Gap check before RL");
    expect(existsSync(join(dir, "summary.json"))).toBe(true);
  }, 240_000);
});

/** A tiny hint_answer recipe (the control's shape, lib/train control.ts): 16 held-out tasks for sft.until's check. */
const hintRecipe = (sftSteps: number, rlSteps: number): TrainConfigInput => ({
  seed: 1, env: { kind: "hint_answer", n_tasks: 48, n_holdout: 16, seed: 1 }, model: { block_size: 32, n_layer: 2, n_head: 2, n_embd: 32 },
  sft: { steps: sftSteps, batch_size: 32, lr: 0.003, hint_fraction: 0.8, sibling_fraction: 0.5, task_fraction: 0.8 },
  rl: { steps: rlSteps, prompts_per_step: 8, num_generations: 4, max_completion_length: 6, lr: 0.002, temperature: 1 },
  loss_weights: { grpo: 1, sdpo: 0, lm_ce: 1 }, sdpo: { include_environment_feedback: true, hints: null, gap_check_tasks: 0 },
  heldout: { every: 0, n_tasks: 16 }, checkpoint: { every: 0, keep: 1 }, grad_clip: null, grade_concurrency: 1,
});

describe("issue 27 §1: TRL's self_distillation metrics on a hand-built step", () => {
  // Two groups of 4 on the hint_answer env: group A has one success and three failures, group B four failures.
  // The expected fractions are counted by hand from TRL's definitions (SDPOTrainer: success groups / groups;
  // rollouts with a solution, with feedback available, with feedback used, and reprompted / rollouts).
  const env = new HintAnswerEnvironment({ n_tasks: 2, n_holdout: 0, seed: 5 });
  const [ta, tb] = env.splits().train as [HintAnswerTask, HintAnswerTask];
  const wrong = (t: HintAnswerTask, k: number) => [...t.answer].map((ch, i) => (i === 0 ? "abcdefgh"[("abcdefgh".indexOf(ch) + k) % 8] : ch)).join("");
  const rollout = async (task: HintAnswerTask, text: string): Promise<Rollout<HintAnswerTask>> => ({
    task, prompt: renderMessages(env.prompt(task)), prompt_ids: encode(renderMessages(env.prompt(task)), { bos: true }),
    completion: { text, ids: encode(text + "\n"), logprobs: [], stop_reason: "stop", stop_sequence: "\n" }, grade: await env.grade(task, text),
  });
  const step = async (opts: RepromptOptions) => {
    const groups = [
      await Promise.all([rollout(ta, ta.answer), rollout(ta, wrong(ta, 1)), rollout(ta, wrong(ta, 2)), rollout(ta, wrong(ta, 3))]),
      await Promise.all([1, 2, 3, 4].map((k) => rollout(tb, wrong(tb, k)))),
    ];
    const counts: RepromptCounts = { rollouts: 0, success_groups: 0, with_solution: 0, feedback_available: 0, feedback_used: 0, reprompted: 0 };
    const layers: Record<string, number> = {};
    for (const g of groups) {
      const r = await sdpoSites(env, g, null, 32, opts);
      for (const k of Object.keys(counts) as (keyof RepromptCounts)[]) counts[k] += r.counts[k];
      for (const [l, n] of Object.entries(r.layers)) layers[l] = (layers[l] ?? 0) + n;
    }
    return { metrics: repromptMetrics(counts, groups.length), layers };
  };

  it("feedback only where no sibling solved it (OPSD / the control's setting)", async () => {
    const { metrics, layers } = await step({ ...TRL, include_environment_feedback: true, environment_feedback_only_without_solution: true });
    // A: the success has no other successful sibling (no row, no feedback: it passed); its 3 failures see it.
    // B: 4 failures, no sibling: each gets its feedback.
    expect(metrics).toEqual({ success_group_fraction: 1 / 2, success_sample_fraction: 3 / 8, feedback_available_fraction: 7 / 8, feedback_used_fraction: 4 / 8, reprompt_sample_fraction: 7 / 8 });
    expect(layers).toEqual({ sibling: 3, feedback: 4 });
  });

  it("feedback beside the sibling; the references' default (sibling only); a rollout shown its own success", async () => {
    const both = await step({ ...TRL, include_environment_feedback: true });
    expect(both.metrics).toEqual({ success_group_fraction: 1 / 2, success_sample_fraction: 3 / 8, feedback_available_fraction: 7 / 8, feedback_used_fraction: 7 / 8, reprompt_sample_fraction: 7 / 8 });
    expect(both.layers).toEqual({ "sibling+feedback": 3, feedback: 4 });
    const trl = await step(TRL);
    expect(trl.metrics).toEqual({ success_group_fraction: 1 / 2, success_sample_fraction: 3 / 8, feedback_available_fraction: 7 / 8, feedback_used_fraction: 0, reprompt_sample_fraction: 3 / 8 });
    const self = await step({ ...TRL, dont_reprompt_on_self_success: false });
    expect(self.metrics).toMatchObject({ success_sample_fraction: 4 / 8, reprompt_sample_fraction: 4 / 8 });
    const noSibling = await step({ ...TRL, use_successful_as_teacher: false, include_environment_feedback: true });
    expect(noSibling.metrics).toMatchObject({ success_group_fraction: 1 / 2, success_sample_fraction: 0, feedback_used_fraction: 7 / 8, reprompt_sample_fraction: 7 / 8 });
    expect(() => repromptMetrics({ rollouts: 0, success_groups: 0, with_solution: 0, feedback_available: 0, feedback_used: 0, reprompted: 0 }, 0)).toThrow(/0 groups/);
  });

  it("trainingFigures plots them, the teacher–student gap, the RL lm_ce channel and sft.until's checks", () => {
    const base = { rollouts: 0, reward_mean: null, reward_std: null, valid_rate: null, loss_total: 1, loss_lm_ce: 1, loss_grpo: null, loss_sdpo: null, loss_dpo: null, sdpo_rows: 0, hint_layers: {}, shift_kl: null, clipped_fraction: null, clip_ratio: null, kl: null, entropy: null, grad_norm: 1, tokens_per_s: 0, elapsed_s: 0 };
    const check = (p: number) => ({ tasks: 4, by_source: [{ source: "sibling", n: 4, student_pass: 0, teacher_pass: p, teacher_logp: -1 + p }, { source: "feedback", n: 4, student_pass: 0, teacher_pass: p / 2, teacher_logp: -2 + p }], met: p >= 1 });
    const ms = [
      StepMetrics.parse({ ...base, step: 1, phase: "sft", sft_check: check(0.25) }),
      StepMetrics.parse({ ...base, step: 2, phase: "sft", sft_check: check(1) }),
      ...[3, 4].map((s) => StepMetrics.parse({
        ...base, step: s, phase: "rl", reward_mean: 0, valid_rate: 1, loss_grpo: 0, loss_sdpo: 0.5, loss_lm_ce: 0.25 * s, shift_kl: 0.5, teacher_student_gap: 0.1 * s, entropy: 1,
        success_group_fraction: 0.5, success_sample_fraction: 0.375, feedback_used_fraction: 0.5, reprompt_sample_fraction: 0.875,
      })),
    ];
    const figs = trainingFigures(ms) as { data: { name?: string; x: number[]; y: (number | null)[] }[]; layout: { title: { text: string } | string } }[];
    const title = (f: (typeof figs)[number]) => (typeof f.layout.title === "string" ? f.layout.title : f.layout.title.text);
    const fig = (re: RegExp) => figs.find((f) => re.test(title(f)))!;
    const trace = (f: (typeof figs)[number], name: string) => f.data.find((d) => d.name === name)!;
    const trl = fig(/TRL's self_distillation/);
    expect(trl.data.map((d) => d.name).sort()).toEqual(["feedback_used_fraction", "reprompt_sample_fraction", "success_group_fraction", "success_sample_fraction"]);
    expect(trace(trl, "reprompt_sample_fraction").y).toEqual([0.875, 0.875]);
    expect(trace(fig(/Teacher–student gap/), "teacher − student log p of the sampled tokens").y.map((y) => +y!.toFixed(6))).toEqual([0.3, 0.4]);
    expect(trace(fig(/Loss channels/), "lm_ce").y).toEqual([0.75, 1]);
    const conv = fig(/SFT convergence/);
    expect(trace(conv, "hinted pass (sibling)")).toMatchObject({ x: [1, 2], y: [0.25, 1] });
    expect(trace(conv, "hinted pass (feedback)").y).toEqual([0.125, 0.5]);
    expect(trace(conv, "golden log p / token (feedback)").y).toEqual([-1.75, -1]);
    expect(figs.some((f) => /SFT convergence/.test(title(f)))).toBe(true);
    expect(trainingFigures(ms.slice(2)).some((f) => /SFT convergence/.test(title(f as (typeof figs)[number])))).toBe(false);
  });
});

describe("issue 27 §1: the teacher kinds (ema, base, live)", () => {
  it("copyWeights is the EMA update (1 − r)·teacher + r·policy, weight by weight, against plain arithmetic", () => {
    const cfg = { block_size: 8, n_layer: 1, n_head: 1, n_embd: 8 };
    const p = new Policy({ ...cfg, seed: 1 });
    const t = new Policy({ ...cfg, seed: 2 });
    const before = t.variables().map((v) => Array.from(v.dataSync()));
    const src = p.variables().map((v) => Array.from(v.dataSync()));
    copyWeights(p, t, 0.05);
    t.variables().forEach((v, i) => {
      const got = v.dataSync();
      before[i]!.forEach((b, j) => expect(Math.abs(got[j]! - (0.95 * b + 0.05 * src[i]![j]!))).toBeLessThan(1e-6));
    });
    expect(before.some((w, i) => w.some((b, j) => Math.abs(b - src[i]![j]!) > 1e-3))).toBe(true); // the two inits differ
    copyWeights(p, t, 1);
    t.variables().forEach((v, i) => expect(Array.from(v.dataSync())).toEqual(src[i]));
    p.dispose();
    t.dispose();
  });

  it("in the trainer: every teacher starts as the post-SFT weights; ema at rate 0 stays them (= base), at rate 1 follows the policy (= live)", async () => {
    const base = hintRecipe(40, 2);
    const sft = tmp("teacher-sft-");
    await new Trainer({ ...base, rl: { ...base.rl, steps: 0 } }, { run_dir: sft }).train();
    const gaps = async (sdpo: Record<string, unknown>) => {
      const dir = tmp("teacher-");
      await new Trainer({
        ...base, init_from: join(sft, "checkpoints"), sft: { ...base.sft, steps: 0 }, loss_weights: { grpo: 1, sdpo: 1, lm_ce: 0 },
        sdpo: { ...base.sdpo, distillation_mode: "full_logits", distillation_alpha: 0, gap_check_tasks: 0, ...sdpo },
      }, { run_dir: dir }).train();
      return readMetrics(dir).filter((m) => m.phase === "rl").map((m) => m.teacher_student_gap!);
    };
    const [b, l, e0, e1] = [await gaps({ teacher_model_kind: "base" }), await gaps({ teacher_model_kind: "live" }), await gaps({ teacher_model_kind: "ema", teacher_update_rate: 0 }), await gaps({ teacher_model_kind: "ema", teacher_update_rate: 1 })];
    for (const g of [b, l, e0, e1]) expect(g).toHaveLength(2);
    // step 1: one teacher (the post-SFT weights), the same rollouts
    for (const g of [l, e0, e1]) expect(g[0]).toBeCloseTo(b[0]!, 5);
    // step 2: the policy moved; base and ema(0) kept the post-SFT weights, live and ema(1) are the moved policy
    expect(e0[1]).toBeCloseTo(b[1]!, 5);
    expect(e1[1]).toBeCloseTo(l[1]!, 5);
    expect(Math.abs(b[1]! - l[1]!)).toBeGreaterThan(1e-4);
  }, 120_000);
});

describe("sft.until: SFT until the hinted teacher knows the answer, sft.steps the cap", () => {
  const base = hintRecipe(50, 2);
  const until = { every: 5, hinted_pass: 0, golden_logp: null, sft_pass: 0, tasks: 16, patience: 2 };

  it("ends SFT at the first run of `patience` met checks; an SFT-only run's checkpoint carries it into the arms' RL (the compare flow)", async () => {
    const dir = tmp("until-");
    const sftOnly = await new Trainer({ ...base, sft: { ...base.sft, until }, rl: { ...base.rl, steps: 0 } }, { run_dir: dir }).train();
    expect(sftOnly.sft_end).toEqual({ step: 10, reason: "converged", checks: 2 });
    expect(sftOnly.steps).toBe(10);
    const checks = readMetrics(dir).filter((m) => m.sft_check);
    expect(checks.map((m) => m.step)).toEqual([5, 10]);
    for (const m of checks) {
      expect(m.sft_check!.met).toBe(true);
      expect(m.sft_check!.tasks).toBe(16); // the env's 16 held-out tasks
      expect(m.sft_check!.sft_pass).toBeGreaterThanOrEqual(0); // the unhinted pass on SFT tasks, logged
      expect(m.sft_check!.by_source.map((s) => s.source).sort()).toEqual(["feedback", "sibling"]);
    }
    // the arm: same folder, RL steps > 0: resumes into RL at step 10 (not back into SFT up to the cap of 50)
    const arm = await new Trainer({ ...base, sft: { ...base.sft, until }, loss_weights: { grpo: 1, sdpo: 0, lm_ce: 0 } }, { run_dir: dir }).train();
    expect(arm.steps).toBe(12);
    expect(readMetrics(dir).map((m) => `${m.step}:${m.phase}`).slice(-3)).toEqual(["10:sft", "11:rl", "12:rl"]);
    expect(arm.sft_end).toMatchObject({ step: 10, reason: "converged" });
  }, 120_000);

  it("a criterion not met runs to the cap (checked at the cap too); the golden log-prob and SFT-recall bounds count; no held-out tasks is an error", async () => {
    const dir = tmp("until-cap-");
    const r = await new Trainer({ ...base, sft: { ...base.sft, steps: 12, until: { ...until, golden_logp: -1e-9 } }, rl: { ...base.rl, steps: 0 } }, { run_dir: dir }).train();
    expect(r.sft_end).toEqual({ step: 12, reason: "cap", checks: 3 });
    expect(readMetrics(dir).filter((m) => m.sft_check).map((m) => [m.step, m.sft_check!.met])).toEqual([[5, false], [10, false], [12, false]]);
    // the unhinted pass on SFT tasks counts too: 1.0 is out of reach after 12 steps
    const recall = await new Trainer({ ...base, sft: { ...base.sft, steps: 12, until: { ...until, sft_pass: 1 } }, rl: { ...base.rl, steps: 0 } }, { run_dir: tmp("until-recall-") }).train();
    expect(recall.sft_end).toEqual({ step: 12, reason: "cap", checks: 3 });
    const none = { ...base, env: { ...(base.env as object), n_holdout: 0 } as never, sft: { ...base.sft, until } };
    await expect(new Trainer(none, { run_dir: tmp("until-none-") }).train()).rejects.toThrow(/sft.until: hint_answer has no held-out tasks/);
    expect(r.steps).toBe(12);
  }, 120_000);
});

describe("sft.hint_only_fraction: rows where the hint is needed", () => {
  it("the hint-only tasks' demonstrations come only hint-conditioned; the others both ways", async () => {
    const base = hintRecipe(1, 0);
    const tr = new Trainer({ ...base, sft: { ...base.sft, hint_only_fraction: 0.5, hint_fraction: 0.5 } }, { run_dir: tmp("hint-only-") });
    const env = await tr.environment();
    const { sft } = sftRlTasks(env.splits().train, 0.8);
    type Rows = { rows: { ids: number[] }[]; layers: Record<string, number> };
    const priv = tr as unknown as { sftRows(e: unknown, t: unknown[], rng: Rng, bs: number): Promise<Rows>; hintOnly(t: unknown): boolean };
    const only = new Set(sft.filter((t) => priv.hintOnly(t)).map((t) => t.task_id));
    expect(only.size).toBeGreaterThan(sft.length * 0.25);
    expect(only.size).toBeLessThan(sft.length * 0.75);
    const rng = new Rng(7);
    const seen = { unhinted: 0, unhintedOnly: 0, hintedOnly: 0, hintedOther: 0 };
    for (let k = 0; k < 12; k++) {
      const { rows, layers } = await priv.sftRows(env, sft, rng, 32);
      const hinted = Object.values(layers).reduce((a, b) => a + b, 0) > 0;
      for (const r of rows) {
        const id = decode(r.ids.filter((i) => i < 256)).match(/q:(\w{3})/)![1]!;
        if (!hinted) {
          seen.unhinted++;
          if (only.has(id)) seen.unhintedOnly++;
        } else if (only.has(id)) seen.hintedOnly++;
        else seen.hintedOther++;
      }
    }
    expect(seen.unhinted).toBeGreaterThan(0);
    expect(seen.unhintedOnly).toBe(0);
    expect(seen.hintedOnly).toBeGreaterThan(0);
    expect(seen.hintedOther).toBeGreaterThan(0);
  }, 60_000);
});

describe("issue 27 §1: the RL step's logits are divided by the sampling temperature (TRL)", () => {
  it("with top_k 1 every temperature samples the same rollouts; the logged entropy of the step's logits rises with the temperature", async () => {
    const entropyAt = async (temperature: number) => {
      const base = hintRecipe(20, 1);
      const dir = tmp("tau-");
      await new Trainer({ ...base, rl: { ...base.rl, temperature, top_k: 1 }, loss_weights: { grpo: 1, sdpo: 0, lm_ce: 0 } }, { run_dir: dir }).train();
      const rl = readMetrics(dir).filter((m) => m.phase === "rl");
      expect(rl).toHaveLength(1);
      return rl[0]!.entropy!;
    };
    const [e05, e1, e2] = [await entropyAt(0.5), await entropyAt(1), await entropyAt(2)];
    // softmax(z/τ) is flatter for larger τ: a trainer that ignored τ would log one entropy for all three
    expect(e05).toBeLessThan(e1 - 1e-3);
    expect(e1).toBeLessThan(e2 - 1e-3);
  }, 120_000);
});
