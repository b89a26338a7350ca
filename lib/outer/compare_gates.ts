/**
 * The gates side by side: the same task pool, models and node budget, one OUTER round per gate
 * (each in its own run of one store), and what each found: graded leaves, winners (clean passes),
 * tasks with a winner, distinct DPO pairs per node, seconds. Run order is as given (alternate it
 * across repeats: later runs find the endpoints and the sandbox warm).
 */
import { z } from "zod";
import { RunLayout, type Store } from "../store/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { GateConfig, type GateConfigInput, type OutcomeScorer } from "./gate.js";
import type { ModelClient } from "./models.js";
import { runOuter } from "./run.js";
import type { Budget } from "./tree.js";

export const GateComparisonRow = z.object({
  gate: z.string(),
  run_id: z.string(),
  tasks: z.number().int(),
  nodes: z.number().int(),
  expansions: z.number().int(),
  forks: z.number().int(),
  graded: z.number().int(),
  /** Passed leaves, and tasks with at least one. */
  winners: z.number().int(),
  tasks_won: z.number().int(),
  dpo_pairs: z.number().int(),
  /** DPO pairs distinct by (task, chosen, rejected), and per node of the run. */
  distinct_dpo_pairs: z.number().int(),
  distinct_dpo_per_node: z.number(),
  wm_tuples: z.number().int(),
  /** States judged, divergence / confidence firings, branches taken. */
  states: z.number().int(),
  divergence_fires: z.number().int(),
  confidence_fires: z.number().int().nullable(),
  branched: z.number().int(),
  seconds: z.number(),
});
export type GateComparisonRow = z.infer<typeof GateComparisonRow>;

export interface CompareGatesOptions {
  pool: string;
  models: ModelClient[];
  sandbox: Sandbox;
  store: Store;
  /** Run ids are `${run_prefix}-${gate}` (a second gate of the same kind gets a suffix). */
  run_prefix: string;
  gates: GateConfigInput[];
  scorer?: OutcomeScorer;
  budget?: Partial<Budget>;
  limit?: number;
  holdout?: { fraction: number; seed: number };
  taskConcurrency?: number;
  stepConcurrency?: number;
}

export async function compareGates(opts: CompareGatesOptions): Promise<GateComparisonRow[]> {
  const rows: GateComparisonRow[] = [];
  const used = new Map<string, number>();
  for (const g of opts.gates) {
    const gate = GateConfig.parse(g);
    const k = (used.get(gate.kind) ?? 0) + 1;
    used.set(gate.kind, k);
    const run_id = `${opts.run_prefix}-${gate.kind}${k > 1 ? `-${k}` : ""}`;
    const s = await runOuter({
      pool: opts.pool, models: opts.models, sandbox: opts.sandbox, store: opts.store, run_id, gate, scorer: opts.scorer, budget: opts.budget, limit: opts.limit,
      holdout: opts.holdout, taskConcurrency: opts.taskConcurrency, stepConcurrency: opts.stepConcurrency, quiet: true,
    });
    const run = new RunLayout(opts.store, run_id);
    const pairs = await run.read("dpo_pairs");
    const rl = await run.read("rl_task_pool");
    const distinct = new Set(pairs.map((p) => JSON.stringify([p.task_id, p.chosen, p.rejected]))).size;
    rows.push(GateComparisonRow.parse({
      gate: gate.kind, run_id, tasks: s.tasks, nodes: s.nodes, expansions: s.expansions, forks: s.forks, graded: s.graded, winners: s.passed,
      tasks_won: rl.filter((t) => Number((t as { passed?: number }).passed ?? 0) > 0).length,
      dpo_pairs: pairs.length, distinct_dpo_pairs: distinct, distinct_dpo_per_node: s.nodes ? distinct / s.nodes : 0, wm_tuples: s.counts.wm_tuples ?? 0,
      states: s.gate.states, divergence_fires: s.gate.divergence_fires, confidence_fires: s.gate.confidence_fires, branched: s.gate.branched, seconds: s.seconds,
    }));
  }
  return rows;
}
