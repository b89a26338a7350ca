/**
 * Grading fan-out: `composer-lab bench fanout --executor swarm|slurm [--steps N] --json` grades N
 * completions (default 200: the fd-micro pool's tasks, golden and wrong bodies in turn) on the
 * cluster executor and, in the same run, on the local pool (bubblewrap on this host), one after the
 * other. Reports jobs/s, p50/p95 latency per grade (from its start on this host to its reward, at
 * the executor's concurrency), the overhead of the cluster against the local pool, and whether
 * both gave the same reward to every completion. A swarm is brought up for the run when none is
 * (`cluster up --engine swarm --nodes 2`) and taken down afterwards; an existing one is used as is.
 */
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import type { BenchResult } from "../lib/cli/index.js";
import { benchOptions } from "../lib/cli/bench.js";
import { progress, projectRoot } from "../lib/core/index.js";
import { clusterEngine, gradeMany, openExecutor, type Executor, type ExecutorName, type GradeItem, type PoolGrade } from "../lib/executor/index.js";
import { loadTask, readIndex } from "../lib/tasks/index.js";

const POOL = join(projectRoot(), "datasets", "fd-micro", "pool");

/** The golden diff with its first added line replaced by `return None` (a wrong body). */
const wrong = (golden: string): string => {
  let done = false;
  return golden.split("\n").map((l) => (done || !l.startsWith("+") || l.startsWith("+++") ? l : ((done = true), `+${l.slice(1).match(/^\s*/)![0]}return None`))).join("\n");
};

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function timed(name: string, executor: Executor, items: GradeItem[], concurrency: number): Promise<{ grades: PoolGrade[]; row: Record<string, unknown>; jobsPerS: number; p50: number }> {
  const bar = progress(items.length, `fanout ${name}`);
  const t0 = performance.now();
  const grades = await gradeMany(items, executor, { concurrency, onGrade: (g) => bar.tick(1, `${g.task_id.slice(0, 24)} ${g.reward}`) });
  const seconds = (performance.now() - t0) / 1000;
  bar.stop();
  const lat = grades.map((g) => g.latencyMs / 1000);
  const jobsPerS = items.length / seconds;
  const p50 = quantile(lat, 0.5);
  return {
    grades, jobsPerS, p50,
    row: {
      executor: name, jobs: items.length, concurrency, seconds: +seconds.toFixed(1), jobs_per_s: +jobsPerS.toFixed(3), p50_s: +p50.toFixed(2), p95_s: +quantile(lat, 0.95).toFixed(2),
      mean_reward: +(grades.reduce((a, g) => a + g.reward, 0) / grades.length).toFixed(3), errors: grades.filter((g) => g.error !== null).length,
    },
  };
}

export async function run(): Promise<BenchResult> {
  const name: ExecutorName = benchOptions().executor ?? "swarm";
  if (name === "local") throw new Error("bench fanout --executor: swarm or slurm (the local pool is measured beside it in every run)");
  const n = benchOptions().steps ?? 200;
  const tasks = readIndex(POOL).map((e) => loadTask(POOL, e.task_id));
  const items: GradeItem[] = Array.from({ length: n }, (_, i) => {
    const task = tasks[Math.floor(i / 2) % tasks.length]!;
    return i % 2 === 0 ? { task, completion: task.golden_diff, label: "golden" } : { task, completion: wrong(task.golden_diff), label: "wrong" };
  });
  const engine = name === "swarm" || name === "slurm" ? await clusterEngine(name) : null;
  const startedHere = engine !== null && (await engine.status()) === null;
  if (startedHere) await engine!.up({ nodes: 2, log: (m) => console.error(`[cluster] ${m}`) });
  try {
    const cluster = await openExecutor(name);
    const check = await cluster.check();
    if (!check.ok) throw new Error(`${name} executor: ${check.why}`);
    const nodes = ((check.detail?.nodes as unknown[]) ?? []).length || 2;
    const clusterConcurrency = 2 * nodes;
    const local = await openExecutor("local", { sandbox: "bwrap", concurrency: availableParallelism() });
    const load0 = loadavg()[0]!;
    const L = await timed("local", local, items, availableParallelism());
    const C = await timed(name, cluster, items, clusterConcurrency);
    await Promise.all([local.close(), cluster.close()]);
    const disagree = items.flatMap((it, i) => (L.grades[i]!.reward !== C.grades[i]!.reward ? [`${it.task.task_id} (${it.label}): local ${L.grades[i]!.reward}, ${name} ${C.grades[i]!.reward}`] : []));
    const ratios = { [`${name}_over_local_jobs_per_s`]: +(C.jobsPerS / L.jobsPerS).toFixed(3), [`${name}_over_local_p50`]: +(C.p50 / L.p50).toFixed(3), rewards_agree: disagree.length === 0 ? 1 : 0 };
    return {
      summary: [
        `${n} grades (fd-micro, golden and wrong bodies) on ${name} (${nodes} nodes, ${clusterConcurrency} in flight) and on the local bwrap pool (${availableParallelism()} in flight), one after the other; load average ${load0.toFixed(1)} at the start.`,
        `${name}: ${C.jobsPerS.toFixed(2)} jobs/s, p50 ${C.p50.toFixed(2)} s; local: ${L.jobsPerS.toFixed(2)} jobs/s, p50 ${L.p50.toFixed(2)} s → throughput ×${ratios[`${name}_over_local_jobs_per_s`]}, latency ×${ratios[`${name}_over_local_p50`]}.`,
        disagree.length ? `rewards DISAGREE on ${disagree.length}: ${disagree.slice(0, 5).join("; ")}` : "every completion got the same reward on both.",
      ].join("\n"),
      rows: [L.row, C.row],
      ratios,
    };
  } finally {
    if (startedHere) await engine!.down({ log: (m) => console.error(`[cluster] ${m}`) });
  }
}
