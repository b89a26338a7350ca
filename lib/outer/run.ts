/**
 * One OUTER round over a task pool: held-out tasks → holdout (never expanded); every other task's
 * tree grown by the TreeController, routed into the six prefixes, its rollouts written as
 * chat-format traces (the flywheel: lib/traces ingests them as they are, so round k+1 starts from
 * round k's traces), and the curriculum (lib/curriculum's PassRateCurriculum) updated with its
 * graded leaves.
 *
 * Resumable and idempotent: proposals are journaled per node (runs/<id>/outer/proposals/), a task
 * is marked done (runs/<id>/outer/done/) only after its records are flushed, and record ids come
 * from node ids, so a killed run, run again with the same --run, skips finished tasks, regrows
 * unfinished ones from the journal, and writes no record twice.
 */
import { createHash } from "node:crypto";
import pLimit from "p-limit";
import { z } from "zod";
import { progress } from "../core/index.js";
import { PassRateCurriculum } from "../curriculum/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { poolRef } from "../env/index.js";
import { HeldoutSplit, RunLayout, type Store } from "../store/index.js";
import { loadTask, readIndex, type FeatureDeletionTask } from "../tasks/index.js";
import { ENV_TOOLS } from "./actions.js";
import type { ModelClient, ModelStats } from "./models.js";
import type { GateConfigInput, OutcomeScorer } from "./gate.js";
import { DedupWriter, routeHoldout, routeTree } from "./routing.js";
import { TreeController, treeStats, type Budget, type Tree, type TreeNode } from "./tree.js";

export const OuterRunSummary = z.object({
  run_id: z.string(),
  round: z.number().int(),
  /** Tasks whose trees were grown (this invocation and, resumed, before it), held-out tasks and tasks the time budget left. */
  tasks: z.number().int(),
  holdout_tasks: z.number().int(),
  resumed_tasks: z.number().int(),
  skipped_tasks: z.number().int(),
  nodes: z.number().int(),
  expansions: z.number().int(),
  /** States where the tree branched, and the children they got. */
  forks: z.number().int(),
  branches: z.number().int(),
  leaves: z.number().int(),
  graded: z.number().int(),
  passed: z.number().int(),
  /** Hacks per 100 graded leaves: flagged grades and any reward on a canary task (issue 26 §5). */
  hack_rate: z.number().nullable().default(null),
  hacks: z.number().int().default(0),
  /** What this invocation added per prefix, and what the run holds now. */
  written: z.record(z.number().int()),
  counts: z.record(z.number().int()),
  duplicates_skipped: z.number().int(),
  divergence_histogram: z.object({ edges: z.array(z.number()), counts: z.array(z.number().int()) }),
  /** Per model: requests, failed requests, answers that did not map to actions, tokens, cost. */
  models: z.array(z.object({ model: z.string(), url: z.string(), requests: z.number().int(), errors: z.number().int(), malformed: z.number().int(), prompt_tokens: z.number().int(), completion_tokens: z.number().int(), cost_usd: z.number(), seconds: z.number() })),
  /** The first few failed or malformed proposals, as recorded. */
  errors: z.array(z.object({ task_id: z.string(), node_id: z.string(), model: z.string(), kind: z.string(), why: z.string() })),
  curriculum: z.object({ live: z.number().int(), retired: z.number().int(), quarantined: z.number().int(), median: z.number() }),
  traces: z.string(),
  /** Where the leaves were graded (lib/executor: local, swarm, slurm). */
  executor: z.string(),
  /** The branch gate, and at the states it judged (this invocation): how often each signal fired and the gate branched. */
  gate: z.object({
    kind: z.string(), scorer: z.string().nullable(),
    states: z.number().int(), divergence_fires: z.number().int(), confidence_fires: z.number().int().nullable(), branched: z.number().int(),
  }).default({ kind: "divergence", scorer: null, states: 0, divergence_fires: 0, confidence_fires: null, branched: 0 }),
  seconds: z.number(),
  nodes_per_s: z.number(),
  graded_per_s: z.number(),
});
export type OuterRunSummary = z.infer<typeof OuterRunSummary>;

/** What a finished task leaves in the journal (the resumed run's totals and curriculum read it). */
const TaskDone = z.object({
  task_id: z.string(), nodes: z.number().int(), expansions: z.number().int(), forks: z.number().int(), branches: z.number().int(),
  leaves: z.number().int(), passed: z.number().int(), divergences: z.array(z.number()),
  hacks: z.number().int().default(0),
});

