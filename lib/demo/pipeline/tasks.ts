/** The task-building stage of `composer-lab demo`: build validated tasks from a bundled repo, then
 *  grade one built task's golden diff (it must score 1). */
import { join } from "node:path";
import { datasetsDir } from "../../core/index.js";
import type { DemoStage } from "../stage.js";
import { getSandbox, runPytest } from "../../sandbox/index.js";
import { applyUnifiedDiff } from "../../tasks/index.js";
import { barChart, fromRows } from "../../viz/index.js";
import { buildFromRepo, type BuildReport } from "../../tasks/index.js";
import { loadTask } from "../../tasks/index.js";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";

export const tasksStage: DemoStage = {
  name: "tasks",
  title: "Tasks: feature deletion with validation gates",
  description: "Builds feature-deletion tasks from datasets/repos/textkit (coverage-mapped AST deletion, four validation gates in the sandbox, the mutation gate for symbols the behavioural check cannot cover) and checks that a built task's golden diff restores every test.",
  async run(ctx) {
    const sandbox = await getSandbox("auto");
    const pool = join(ctx.runDir, "tasks");
    const reports: (BuildReport & { granularity: "function" | "file" })[] = [];
    // The demo stops each granularity at a few validated tasks (cap): candidates past the cap never
    // reach the gates, so the yield counts only candidates the gates decided.
    const caps = { function: 6, file: 2 } as const;
    for (const granularity of ["function", "file"] as const) {
      const r = await buildFromRepo(datasetsDir("repos", "textkit"), pool, sandbox, { granularity, max: caps[granularity] }, { quiet: true });
      ctx.log(`${granularity}: ${r.validated}/${r.candidates} validated`);
      reports.push({ granularity, ...r });
    }
    const ids = reports.flatMap((r) => r.tasks);
    const tasks = ids.map((id) => loadTask(pool, id));
    // Grade the first task's golden diff: every FAIL_TO_PASS and PASS_TO_PASS test must pass.
    const t = tasks[0]!;
    const dir = mkdtempSync(join(tmpdir(), "composer-lab-demo-solve-"));
    let goldenPasses = false;
    try {
      cpSync(t.broken.kind === "dir" ? t.broken.path : "", dir, { recursive: true });
      applyUnifiedDiff(dir, t.golden_diff);
      const res = await runPytest(sandbox, dir, { tests: [...t.fail_to_pass, ...t.pass_to_pass] });
      goldenPasses = res.tests.length === t.fail_to_pass.length + t.pass_to_pass.length && res.tests.every((x) => x.outcome === "passed");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const fn = reports[0]!;
    const gated = (r: BuildReport) => r.validated + Object.values(r.rejected).reduce((a, b) => a + b, 0);
    const describe = (r: (typeof reports)[number]) => `${r.granularity}: ${r.validated} validated of ${gated(r)} through the gates (cap ${caps[r.granularity]}; ${r.candidates - gated(r)} of ${r.candidates} candidates not tried)`;
    return {
      summary: `${tasks.length} tasks validated in ${sandbox.name} (${reports.map(describe).join("; ")}); ${fn.testRuns.per_validated_task} suite-equivalents of test runs per function-level task; the golden diff of ${t.task_id} ${goldenPasses ? "restores all tests" : "does NOT restore all tests"}.`,
      metrics: {
        tasks: tasks.length,
        function_candidates: fn.candidates, function_gated: gated(fn), function_validated: fn.validated, function_cap: caps.function,
        function_gate_yield: gated(fn) ? Number((fn.validated / gated(fn)).toFixed(3)) : null,
        suite_eq_per_task: fn.testRuns.per_validated_task, golden_restores: goldenPasses, pool,
        // the mutation gate (gate 2): symbols the behavioural check could not cover, their mutants, and the rejections it made
        mutation_symbols: tasks.reduce((a, x) => a + (x.mutation?.symbols.length ?? 0), 0), mutants_killed: tasks.reduce((a, x) => a + (x.mutation?.killed ?? 0), 0),
        rejected_kills_mutants: reports.reduce((a, r) => a + r.rejections.filter((x) => x.reason.includes("kills_mutants")).length, 0),
      },
      tables: [{ title: "Built tasks", table: fromRows(tasks.map((x) => ({ task_id: x.task_id, granularity: x.granularity, deleted: x.deleted_symbols.map((d) => d.qualname).join(", "), fail_to_pass: x.fail_to_pass.length, pass_to_pass: x.pass_to_pass.length, mutants_killed: x.mutation ? `${x.mutation.killed}/${x.mutation.mutants}` : "-" }))) }],
      figures: [{ title: "FAIL_TO_PASS tests per task", figure: barChart(tasks.map((x) => x.task_id.replace(/^textkit-/, "")), { fail_to_pass: tasks.map((x) => x.fail_to_pass.length) }, { title: "tests each deletion breaks", yTitle: "FAIL_TO_PASS" }) }],
    };
  },
};
