/**
 * What every executor shares: validating a batch, a concurrency limit, re-running lost attempts,
 * cancelling, per-job status, and streaming results. An executor supplies one function that runs
 * one attempt of one job (throwing LostJobError when the attempt was lost, not run).
 */
import type { LimitFunction } from "p-limit";
import type { RunResult } from "../sandbox/index.js";
import { JobSpec, type Batch, type JobNetwork, type JobResult, type JobSpecInput, type JobState, type LostAttempt, type SubmitOptions } from "./types.js";

/** The attempt never produced a result (its node went away, the engine dropped it): run it again. */
export class LostJobError extends Error {
  constructor(message: string, readonly node: string | null = null) {
    super(message);
    this.name = "LostJobError";
  }
}

export interface AttemptContext {
  job: JobSpec;
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborted when the batch is cancelled: stop the attempt and return (or throw) promptly. */
  signal: AbortSignal;
  /** Records where the attempt runs (shown by Batch.status). */
  setNode(node: string | null): void;
}

export type RunAttempt = (ctx: AttemptContext) => Promise<RunResult>;

/** Parses a batch's job specs, naming the job and field of the first bad one. */
export function parseJobs(jobs: JobSpecInput[]): JobSpec[] {
  const seen = new Set<string>();
  return jobs.map((j, i) => {
    const r = JobSpec.safeParse(j);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      const id = typeof (j as { id?: unknown })?.id === "string" ? ` (${(j as { id: string }).id})` : "";
      throw new Error(`jobs[${i}]${id}.${issue.path.join(".") || "(root)"}: ${issue.message}`);
    }
    if (seen.has(r.data.id)) throw new Error(`jobs[${i}].id: "${r.data.id}" appears twice in the batch`);
    seen.add(r.data.id);
    return r.data;
  });
}

/** Runs a batch: each job through `limit`, lost attempts re-run up to job.retries times. A job
 *  asking for a network the executor cannot give (`networks`, default none only) fails at once. */
export function runBatch(jobsIn: JobSpecInput[], runAttempt: RunAttempt, opts: SubmitOptions & { limit: LimitFunction; networks?: readonly JobNetwork[] }): Batch {
  const jobs = parseJobs(jobsIn);
  const t0 = performance.now();
  const controller = new AbortController();
  let cancelReason = "cancelled";
  const onAbort = () => void batch.cancel("the caller's signal was aborted");
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const states = new Map<string, JobState>(jobs.map((j) => [j.id, { id: j.id, status: "queued", attempts: 0, node: null, lost: [] }]));
  const finished: JobResult[] = [];
  let waiters: (() => void)[] = [];
  const wake = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };

  const finish = (job: JobSpec, r: Omit<JobResult, "id" | "attempts" | "node" | "lost" | "latencyMs">): JobResult => {
    const s = states.get(job.id)!;
    s.status = r.status;
    const result: JobResult = { id: job.id, ...r, attempts: s.attempts, node: s.node, lost: [...s.lost], latencyMs: performance.now() - t0 };
    finished.push(result);
    try {
      opts.onResult?.(result);
    } finally {
      wake();
    }
    return result;
  };

  const runOne = async (job: JobSpec): Promise<JobResult> => {
    const s = states.get(job.id)!;
    const networks = opts.networks ?? ["none"];
    if (!networks.includes(job.network)) return finish(job, { status: "failed", run: null, error: `network "${job.network}": this executor gives its jobs only ${networks.join(" or ")}` });
    for (;;) {
      if (controller.signal.aborted) return finish(job, { status: "cancelled", run: null, error: cancelReason });
      s.status = "running";
      s.attempts++;
      try {
        const run = await runAttempt({ job, attempt: s.attempts, signal: controller.signal, setNode: (n) => void (s.node = n) });
        if (controller.signal.aborted) return finish(job, { status: "cancelled", run, error: cancelReason });
        return finish(job, { status: "done", run, error: null });
      } catch (e) {
        if (controller.signal.aborted) return finish(job, { status: "cancelled", run: null, error: cancelReason });
        const err = e as Error;
        if (!(err instanceof LostJobError)) return finish(job, { status: "failed", run: null, error: err.message });
        const lost: LostAttempt = { node: err.node ?? s.node, why: err.message };
        s.lost.push(lost);
        if (s.attempts > job.retries) return finish(job, { status: "failed", run: null, error: `lost ${s.attempts} time(s); last: ${err.message}` });
        s.status = "queued";
      }
    }
  };

  const all = Promise.all(jobs.map((j) => opts.limit(() => runOne(j)))).finally(() => opts.signal?.removeEventListener("abort", onAbort));
  // Results are also read through the iterator; an unobserved rejection must not crash the process.
  all.catch(() => {});

  const batch: Batch = {
    jobIds: jobs.map((j) => j.id),
    status(id) {
      const s = states.get(id);
      if (!s) throw new Error(`no job "${id}" in this batch`);
      return { ...s, lost: [...s.lost] };
    },
    statuses: () => jobs.map((j) => batch.status(j.id)),
    async cancel(reason = "cancelled") {
      if (!controller.signal.aborted) {
        cancelReason = reason;
        controller.abort();
      }
      await all.catch(() => {});
    },
    async results() {
      const byId = new Map((await all).map((r) => [r.id, r]));
      return jobs.map((j) => byId.get(j.id)!);
    },
    async *[Symbol.asyncIterator]() {
      let next = 0;
      while (next < jobs.length) {
        if (next < finished.length) {
          yield finished[next++]!;
          continue;
        }
        await new Promise<void>((res) => waiters.push(res));
      }
    },
  };
  return batch;
}

/** The batches an executor has submitted and not yet settled: tracked until their results are in,
 *  all cancelled when the executor closes. */
export class OpenBatches {
  private readonly open = new Set<Batch>();

  track(batch: Batch): Batch {
    this.open.add(batch);
    void batch.results().finally(() => this.open.delete(batch)).catch(() => {});
    return batch;
  }

  async cancelAll(why = "the executor was closed"): Promise<void> {
    await Promise.all([...this.open].map((b) => b.cancel(why)));
  }
}
