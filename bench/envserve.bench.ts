/**
 * The env server under load: `composer-lab env serve` (a child process, lib/env/server.ts) on loopback
 * over datasets/tasks, graded in bubblewrap; N episodes at once (default 16; `--steps N` sets N), each reset → list_dir →
 * read_file → shell → run_tests (one target test) → submit, over plain HTTP (bench/envserve-load.ts).
 * Reports step latency p50/p95 overall and per action kind and the wall time; then checks what leaked:
 * once every episode is closed, no episode or grade folder of the server; after SIGTERM, exit 0, no
 * temp folder of the server at all and no process naming one. Any leak fails the bench.
 *
 *   npm run bench -- envserve [--steps N] [--json]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { benchOptions } from "../lib/cli/bench.js";
import type { BenchResult } from "../lib/cli/index.js";
import { log } from "../lib/cli/output.js";
import { datasetsDir, projectRoot } from "../lib/core/index.js";
import { loadTask, readIndex } from "../lib/tasks/index.js";
import { loadEpisodes, ownTempDirs, sandboxProcesses } from "./envserve-load.js";

/** Starts `composer-lab env serve --json` on a free port; resolves with its first stdout object. */
async function startCli(pool: string, n: number): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [join(projectRoot(), "bin", "composer-lab.js"), "env", "serve", "--pool", pool, "--port", "0", "--sandbox", "bwrap", "--max-sessions", String(Math.max(64, n)), "--quiet", "--json"], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const first = await new Promise<{ url: string }>((res, rej) => {
    createInterface({ input: child.stdout! }).once("line", (l) => res(JSON.parse(l)));
    void exited.then((c) => rej(new Error(`env serve exited (${c}) before listening`)));
  });
  return { child, url: first.url, exited };
}

export async function run(): Promise<BenchResult> {
  const n = benchOptions().steps ?? 16;
  const pool = datasetsDir("tasks");
  const tasks = readIndex(pool).map((t) => ({ task_id: t.task_id, file: loadTask(pool, t.task_id).deleted_symbols[0]!.file, test: t.fail_to_pass[0]! }));
  const load0 = loadavg()[0]!;
  const { child, url, exited } = await startCli(pool, n);
  const pid = child.pid!;
  let report;
  let perEpisodeLeft: string[];
  let seen: string[];
  try {
    report = await loadEpisodes(url, n, tasks);
    // every episode closed: no episode's or grade's folder of the server may be left
    seen = ownTempDirs(pid);
    perEpisodeLeft = seen.filter((d) => /composer-lab-(env|grade)-/.test(d));
  } finally {
    child.kill("SIGTERM");
  }
  const code = await exited;
  const load1 = loadavg()[0]!;
  // after the exit: nothing of the server's (its process-wide warm grader and harness folder included)
  const leakedDirs = [...perEpisodeLeft, ...ownTempDirs(pid)];
  const leakedProcs = sandboxProcesses(seen, pid);
  log(`bench envserve: ${n} episodes, ${report.steps} steps in ${report.wallS} s; exit ${code}; leaked ${leakedDirs.length} folders, ${leakedProcs.length} processes`);
  if (code !== 0 || leakedDirs.length || leakedProcs.length) throw new Error(`env serve exited ${code}; leaked: ${JSON.stringify({ leakedDirs, leakedProcs })}`);
  const rows = [
    { kind: "all steps", n: report.steps, p50_ms: report.latency.p50, p95_ms: report.latency.p95, max_ms: report.latency.max },
    ...Object.entries(report.byKind).map(([kind, s]) => ({ kind, n: s.n, p50_ms: s.p50, p95_ms: s.p95, max_ms: null })),
  ];
  return {
    summary:
      `env serve (the CLI, bwrap, datasets/tasks): ${n} concurrent episodes × 5 steps in ${report.wallS} s; step latency p50 ${report.latency.p50} ms, p95 ${report.latency.p95} ms ` +
      `(run_tests p50 ${report.byKind.run_tests?.p50} ms, submit p50 ${report.byKind.submit?.p50} ms); SIGTERM → exit 0, no leaked temp folder or sandbox process; ` +
      `load average ${load0.toFixed(1)} → ${load1.toFixed(1)} on ${cpus().length} cores`,
    rows,
    ratios: { p95_over_p50: Math.round((report.latency.p95 / report.latency.p50) * 100) / 100, steps_per_s: Math.round((report.steps / report.wallS) * 100) / 100 },
  };
}
