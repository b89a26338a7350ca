/**
 * The env server under load: serveEnv (lib/env/server.ts) on loopback over datasets/tasks, graded in
 * bubblewrap; N episodes at once (default 16; `--steps N` sets N), each reset → list_dir →
 * read_file → shell → run_tests (one target test) → submit, over plain HTTP (bench/envserve-load.ts).
 * Reports step latency p50/p95 overall and per action kind, the wall time, and what leaked after
 * close (this process's temp folders that were not there before; sandbox processes naming an
 * episode's or a grade's folder): both must be empty, else the bench fails.
 *
 *   npm run bench -- envserve [--steps N] [--json]
 */
import { cpus, loadavg } from "node:os";
import { benchOptions } from "../lib/cli/bench.js";
import type { BenchResult } from "../lib/cli/index.js";
import { log } from "../lib/cli/output.js";
import { datasetsDir } from "../lib/core/index.js";
import { serveEnv } from "../lib/env/index.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { loadTask, readIndex } from "../lib/tasks/index.js";
import { loadEpisodes, ownTempDirs, sandboxProcesses } from "./envserve-load.js";

export async function run(): Promise<BenchResult> {
  const n = benchOptions().steps ?? 16;
  const pool = datasetsDir("tasks");
  const tasks = readIndex(pool).map((t) => ({ task_id: t.task_id, file: loadTask(pool, t.task_id).deleted_symbols[0]!.file, test: t.fail_to_pass[0]! }));
  const before = new Set(ownTempDirs());
  const load0 = loadavg()[0]!;
  const server = await serveEnv({ pool, sandbox: new BwrapSandbox(), port: 0, max_sessions: Math.max(64, n) });
  let report;
  try {
    report = await loadEpisodes(server.url, n, tasks);
  } finally {
    await server.close();
  }
  const load1 = loadavg()[0]!;
  const leakedDirs = ownTempDirs().filter((d) => !before.has(d));
  const leakedProcs = sandboxProcesses(leakedDirs);
  log(`bench envserve: ${n} episodes, ${report.steps} steps in ${report.wallS} s; leaked ${leakedDirs.length} folders, ${leakedProcs.length} processes`);
  if (leakedDirs.length || leakedProcs.length) throw new Error(`leaked after close: ${JSON.stringify({ leakedDirs, leakedProcs })}`);
  const rows = [
    { kind: "all steps", n: report.steps, p50_ms: report.latency.p50, p95_ms: report.latency.p95, max_ms: report.latency.max },
    ...Object.entries(report.byKind).map(([kind, s]) => ({ kind, n: s.n, p50_ms: s.p50, p95_ms: s.p95, max_ms: null })),
  ];
  return {
    summary:
      `env serve (bwrap, datasets/tasks): ${n} concurrent episodes × 5 steps in ${report.wallS} s; step latency p50 ${report.latency.p50} ms, p95 ${report.latency.p95} ms ` +
      `(run_tests p50 ${report.byKind.run_tests?.p50} ms, submit p50 ${report.byKind.submit?.p50} ms); no leaked temp folder or sandbox process; ` +
      `load average ${load0.toFixed(1)} → ${load1.toFixed(1)} on ${cpus().length} cores`,
    rows,
    ratios: { p95_over_p50: Math.round((report.latency.p95 / report.latency.p50) * 100) / 100, steps_per_s: Math.round((report.steps / report.wallS) * 100) / 100 },
  };
}
