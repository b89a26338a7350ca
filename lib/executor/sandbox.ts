/**
 * Jobs and sandbox runs are the same thing seen from two sides: a job is a Sandbox.run call with a
 * name. These convert between them, and turn any executor into a `Sandbox` (so the ONE pytest
 * runner, lib/sandbox runPytest, runs on every executor unchanged).
 */
import { RunOptions, type RunResult, type Sandbox } from "../sandbox/index.js";
import { JobSpec, type Executor, type JobSpecInput } from "./types.js";

/** A job's fields as lib/sandbox RunOptions (what a local sandbox's run() takes). */
export function runOptionsOf(job: JobSpec): RunOptions {
  const { id: _id, command: _command, mounts, limits, network: _network, retries: _retries, ...run } = job;
  const binds = (mode: "ro" | "rw") => Object.fromEntries(mounts.filter((m) => m.mode === mode).map((m) => [m.host, m.inside]));
  return { ...run, roBinds: binds("ro"), rwBinds: binds("rw"), ...limits };
}

/** A Sandbox.run call as a job. */
export function jobOf(id: string, command: string | string[], options: RunOptions): JobSpec {
  const { roBinds, rwBinds, timeoutMs, memoryMb, cpus, pids, diskMb, maxOutputBytes, ...run } = RunOptions.parse(options);
  return JobSpec.parse({
    id, command, ...run,
    mounts: [
      ...Object.entries(roBinds).map(([host, inside]) => ({ host, inside, mode: "ro" as const })),
      ...Object.entries(rwBinds).map(([host, inside]) => ({ host, inside, mode: "rw" as const })),
    ],
    limits: { timeoutMs, memoryMb, cpus, pids, diskMb, maxOutputBytes },
  } satisfies JobSpecInput);
}

let runs = 0;

/** The executor as a Sandbox: run() submits a one-job batch and returns its RunResult; a job the
 *  executor could not run (after its retries) throws, as a sandbox that cannot start does. */
export function executorSandbox(executor: Executor): Sandbox {
  return {
    name: executor.containment,
    async run(command, options) {
      const job = jobOf(`run-${process.pid}-${++runs}`, command, options);
      const [r] = await executor.submit([job]).results();
      if (r!.status !== "done" || !r!.run) throw new Error(`${executor.name} executor: job ${r!.status}: ${r!.error ?? "no result"}`);
      return r!.run satisfies RunResult;
    },
    check: () => executor.check(),
  };
}
