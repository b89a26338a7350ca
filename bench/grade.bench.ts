/**
 * Grading throughput on micro feature-deletion tasks (`composer-lab tasks micro`), the RL inner
 * loop's grader: grades/s of the environment's grade (bwrap, trusted harness with plugin autoload
 * off, hack monitor) through the warm grader (lib/sandbox/warm.ts: one long-lived bwrap whose
 * zygote forks an isolated grade per run) with `concurrency` grades in flight and one at a time,
 * the same grades through the cold path (one bwrap + interpreter per grade), and a naive loop of one
 * bare `/usr/bin/python3 -m pytest` per grade (copy, patch, pytest with the plugins Debian
 * registers, no sandbox), all on the same completions (half golden bodies, half wrong ones) in one
 * run. The naive loop calls SYSTEM_PYTHON (/usr/bin/python3, the interpreter the sandbox runs), not
 * `python3` from PATH: on machines where that is a pyenv shim it costs ≈ 0.3 s more per start and
 * would flatter the ratio. Also reported: where a warm grade's time goes (host staging, fork,
 * cgroup, run, clean-up; CPU of the grade's processes and of this process per grade), the load
 * average, and the event loop's longest stall while grading concurrently. Goal: ≥ 10 grades/s on
 * 2 cores.
 *
 * The behavioural check (issue 26 §1, lib/env/behaviour.ts) is on in every graded mode; the same
 * warm concurrent and one-at-a-time grades are also run with it off in the same rounds
 * (concurrent_no_behaviour, sequential_no_behaviour), so its added cost per grade is measured side
 * by side (goal ≤ 20%).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { join } from "node:path";
import type { BenchResult } from "../lib/cli/index.js";
import { scratchDir, tempDir } from "../lib/core/index.js";
import { FeatureDeletionEpisode, FeatureDeletionEnvironment, gradeAll, gradeIsHack, goldenBody, publishTasks, spliceBody } from "../lib/env/index.js";
import { BwrapSandbox, SYSTEM_PYTHON, warmWorkers, type WarmTimings } from "../lib/sandbox/index.js";
import { HeldoutSplit, RunLayout, openStore } from "../lib/store/index.js";
import { applyUnifiedDiff, buildMicroTasks, loadTask, readIndex, rebuildOracles, taskOracle, type FeatureDeletionTask } from "../lib/tasks/index.js";

const N_TASKS = Number(process.env.COMPOSER_LAB_BENCH_TASKS ?? 12);
const ROUNDS = Number(process.env.COMPOSER_LAB_BENCH_RUNS ?? 2);
/** Tasks graded per round (each twice: its golden body and a wrong one); default all built. */
const GRADED = Number(process.env.COMPOSER_LAB_BENCH_GRADED_TASKS ?? N_TASKS);
/** Grades in flight in the concurrent modes (default: two per core, so one grade's host-side work
 *  overlaps another's sandbox run). */
const CONCURRENCY = Number(process.env.COMPOSER_LAB_BENCH_CONCURRENCY ?? 2 * availableParallelism());

/** Micro tasks built once and kept under scratch/ (building validates each task: minutes). */
async function microRun(sb: BwrapSandbox): Promise<{ store: string; pool: string }> {
  const dir = scratchDir("bench-grade", `micro-n${N_TASKS}`);
  const store = join(dir, "store");
  const pool = join(dir, "pool");
  if (!existsSync(join(store, "runs", "bench", "rl_task_pool", "manifest.json"))) {
    const built = await buildMicroTasks(dir, sb, { n: N_TASKS, seed: 0 }, { quiet: true });
    await publishTasks(new RunLayout(openStore(store), "bench", new HeldoutSplit(0, 0)), built.tasks, built.pool);
  }
  // a pool built before the behavioural check gains its oracles
  if (readIndex(pool).some((e) => !taskOracle(loadTask(pool, e.task_id)))) await rebuildOracles(pool, sb);
  return { store, pool };
}

