/**
 * Sandbox overhead: the same pytest suite (datasets/repos/inventory, ~1 s) bare, in bubblewrap and
 * in Docker, interleaved in one run; medians and ratios. Targets: bwrap ≤ 1.10× bare, Docker
 * ≤ 1.2 s added. Docker is included when an engine and the base image are available.
 *
 * Then the grader's own cost on a bundled task's golden diff (bwrap): a full grade (harness
 * restoration, the tests under the trusted harness, the monitor) against the same tests run alone,
 * interleaved; plus the restoration and the monitor timed on their own. Target: restoration and
 * checks ≤ 5% of a grade.
 */
import { cpSync } from "node:fs";
import type { BenchResult } from "../lib/cli/index.js";
import { datasetsDir, tempDir } from "../lib/core/index.js";
import { FeatureDeletionEpisode, HackMonitor, gradeWorkdir } from "../lib/env/index.js";
import { BwrapSandbox, DockerSandbox, GvisorSandbox, NoSandbox, findPytestConfig, planHarness, restoreHarness, runPytest, type Sandbox } from "../lib/sandbox/index.js";
import { applyUnifiedDiff, loadTask } from "../lib/tasks/index.js";

const RUNS = Number(process.env.COMPOSER_LAB_BENCH_RUNS ?? 7);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<BenchResult> {
  const repo = datasetsDir("repos", "inventory");
  const sandboxes: [string, Sandbox][] = [["bare", new NoSandbox()], ["bwrap", new BwrapSandbox()]];
  const docker = new DockerSandbox();
  if ((await docker.check()).ok) sandboxes.push(["docker", docker]);
  // gVisor (issue 26 §6): runsc run of an OCI bundle, ptrace platform, beside bwrap's cold path
  const gvisor = new GvisorSandbox();
  if ((await gvisor.check()).ok) sandboxes.push(["bwrap_cold", new BwrapSandbox("bwrap", { warm: false })], ["gvisor", gvisor]);
  const times: Record<string, number[]> = Object.fromEntries(sandboxes.map(([n]) => [n, []]));
  for (const [, sb] of sandboxes) await runPytest(sb, repo); // warm caches
  for (let i = 0; i < RUNS; i++) {
    for (const [name, sb] of sandboxes) {
      const r = await runPytest(sb, repo);
      if (r.counts.failed || r.counts.error || !r.counts.passed) throw new Error(`${name}: the suite should pass, got ${JSON.stringify(r.counts)}`);
      times[name]!.push(r.run.wallMs);
    }
    process.stderr.write(`bench sandbox: round ${i + 1}/${RUNS}\n`);
  }
  const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const ratios: Record<string, number> = { bwrap_over_bare: Number((med.bwrap! / med.bare!).toFixed(3)) };
  if (med.docker !== undefined) ratios.docker_added_s = Number(((med.docker - med.bare!) / 1000).toFixed(3));
  if (med.gvisor !== undefined) {
    ratios.gvisor_over_bare = Number((med.gvisor / med.bare!).toFixed(3));
    ratios.gvisor_over_bwrap_cold = Number((med.gvisor / med.bwrap_cold!).toFixed(3));
    ratios.gvisor_added_s = Number(((med.gvisor - med.bare!) / 1000).toFixed(3));
  }
  const grade = await gradeCost();
  Object.assign(ratios, grade.ratios);
  return {
    summary: `pytest suite, median of ${RUNS}: bare ${med.bare!.toFixed(0)} ms, bwrap ${med.bwrap!.toFixed(0)} ms (${ratios.bwrap_over_bare}× bare; target ≤ 1.10)` +
      (med.docker !== undefined ? `, docker ${med.docker.toFixed(0)} ms (+${ratios.docker_added_s} s; target ≤ 1.2 s)` : ", docker not available (start one: composer-lab sandbox dockerd; composer-lab sandbox image)") +
      (med.gvisor !== undefined ? `, gvisor ${med.gvisor.toFixed(0)} ms (${ratios.gvisor_over_bare}× bare, ${ratios.gvisor_over_bwrap_cold}× bwrap cold ${med.bwrap_cold!.toFixed(0)} ms)` : ", gvisor not available (apt-get install runsc; needs root)") +
      `; ${grade.summary}`,
    rows: [
      ...Object.entries(times).map(([sandbox, v]) => ({ sandbox, median_ms: Number(median(v).toFixed(1)), min_ms: Number(Math.min(...v).toFixed(1)), max_ms: Number(Math.max(...v).toFixed(1)) })),
      ...grade.rows,
    ],
    ratios,
  };
}

