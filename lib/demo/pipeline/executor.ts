/** The executor stage of `composer-lab demo`: the bundled task's example attempts graded as one
 *  fan-out batch on the local executor, and on a swarm when one is up (`composer-lab cluster up`). */
import { datasetsDir } from "../../core/index.js";
import { DEMO_TASK, exampleAttempts } from "../../env/index.js";
import { gradeMany, openExecutor, type GradeItem } from "../../executor/index.js";
import { loadTask } from "../../tasks/index.js";
import { fromRows } from "../../viz/index.js";
import type { DemoStage } from "../stage.js";

export const executorStage: DemoStage = {
  name: "executor",
  title: "Executors: grading fan-out past one machine",
  description: "Grades the bundled task's example attempts as one batch on the local executor (this host's sandbox pool), and on the swarm executor when a swarm is up, and checks both give the same rewards.",
  async run(ctx) {
    const task = loadTask(datasetsDir("tasks"), DEMO_TASK);
    const items: GradeItem[] = exampleAttempts(task).map((a) => ({ task, completion: a.completion, label: a.name }));
    const runOn = async (name: "local" | "swarm") => {
      const ex = await openExecutor(name);
      try {
        const check = await ex.check();
        if (!check.ok) return { name, why: check.why, grades: null, seconds: 0 };
        const t0 = performance.now();
        const grades = await gradeMany(items, ex);
        return { name, why: null, grades, seconds: (performance.now() - t0) / 1000 };
      } finally {
        await ex.close();
      }
    };
    const local = await runOn("local");
    const swarm = await runOn("swarm").catch((e: Error) => ({ name: "swarm" as const, why: e.message, grades: null, seconds: 0 }));
    ctx.log(`local: ${local.grades?.length ?? 0} grades in ${local.seconds.toFixed(1)} s; swarm: ${swarm.grades ? `${swarm.grades.length} grades in ${swarm.seconds.toFixed(1)} s` : `not run (${swarm.why})`}`);
    if (!local.grades) throw new Error(`the local executor cannot run here: ${local.why}`);
    const agree = swarm.grades ? swarm.grades.every((g, i) => g.reward === local.grades![i]!.reward) : null;
    const rows = items.map((it, i) => ({ attempt: it.label ?? "", local: local.grades![i]!.reward, swarm: swarm.grades?.[i]?.reward ?? null }));
    return {
      summary: `${items.length} attempts graded as one batch: local ${local.seconds.toFixed(1)} s (rewards ${rows.map((r) => r.local).join(", ")}); ${swarm.grades ? `swarm ${swarm.seconds.toFixed(1)} s, rewards ${agree ? "the same" : "DIFFERENT"}` : `swarm not run: ${swarm.why}`}.`,
      metrics: { jobs: items.length, local_seconds: Number(local.seconds.toFixed(2)), swarm_seconds: swarm.grades ? Number(swarm.seconds.toFixed(2)) : null, swarm_rewards_agree: agree },
      tables: [{ title: `Attempts at ${DEMO_TASK}, per executor`, table: fromRows(rows) }],
    };
  },
};
