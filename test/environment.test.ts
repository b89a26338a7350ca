/**
 * The Environment interface and its two implementations: the Rubric's weighted functions and gates,
 * the tool-call env graded against gradeToolCall (the reference it wraps), and micro feature-deletion
 * tasks (datasets/fd-micro, built by `composer-lab tasks micro`) graded for real in bwrap: the
 * golden body passes, a wrong body fails with the failing test and assertion in its ErrorContext
 * (which the template layer turns into a hint), and a body that reaches into pytest is masked.
 */
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Rng } from "../lib/core/index.js";
import { FeatureDeletionEnvironment, Rubric, ToolCallEnvironment, bodyMistakes, bodyPrompt, corruptCall, gradeAll, gradeToolCall, openEnvironment, publishTasks, renderMessages, spliceBody } from "../lib/env/index.js";
import { defaultLayered } from "../lib/hints/index.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { HeldoutSplit, LocalStore, RunLayout } from "../lib/store/index.js";
import { FAMILIES, loadTask, microFunctions, readIndex } from "../lib/tasks/index.js";
import { ROOT, cliAsync, oneJson, tmp } from "./helpers.js";

const MICRO = join(ROOT, "datasets", "fd-micro");
const sb = new BwrapSandbox();
const openMicro = () => FeatureDeletionEnvironment.open({ sandbox: sb, store: join(MICRO, "store"), run_id: "micro-s0", pool: join(MICRO, "pool") });

describe("Rubric", () => {
  it("sums weighted functions and zeroes the sum when a gate is closed", () => {
    const r = new Rubric({ funcs: [{ name: "a", weight: 0.5 }, { name: "b", weight: 2 }], gates: ["g"] });
    expect(r.score({ a: 1, b: 0.25, g: 1 })).toBe(1);
    expect(r.score({ a: 1, b: 0.25, g: 0 })).toBe(0);
    expect(r.score({ a: 1, b: 0.25 })).toBe(0); // a missing gate is closed
    expect(() => new Rubric({ funcs: [] })).toThrow();
  });
});

describe("ToolCallEnvironment", () => {
  const env = new ToolCallEnvironment({ env: { seed: 2, n_tasks: 60 } });
  it("grades as gradeToolCall does, through its rubric", async () => {
    const rng = new Rng(5);
    for (const task of env.splits().train.slice(0, 30)) {
      for (const completion of [env.demonstration(task)!, corruptCall(task, rng), " nonsense"]) {
        const g = await env.grade(task, completion);
        expect(g.reward).toBe(gradeToolCall(task, completion).reward);
        expect(g.error === null).toBe(g.reward === 1);
      }
    }
  });
  it("splits train and held-out apart; a hint is spliced into the teacher's prompt only", () => {
    const { train, holdout } = env.splits();
    expect(holdout.length).toBeGreaterThan(0);
    expect(train.filter((t) => holdout.some((h) => h.task_id === t.task_id))).toEqual([]);
    const t = train[0]!;
    expect(renderMessages(env.prompt(t))).not.toContain("hint:");
    expect(renderMessages(env.prompt(t, "use the add tool"))).toContain("hint: use the add tool");
  });
  it("openEnvironment reads a spec without kind as toolcall", async () => {
    const e = await openEnvironment({ kind: "toolcall", n_tasks: 20 }, { seed: 1 });
    expect(e.name).toBe("toolcall");
    expect(e.splits().train.length + e.splits().holdout.length).toBe(20);
  });
});