/** A full grade vs the same tests alone, and the restoration and monitor on their own (bwrap). */
async function gradeCost(): Promise<{ summary: string; rows: Record<string, unknown>[]; ratios: Record<string, number> }> {
  const task = loadTask(datasetsDir("tasks"), "inventory-reserve");
  const snapshot = FeatureDeletionEpisode.snapshotDir(task);
  const tests = [...task.fail_to_pass, ...task.pass_to_pass];
  const sb = new BwrapSandbox();
  const monitor = new HackMonitor();
  const t: Record<"grade" | "tests_alone" | "restore" | "monitor", number[]> = { grade: [], tests_alone: [], restore: [], monitor: [] };
  const solved = () => {
    const d = tempDir("bench-grade-");
    cpSync(snapshot, d.path, { recursive: true });
    applyUnifiedDiff(d.path, task.golden_diff);
    return d;
  };
  for (let i = 0; i <= RUNS; i++) {
    const a = solved();
    const b = solved();
    try {
      // alternate which goes first, so neither gains from the other's warm caches
      const grade = async () => {
        const t0 = performance.now();
        const g = await gradeWorkdir(task, a.path, [], sb, monitor);
        if (g.reward !== 1) throw new Error(`the golden diff should earn 1, got ${g.reward} (${JSON.stringify(g.flags)})`);
        return performance.now() - t0;
      };
      const testsAlone = async () => {
        const t0 = performance.now();
        const r = await runPytest(sb, b.path, { tests, config: findPytestConfig(snapshot, tests), workdirReadOnly: true });
        if (r.counts.passed !== tests.length) throw new Error(`tests alone: ${JSON.stringify(r.counts)}`);
        return performance.now() - t0;
      };
      let full: number;
      let alone: number;
      if (i % 2) {
        full = await grade();
        alone = await testsAlone();
      } else {
        alone = await testsAlone();
        full = await grade();
      }
      let t0: number;
      t0 = performance.now();
      const harness = restoreHarness(snapshot, b.path, planHarness(snapshot, tests));
      const restore = performance.now() - t0;
      t0 = performance.now();
      await monitor.check({ task, brokenDir: snapshot, finalDir: b.path, trajectory: [], harness });
      const check = performance.now() - t0;
      if (i === 0) continue; // warm-up round
      t.grade.push(full);
      t.tests_alone.push(alone);
      t.restore.push(restore);
      t.monitor.push(check);
    } finally {
      a.remove();
      b.remove();
    }
  }
  const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)])) as Record<keyof typeof t, number>;
  // With vs without: what a grade costs beyond running the same tests (the monitor overlaps the
  // test run, so its own time is reported apart: it is CPU, not necessarily wall time).
  const added = (m.grade - m.tests_alone) / m.grade;
  const ratios = {
    grade_added_share: Number(added.toFixed(3)),
    grade_over_tests_alone: Number((m.grade / m.tests_alone).toFixed(3)),
    grade_checks_cpu_share: Number(((m.restore + m.monitor) / m.grade).toFixed(3)),
  };
  return {
    summary: `grade of ${task.task_id} (golden), median of ${RUNS}: ${m.grade.toFixed(0)} ms with restoration and checks vs ${m.tests_alone.toFixed(0)} ms for the same tests alone → ${(added * 100).toFixed(1)}% of a grade added (target ≤ 5%); restoration ${m.restore.toFixed(1)} ms, monitor ${m.monitor.toFixed(1)} ms (overlapping the tests)`,
    rows: Object.entries(t).map(([k, v]) => ({ sandbox: `grade:${k}`, median_ms: Number(median(v).toFixed(1)), min_ms: Number(Math.min(...v).toFixed(1)), max_ms: Number(Math.max(...v).toFixed(1)) })),
    ratios,
  };
}
