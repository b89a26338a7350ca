/**
 * Jobs and sandbox runs are the same thing seen from two sides: a job is a Sandbox.run call with a
 * name. These convert between them, and turn any executor into a `Sandbox` (so the ONE pytest
 * runner, lib/sandbox runPytest, runs on every executor unchanged).
 */
import { RunOptions, type RunResult, type Sandbox } from "../sandbox/index.js";
import { JobSpec, type Executor, type JobSpecInput } from "./types.js";

/** A job's fields as lib/sandbox RunOptions (what a local sandbox's run() takes). */
export function runOptionsOf(job: JobSpec): RunOptions {
  const binds = (mode: "ro" | "rw") => Object.fromEntries(job.mounts.filter((m) => m.mode === mode).map((m) => [m.host, m.inside]));
  return {
    workdir: job.workdir, workdirReadOnly: job.workdirReadOnly, env: job.env, stdin: job.stdin,
    scratchWorkdir: job.scratchWorkdir, protectPaths: job.protectPaths, masks: job.masks,
    hostname: job.hostname, user: job.user, procFiles: job.procFiles, cpuRlimit: job.cpuRlimit,
    roBinds: binds("ro"), rwBinds: binds("rw"), ...job.limits,
  };
}

/** A Sandbox.run call as a job. */
export function jobOf(id: string, command: string | string[], options: RunOptions): JobSpec {
  const o = RunOptions.parse(options);
  return JobSpec.parse({
    id, command, workdir: o.workdir, workdirReadOnly: o.workdirReadOnly, env: o.env, stdin: o.stdin,
    scratchWorkdir: o.scratchWorkdir, protectPaths: o.protectPaths, masks: o.masks,
    hostname: o.hostname, user: o.user, procFiles: o.procFiles, cpuRlimit: o.cpuRlimit,
    mounts: [
      ...Object.entries(o.roBinds).map(([host, inside]) => ({ host, inside, mode: "ro" as const })),
      ...Object.entries(o.rwBinds).map(([host, inside]) => ({ host, inside, mode: "rw" as const })),
    ],
    limits: { timeoutMs: o.timeoutMs, memoryMb: o.memoryMb, cpus: o.cpus, pids: o.pids, diskMb: o.diskMb, maxOutputBytes: o.maxOutputBytes },
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
