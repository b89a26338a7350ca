/**
 * The store stage of `composer-lab demo`: writes the run's data through the Store into the
 * outer→inner layout (rl_task_pool, holdout, graded attempts routed to sft_corpus / dpo_pairs /
 * wm_tuples, a divergence pair), runs a short DiLoCo over the same store, and shows the curriculum
 * frontier on a simulated pool. COMPOSER_LAB_STORE=s3://bucket/prefix sends it to S3.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { simulateCurriculum } from "../../curriculum/index.js";
import { datasetsDir } from "../../core/index.js";
import type { DemoStage } from "../stage.js";
import { exampleAttempts, gradeCompletion, poolRef, publishTasks, DEMO_TASK } from "../../env/index.js";
import { getSandbox } from "../../sandbox/index.js";
import { loadTask, readIndex } from "../../tasks/index.js";
import { fromRows, histogram, lineChart } from "../../viz/index.js";
import { runWorker, summarizeRun } from "../../store/index.js";
import { HeldoutSplit, RunLayout, routeGroup } from "../../store/index.js";
import { LocalStore, openStore } from "../../store/index.js";
import { exportTrl } from "../../export/index.js";

export const storeStage: DemoStage = {
  name: "store",
  title: "Store: the run layout, DiLoCo and the curriculum frontier",
  description: "Writes this run's data through the Store into runs/<run_id>/{rl_task_pool, holdout, sft_corpus, dpo_pairs, wm_tuples, divergence_pairs, diloco_rendezvous}, runs a 3-worker DiLoCo over it, and simulates the online curriculum.",
  async run(ctx) {
    const store = process.env.COMPOSER_LAB_STORE ? openStore(process.env.COMPOSER_LAB_STORE) : new LocalStore(join(ctx.runDir, "store"));
    const runId = ctx.runDir.split("/").filter(Boolean).pop()!.replace(/[^\w.-]/g, "_");
    const run = new RunLayout(store, runId, new HeldoutSplit(0.34, ctx.seed));
    const pool = datasetsDir("tasks");
    const ref = poolRef(run, pool); // relative to the store root, as publishTasks writes it
    for (const t of readIndex(pool)) {
      if (run.split.isHeldout(t.task_id)) await run.writer("holdout").add({ id: t.task_id, task_id: t.task_id, pool: ref });
      else await run.writer("rl_task_pool").add({ id: t.task_id, task_id: t.task_id, difficulty_prior: t.difficulty_prior, pool: ref });
    }
    // The micro feature-deletion tasks: training ones with their golden body in sft_corpus, the rest
    // held out (48 tasks at 0.34: the holdout is never empty).
    const microPool = datasetsDir("fd-micro", "pool");
    const micro = existsSync(microPool) ? await publishTasks(run, readIndex(microPool).map((t) => loadTask(microPool, t.task_id)), microPool) : null;
    if (micro) ctx.log(`micro tasks: ${JSON.stringify(micro)}`);
    // The graded attempts at the demo task form one group of sibling rollouts.
    const task = loadTask(pool, DEMO_TASK);
    const sandbox = await getSandbox("auto");
    const group = await Promise.all(exampleAttempts(task).map(async (a, i) => {
      const g = await gradeCompletion(task, a.completion, sandbox);
      return { id: `${task.task_id}:${i}:${a.name.replace(/\W+/g, "-")}`, task_id: task.task_id, messages: [{ role: "user", content: `Re-implement ${task.deleted_symbols.map((d) => d.qualname).join(", ")}` }], completion: a.completion, reward: g.reward, passed: g.reward === 1 && !g.hacked };
    }));
    const routed = await routeGroup(run, group);
    if (!run.split.isHeldout(task.task_id)) await run.writer("divergence_pairs").add({ id: `${task.task_id}:fork`, task_id: task.task_id, state_messages: group[0]!.messages, branches: group.map((r) => ({ action: r.completion.slice(0, 200), reward: r.reward })) });
    await run.flushAll();
    const counts = await run.counts();
    ctx.log(`layout: ${JSON.stringify(counts)}`);

    // DiLoCo: three in-process workers meeting only through the store.
    const prefix = `${run.prefix}/diloco_rendezvous`;
    const config = { rounds: 6, inner_steps: 4, momentum: 0.5, timeout_s: 20, poll_ms: 20 };
    await Promise.all([0, 1, 2].map((rank) => runWorker({ store, prefix, rank, workers: 3, config })));
    const diloco = await summarizeRun(store, prefix, 3);

    // The run as TRL datasets (sft / dpo / grpo prompts), for trainers outside the lab.
    const trl = store instanceof LocalStore ? await exportTrl({ store: store.root, run: runId, out: join(ctx.runDir, "trl") }) : null;
    if (trl) ctx.log(`TRL export: ${Object.entries(trl.datasets).map(([k, d]) => `${k} ${d.rows}`).join(", ")} rows in ${trl.out}`);

    const sim = simulateCurriculum({ tasks: 200, steps: 600, seed: ctx.seed });
    const last = sim.history[sim.history.length - 1]!;
    const steps = sim.history.map((h) => h.step);
    return {
      summary: `Wrote ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")} to ${store.uri}/${run.prefix} (routed: ${routed.sft} to SFT, ${routed.dpo} DPO pairs, ${routed.wm} world-model tuples). ${trl ? `Exported as TRL datasets: ${Object.entries(trl.datasets).map(([k, d]) => `${k} ${d.rows}`).join(", ")} rows. ` : ""}DiLoCo: ${diloco.rounds} rounds × 3 workers, loss ${diloco.lossHistory[0]!.toFixed(3)} → ${diloco.loss.toFixed(4)}. Curriculum on a simulated pool: ${last.retired} retired, ${last.quarantined} quarantined, ${last.live} live, ${sim.curriculum.escalations().length} escalation(s).`,
      metrics: {
        store: store.uri, ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [`items_${k}`, v])),
        diloco_rounds: diloco.rounds, diloco_final_loss: Number(diloco.loss.toFixed(6)),
        ...(trl ? Object.fromEntries(Object.entries(trl.datasets).map(([k, d]) => [`trl_${k}_rows`, d.rows])) : {}),
        curriculum_retired: last.retired, curriculum_quarantined: last.quarantined, curriculum_live: last.live, curriculum_median: Number(last.median.toFixed(3)), curriculum_escalations: sim.curriculum.escalations().length,
      },
      tables: [
        { title: "Run layout", table: fromRows(Object.entries(counts).map(([section, items]) => ({ section, items, prefix: `${run.prefix}/${section}/` }))) },
        ...(trl ? [{ title: "TRL datasets (export trl)", table: fromRows(Object.entries(trl.datasets).map(([dataset, d]) => ({ dataset, rows: d.rows, trainer: d.trainer, columns: d.columns.slice(0, 4).join(", ") }))) }] : []),
                { title: "Curriculum escalation events", table: fromRows(sim.escalations.map((e) => ({ step: e.step, median_pass_rate: Number(e.median.toFixed(3)) }))) },
      ],
      figures: [
        { title: "Curriculum frontier: task states over time", figure: lineChart({ live: { x: steps, y: sim.history.map((h) => h.live) }, retired: { x: steps, y: sim.history.map((h) => h.retired) }, quarantined: { x: steps, y: sim.history.map((h) => h.quarantined) } }, { title: "task pool under the online curriculum", xTitle: "step", yTitle: "tasks" }) },
        { title: "Median pass rate", figure: lineChart({ "median p̂": { x: steps, y: sim.history.map((h) => h.median) } }, { title: "median p̂ of tasks not retired (escalation above 0.6)", xTitle: "step", yTitle: "p̂" }) },
        { title: "p̂ of live tasks, midway", figure: histogram(sim.history[Math.floor(sim.history.length / 2)]!.pHat, { title: "p̂ histogram (live tasks, midway)", xTitle: "p̂", yTitle: "tasks", bins: 20 }) },
        { title: "DiLoCo loss", figure: lineChart({ loss: { x: diloco.lossHistory.map((_, i) => i), y: diloco.lossHistory } }, { title: "DiLoCo (3 workers through the store)", xTitle: "outer round", yTitle: "MSE" }) },
      ],
    };
  },
};
