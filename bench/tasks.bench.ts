/**
 * Task-building yield and cost: for each bundled repo and granularity, validated / candidates and
 * test runs per validated task (in suite-equivalents). Targets: yield ≥ 85% at function
 * granularity; ≤ 3 suite-equivalents per validated task. COMPOSER_LAB_BENCH_REPOS=dir1,dir2 adds
 * other repos (e.g. a Debian source package's checkout).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { BenchResult } from "../lib/cli/index.js";
import { datasetsDir } from "../lib/core/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { buildFromRepo } from "../lib/tasks/index.js";

export async function run(): Promise<BenchResult> {
  const repos = [datasetsDir("repos", "inventory"), datasetsDir("repos", "textkit"), ...(process.env.COMPOSER_LAB_BENCH_REPOS?.split(",").filter(Boolean) ?? [])];
  const sandbox = await getSandbox("auto");
  const rows: Record<string, unknown>[] = [];
  const total: Record<string, { cand: number; ok: number; tests: number; suite: number }> = {};
  for (const repo of repos) {
    for (const granularity of ["function", "class", "file"] as const) {
      const pool = mkdtempSync(join(tmpdir(), "composer-lab-bench-tasks-"));
      try {
        const r = await buildFromRepo(repo, pool, sandbox, { granularity, max: 1000, max_coupling: 0.5 }, { quiet: true });
        process.stderr.write(`bench tasks: ${basename(repo)} ${granularity}: ${r.validated}/${r.candidates} in ${r.seconds.toFixed(1)} s\n`);
        rows.push({
          repo: basename(repo), granularity, candidates: r.candidates, validated: r.validated,
          yield: r.candidates ? Number((r.validated / r.candidates).toFixed(3)) : null,
          suite_eq_per_task: r.testRuns.per_validated_task, seconds_per_task: r.validated ? Number((r.seconds / r.validated).toFixed(2)) : null,
          rejected: Object.entries(r.rejected).filter(([, n]) => n).map(([g, n]) => `${g}:${n}`).join(" "),
        });
        const t = (total[granularity] ??= { cand: 0, ok: 0, tests: 0, suite: 0 });
        t.cand += r.candidates;
        t.ok += r.validated;
        t.tests += r.testRuns.suite_equivalents;
      } finally {
        rmSync(pool, { recursive: true, force: true });
      }
    }
  }
  const ratios: Record<string, number> = {};
  for (const [g, t] of Object.entries(total)) {
    if (t.cand) ratios[`yield_${g}`] = Number((t.ok / t.cand).toFixed(3));
    if (t.ok) ratios[`suite_eq_per_task_${g}`] = Number((t.tests / t.ok).toFixed(2));
  }
  return {
    summary: `yield (validated / candidates): ${Object.entries(total).map(([g, t]) => `${g} ${t.ok}/${t.cand}`).join(", ")} (target ≥ 85% at function); suite-equivalents of test runs per validated task: ${Object.entries(ratios).filter(([k]) => k.startsWith("suite")).map(([k, v]) => `${k.replace("suite_eq_per_task_", "")} ${v}`).join(", ")} (target ≤ 3)`,
    rows,
    ratios,
  };
}
