/**
 * The outer stage of `composer-lab demo`: two of the lab's FD-micro SFT checkpoints served behind
 * the OpenAI API (lib/serve) and the reference policy grow divergence-gated trees over three micro
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
  description: "Serves two of the lab's FD-micro SFT checkpoints over the OpenAI API, grows divergence-gated trees with them and the reference policy over micro feature-deletion tasks (FeatureDeletionEpisode.step in the sandbox, leaves graded), and routes every result into sft_corpus, dpo_pairs, rl_task_pool, divergence_pairs, wm_tuples and holdout.",
  async run(ctx) {
    const pool = datasetsDir("fd-micro", "pool");
    // two students trained on these tasks (SFT at steps 75 and 150): they answer the stub with a body
    const ckpts = ["ckpt_000075", "ckpt_000150"].map((c) => datasetsDir("train", "fd-micro-sft", c));
    if (!existsSync(pool) || !ckpts.every((c) => existsSync(c))) throw new Error("needs datasets/fd-micro and datasets/train/fd-micro-sft");
    await initBackend();
    const served = await Promise.all(ckpts.map((checkpoint, i) => serve({ checkpoint, port: 0, name: `fd-micro-sft-${i ? 150 : 75}`, stop: ["\n\n"], tool_prompt: "ignore" })));
    const reference = await serveReference(pool);
    const store = process.env.COMPOSER_LAB_STORE ? openStore(process.env.COMPOSER_LAB_STORE) : new LocalStore(join(ctx.runDir, "outer-store"));
    const runId = `outer-${ctx.runDir.split("/").filter(Boolean).pop()!.replace(/[^\w.-]/g, "_")}`;
    const trees: Tree[] = [];
    try {
      const models = [...served.map((x) => x.baseURL), reference.url].map((url) => new ModelClient({ url, max_tokens: 64 }));
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
      await Promise.all([...served.map((x) => x.close()), reference.close()]);
    }
  },
};