describe("micro feature-deletion tasks", () => {
  it("the generator is seeded, and every family's tests expect what its body computes", () => {
    expect(microFunctions({ n: 10, seed: 4 })).toEqual(microFunctions({ n: 10, seed: 4 }));
    expect(microFunctions({ n: 10, seed: 4 })).not.toEqual(microFunctions({ n: 10, seed: 5 }));
    expect(new Set(microFunctions({ n: 200, seed: 1 }).map((f) => f.family)).size).toBe(FAMILIES.length);
  });

  it("the committed store run: rl_task_pool and holdout disjoint and non-empty, SFT solutions for training tasks only", async () => {
    const env = await openMicro();
    const { train, holdout } = env.splits();
    expect(train.length).toBeGreaterThan(10);
    expect(holdout.length).toBeGreaterThan(3);
    expect(train.every((t) => env.demonstration(t) !== null)).toBe(true);
    expect(holdout.every((t) => env.demonstration(t) === null)).toBe(true);
    // The prompt is the stub: signature and docstring, no body and no golden code.
    for (const t of [...train, ...holdout]) {
      const p = bodyPrompt(t);
      expect(p).toMatch(/def \w+\(\w+\):\n {4}""".+"""\n$/);
      expect(p).not.toContain("NotImplementedError");
      for (const line of t.golden_diff.split("\n").filter((l) => l.startsWith("+    return"))) expect(p).not.toContain(line.slice(1).trim());
    }
  });

  it("grades in bwrap: golden body 1, wrong body 0 with the failing test and assertion, hint from the template layer", async () => {
    const env = await openMicro();
    const task = env.splits().holdout[0]!;
    const golden = readFileSync(join(MICRO, "pool", "golden", `${task.task_id}.diff`), "utf8").split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).map((l) => l.slice(1)).join("\n");
    const ok = await env.grade(task, golden);
    expect(ok).toMatchObject({ reward: 1, passed: true, valid: true, error: null });
    const bad = await env.grade(task, "    return None");
    expect(bad.reward).toBe(0);
    expect(bad.error?.error_kind).toBe("failing_test");
    expect(task.fail_to_pass).toContain(bad.error?.test_name);
    expect(bad.error?.assertion_excerpt).toMatch(/assert/);
    const hint = await defaultLayered().generate(bad.error!);
    expect(hint?.layer).toBe("template");
    expect(hint?.hint).toContain(bad.error!.test_name!);
  });

  it("the hack monitor's mask: a body that reaches into pytest scores 0 whatever the tests say", async () => {
    const env = await openMicro();
    const task = env.splits().train[0]!;
    const g = await env.grade(task, "    import _pytest.reports as r\n    r.TestReport.outcome = 'passed'\n    return None");
    expect(g.reward).toBe(0);
    expect(g.components.not_hacked).toBe(0);
    expect(g.error?.error_message).toMatch(/tamper/);
  });

  it("composer-lab tasks micro builds validated tasks through the real builder and publishes them to a store run", async () => {
    const out = tmp();
    const r = await cliAsync(["tasks", "micro", "--out", out, "--n", "3", "--per-package", "3", "--seed", "7", "--holdout", "0", "--sandbox", "bwrap", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const j = oneJson(r.stdout);
    expect(j).toMatchObject({ ok: true, packages: 1, tasks: 3, rejected: 0, errors: [] });
    expect(j.sections.rl_task_pool + j.sections.holdout).toBe(3);
    expect(j.sections.sft_corpus).toBe(j.sections.rl_task_pool);
    const env = await FeatureDeletionEnvironment.open({ sandbox: sb, store: j.store, run_id: j.run_id });
    expect(env.splits().train.length).toBe(j.sections.rl_task_pool);
    // every golden diff stays out of the snapshot the policy's tree starts from
    for (const t of [...env.splits().train, ...env.splits().holdout]) expect(readFileSync(join(t.broken.kind === "dir" ? t.broken.path : "", t.deleted_symbols[0]!.file), "utf8")).toContain("raise NotImplementedError");
  }, 600_000);

  it("a body is spliced in place of the stub, re-indented when written flush left", async () => {
    const task = (await openMicro()).splits().train[0]!;
    const { diff } = spliceBody(task, "return 1");
    expect(diff).toMatch(/^-\s+raise NotImplementedError$/m);
    expect(diff).toMatch(/^\+ {4}return 1$/m);
  });

  it("mistake(): off-by-one, wrong operator, missing branch, argument unchanged, another family, broken syntax — each graded 0 in bwrap, its hint from the real grade (template, or the raw error for a syntax error)", async () => {
    const env = await FeatureDeletionEnvironment.open({ sandbox: sb, store: join(MICRO, "store"), run_id: "micro-s0", pool: join(MICRO, "pool"), cacheGrades: false });
    const train = env.splits().train;
    const largest = train.find((t) => /if not xs/.test(env.demonstration(t)!))!;
    const add = train.find((t) => /return x \+ \d/.test(env.demonstration(t)!))!;
    // Independent of the generator: what each mistake must look like, written out by hand.
    const kinds = (t: typeof add) => {
      const out: Record<string, string[]> = {};
      for (const m of env.mistakes(t)) (out[m.kind] ??= []).push(m.body);
      return out;
    };
    const k = Number(env.demonstration(add)!.match(/\d+/)![0]);
    expect(kinds(add)).toMatchObject({ off_by_one: [`    return x + ${k + 1}`, `    return x + ${k - 1}`], wrong_operator: [`    return x - ${k}`], argument_unchanged: ["    return x"] });
    expect(kinds(largest).missing_branch).toEqual(["    return max(xs)"]);
    expect(env.mistakes(add).filter((m) => m.kind === "other_family").every((m) => !/\bxs\b|\bs\b/.test(m.body) && m.body !== env.demonstration(add))).toBe(true);
    expect(bodyMistakes(add).every((m) => m.body.trim() !== env.demonstration(add)!.trim())).toBe(true);
    const items = [largest, add].flatMap((task) => env.mistakes(task).map((m) => ({ task, completion: m.body + "\n\n" })));
    const grades = await gradeAll(env, items, 2);
    const hints = defaultLayered();
    const broken = (task: typeof add) => env.mistakes(task).filter((m) => m.kind === "broken_syntax");
    expect(broken(add).map((m) => m.body)).toEqual([`    return x + (`, `    return x + ${k})`]);
    for (const [i, g] of grades.entries()) {
      expect(g.passed, items[i]!.completion).toBe(false);
      const hint = await hints.generate(g.error!);
      if (broken(items[i]!.task).some((m) => m.body + "\n\n" === items[i]!.completion)) {
        // A body that does not parse: the hack monitor finds no function body (a tool error) — no template,
        // so the raw error is the hint, as for most failed rollouts of a young policy in RL.
        expect(g.error?.error_kind).toBe("tool_error");
        expect(g.error?.error_message).toMatch(/is not defined \(no def or class with a body\)/);
        expect(hint?.layer).toBe("raw_error");
        expect(hint?.hint).toContain(g.error!.error_message!);
        continue;
      }
      expect(items[i]!.task.fail_to_pass).toContain(g.error?.test_name);
      expect(hint?.layer).toBe("template");
      expect(hint?.hint).toContain(g.error!.test_name!);
    }
    // mistake() draws one of them, in the completion form the policy writes.
    const m = env.mistake(add, new Rng(3));
    expect(env.mistakes(add).map((x) => x.body + "\n\n")).toContain(m);
  }, 600_000);

  it("the grade cache: a cached grade equals a fresh one, text past the stop shares the entry, and a cache file carries it to another process", async () => {
    const file = join(tmp(), "grades.jsonl");
    const cached = await FeatureDeletionEnvironment.open({ sandbox: sb, store: join(MICRO, "store"), run_id: "micro-s0", pool: join(MICRO, "pool"), gradeCacheFile: file });
    const fresh = await FeatureDeletionEnvironment.open({ sandbox: sb, store: join(MICRO, "store"), run_id: "micro-s0", pool: join(MICRO, "pool"), cacheGrades: false });
    const task = cached.splits().train[1]!;
    const wrong = cached.mistakes(task)[0]!.body;
    const golden = cached.demonstration(task)!;
    const first = await cached.grade(task, wrong + "\n\n");
    const again = await cached.grade(task, wrong + "\n\n# trailing text the policy wrote past the stop");
    expect(cached.gradeCache).toMatchObject({ hits: 1, misses: 1 });
    expect(again).toEqual(await fresh.grade(task, wrong + "\n\n# trailing text the policy wrote past the stop"));
    expect(first).toEqual(await fresh.grade(task, wrong + "\n\n"));
    expect(first.passed).toBe(false);
    expect((await cached.grade(task, golden)).reward).toBe(1);
    expect(cached.gradeCache).toMatchObject({ hits: 1, misses: 2, entries: 2 });
    // Another environment on the same file answers both from it, with the same grades.
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(2);
    const reopened = await FeatureDeletionEnvironment.open({ sandbox: sb, store: join(MICRO, "store"), run_id: "micro-s0", pool: join(MICRO, "pool"), gradeCacheFile: file });
    expect(await reopened.grade(task, wrong + "\n\n")).toEqual(first);
    expect((await reopened.grade(task, golden)).reward).toBe(1);
    expect(reopened.gradeCache).toMatchObject({ hits: 2, misses: 0 });
  }, 600_000);

  it("publishTasks names the pool relative to the store: a published store and pool moved elsewhere still open; a missing pool names the entry", async () => {
    const root = tmp();
    try {
      const a = join(root, "a");
      mkdirSync(a);
      cpSync(join(MICRO, "pool"), join(a, "pool"), { recursive: true });
      const ids = readIndex(join(a, "pool")).slice(0, 12).map((t) => t.task_id);
      const run = new RunLayout(new LocalStore(join(a, "store")), "moved", new HeldoutSplit(0.34, 1));
      const counts = await publishTasks(run, ids.map((id) => loadTask(join(a, "pool"), id)), join(a, "pool"));
      const entries = [...(await run.read("rl_task_pool")), ...(await run.read("holdout"))];
      expect(entries.map((e) => e.pool)).toEqual(ids.map(() => "../pool"));
      renameSync(a, join(root, "b"));
      const env = await FeatureDeletionEnvironment.open({ sandbox: sb, store: join(root, "b", "store"), run_id: "moved" });
      expect(env.splits().train.length).toBe(counts.rl_task_pool);
      expect(env.splits().train.every((t) => t.broken.kind === "dir" && t.broken.path.startsWith(join(root, "b", "pool")))).toBe(true);
      rmSync(join(root, "b", "pool"), { recursive: true });
      await expect(FeatureDeletionEnvironment.open({ sandbox: sb, store: join(root, "b", "store"), run_id: "moved" })).rejects.toThrow(/run moved, rl_task_pool entry .+: task pool "\.\.\/pool" \(relative to the store root .+\) is not at .+\/b\/pool; move the pool together with the store, or set env.pool/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
