/**
 * lib/executor: run batches of sandboxed jobs past one machine. One interface (types.ts: submit a
 * batch, stream results, cancel, per-job status, retries of lost jobs, timeouts), executors on
 * existing engines: `local` (this host's bwrap/Docker pool), `swarm` (Docker Swarm replicated-job
 * services), `slurm` (sbatch job arrays). Every executor is also a `Sandbox` (asSandbox), so the
 * one pytest runner of lib/sandbox grades on any of them. `cluster up|down` starts local clusters.
 */
import type { SandboxChoice } from "../sandbox/index.js";
import { openLocalExecutor } from "./local.js";
import type { ClusterEngine, Executor, ExecutorName } from "./types.js";

export {
  EXECUTOR_NAMES, ExecutorName, Mount, JobLimits, JobNetwork, JobRun, JobSpec, JobStatus, JobState, JobResult, LostAttempt, ClusterNode, ClusterState,
  type JobSpecInput, type SubmitOptions, type Batch, type Executor, type ExecutorCheck, type ClusterEngine,
} from "./types.js";
export { LostJobError, runBatch, parseJobs, type AttemptContext, type RunAttempt } from "./batch.js";
export { executorSandbox, jobOf, runOptionsOf } from "./sandbox.js";
export { LocalExecutor, openLocalExecutor, type LocalExecutorOptions } from "./local.js";
export { LAB_INSIDE, NODE_INSIDE, labCommandJob } from "./lab-job.js";

export interface OpenExecutorOptions {
  /** Jobs in flight at once (each executor has its own default). */
  concurrency?: number;
  /** local: the sandbox to run jobs in. */
  sandbox?: SandboxChoice;
}

/** The executor called `name`, ready to submit to (its check() says whether it can run here). */
export async function openExecutor(name: ExecutorName, opts: OpenExecutorOptions = {}): Promise<Executor> {
  switch (name) {
    case "local":
      return openLocalExecutor({ concurrency: opts.concurrency, sandbox: opts.sandbox });
    case "swarm":
      return (await import("./swarm.js")).openSwarmExecutor({ concurrency: opts.concurrency });
    case "slurm":
      return (await import("./slurm.js")).openSlurmExecutor({ concurrency: opts.concurrency });
  }
}

/** The engine behind `composer-lab cluster up|down --engine <name>`. */
export async function clusterEngine(name: "swarm" | "slurm"): Promise<ClusterEngine> {
  switch (name) {
    case "swarm":
      return (await import("./swarm-cluster.js")).swarmCluster;
    case "slurm":
      return (await import("./slurm.js")).slurmClusterEngine();
  }
}
// Grading fan-out pulls in lib/env and lib/tasks: loaded on first use, so that the executor (and
// every CLI option that names one) stays light to import.
export type { GradeItem, PoolGrade } from "./grade.js";
type GradeModule = typeof import("./grade.js");
/** Grades completions on an executor (lib/env gradeCompletion on its Sandbox face); item order. */
export const gradeMany = async (...a: Parameters<GradeModule["gradeMany"]>): ReturnType<GradeModule["gradeMany"]> => (await import("./grade.js")).gradeMany(...a);
/** A pool's completions to grade: golden diffs, or <dir>/<task_id>.diff|.json. */
export const poolCompletions = async (...a: Parameters<GradeModule["poolCompletions"]>): Promise<ReturnType<GradeModule["poolCompletions"]>> => (await import("./grade.js")).poolCompletions(...a);
