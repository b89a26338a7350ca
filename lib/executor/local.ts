/**
 * `local`: today's pool on this host: every job is a run of the local sandbox (bubblewrap, or
 * Docker), at most `concurrency` at once. A run that throws (the sandbox could not start it) is a
 * lost attempt and is retried; a command that ran and failed is a result. Cancelling stops queued
 * jobs; a job already running finishes (within its own timeout) and is reported cancelled.
 */
import { cpus } from "node:os";
import pLimit, { type LimitFunction } from "p-limit";
import { getSandbox, type Sandbox, type SandboxChoice } from "../sandbox/index.js";
import { LostJobError, OpenBatches, runBatch } from "./batch.js";
import { executorSandbox, runOptionsOf } from "./sandbox.js";
import type { Batch, Executor, ExecutorCheck, JobSpecInput, SubmitOptions } from "./types.js";

export interface LocalExecutorOptions {
  /** Jobs run at once (default: the number of CPUs, at least 2). */
  concurrency?: number;
  /** Share another executor's limit (a sibling over a task's dependency image counts against it). */
  limit?: LimitFunction;
}

export class LocalExecutor implements Executor {
  readonly name = "local" as const;
  readonly limit: LimitFunction;
  constructor(readonly sandbox: Sandbox, readonly opts: LocalExecutorOptions = {}) {
    this.limit = opts.limit ?? pLimit(opts.concurrency ?? Math.max(2, cpus().length));
  }
  get containment() {
    return this.sandbox.name;
  }

  check(): Promise<ExecutorCheck> {
    return this.sandbox.check();
  }

  private readonly open = new OpenBatches();

  submit(jobs: JobSpecInput[], opts: SubmitOptions = {}): Batch {
    const batch = runBatch(jobs, async ({ job, setNode }) => {
      setNode("local");
      try {
        return await this.sandbox.run(job.command, runOptionsOf(job));
      } catch (e) {
        throw new LostJobError(`${this.sandbox.name} could not run it: ${(e as Error).message}`, "local");
      }
    }, { ...opts, limit: this.limit });
    return this.open.track(batch);
  }

  asSandbox(): Sandbox {
    const inner = this.sandbox;
    // (its runs are the sandbox's: as slow as they are there)
    const own = { ...executorSandbox(this), ...(inner.slowdown ? { slowdown: inner.slowdown } : {}) };
    if (!inner.withTaskDeps) return own;
    // A task's dependencies (Docker: an image with them): the same executor over that sandbox, in
    // the same limit, so grading through the executor runs where grading in the sandbox would.
    return {
      ...own,
      withTaskDeps: async (requirements: string[]) => {
        const r = await inner.withTaskDeps!(requirements);
        return { missing: r.missing, sandbox: r.sandbox === inner ? this.asSandbox() : new LocalExecutor(r.sandbox, { ...this.opts, limit: this.limit }).asSandbox() };
      },
    };
  }

  async close(): Promise<void> {
    await this.open.cancelAll();
  }
}

/** The local executor over a sandbox choice ("auto": bubblewrap where it works, else Docker). */
export async function openLocalExecutor(opts: LocalExecutorOptions & { sandbox?: SandboxChoice | Sandbox } = {}): Promise<LocalExecutor> {
  const sb = typeof opts.sandbox === "object" ? opts.sandbox : await getSandbox(opts.sandbox ?? "auto");
  return new LocalExecutor(sb, opts);
}
