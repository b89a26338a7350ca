/**
 * Task building on real Python projects (datasets/repos/real: Debian source packages and public
 * repository snapshots, licences and origins in datasets/repos/real/SOURCES.md): per project,
 * function-level candidates, validated tasks, rejections per gate and per cause, suite-equivalents
 * of test runs per validated task, seconds. Targets: every project yields, ≥ 90% of candidates
 * validated overall, ≤ 1 suite-equivalent per validated task. COMPOSER_LAB_BENCH_REAL=name,name
 * picks projects; COMPOSER_LAB_BENCH_MAX sets tasks per project (default 6).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchResult } from "../lib/cli/index.js";
import { datasetsDir } from "../lib/core/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { buildFromRepo } from "../lib/tasks/index.js";

/** The first words of a rejection reason, as its cause ("no test fails after the deletion"). */
const causeOf = (reason: string) => reason.replace(/^gate \w+: /, "").replace(/\(e\.g\..*$/, "").replace(/\d+/g, "N").trim().slice(0, 60);

export async function run(): Promise<BenchResult> {
  const root = datasetsDir("repos", "real");
  const pick = process.env.COMPOSER_LAB_BENCH_REAL?.split(",").filter(Boolean);
  const projects = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && (!pick || pick.includes(e.name))).map((e) => e.name).sort();
  const max = Number(process.env.COMPOSER_LAB_BENCH_MAX ?? 6);
  const sandbox = await getSandbox("auto");
  const rows: Record<string, unknown>[] = [];
  let cand = 0;
  let ok = 0;
  let suiteEq = 0;
  let yielding = 0;
  for (const name of projects) {
    const pool = mkdtempSync(join(tmpdir(), "composer-lab-bench-real-"));
    const t0 = performance.now();
    try {
      const r = await buildFromRepo(join(root, name), pool, sandbox, { granularity: "function", max, repo_name: name }, { quiet: true });
      const causes: Record<string, number> = {};
      for (const x of r.rejections) causes[`${x.gate}: ${causeOf(x.reason)}`] = (causes[`${x.gate}: ${causeOf(x.reason)}`] ?? 0) + 1;
      for (const e of r.errors) causes[`error: ${causeOf(e.error)}`] = (causes[`error: ${causeOf(e.error)}`] ?? 0) + 1;
      // candidates tried this run (a build stops at `max` validated: untried ones are not counted)
      const tried = r.validated + r.rejections.length + r.errors.length;
      process.stderr.write(`bench tasks-real: ${name}: ${r.validated}/${tried} validated (${r.candidates} candidates) in ${r.seconds.toFixed(1)} s\n`);
      rows.push({
        project: name, layout: r.environment?.layout.kind, install: r.environment?.pyenv?.install ?? "system", suite: r.testRuns.suite_size,
        candidates: r.candidates, tried, validated: r.validated,
        rejected: Object.entries(r.rejected).filter(([, n]) => n).map(([g, n]) => `${g}:${n}`).join(" ") || "-",
        causes: Object.entries(causes).map(([c, n]) => `${n}× ${c}`).join("; ") || "-",
        suite_eq_per_task: r.testRuns.per_validated_task, seconds: Number(r.seconds.toFixed(1)),
        notes: [...(r.environment?.notes ?? []).map((n) => n.split(";")[0]), ...(r.why_no_candidates ?? []).map((w) => `${w.cause}: ${w.detail}`)].join(" | ") || "-",
      });
      cand += tried;
      ok += r.validated;
      suiteEq += r.testRuns.suite_equivalents;
      if (r.validated > 0) yielding++;
    } catch (e) {
      process.stderr.write(`bench tasks-real: ${name}: ${(e as Error).message}\n`);
      rows.push({ project: name, candidates: 0, tried: 0, validated: 0, rejected: "-", causes: `error: ${(e as Error).message.slice(0, 200)}`, suite_eq_per_task: null, seconds: Number(((performance.now() - t0) / 1000).toFixed(1)), notes: "-" });
    } finally {
      rmSync(pool, { recursive: true, force: true });
    }
  }
  const ratios = { projects: projects.length, yielding, validated_share: cand ? Number((ok / cand).toFixed(3)) : 0, suite_eq_per_task: ok ? Number((suiteEq / ok).toFixed(2)) : 0 };
  return {
    summary: `${yielding}/${projects.length} projects yield; ${ok}/${cand} tried candidates validated (${(100 * ratios.validated_share).toFixed(1)}%, target ≥ 90%); ${ratios.suite_eq_per_task} suite-equivalents per validated task (target ≤ 1)`,
    rows,
    ratios,
  };
}
