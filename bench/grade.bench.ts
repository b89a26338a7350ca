/**
 * Grading throughput on micro feature-deletion tasks (`composer-lab tasks micro`), the RL inner
 * loop's grader: grades/s of the environment's grade (bwrap, trusted harness with plugin autoload
 * off, hack monitor) run concurrently on every core, the same one at a time, and a naive loop of one
 * bare `python3 -m pytest` per grade (copy, patch, pytest with the plugins Debian registers), all on
 * the same completions (half golden bodies, half wrong ones) in one run. Goal: ≥ 10 grades/s on 2 cores.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { BenchResult } from "../lib/cli/index.js";
import { scratchDir, tempDir } from "../lib/core/index.js";
import { FeatureDeletionEnv, FeatureDeletionEnvironment, gradeAll, goldenBody, publishTasks, spliceBody } from "../lib/env/index.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { HeldoutSplit, RunLayout, openStore } from "../lib/store/index.js";
import { applyUnifiedDiff, buildMicroTasks, loadTask, readIndex, type FeatureDeletionTask } from "../lib/tasks/index.js";

const N_TASKS = Number(process.env.COMPOSER_LAB_BENCH_TASKS ?? 12);
const ROUNDS = Number(process.env.COMPOSER_LAB_BENCH_RUNS ?? 2);
/** Tasks graded per round (each twice: its golden body and a wrong one); default all built. */
const GRADED = Number(process.env.COMPOSER_LAB_BENCH_GRADED_TASKS ?? N_TASKS);

/** Micro tasks built once and kept under scratch/ (building validates each task: minutes). */
async function microRun(sb: BwrapSandbox): Promise<{ store: string; pool: string }> {
  const dir = scratchDir("bench-grade", `micro-n${N_TASKS}`);
  const store = join(dir, "store");
  const pool = join(dir, "pool");
  if (!existsSync(join(store, "runs", "bench", "rl_task_pool", "manifest.json"))) {
    const built = await buildMicroTasks(dir, sb, { n: N_TASKS, seed: 0 }, { quiet: true });
    await publishTasks(new RunLayout(openStore(store), "bench", new HeldoutSplit(0, 0)), built.tasks, built.pool);
  }
  return { store, pool };
}

/** The naive grade: a copy, the diff, one bare `python3 -m pytest` on the task's tests (reward = all pass). */
function naiveGrade(task: FeatureDeletionTask, diff: string): number {
  const tmp = tempDir("naive-grade-");
  try {
    cpSync(FeatureDeletionEnv.snapshotDir(task), tmp.path, { recursive: true });
    applyUnifiedDiff(tmp.path, diff);
    const r = spawnSync("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...task.fail_to_pass, ...task.pass_to_pass], { cwd: tmp.path, encoding: "utf8" });
    return r.status === 0 ? 1 : 0;
  } finally {
    tmp.remove();
  }
}

export async function run(): Promise<BenchResult> {
  const sb = new BwrapSandbox();
  const { store, pool } = await microRun(sb);
  const env = await FeatureDeletionEnvironment.open({ sandbox: sb, store, run_id: "bench", pool });
  const tasks = readIndex(pool).slice(0, GRADED).map((t) => loadTask(pool, t.task_id));
  const items = tasks.flatMap((task) => [{ task, completion: goldenBody(task) }, { task, completion: "    return None" }]);
  const expected = items.map((_, i) => (i % 2 === 0 ? 1 : 0));
  const cores = availableParallelism();
  const t: Record<"concurrent" | "sequential" | "naive", number[]> = { concurrent: [], sequential: [], naive: [] };
  await gradeAll(env, items.slice(0, 2), 1); // warm the harness staging and the AST helper
  for (let round = 0; round < ROUNDS; round++) {
    let t0 = performance.now();
    const conc = await gradeAll(env, items, cores);
    t.concurrent.push(items.length / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    const seq = await gradeAll(env, items, 1);
    t.sequential.push(items.length / ((performance.now() - t0) / 1000));
    t0 = performance.now();
    const naive = items.map((it) => naiveGrade(it.task, spliceBody(it.task, it.completion).diff));
    t.naive.push(items.length / ((performance.now() - t0) / 1000));
    // Containment and grading unchanged: the golden bodies pass and the wrong ones fail, in every mode.
    const why = (g: (typeof conc)[number] | undefined) => (g ? `; components ${JSON.stringify(g.components)}, error ${(g.error?.error_message ?? "").slice(0, 400)}` : "");
    for (const [name, rs, grades] of [["concurrent", conc.map((g) => g.reward), conc], ["sequential", seq.map((g) => g.reward), seq], ["naive", naive, null]] as const) {
      const bad = rs.findIndex((r, i) => r !== expected[i]);
      if (bad >= 0) throw new Error(`${name}: ${items[bad]!.task.task_id} graded ${rs[bad]} (expected ${expected[bad]})${why(grades?.[bad])}`);
    }
    process.stderr.write(`bench grade: round ${round + 1}/${ROUNDS}\n`);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = { concurrent: med(t.concurrent), sequential: med(t.sequential), naive: med(t.naive) };
  const ratios = {
    grades_per_s: Number(rate.concurrent.toFixed(2)),
    concurrent_over_naive: Number((rate.concurrent / rate.naive).toFixed(2)),
    sequential_over_naive: Number((rate.sequential / rate.naive).toFixed(2)),
    cores,
  };
  return {
    summary: `${items.length} grades × ${ROUNDS} rounds on ${tasks.length} micro tasks, ${cores} cores: bwrap + harness + monitor ${rate.concurrent.toFixed(2)} grades/s concurrent (goal ≥ 10), ${rate.sequential.toFixed(2)} one at a time; naive python3 -m pytest per grade (no sandbox) ${rate.naive.toFixed(2)} grades/s; concurrent ${ratios.concurrent_over_naive}× naive`,
    rows: Object.entries(t).map(([mode, v]) => ({ mode, median_grades_per_s: Number(med(v).toFixed(2)), min: Number(Math.min(...v).toFixed(2)), max: Number(Math.max(...v).toFixed(2)), grades: items.length, rounds: v.length })),
    ratios,
  };
}
