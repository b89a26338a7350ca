/**
 * Raw job fan-out on Slurm: `composer-lab bench slurm-jobs [--steps N] --json` runs N sandboxed
 * jobs (default 200: `python3 -c 'print(2i)'`, a read-only workdir) on the local bwrap pool and on a
 * 2-node local Slurm cluster (started in a private folder for the run), one after the other, then
 * N more on Slurm with node2 killed (SIGKILL of its slurmd and job steps) once a quarter are done.
 * Reports jobs/s, p50/p95 latency from submission, the Slurm/local ratios, and how many jobs came
 * back correct (every one must: a lost node's jobs are re-run on the other node).
 * `bench fanout --executor slurm` measures whole grades instead (several runs each, one after another).
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchResult } from "../lib/cli/index.js";
import { benchOptions } from "../lib/cli/bench.js";
import { progress } from "../lib/core/index.js";
import { LocalExecutor, type Executor, type JobResult } from "../lib/executor/index.js";
import { SlurmCluster } from "../lib/executor/slurm-cluster.js";
import { SlurmExecutor } from "../lib/executor/slurm.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

export async function run(): Promise<BenchResult> {
  const n = benchOptions().steps ?? 200;
  const root = mkdtempSync(join(tmpdir(), "bench-slurm-jobs-"));
  chmodSync(root, 0o755);
  const wd = mkdtempSync(join(root, "wd-"));
  chmodSync(wd, 0o755);
  const jobs = (tag: string) => Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}`, command: ["python3", "-c", `print(${i} * 2)`], workdir: wd, workdirReadOnly: true, limits: { timeoutMs: 120_000 } }));
  const cluster = new SlurmCluster({ dir: join(root, "cluster") });
  const measure = async (name: string, ex: Executor, tag: string, whenDone?: (done: number) => void) => {
    const bar = progress(n, `slurm-jobs ${name}`);
    const t0 = performance.now();
    let done = 0;
    const rs: JobResult[] = await ex.submit(jobs(tag), { onResult: (r) => (bar.tick(1, `${r.id} ${r.node}`), whenDone?.(++done)) }).results();
    const seconds = (performance.now() - t0) / 1000;
    bar.stop();
    const lat = rs.map((r) => r.latencyMs / 1000);
    return {
      executor: name, jobs: n, seconds: +seconds.toFixed(1), jobs_per_s: +(n / seconds).toFixed(3), p50_s: +quantile(lat, 0.5).toFixed(2), p95_s: +quantile(lat, 0.95).toFixed(2),
      correct: rs.filter((r, i) => r.status === "done" && r.run?.stdout === `${i * 2}\n`).length, rerun_after_loss: rs.filter((r) => r.lost.length > 0).length,
    };
  };
  const load0 = loadavg()[0]!;
  await cluster.up({ nodes: 2, log: (m) => console.error(`[cluster] ${m}`) });
  try {
    const local = new LocalExecutor(new BwrapSandbox(), { concurrency: 2 * availableParallelism() });
    const slurm = SlurmExecutor.forCluster(cluster);
    const L = await measure("local", local, "l");
    const S = await measure("slurm", slurm, "s");
    let killedAfter = -1;
    const K = await measure("slurm, node2 killed", slurm, "k", (done) => {
      if (killedAfter < 0 && done >= n / 4) {
        killedAfter = done;
        void cluster.killNode("node2");
      }
    });
    await Promise.all([local.close(), slurm.close()]);
    const ratios = { slurm_over_local_jobs_per_s: +(S.jobs_per_s / L.jobs_per_s).toFixed(3), slurm_over_local_p50: +(S.p50_s / L.p50_s).toFixed(3), node_loss_correct_fraction: +(K.correct / n).toFixed(3) };
    return {
      summary: [
        `${n} sandboxed jobs on the local bwrap pool (${2 * availableParallelism()} at once) and on a 2-node Slurm cluster (${2 * availableParallelism()} CPU slots), one after the other; load average ${load0.toFixed(1)} at the start.`,
        `slurm: ${S.jobs_per_s} jobs/s, p50 ${S.p50_s} s, p95 ${S.p95_s} s; local: ${L.jobs_per_s} jobs/s, p50 ${L.p50_s} s, p95 ${L.p95_s} s → throughput ×${ratios.slurm_over_local_jobs_per_s}, p50 ×${ratios.slurm_over_local_p50}.`,
        `node2 killed after ${killedAfter} of ${n} jobs: ${K.correct}/${n} came back correct (${K.rerun_after_loss} re-run by the executor after the loss; Slurm may also requeue a task itself once the node is DOWN).`,
      ].join("\n"),
      rows: [L, S, K],
      ratios,
    };
  } finally {
    await cluster.down({ log: (m) => console.error(`[cluster] ${m}`) });
    rmSync(root, { recursive: true, force: true });
  }
}
