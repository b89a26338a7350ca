/**
 * The generation queue of one served model: requests run one batch at a time (the sampler is
 * synchronous and the cores are shared). When a batch starts, waiting requests that share the first
 * one's batch key — unseeded, same sampler settings — join it, up to `maxBatchRows` rows, and run as
 * ONE call of the sampler: measured ×1.7–2.8 the tokens/s of one request at a time (bench serve). A
 * seeded request always runs alone, so its answer never depends on its neighbours.
 */
import type { GenerationPlan, ServedModel } from "./model.js";

interface Job {
  plan: GenerationPlan<unknown>;
  resolve: (answer: unknown) => void;
  reject: (e: unknown) => void;
}

export class GenerationQueue {
  private readonly waitingJobs: Job[] = [];
  private runningJobs = 0;
  private draining = false;
  /** Batches run, and how many of them held more than one request. */
  readonly counts = { batches: 0, merged_batches: 0 };

  constructor(
    private readonly model: ServedModel,
    private readonly opts: { maxBatchRows: number; beforeBatch: () => Promise<void>; onBatch?: (rows: number) => void },
  ) {}

  /** Requests in the batch being generated. */
  get running(): number {
    return this.runningJobs;
  }

  get waiting(): number {
    return this.waitingJobs.length;
  }

  submit<A>(plan: GenerationPlan<A>): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      this.waitingJobs.push({ plan, resolve: resolve as (a: unknown) => void, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.waitingJobs.length) {
        await this.opts.beforeBatch(); // lets waiting requests in, so they can join this batch
        const batch = this.take();
        this.runningJobs = batch.length;
        this.counts.batches++;
        if (batch.length > 1) this.counts.merged_batches++;
        this.opts.onBatch?.(batch.length);
        try {
          const answers = this.model.runBatch(batch.map((j) => j.plan));
          batch.forEach((j, i) => j.resolve(answers[i]));
        } catch (e) {
          for (const j of batch) j.reject(e);
        }
        this.runningJobs = 0;
      }
    } finally {
      this.draining = false;
    }
  }

  /** The first waiting job, and the waiting jobs that may share its batch (in arrival order). */
  private take(): Job[] {
    const first = this.waitingJobs.shift()!;
    const key = first.plan.batchKey;
    if (key === null) return [first];
    const batch = [first];
    let rows = first.plan.rows.length;
    for (let i = 0; i < this.waitingJobs.length; ) {
      const j = this.waitingJobs[i]!;
      if (j.plan.batchKey === key && rows + j.plan.rows.length <= this.opts.maxBatchRows) {
        batch.push(j);
        rows += j.plan.rows.length;
        this.waitingJobs.splice(i, 1);
      } else i++;
    }
    return batch;
  }
}