/** The naive grade: a copy, the diff, one bare `/usr/bin/python3 -m pytest` on the task's tests (reward = all pass). */
function naiveGrade(task: FeatureDeletionTask, diff: string): number {
  const tmp = tempDir("naive-grade-");
  try {
    cpSync(FeatureDeletionEpisode.snapshotDir(task), tmp.path, { recursive: true });
    applyUnifiedDiff(tmp.path, diff);
    const r = spawnSync(SYSTEM_PYTHON, ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...task.fail_to_pass, ...task.pass_to_pass], { cwd: tmp.path, encoding: "utf8" });
    return r.status === 0 ? 1 : 0;
  } finally {
    tmp.remove();
  }
}

type Mode = "concurrent" | "sequential" | "concurrent_no_behaviour" | "sequential_no_behaviour" | "cold_concurrent" | "naive";

export async function run(): Promise<BenchResult> {
  const sb = new BwrapSandbox("bwrap", { warm: true });
  const { store, pool } = await microRun(sb);
  // No grade cache: every grade of every round is graded (the cache would answer rounds 2+).
  const env = await FeatureDeletionEnvironment.open({ sandbox: sb, store, run_id: "bench", pool, cacheGrades: false });
  const offEnv = await FeatureDeletionEnvironment.open({ sandbox: sb, store, run_id: "bench", pool, cacheGrades: false, behaviour: { enabled: false } });
  const coldEnv = await FeatureDeletionEnvironment.open({ sandbox: new BwrapSandbox("bwrap", { warm: false }), store, run_id: "bench", pool, cacheGrades: false });
  const tasks = readIndex(pool).slice(0, GRADED).map((t) => loadTask(pool, t.task_id));
  const items = tasks.flatMap((task) => [{ task, completion: goldenBody(task) }, { task, completion: "    return None" }]);
  const diffs = items.map((it) => spliceBody(it.task, it.completion).diff);
  const expected = items.map((_, i) => (i % 2 === 0 ? 1 : 0));
  const cores = availableParallelism();
  const t: Record<Mode, number[]> = { concurrent: [], sequential: [], concurrent_no_behaviour: [], sequential_no_behaviour: [], cold_concurrent: [], naive: [] };
  const load: number[] = [];
  let stallMs = 0;
  let hostCpuMs = 0;
  let warmGrades = 0;
  await gradeAll(env, items.slice(0, 2), 1); // start the zygote, stage the harness, warm the AST helper
  await gradeAll(coldEnv, items.slice(0, 2), 1);
  const marks = warmWorkers().map((w) => [w, w.timings.length] as const);
  // issue 26 §5: hacks per 100 of the warm grades with the check on (flagged grades, rewards on canaries)
  const hackFlags: boolean[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    load.push(loadavg()[0]!);
    let t0 = performance.now();
    const c0 = process.cpuUsage();
    const stall = monitorEventLoopDelay({ resolution: 10 }); // a fresh one per phase: a re-enabled histogram counts the gap
    stall.enable();
    const conc = await gradeAll(env, items, CONCURRENCY);
    hackFlags.push(...conc.map(gradeIsHack));
    stall.disable();
    stallMs = Math.max(stallMs, stall.max / 1e6);
    const c = process.cpuUsage(c0);
    hostCpuMs += (c.user + c.system) / 1000;
    warmGrades += items.length;
    t.concurrent.push(items.length / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    const seq = await gradeAll(env, items, 1);
    t.sequential.push(items.length / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    const concOff = await gradeAll(offEnv, items, CONCURRENCY);
    t.concurrent_no_behaviour.push(items.length / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    const seqOff = await gradeAll(offEnv, items, 1);
    t.sequential_no_behaviour.push(items.length / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    const cold = await gradeAll(coldEnv, items, CONCURRENCY);
    t.cold_concurrent.push(items.length / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    const naive = items.map((it, i) => naiveGrade(it.task, diffs[i]!));
    t.naive.push(items.length / ((performance.now() - t0) / 1000));
    // Containment and grading unchanged: the golden bodies pass and the wrong ones fail, in every mode.
    const why = (g: (typeof conc)[number] | undefined) => (g ? `; components ${JSON.stringify(g.components)}, error ${(g.error?.error_message ?? "").slice(0, 400)}` : "");
    for (const [name, grades] of [["concurrent", conc], ["sequential", seq], ["concurrent_no_behaviour", concOff], ["sequential_no_behaviour", seqOff], ["cold_concurrent", cold]] as const) {
      const bad = grades.findIndex((g, i) => g.reward !== expected[i]);
      if (bad >= 0) throw new Error(`${name}: ${items[bad]!.task.task_id} graded ${grades[bad]!.reward} (expected ${expected[bad]})${why(grades[bad])}`);
    }
    const badNaive = naive.findIndex((r, i) => r !== expected[i]);
    if (badNaive >= 0) throw new Error(`naive: ${items[badNaive]!.task.task_id} graded ${naive[badNaive]} (expected ${expected[badNaive]})`);
    process.stderr.write(`bench grade: round ${round + 1}/${ROUNDS}\n`);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, med(v)])) as Record<Mode, number>;
  // Where a warm grade's time went (every warm grade of the timed rounds, both modes).
  const timed = marks.flatMap(([w, n]) => w.timings.slice(n));
  const mean = (k: keyof WarmTimings) => Number((timed.reduce((n, x) => n + x[k], 0) / Math.max(1, timed.length)).toFixed(1));
  const breakdown = { stage_ms: mean("stage"), fork_ms: mean("fork"), cgroup_ms: mean("cgroup"), run_ms: mean("run"), cleanup_ms: mean("cleanup"), grade_cpu_ms: mean("gradeCpu"), host_cpu_ms_per_grade: Number((hostCpuMs / Math.max(1, warmGrades)).toFixed(1)) };
  const r2 = (x: number) => Number(x.toFixed(2));
  const ratios = {
    grades_per_s: r2(rate.concurrent),
    concurrent_over_naive: r2(rate.concurrent / rate.naive),
    sequential_over_naive: r2(rate.sequential / rate.naive),
    warm_over_cold: r2(rate.concurrent / rate.cold_concurrent),
    // the behavioural check's added wall time per grade (goal ≤ 20%)
    behaviour_added_concurrent: r2(rate.concurrent_no_behaviour / rate.concurrent - 1),
    behaviour_added_sequential: r2(rate.sequential_no_behaviour / rate.sequential - 1),
    behaviour_ms_per_grade_sequential: r2(1000 / rate.sequential - 1000 / rate.sequential_no_behaviour),
    cores,
    concurrency: CONCURRENCY,
    load_avg_1m: r2(med(load)),
    event_loop_max_stall_ms: r2(stallMs),
    hack_rate: hackFlags.length ? r2((100 * hackFlags.filter(Boolean).length) / hackFlags.length) : 0,
    ...breakdown,
  };
  return {
    summary: `${items.length} grades × ${ROUNDS} rounds on ${tasks.length} micro tasks, ${cores} cores, load ${ratios.load_avg_1m}: warm grader (bwrap + forked harness + monitor) ${rate.concurrent.toFixed(2)} grades/s with ${CONCURRENCY} in flight (goal ≥ 10), ${rate.sequential.toFixed(2)} one at a time; cold (one bwrap + interpreter per grade) ${rate.cold_concurrent.toFixed(2)}; naive /usr/bin/python3 -m pytest per grade (no sandbox) ${rate.naive.toFixed(2)} grades/s; behavioural check off: ${rate.concurrent_no_behaviour.toFixed(2)} concurrent, ${rate.sequential_no_behaviour.toFixed(2)} one at a time (the check adds ${(ratios.behaviour_added_concurrent * 100).toFixed(0)}% / ${(ratios.behaviour_added_sequential * 100).toFixed(0)}%, ${ratios.behaviour_ms_per_grade_sequential} ms a grade); concurrent ${ratios.concurrent_over_naive}× naive, ${ratios.warm_over_cold}× cold; per warm grade: grade CPU ${breakdown.grade_cpu_ms} ms, host CPU ${breakdown.host_cpu_ms_per_grade} ms; event loop's longest stall ${ratios.event_loop_max_stall_ms} ms; hack rate ${ratios.hack_rate} per 100 grades (flagged grades and canary passes)`,
    rows: Object.entries(t).map(([mode, v]) => ({ mode, median_grades_per_s: r2(med(v)), min: r2(Math.min(...v)), max: r2(Math.max(...v)), grades: items.length, rounds: v.length })),
    ratios,
  };
}
