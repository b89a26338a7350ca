/**
 * The outer stage of `composer-lab demo`: the lab's tool-call checkpoint served behind the OpenAI
 * API (lib/serve) and the reference policy grow divergence-gated trees over three micro
 * feature-deletion tasks (one held out), graded in the sandbox and routed into the six prefixes.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { initBackend } from "../../backend/index.js";
import { datasetsDir } from "../../core/index.js";
import { ModelClient, divergenceFigure, runOuter, serveReference, treeFigure, type Tree } from "../../outer/index.js";
import { getSandbox } from "../../sandbox/index.js";
import { serve } from "../../serve/index.js";
import { LocalStore, openStore } from "../../store/index.js";
import { barChart, fromRows } from "../../viz/index.js";
import type { DemoStage } from "../stage.js";

export const outerStage: DemoStage = {
  name: "outer",
  title: "OUTER loop: a multi-model tree over feature-deletion tasks",
  description: "Serves the lab's checkpoint over the OpenAI API, grows divergence-gated trees with it and the reference policy over micro feature-deletion tasks (FeatureDeletionEnv.step in the sandbox, leaves graded), and routes every result into sft_corpus, dpo_pairs, rl_task_pool, divergence_pairs, wm_tuples and holdout.",
  async run(ctx) {
    const pool = datasetsDir("fd-micro", "pool");
    const ckpt = datasetsDir("train", "toolcall-sft");
    if (!existsSync(pool) || !existsSync(ckpt)) throw new Error("needs datasets/fd-micro and datasets/train/toolcall-sft");
    await initBackend();
    const served = await serve({ checkpoint: ckpt, port: 0 });
    const reference = await serveReference(pool);
    const store = process.env.COMPOSER_LAB_STORE ? openStore(process.env.COMPOSER_LAB_STORE) : new LocalStore(join(ctx.runDir, "outer-store"));
    const runId = `outer-${ctx.runDir.split("/").filter(Boolean).pop()!.replace(/[^\w.-]/g, "_")}`;
    const trees: Tree[] = [];
    try {
      const models = [served.baseURL, reference.url].map((url) => new ModelClient({ url, max_tokens: 32 }));
      // the first three tasks of the pool: two trained on, one held out
      const s = await runOuter({ pool, models, store, run_id: runId, sandbox: await getSandbox("auto"), limit: 3, budget: { depth: 2, width: 2, nodes: 6 }, quiet: true, onTree: (t) => trees.push(t) });
      ctx.log(`outer: ${JSON.stringify(s.counts)} in ${s.seconds.toFixed(1)} s`);
      const sections = Object.keys(s.counts);
      return {
        summary: `${s.tasks} trees (${s.holdout_tasks} held-out task recorded, never expanded): ${s.nodes} nodes, ${s.forks} forks, ${s.graded} graded leaves (${s.passed} passed) in ${s.seconds.toFixed(1)} s (${s.nodes_per_s.toFixed(2)} nodes/s, ${s.graded_per_s.toFixed(2)} graded leaves/s). Routed: ${Object.entries(s.counts).map(([k, v]) => `${k} ${v}`).join(", ")}. Models: ${s.models.map((m) => `${m.model} ${m.requests} requests, ${m.completion_tokens} tokens`).join("; ")}.`,
        metrics: {
          seconds: Number(s.seconds.toFixed(2)), tasks: s.tasks, nodes: s.nodes, forks: s.forks, graded: s.graded, passed: s.passed,
          nodes_per_s: Number(s.nodes_per_s.toFixed(3)), graded_per_s: Number(s.graded_per_s.toFixed(3)),
          ...Object.fromEntries(Object.entries(s.counts).map(([k, v]) => [`items_${k}`, v])),
        },
        tables: [{ title: "Per-prefix counts", table: fromRows(sections.map((section) => ({ section, items: s.counts[section]! }))) }],
        figures: [
          ...(trees[0] ? [{ title: "One tree (nodes by reward, edges by model)", figure: treeFigure(trees[0]) }] : []),
          { title: "Divergence", figure: divergenceFigure(s.divergence_histogram) },
          { title: "Per-prefix counts", figure: barChart(sections, { items: sections.map((k) => s.counts[k]!) }, { title: "items per prefix", yTitle: "items" }) },
        ],
      };
    } finally {
      await Promise.all([served.close(), reference.close()]);
    }
  },
};
