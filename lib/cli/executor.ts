/**
 * How every command that takes `--executor` opens one: withExecutor opens it, hands the command an
 * executor whose results are tallied by node (what the command reports about where its jobs ran),
 * and closes it (cancelling its batches: queued Slurm array tasks, swarm services) when the
 * command returns, throws, or the process is interrupted.
 */
import { z } from "zod";
import { ExecutorName, executorSandbox, openExecutor, type Executor, type JobResult, type OpenExecutorOptions } from "../executor/index.js";
import type { Sandbox } from "../sandbox/index.js";
import { log } from "./output.js";

/** Where a command's jobs ran: counts of results (by status) and of finished jobs per node. */
export const ExecutorTally = z.object({
  executor: ExecutorName,
  jobs: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  /** Jobs run again after the executor lost an attempt (a node went away). */
  rerun: z.number().int(),
  /** Results per node the job last ran on ("local" for this host's pool). */
  nodes: z.record(z.number().int()),
});
export type ExecutorTally = z.infer<typeof ExecutorTally>;

/** An executor whose every result is counted (tally()); its Sandbox face submits through the count. */
export function tallied(inner: Executor): Executor & { tally(): ExecutorTally } {
  const t: ExecutorTally = { executor: inner.name, jobs: 0, done: 0, failed: 0, cancelled: 0, rerun: 0, nodes: {} };
  const count = (r: JobResult) => {
    t.jobs++;
    t[r.status]++;
    if (r.lost.length) t.rerun++;
    const node = r.node ?? "none";
    t.nodes[node] = (t.nodes[node] ?? 0) + 1;
  };
  const ex: Executor & { tally(): ExecutorTally } = {
    name: inner.name,
    containment: inner.containment,
    check: () => inner.check(),
    submit: (jobs, opts = {}) => inner.submit(jobs, { ...opts, onResult: (r) => (count(r), opts.onResult?.(r)) }),
    asSandbox: () => {
      // a task's dependency image (Docker) comes from the inner executor's face (its limit); its
      // runs are counted here as the executor's own jobs
      const deps = inner.asSandbox().withTaskDeps;
      if (!deps) return executorSandbox(ex);
      const counted = (sb: Sandbox): Sandbox => ({
        ...sb,
        run: async (command, options) => {
          try {
            const r = await sb.run(command, options);
            count({ status: "done", lost: [], node: inner.name } as unknown as JobResult);
            return r;
          } catch (e) {
            count({ status: "failed", lost: [], node: inner.name } as unknown as JobResult);
            throw e;
          }
        },
      });
      return { ...executorSandbox(ex), withTaskDeps: async (reqs: string[]) => {
        const r = await deps(reqs);
        return { ...r, sandbox: counted(r.sandbox) };
      } };
    },
    close: () => inner.close(),
    tally: () => ExecutorTally.parse(structuredClone(t)),
  };
  return ex;
}

/** "slurm: 12 sandbox runs (node1 7, node2 5)": a command's line about where its jobs ran. */
export const tallyText = (t: ExecutorTally): string =>
  `${t.executor}: ${t.jobs} sandbox runs (${Object.entries(t.nodes).map(([n, k]) => `${n} ${k}`).join(", ") || "none"}${t.rerun ? `; ${t.rerun} re-run after a lost node` : ""})`;

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** How long an interrupted command waits for the executor to cancel its jobs before it dies anyway. */
const CLOSE_ON_SIGNAL_MS = 30_000;

/**
 * Runs `fn` on the executor `name` (`--executor`), then closes it. An unknown name is refused
 * naming the known ones. On SIGINT/SIGTERM/SIGHUP the executor is closed first (so no cluster job
 * outlives the command), then the signal is raised again.
 */
export async function withExecutor<T>(name: string, opts: OpenExecutorOptions, fn: (executor: Executor & { tally(): ExecutorTally }) => Promise<T>): Promise<T> {
  const known = ExecutorName.safeParse(name);
  if (!known.success) throw new Error(`--executor ${name}: unknown executor (one of ${ExecutorName.options.join(", ")})`);
  const ex = tallied(await openExecutor(known.data, opts));
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= ex.close());
  const onSignal = (sig: NodeJS.Signals) => {
    const reraise = () => {
      for (const s of SIGNALS) process.off(s, onSignal);
      process.kill(process.pid, sig);
    };
    if (closing) return reraise(); // a second signal: do not wait any more
    log(`${sig}: closing the ${name} executor (cancelling its jobs)`);
    void Promise.race([close(), new Promise((r) => setTimeout(r, CLOSE_ON_SIGNAL_MS).unref())]).finally(reraise);
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    return await fn(ex);
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
    await close();
  }
}