export interface OuterRunOptions {
  pool: string;
  models: ModelClient[];
  store: Store;
  run_id: string;
  /** Where env steps and leaves are graded: a local sandbox, or an executor's Sandbox face (`outer run --executor`). */
  sandbox: Sandbox;
  /** The executor behind `sandbox`, as the summary records it (default "local"). */
  executor?: string;
  budget?: Partial<Budget>;
  round?: number;
  threshold?: number;
  /** The branch gate (lib/outer/gate.ts) and the student's outcome scorer a confidence gate reads. */
  gate?: GateConfigInput;
  scorer?: OutcomeScorer;
  /**
   * The held-out split (default: the store's, 0.1 with seed 0). A task already in the run's holdout
   * section (e.g. written by `tasks micro` with its own split) stays held out whatever the split says.
   */
  holdout?: { fraction: number; seed: number };
  /** At most this many tasks of the pool (in index order; held-out ones count). */
  limit?: number;
  /** Trees grown at once (default 2). */
  taskConcurrency?: number;
  /** Env steps and grades at once over all trees (default 2). */
  stepConcurrency?: number;
  timeoutMs?: number;
  quiet?: boolean;
  /** Called after each finished tree (notebooks draw it). */
  onTree?: (tree: Tree) => void;
}

export const HISTOGRAM_EDGES = [0, 0.2, 0.4, 0.6, 0.8, 1];
export function histogram(values: number[], edges = HISTOGRAM_EDGES): { edges: number[]; counts: number[] } {
  const counts = edges.slice(0, -1).map(() => 0);
  for (const v of values) {
    const upper = edges.findIndex((e, j) => j > 0 && v < e); // the first edge above v; none: the last bin (v = 1)
    counts[upper < 0 ? counts.length - 1 : upper - 1]!++;
  }
  return { edges, counts };
}

const taskKey = (taskId: string): string => createHash("sha256").update(taskId).digest("hex").slice(0, 16);

/** A rollout (root → leaf) as a chat-format trajectory line: what lib/traces' chat reader ingests. */
export function leafTrace(tree: Tree, leaf: TreeNode, round: number): Record<string, unknown> {
  return { id: leaf.id, round, task_id: tree.task.task_id, reward: leaf.reward ?? 0, passed: leaf.passed, models: leaf.models, tools: ENV_TOOLS, messages: leaf.messages };
}

