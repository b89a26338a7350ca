/**
 * Grading fan-out: many completions against a pool's tasks, graded by lib/env gradeCompletion
 * (the one grader) on an executor's Sandbox face. The executor decides where each pytest run goes
 * (this host's pool, swarm nodes, Slurm nodes) and how many run at once.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pLimit from "p-limit";
import { gradeCompletion, type GradeCompletionResult } from "../env/index.js";
import { loadTask, readIndex, type FeatureDeletionTask } from "../tasks/index.js";
import type { Executor } from "./types.js";

export interface GradeItem {
  task: FeatureDeletionTask;
  completion: string;
  /** A name for the completion in reports (e.g. "golden", a file name). */
  label?: string;
}

export interface PoolGrade extends GradeCompletionResult {
  task_id: string;
  label: string;
  /** From the grade's start on this host (its snapshot copy) to its reward. */
  latencyMs: number;
}

/** Grades every item on the executor; results in item order. `concurrency` bounds the grades
 *  prepared at once on this host (snapshot copies), the executor bounds the runs. */
export async function gradeMany(items: GradeItem[], executor: Executor, opts: { concurrency?: number; onGrade?: (g: PoolGrade, done: number) => void } = {}): Promise<PoolGrade[]> {
  const sandbox = executor.asSandbox();
  const limit = pLimit(opts.concurrency ?? 8);
  let done = 0;
  return Promise.all(items.map((it) => limit(async () => {
    const t0 = performance.now();
    const g: PoolGrade = { ...(await gradeCompletion(it.task, it.completion, sandbox)), task_id: it.task.task_id, label: it.label ?? "", latencyMs: 0 };
    g.latencyMs = performance.now() - t0;
    opts.onGrade?.(g, ++done);
    return g;
  })));
}

/**
 * The completions to grade for a pool: each task's golden diff ("golden"), or the file
 * `<dir>/<task_id>.diff` (or .json, an action transcript) for every task that has one.
 */
export function poolCompletions(pool: string, source: { golden: true } | { dir: string }, taskIds?: string[]): GradeItem[] {
  const ids = taskIds ?? readIndex(pool).map((e) => e.task_id);
  const items: GradeItem[] = [];
  for (const id of ids) {
    const task = loadTask(pool, id);
    if ("golden" in source) {
      items.push({ task, completion: task.golden_diff, label: "golden" });
      continue;
    }
    const file = [`${id}.diff`, `${id}.json`].map((f) => join(source.dir, f)).find((f) => existsSync(f));
    if (file) items.push({ task, completion: readFileSync(file, "utf8"), label: file });
  }
  if (items.length === 0) throw new Error("golden" in source ? `${pool}: no tasks` : `${source.dir}: no <task_id>.diff or <task_id>.json for any task of ${pool}`);
  return items;
}
