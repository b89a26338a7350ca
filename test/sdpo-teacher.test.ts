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
import { FeatureDeletionEnvironment, HintAnswerEnvironment, goldenBody, type EnvGrade } from "../lib/env/index.js";
import { defaultLayered } from "../lib/hints/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { FAMILIES, MICRO_VARIANTS, microFunctions } from "../lib/tasks/index.js";
import { StepMetrics, Trainer, feedbackOf, loadTrainConfig, readMetrics, sftRlTasks, teacherHint, type GapCheck, type RepromptOptions } from "../lib/train/index.js";
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
