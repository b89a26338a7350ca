import { describe, expect, it } from "vitest";
import { PassRateCurriculum, simulateCurriculum } from "../lib/curriculum/index.js";
import { makeRewardFn } from "../lib/env/index.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { loadTask } from "../lib/tasks/index.js";
import { ROOT } from "./helpers.js";
import { join } from "node:path";

describe("PassRateCurriculum (§2)", () => {
  it("keeps an EMA of the pass rate from the difficulty prior", () => {
    const c = new PassRateCurriculum({ ema: 0.3 }, [{ task_id: "a", difficulty_prior: 0.8 }]);
    expect(c.pHat("a")).toBeCloseTo(0.2, 10);
    c.update("a", 8, 8);
    expect(c.pHat("a")).toBeCloseTo(0.7 * 0.2 + 0.3, 10);
    c.update("new", 0, 4); // an unseen task starts at 0.5
    expect(c.pHat("new")).toBeCloseTo(0.35, 10);
  });

  it("retires above τ_easy and quarantines below τ_hard only after k observations", () => {
    const c = new PassRateCurriculum({ retire_k: 3, ema: 0.9, tau_easy: 0.9, tau_hard: 0.02 }, [{ task_id: "easy" }, { task_id: "broken" }]);
    const kinds = (events: { kind: string }[]) => events.map((e) => e.kind).filter((k) => k !== "escalate");
    expect(kinds(c.update("easy", 8, 8))).toEqual([]);
    expect(kinds(c.update("easy", 8, 8))).toEqual([]);
    expect(kinds(c.update("easy", 8, 8))).toEqual(["retired"]);
    for (let i = 0; i < 2; i++) c.update("broken", 0, 8);
    expect(c.update("broken", 0, 8).map((e) => e.kind)).toContain("quarantined");
    expect(c.weight("easy")).toBe(0);
    expect(c.weight("broken")).toBe(0);
    expect(c.summary()).toMatchObject({ retired: 1, quarantined: 1, live: 0 });
  });

  it("weights the frontier p(1−p)+1e-3 and samples reproducibly by seed", () => {
    const c = new PassRateCurriculum({ seed: 3 }, [{ task_id: "mid", difficulty_prior: 0.5 }, { task_id: "hard", difficulty_prior: 0.99 }]);
    expect(c.weight("mid")).toBeCloseTo(0.25 + 1e-3, 10);
    expect(c.weight("hard")).toBeCloseTo(0.01 * 0.99 + 1e-3, 10);
    const draws = c.sample(2000);
    expect(draws.filter((d) => d === "mid").length / 2000).toBeGreaterThan(0.9);
    const again = new PassRateCurriculum({ seed: 3 }, [{ task_id: "mid", difficulty_prior: 0.5 }, { task_id: "hard", difficulty_prior: 0.99 }]);
    expect(again.sample(2000)).toEqual(draws);
  });

  it("signals escalation once when the median crosses the band, and saves/restores exactly", () => {
    const c = new PassRateCurriculum({ escalate_above: 0.6, ema: 0.5, seed: 1 }, ["a", "b", "c"].map((task_id) => ({ task_id })));
    const events = ["a", "b", "c", "a", "b"].flatMap((t) => c.update(t, 8, 8)).filter((e) => e.kind === "escalate");
    expect(events).toHaveLength(1);
    expect(c.shouldEscalate()).toBe(true);
    const copy = PassRateCurriculum.restore(JSON.parse(JSON.stringify(c.save())));
    expect(copy.sample(50)).toEqual(c.sample(50));
    expect(copy.summary()).toEqual(c.summary());
  });

  it("on a simulated pool with a synthetic learner: retires what is learned, never a broken task, and quarantines them", () => {
    const sim = simulateCurriculum({ tasks: 100, steps: 500, seed: 2 });
    const s = sim.curriculum.summary();
    expect(s.retired).toBeGreaterThan(50);
    const status = sim.curriculum.tasks();
    expect(sim.broken.filter((id) => status[id]!.status === "retired")).toEqual([]);
    expect(sim.broken.filter((id) => status[id]!.status === "quarantined").length).toBeGreaterThan(0);
    expect(sim.history.length).toBe(50);
  });

  it("is fed by the env's reward_fn", async () => {
    const pool = join(ROOT, "datasets", "tasks");
    const task = loadTask(pool, "inventory-totals");
    const curriculum = new PassRateCurriculum({}, [task]);
    const before = curriculum.pHat(task.task_id)!;
    const reward_fn = makeRewardFn({ pool, sandbox: new BwrapSandbox(), curriculum });
    await reward_fn(["p", "p"], [task.golden_diff, "nothing"], { task_id: [task.task_id, task.task_id] });
    expect(curriculum.pHat(task.task_id)).toBeCloseTo(0.7 * before + 0.3 * 0.5, 10);
  });
});
