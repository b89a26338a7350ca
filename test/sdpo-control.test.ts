/**
 * The SDPO controls (issue 27 §2), run through the CLI exactly as anyone reruns them:
 * `composer-lab experiment sdpo-control --json`. On the hint_answer environment the answer is only in
 * the environment's feedback; after hint-conditioned SFT, on RL tasks SFT never showed:
 *   positive control: SDPO with a frozen (base) teacher shown the feedback reaches ≥ 0.8 greedy pass,
 *     GRPO alone stays ≤ 0.2 (its 0/1 reward is never hit, so its groups carry no signal);
 *   negative control: the same SDPO with a same-length uninformative hint gains nothing (≤ SFT + 0.2).
 * The thresholds are asserted, so a broken teacher, loss, reprompt or EMA path fails this test.
 */
import { describe, expect, it } from "vitest";
import { cli, oneJson, tmp } from "./helpers.js";

describe("experiment sdpo-control (real trainer, tiny policy, hint_answer env)", () => {
  it("positive control: SDPO with the feedback as the hint takes unseen RL tasks from ≈ 0 to ≥ 0.8, GRPO stays ≤ 0.2; negative control: an uninformative hint gives no gain", () => {
    const dir = tmp("sdpo-control-");
    const r = cli(["experiment", "sdpo-control", "--json", "--run-dir", dir]);
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    const out = oneJson(r.stdout);
    const pass = out.pass_rates as Record<string, number>;
    // ≈ 0 before RL: the answers of the RL tasks are nowhere in SFT
    expect(out.sft_rl_tasks_pass).toBeLessThanOrEqual(0.2);
    expect(out.rl_tasks_n).toBeGreaterThanOrEqual(5);
    expect(pass.grpo).toBeLessThanOrEqual(0.2);
    expect(pass.sdpo).toBeGreaterThanOrEqual(0.8);
    expect(pass["sdpo-uninformative"]).toBeLessThanOrEqual(out.sft_rl_tasks_pass + 0.2);
    expect(out.positive_ok && out.negative_ok && out.ok).toBe(true);
    // Each arm ran the same rollouts; the SDPO arms' rows came from the feedback (and passing siblings), and
    // the gap check saw a better teacher with the real feedback and no better one with the uninformative hint.
    const arms = out.arms as { arm: string; rollouts: number; sdpo_rows: number; gap_check: { by_source: { source: string; teacher_pass: number; student_pass: number }[]; warning: string | null } | null }[];
    expect(new Set(arms.map((a) => a.rollouts)).size).toBe(1);
    const arm = (n: string) => arms.find((a) => a.arm === n)!;
    expect(arm("grpo").sdpo_rows).toBe(0);
    expect(arm("sdpo").sdpo_rows).toBeGreaterThan(0);
    const fb = (n: string) => arm(n).gap_check!.by_source.find((s) => s.source === "feedback")!;
    expect(fb("sdpo").teacher_pass).toBeGreaterThan(fb("sdpo").student_pass);
    expect(fb("sdpo-uninformative").teacher_pass).toBeLessThanOrEqual(fb("sdpo-uninformative").student_pass);
    expect(arm("sdpo-uninformative").gap_check!.warning).toMatch(/not better/);
  }, 300_000);
});
