/**
 * OUTER-loop throughput: nodes/s and graded leaves/s of runOuter over micro feature-deletion tasks
 * (datasets/fd-micro; FeatureDeletionEpisode.step and the grade in the sandbox), measured side by side
 * in one run:
 *  - scripted: the reference policy and a scripted wrong student on loopback (model time ≈ 0: the
 *    controller, the env and the grader), env steps on every core;
 *  - scripted, one step at a time (what concurrency buys);
 *  - served: the same plus the lab's tool-call checkpoint behind `serve` (lib/serve, in process),
 *    answering each state (the byte-level sampler's time included).
 * Every variant grows fresh trees (a new run id) with the same budget; each is run ROUNDS times and
 * the median, min and max reported.
 */
import { availableParallelism } from "node:os";
import { initBackend } from "../lib/backend/index.js";
import type { BenchResult } from "../lib/cli/index.js";
import { datasetsDir, tempDir } from "../lib/core/index.js";
import { ModelClient, runOuter, serveChat, serveReference, type OuterRunSummary } from "../lib/outer/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { serve } from "../lib/serve/index.js";
import { openStore } from "../lib/store/index.js";

const TASKS = Number(process.env.COMPOSER_LAB_BENCH_TASKS ?? 7);
const ROUNDS = Number(process.env.COMPOSER_LAB_BENCH_RUNS ?? 2);

export async function run(): Promise<BenchResult> {
  await initBackend();
  const pool = datasetsDir("fd-micro", "pool");
  const sandbox = await getSandbox("auto");
  const cores = availableParallelism();
  const reference = await serveReference(pool);
  const student = await serveChat("wrong-student", () => ({ content: "    return None" }));
  const served = await serve({ checkpoint: datasetsDir("train", "toolcall-sft"), port: 0 });
  const dir = tempDir("bench-outer-");
  const variants: Record<string, { urls: string[]; steps: number }> = {
    scripted: { urls: [reference.url, student.url], steps: cores },
    scripted_sequential: { urls: [reference.url, student.url], steps: 1 },
    served: { urls: [reference.url, student.url, served.baseURL], steps: cores },
  };
  const results: Record<string, OuterRunSummary[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, v] of Object.entries(variants)) {
        const models = v.urls.map((url) => new ModelClient({ url, max_tokens: 32 }));
        const s = await runOuter({ pool, models, store: openStore(dir.path), run_id: `${name}-${round}`, sandbox, limit: TASKS, budget: { depth: 2, width: 3, nodes: 8 }, stepConcurrency: v.steps, quiet: true });
        if (s.counts.sft_corpus === 0 || s.counts.wm_tuples === 0) throw new Error(`${name}: nothing routed (${JSON.stringify(s.counts)})`);
        results[name]!.push(s);
        process.stderr.write(`bench outer: round ${round + 1}/${ROUNDS} ${name}: ${s.nodes} nodes, ${s.graded} graded in ${s.seconds.toFixed(1)} s\n`);
      }
    }
  } finally {
    await Promise.all([reference.close(), student.close(), served.close()]);
    dir.remove();
  }
  const med = (xs: number[]) => {
    const v = [...xs].sort((a, b) => a - b);
    const m = Math.floor(v.length / 2);
    return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
  };
  const r3 = (x: number) => Number(x.toFixed(3));
  const rows = Object.entries(results).map(([variant, rs]) => ({
    variant, tasks: rs[0]!.tasks, nodes: rs[0]!.nodes, graded: rs[0]!.graded, step_concurrency: variants[variant]!.steps,
    nodes_per_s: r3(med(rs.map((r) => r.nodes_per_s))), nodes_per_s_min: r3(Math.min(...rs.map((r) => r.nodes_per_s))), nodes_per_s_max: r3(Math.max(...rs.map((r) => r.nodes_per_s))),
    graded_per_s: r3(med(rs.map((r) => r.graded_per_s))), graded_per_s_min: r3(Math.min(...rs.map((r) => r.graded_per_s))), graded_per_s_max: r3(Math.max(...rs.map((r) => r.graded_per_s))),
    seconds: r3(med(rs.map((r) => r.seconds))), rounds: rs.length,
  }));
  const by = Object.fromEntries(rows.map((r) => [r.variant, r]));
  const ratios = {
    nodes_per_s: by.scripted!.nodes_per_s,
    graded_per_s: by.scripted!.graded_per_s,
    served_nodes_per_s: by.served!.nodes_per_s,
    concurrent_over_sequential: r3(by.scripted!.nodes_per_s / by.scripted_sequential!.nodes_per_s),
    served_over_scripted: r3(by.served!.nodes_per_s / by.scripted!.nodes_per_s),
    cores,
  };
  return {
    summary: `${TASKS} micro tasks × ${ROUNDS} rounds, budget depth 2 / width 3 / nodes 8, ${cores} cores: scripted models ${by.scripted!.nodes_per_s} nodes/s, ${by.scripted!.graded_per_s} graded leaves/s (one step at a time: ${by.scripted_sequential!.nodes_per_s} nodes/s, ${ratios.concurrent_over_sequential}×); with the served lab checkpoint answering every state: ${by.served!.nodes_per_s} nodes/s, ${by.served!.graded_per_s} graded leaves/s`,
    rows,
    ratios,
  };
}
