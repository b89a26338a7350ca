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
  EXECUTOR_NAMES, ExecutorName, Mount, JobLimits, JobSpec, JobStatus, JobState, JobResult, LostAttempt, ClusterNode, ClusterState,
  type JobSpecInput, type SubmitOptions, type Batch, type Executor, type ExecutorCheck, type ClusterEngine,
} from "./types.js";
export { LostJobError, runBatch, parseJobs, type AttemptContext, type RunAttempt } from "./batch.js";
export { executorSandbox, jobOf, runOptionsOf } from "./sandbox.js";
export { LocalExecutor, openLocalExecutor, type LocalExecutorOptions } from "./local.js";

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
