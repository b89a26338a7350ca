/**
 * The mutation gate (lib/tasks/mutants.ts) on a task already in a pool, run as its grades run (the
 * task's masks, its sandbox kind's dependency image, its test command): `tasks mutants POOL` audits
 * a pool built before the gate, and says which tasks pytest alone would pay a smaller body on.
 */
import pLimit from "p-limit";
import { gradeSuite, pytestArgsFromCommand, type MaskSpec, type Sandbox } from "../sandbox/index.js";
import { MutationOptions, mutationGate, readIndex, loadTask, taskOracle, uncheckedSymbols, type FeatureDeletionTask, type MutationReport } from "../tasks/index.js";
import { FeatureDeletionEpisode } from "./env.js";
import { sandboxForTask, taskMasks } from "./masks.js";

/** The mutation gate on one pool task (graded as its grades are; see the module comment). */
export async function auditTaskMutants(task: FeatureDeletionTask, sandbox: Sandbox, options: MutationOptions = {}): Promise<MutationReport> {
  const snapshot = FeatureDeletionEpisode.snapshotDir(task);
  // the task's sandbox and masks only when a mutant is graded (most tasks' symbols are all behaviour-checked)
  let prep: Promise<{ sb: Sandbox; masks: MaskSpec[] }> | undefined;
  const prepared = () => (prep ??= sandboxForTask(task, sandbox).then(async (sb) => ({ sb, masks: await taskMasks(task, sb, "pytest") })));
  const args = pytestArgsFromCommand(task.test_command);
  return mutationGate(
    { broken: snapshot, golden_diff: task.golden_diff, symbols: uncheckedSymbols(task.deleted_symbols, taskOracle(task)), fail_to_pass: task.fail_to_pass, check: [...new Set([...task.fail_to_pass, ...task.pass_to_pass])] },
    async (dir, tests) => {
      const { sb, masks } = await prepared();
      return gradeSuite(sb, snapshot, dir, tests, { args, masks });
    },
    options,
  );
}

export interface MutantAuditReport {
  pool: string;
  tasks: number;
  /** Tasks where a mutant passes every target and guard (pytest alone would pay it). */
  weak: number;
  rows: ({ task_id: string } & MutationReport)[];
  seconds: number;
}

/** `tasks mutants`: the gate on every task of a pool (or `only`), every mutant graded (stop_at_first false). */
export async function auditPoolMutants(pool: string, sandbox: Sandbox, opts: MutationOptions & { only?: string[]; concurrency?: number; onTask?: (id: string, r: MutationReport) => void } = {}): Promise<MutantAuditReport> {
  const t0 = performance.now();
  const { only, concurrency = 1, onTask, ...mutation } = opts;
  const ids = readIndex(pool).map((t) => t.task_id).filter((id) => !only?.length || only.includes(id));
  const limit = pLimit(concurrency);
  const rows = await Promise.all(ids.map((id) => limit(async () => {
    const r = await auditTaskMutants(loadTask(pool, id), sandbox, { stop_at_first: false, ...mutation });
    onTask?.(id, r);
    return { task_id: id, ...r };
  })));
  return { pool, tasks: rows.length, weak: rows.filter((r) => r.survivors.length > 0).length, rows, seconds: Number(((performance.now() - t0) / 1000).toFixed(2)) };
}