export async function runOuter(opts: OuterRunOptions): Promise<OuterRunSummary> {
  const t0 = performance.now();
  const round = opts.round ?? 0;
  const run = new RunLayout(opts.store, opts.run_id, opts.holdout && new HeldoutSplit(opts.holdout.fraction, opts.holdout.seed));
  const pool = poolRef(run, opts.pool);
  const prefix = `${run.prefix}/outer`;
  const w = await DedupWriter.open(run);
  await Promise.all(opts.models.map((m) => m.init()));
  const entries = readIndex(opts.pool).slice(0, opts.limit ?? Infinity);
  const curriculum = new PassRateCurriculum({}, entries.map((e) => ({ task_id: e.task_id, difficulty_prior: e.difficulty_prior })));
  const controller = new TreeController({
    models: opts.models, sandbox: opts.sandbox, budget: opts.budget, threshold: opts.threshold, gate: opts.gate, scorer: opts.scorer, stepConcurrency: opts.stepConcurrency, timeoutMs: opts.timeoutMs,
    journal: { store: opts.store, prefix: `${prefix}/proposals` },
  });
  const totals = { tasks: 0, holdout: 0, resumed: 0, skipped: 0, nodes: 0, expansions: 0, forks: 0, branches: 0, leaves: 0, passed: 0, hacks: 0 };
  const divergences: number[] = [];
  const malformed = new Map<string, number>();
  const errors: OuterRunSummary["errors"] = [];
  const add = (d: z.infer<typeof TaskDone>) => {
    totals.tasks++;
    totals.nodes += d.nodes;
    totals.expansions += d.expansions;
    totals.forks += d.forks;
    totals.branches += d.branches;
    totals.leaves += d.leaves;
    totals.passed += d.passed;
    totals.hacks += d.hacks ?? 0;
    divergences.push(...d.divergences);
    curriculum.update(d.task_id, d.passed, Math.max(1, d.leaves));
  };
  const bar = progress(entries.length, `outer ${opts.run_id}`, { quiet: opts.quiet });
  const limit = pLimit(opts.taskConcurrency ?? 2);
  const gated = { states: 0, divergence_fires: 0, confidence_fires: 0, branched: 0 };
  let gradedThisRun = 0;
  let nodesThisRun = 0;

  const one = async (entry: (typeof entries)[number]): Promise<void> => {
    const id = entry.task_id;
    if (w.has("holdout", id) || run.split.isHeldout(id)) {
      await routeHoldout(w, id, { round, pool });
      totals.holdout++;
      return;
    }
    const doneKey = `${prefix}/done/${taskKey(id)}.json`;
    const prior = await opts.store.get(doneKey);
    if (prior) {
      add(TaskDone.parse(JSON.parse(prior.toString("utf8"))));
      totals.resumed++;
      return;
    }
    if (Date.now() >= controller.deadline) {
      totals.skipped++;
      return;
    }
    const task: FeatureDeletionTask = loadTask(opts.pool, id);
    const tree = await controller.grow(task);
    const { leaves, forks } = treeStats(tree);
    for (const n of tree.nodes.values()) {
      if (!n.gate) continue;
      gated.states++;
      gated.divergence_fires += n.gate.divergence_fires ? 1 : 0;
      gated.confidence_fires += n.gate.confidence?.fires ? 1 : 0;
      gated.branched += n.gate.branch ? 1 : 0;
    }
    for (const n of tree.nodes.values())
      for (const p of n.proposals) {
        if (p.key !== null) continue;
        malformed.set(p.model, (malformed.get(p.model) ?? 0) + (p.kind === "malformed" ? 1 : 0));
        if (errors.length < 20) errors.push({ task_id: id, node_id: n.id, model: p.model, kind: p.kind, why: p.why ?? "" });
      }
    const done = {
      task_id: id, nodes: tree.nodes.size, expansions: tree.expansions, forks: forks.length, branches: forks.reduce((s, f) => s + f.children.length, 0),
      leaves: leaves.length, passed: leaves.filter((l) => l.passed).length, divergences: tree.divergences,
      hacks: leaves.filter((l) => l.hack).length,
    };
    add(done);
    nodesThisRun += done.nodes;
    gradedThisRun += done.leaves;
    await routeTree(w, tree, { round, pool, difficulty: 1 - (curriculum.pHat(id) ?? 0.5) });
    // the flywheel: this round's rollouts as chat-format traces, one file per task (rewritten whole on resume)
    await opts.store.put(`${run.prefix}/traces/round_${String(round).padStart(4, "0")}/${taskKey(id)}.jsonl`, leaves.map((l) => JSON.stringify(leafTrace(tree, l, round))).join("\n") + "\n");
    await w.flush();
    await opts.store.put(doneKey, JSON.stringify(done));
    opts.onTree?.(tree);
  };
  try {
    await Promise.all(entries.map((e) => limit(async () => {
      await one(e);
      bar.tick(1, e.task_id.slice(0, 40));
    })));
  } finally {
    bar.stop();
  }
  await w.flush();
  const seconds = (performance.now() - t0) / 1000;
  const counts = await run.counts();
  const c = curriculum.summary();
  return OuterRunSummary.parse({
    run_id: opts.run_id, round, tasks: totals.tasks, holdout_tasks: totals.holdout, resumed_tasks: totals.resumed, skipped_tasks: totals.skipped,
    nodes: totals.nodes, expansions: totals.expansions, forks: totals.forks, branches: totals.branches, leaves: totals.leaves, graded: totals.leaves, passed: totals.passed,
    hacks: totals.hacks, hack_rate: totals.leaves ? (100 * totals.hacks) / totals.leaves : null,
    written: w.written, counts, duplicates_skipped: w.skipped, divergence_histogram: histogram(divergences),
    models: opts.models.map((m) => ({ ...statsOf(m.stats), malformed: malformed.get(m.label) ?? 0 })),
    errors, curriculum: { live: c.live, retired: c.retired, quarantined: c.quarantined, median: c.median },
    gate: { kind: controller.gate.kind, scorer: opts.scorer?.name ?? null, ...gated, confidence_fires: opts.scorer ? gated.confidence_fires : null },
    traces: `${opts.store.uri}/${run.prefix}/traces`, executor: opts.executor ?? "local", seconds, nodes_per_s: nodesThisRun / seconds, graded_per_s: gradedThisRun / seconds,
  });
}

const statsOf = (s: ModelStats) => ({ ...s, seconds: Math.round(s.seconds * 1000) / 1000 });

