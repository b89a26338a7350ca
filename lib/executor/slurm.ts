/**
 * `slurm`: jobs as Slurm job-array tasks, driven through Slurm's own commands (sbatch, squeue,
 * scancel, sinfo). Jobs submitted together (within `gatherMs`) become one array; array task i
 * (SLURM_ARRAY_TASK_ID) runs job i on whichever node Slurm picks, through `composer-lab slurm-task`
 * on that node, which runs the job in the lab's local sandbox (bubblewrap as the unprivileged
 * sandbox user: the same containment, limits and sanitizing as the local executor). Job specs and
 * results travel through a folder every node sees at the same path (a shared filesystem; here the
 * local cluster's state folder).
 *
 * Lost attempts (a task whose node stopped responding or went down, a task Slurm requeued, one
 * that ended without writing a result, one running far past its timeout) are cancelled in Slurm
 * and re-run as a new array task elsewhere, up to the job's retries: Slurm's own requeue waits for
 * the node to be declared DOWN; this notices a node that stopped answering earlier.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { z } from "zod";
import pLimit, { type LimitFunction } from "p-limit";
import { projectRoot, scratchDir } from "../core/index.js";
import { BwrapSandbox, RunResult, killRunCgroupsOf, type Sandbox } from "../sandbox/index.js";
import { LostJobError, OpenBatches, runBatch, type AttemptContext } from "./batch.js";
import { executorSandbox, runOptionsOf } from "./sandbox.js";
import { SLURM_PARTITION, SlurmCluster, defaultSlurmDir, missingBinaries, processTree } from "./slurm-cluster.js";
import { JobSpec, type Batch, type Executor, type ExecutorCheck, type JobSpecInput, type SubmitOptions } from "./types.js";

const execFileP = promisify(execFile);

/** One array's job list (jobs.json in its folder): array task i runs the jobs of tasks[i], one
 *  after the other; job k's result goes to results/<k>.json. */
export const SlurmArrayFile = z.object({
  tasks: z.array(z.object({ jobs: z.array(z.object({ index: z.number().int().min(0), job: JobSpec, attempt: z.number().int().positive() })).min(1) })).min(1),
});
export type SlurmArrayFile = z.infer<typeof SlurmArrayFile>;

/** What a task writes to results/<i>.json: the sandbox's result, or why it could not run. */
export const SlurmTaskResult = z.object({
  index: z.number().int().min(0),
  node: z.string(),
  run: RunResult.nullable(),
  error: z.string().nullable(),
});
export type SlurmTaskResult = z.infer<typeof SlurmTaskResult>;

/** Slurm job states after which a task will not write a result any more. */
const ENDED = new Set(["PURGED", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "PREEMPTED", "REVOKED", "SPECIAL_EXIT"]);
/** How long past its own timeout a running task may go without a result before it counts as lost. */
const OVERRUN_MS = 120_000;

export interface SlurmExecutorOptions {
  /** The cluster's slurm.conf (default: the local cluster's when `cluster up --engine slurm` ran,
   *  else $SLURM_CONF, else Slurm's own default). */
  conf?: string;
  /** A folder every node sees at the same path, for job specs and results (default: the local
   *  cluster's shared folder, else scratch/slurm-shared). */
  sharedDir?: string;
  partition?: string;
  /** How often squeue/sinfo and the results folder are read (ms). */
  pollMs?: number;
  /** Jobs submitted within this window go into one array (ms). */
  gatherMs?: number;
  /** Jobs each array task runs one after the other. "auto" (the default): about four tasks per
   *  CPU slot of the partition, so a node process starts once per few jobs, not once per job
   *  (it costs ≈ 1-2 s of CPU), while a lost node still takes few jobs with it. */
  jobsPerTask?: number | "auto";
  /** Jobs in flight at once (default: unlimited in practice; Slurm queues them). */
  concurrency?: number;
}

interface Waiter {
  /** The job's index in the array's results/, and the array task that runs it. */
  index: number;
  task: number;
  ctx: AttemptContext;
  resolve: (r: RunResult) => void;
  reject: (e: Error) => void;
  settled: boolean;
  /** The node Slurm last ran it on, and when it was first seen running. */
  node: string | null;
  runningSince: number | null;
  /** Polls in a row the task was seen ended (or absent) with no result file. */
  missing: number;
}

interface SlurmArray {
  id: string;
  dir: string;
  submittedAt: number;
  waiters: Waiter[];
}

export class SlurmExecutor implements Executor {
  readonly name = "slurm" as const;
  readonly containment = "bwrap" as const;
  readonly limit: LimitFunction;
  readonly conf: string | undefined;
  readonly root: string;
  private readonly pollMs: number;
  private readonly gatherMs: number;
  private readonly partition: string;
  private readonly jobsPerTask: number | "auto";
  private gathering: { job: JobSpec; waiter: Omit<Waiter, "index" | "task"> }[] = [];
  private gatherTimer: NodeJS.Timeout | null = null;
  private readonly arrays = new Map<string, SlurmArray>();
  private pollTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly open = new OpenBatches();
  private closed = false;
  /** Attempts not yet settled, by their batch's signal (one abort listener per batch). */
  private readonly bySignal = new Map<AbortSignal, Set<Waiter>>();

  constructor(opts: SlurmExecutorOptions = {}) {
    const local = new SlurmCluster({ dir: defaultSlurmDir() });
    const localUp = existsSync(local.conf);
    this.conf = opts.conf ?? (localUp ? local.conf : process.env.SLURM_CONF);
    const shared = opts.sharedDir ?? (localUp && !opts.conf ? local.sharedDir : scratchDir("slurm-shared"));
    this.root = join(resolve(shared), `exec-${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`);
    this.pollMs = opts.pollMs ?? 300;
    this.gatherMs = opts.gatherMs ?? 25;
    this.partition = opts.partition ?? SLURM_PARTITION;
    this.jobsPerTask = opts.jobsPerTask ?? "auto";
    if (this.jobsPerTask !== "auto" && !(Number.isInteger(this.jobsPerTask) && this.jobsPerTask >= 1)) throw new Error(`jobsPerTask ${this.jobsPerTask}: a whole number ≥ 1, or "auto"`);
    this.limit = pLimit(opts.concurrency ?? 100_000);
  }

  /** The executor for a local cluster (`cluster up --engine slurm`) in `dir`. */
  static forCluster(cluster: SlurmCluster, opts: Omit<SlurmExecutorOptions, "conf" | "sharedDir"> = {}): SlurmExecutor {
    return new SlurmExecutor({ ...opts, conf: cluster.conf, sharedDir: cluster.sharedDir });
  }

  private env(): NodeJS.ProcessEnv {
    const e: NodeJS.ProcessEnv = { ...process.env };
    if (this.conf) e.SLURM_CONF = this.conf;
    return e;
  }

  private async slurm(cmd: string, args: string[]): Promise<string> {
    return (await execFileP(cmd, args, { env: this.env(), maxBuffer: 64 * 2 ** 20 })).stdout;
  }

  async check(): Promise<ExecutorCheck> {
    const missing = await missingBinaries();
    if (missing.length) return { ok: false, why: `Slurm client commands not found: ${missing.join(", ")} (apt-get install slurm-wlm munge)` };
    try {
      const ping = await this.slurm("scontrol", ["ping"]);
      if (!/UP/.test(ping)) return { ok: false, why: `slurmctld is not up: ${ping.trim()}` };
      const nodes = (await this.slurm("sinfo", ["-h", "-N", "-p", this.partition, "-o", "%N %t"])).trim();
      if (!nodes) return { ok: false, why: `no nodes in partition ${this.partition}` };
      const sb = await new BwrapSandbox().check();
      if (!sb.ok) return { ok: false, why: `the nodes' sandbox (bubblewrap) does not work: ${sb.why}` };
      return { ok: true, why: null, detail: { conf: this.conf ?? null, partition: this.partition, nodes: nodes.split("\n"), shared: this.root } };
    } catch (e) {
      return { ok: false, why: `Slurm does not answer (conf ${this.conf ?? "Slurm's default"}): ${(e as Error).message.split("\n")[0]}` };
    }
  }

  submit(jobs: JobSpecInput[], opts: SubmitOptions = {}): Batch {
    if (this.closed) throw new Error("the slurm executor was closed");
    const batch = runBatch(jobs, (ctx) => this.attempt(ctx), { ...opts, limit: this.limit });
    return this.open.track(batch);
  }

  asSandbox(): Sandbox {
    return executorSandbox(this);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.open.cancelAll();
    if (this.pollTimer) clearTimeout(this.pollTimer);
    rmSync(this.root, { recursive: true, force: true });
  }

  /** One attempt: joins the array being gathered; settles when its result file appears. */
  private attempt(ctx: AttemptContext): Promise<RunResult> {
    return new Promise<RunResult>((resolve, reject) => {
      const waiter = { ctx, resolve, reject, settled: false, node: null, runningSince: null, missing: 0 };
      this.gathering.push({ job: ctx.job, waiter });
      let set = this.bySignal.get(ctx.signal);
      if (!set) {
        const mine = new Set<Waiter>();
        set = mine;
        this.bySignal.set(ctx.signal, mine);
        ctx.signal.addEventListener("abort", () => void this.cancelAll(mine), { once: true });
      }
      set.add(waiter as Waiter);
      if (!this.gatherTimer) this.gatherTimer = setTimeout(() => void this.flush(), this.gatherMs);
    });
  }

  private settle(w: Waiter, r: { run?: RunResult; error?: Error }): void {
    if (w.settled) return;
    w.settled = true;
    const set = this.bySignal.get(w.ctx.signal);
    set?.delete(w);
    if (set?.size === 0 && !w.ctx.signal.aborted) this.bySignal.delete(w.ctx.signal);
    if (r.run) w.resolve(r.run);
    else w.reject(r.error!);
  }

  /** A batch was cancelled: scancel its tasks (whole tasks: they never mix batches). */
  private async cancelAll(waiters: Set<Waiter>): Promise<void> {
    const ws = [...waiters];
    const tasks = new Set<string>();
    for (const a of this.arrays.values()) for (const w of a.waiters) if (waiters.has(w) && !w.settled) tasks.add(`${a.id}_${w.task}`);
    if (tasks.size) await this.slurm("scancel", [...tasks]).catch(() => "");
    for (const w of ws) this.settle(w, { error: new Error("cancelled") });
  }

  /** CPU slots of the partition (for the "auto" task size). */
  private async slots(): Promise<number> {
    const out = await this.slurm("sinfo", ["-h", "-p", this.partition, "-o", "%C"]).catch(() => "");
    const total = Number(out.trim().split("/")[3]);
    return Number.isInteger(total) && total > 0 ? total : 1;
  }

  /** Splits gathered jobs into array tasks: never two batches in one task (cancel is per batch). */
  private async plan(items: { job: JobSpec; waiter: { ctx: AttemptContext } }[]): Promise<number[][]> {
    const per = this.jobsPerTask === "auto" ? Math.max(1, Math.ceil(items.length / (4 * (await this.slots())))) : this.jobsPerTask;
    const bySignal = new Map<AbortSignal, number[]>();
    items.forEach((g, i) => bySignal.set(g.waiter.ctx.signal, [...(bySignal.get(g.waiter.ctx.signal) ?? []), i]));
    const tasks: number[][] = [];
    for (const idx of bySignal.values()) for (let k = 0; k < idx.length; k += per) tasks.push(idx.slice(k, k + per));
    return tasks;
  }

  /** Submits what was gathered as one job array. */
  private async flush(): Promise<void> {
    this.gatherTimer = null;
    const items = this.gathering.filter((g) => !g.waiter.ctx.signal.aborted);
    this.gathering = [];
    if (!items.length) return;
    const dir = join(this.root, `array-${Date.now()}-${randomBytes(3).toString("hex")}`);
    const waiters: Waiter[] = items.map((g, index) => Object.assign(g.waiter, { index, task: -1 }));
    try {
      const tasks = await this.plan(items);
      tasks.forEach((idx, t) => idx.forEach((i) => (waiters[i]!.task = t)));
      mkdirSync(join(dir, "results"), { recursive: true, mode: 0o700 });
      mkdirSync(join(dir, "logs"), { mode: 0o700 });
      const file: SlurmArrayFile = { tasks: tasks.map((idx) => ({ jobs: idx.map((i) => ({ index: i, job: items[i]!.job, attempt: items[i]!.waiter.ctx.attempt })) })) };
      writeFileSync(join(dir, "jobs.json"), JSON.stringify(file), { mode: 0o600 });
      const script = join(dir, "task.sh");
      // bin/composer-lab.js picks the compiled library when it is fresh, else the sources
      writeFileSync(script, `#!/bin/sh\nexec ${shq(process.execPath)} ${shq(join(projectRoot(), "bin", "composer-lab.js"))} slurm-task ${shq(dir)} "$SLURM_ARRAY_TASK_ID"\n`, { mode: 0o700 });
      const taskMs = Math.max(...tasks.map((idx) => idx.reduce((a, i) => a + items[i]!.job.limits.timeoutMs, 0)));
      const cpusPerTask = Math.max(1, Math.ceil(Math.max(...items.map((g) => g.job.limits.cpus))));
      const args = [
        "--parsable", `--array=0-${tasks.length - 1}`, `--partition=${this.partition}`, "--job-name=composer-lab",
        `--output=${join(dir, "logs", "%a.out")}`, "--no-requeue", `--cpus-per-task=${cpusPerTask}`,
        // Slurm's own backstop, in whole minutes: the sandbox enforces each job's timeout itself
        `--time=${Math.ceil((taskMs + OVERRUN_MS) / 60_000) + 1}`, "--chdir=/", script,
      ];
      const out = await this.slurm("sbatch", args);
      const id = out.trim().split(";")[0]!;
      if (!/^\d+$/.test(id)) throw new Error(`sbatch printed ${JSON.stringify(out.trim())}, not a job id`);
      this.arrays.set(id, { id, dir, submittedAt: Date.now(), waiters });
      this.schedulePoll();
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      for (const w of waiters) this.settle(w, { error: new LostJobError(`sbatch failed: ${(e as Error).message.split("\n").slice(0, 3).join(" ")}`) });
    }
  }

  private schedulePoll(): void {
    if (this.pollTimer || this.polling || this.arrays.size === 0) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      this.polling = true;
      void this.poll().catch(() => {}).finally(() => {
        this.polling = false;
        this.schedulePoll();
      });
    }, this.pollMs);
  }

  /** Reads results and Slurm's view of every open array; settles what finished or was lost. */
  private async poll(): Promise<void> {
    for (const a of this.arrays.values()) this.collect(a);
    const open = [...this.arrays.values()].filter((a) => a.waiters.some((w) => !w.settled));
    if (open.length) {
      const [queue, nodes] = await Promise.all([
        this.slurm("squeue", ["-h", "-r", "-t", "all", "-o", "%i|%T|%N", "-j", open.map((a) => a.id).join(",")]).catch(() => null),
        this.slurm("sinfo", ["-h", "-N", "-o", "%N|%t"]).catch(() => null),
      ]);
      if (queue !== null && nodes !== null) {
        // results written between the first read and squeue's answer are not "missing"
        for (const a of open) this.collect(a);
        this.judge(open, parseQueue(queue), parseNodes(nodes));
      }
    }
    for (const [id, a] of this.arrays) {
      if (a.waiters.every((w) => w.settled)) {
        this.arrays.delete(id);
        rmSync(a.dir, { recursive: true, force: true });
      }
    }
  }

  private collect(a: SlurmArray): void {
    let names: string[];
    try {
      names = readdirSync(join(a.dir, "results"));
    } catch {
      return;
    }
    for (const n of names) {
      const m = n.match(/^(\d+)\.json$/);
      const w = m ? a.waiters[Number(m[1])] : undefined;
      if (!w || w.settled) continue;
      let r: SlurmTaskResult;
      try {
        r = SlurmTaskResult.parse(JSON.parse(readFileSync(join(a.dir, "results", n), "utf8")));
      } catch (e) {
        this.settle(w, { error: new LostJobError(`task ${a.id}_${w.index} wrote an unreadable result: ${(e as Error).message}`, w.node) });
        continue;
      }
      w.ctx.setNode(r.node);
      if (r.run) this.settle(w, { run: r.run });
      else this.settle(w, { error: new LostJobError(`the sandbox on ${r.node} could not run it: ${r.error}`, r.node) });
    }
  }

  /** The sum of the timeouts of task t's jobs (they run one after the other). */
  private taskBudgetMs(a: SlurmArray, t: number): number {
    return a.waiters.filter((w) => w.task === t).reduce((sum, w) => sum + w.ctx.job.limits.timeoutMs, 0);
  }

  private judge(open: SlurmArray[], queue: Map<string, { state: string; node: string }>, nodes: Map<string, string>): void {
    const now = Date.now();
    const lose = (a: SlurmArray, w: Waiter, why: string, cancel: boolean) => {
      // a task's jobs that already wrote results keep them; the rest are re-run elsewhere
      if (cancel) void this.slurm("scancel", [`${a.id}_${w.task}`]).catch(() => "");
      this.settle(w, { error: new LostJobError(`slurm task ${a.id}_${w.task}: ${why}`, w.node) });
    };
    for (const a of open) {
      for (const w of a.waiters) {
        if (w.settled) continue;
        const q = queue.get(`${a.id}_${w.task}`);
        if (!q) {
          // not listed: not yet visible right after sbatch, or purged long after it ended
          if (now - a.submittedAt > 30_000 && ++w.missing >= 3) lose(a, w, "Slurm no longer lists it and it wrote no result", false);
          continue;
        }
        if (q.node && q.node !== "(null)") {
          if (w.node !== q.node) w.ctx.setNode(q.node);
          w.node = q.node;
        }
        const nodeState = w.node ? nodes.get(w.node) : undefined;
        if (q.state === "RUNNING" || q.state === "COMPLETING") {
          w.runningSince ??= now;
          // '*': the node stopped answering; down/drain/fail: it was taken away
          if (nodeState && (/\*$/.test(nodeState) || /^(down|drain|fail)/.test(nodeState))) lose(a, w, `its node ${w.node} is ${nodeState}`, true);
          else if (now - w.runningSince > this.taskBudgetMs(a, w.task) + OVERRUN_MS) lose(a, w, `no result ${OVERRUN_MS / 1000} s past its jobs' timeouts`, true);
        } else if (q.state === "PENDING" && w.runningSince !== null) {
          lose(a, w, `Slurm requeued it after its node ${w.node} failed`, true);
        } else if (ENDED.has(q.state)) {
          // the result file may land a moment after Slurm calls the task ended
          if (++w.missing >= 3) lose(a, w, `ended ${q.state} without writing a result`, false);
        }
      }
    }
  }
}

const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function parseQueue(out: string): Map<string, { state: string; node: string }> {
  const m = new Map<string, { state: string; node: string }>();
  for (const line of out.split("\n")) {
    const [id, state, node] = line.trim().split("|");
    if (id && state) m.set(id, { state, node: node ?? "" });
  }
  return m;
}

function parseNodes(out: string): Map<string, string> {
  return new Map(out.split("\n").map((l) => l.trim().split("|") as [string, string]).filter(([n, s]) => n && s));
}

/**
 * The node side (`composer-lab slurm-task <dir> <task>`): runs the jobs of array task `task` of the
 * array in `dir`, one after the other, in the local sandbox; each result goes to
 * results/<index>.json (write-then-rename: the submitter never reads half a file). A job whose
 * result is already there (a re-run task) is skipped. Throws only when jobs.json is unreadable.
 */
let terminating = false;

/**
 * On SIGTERM (scancel, a node shutting down), kill every process this task runner started, then
 * exit 143. Slurm's process tracking (proctrack/linuxproc) follows parent links, and a sandbox
 * whose runner died first is re-parented out of its reach; killing them here, while they are still
 * our descendants, leaves nothing behind (the sandbox's temp folders are removed on the way out).
 * The tree walk alone lost a run whose outer bwrap was killed while its inner process was being
 * set up (not yet dying with its parent): that one is found through its run cgroup.
 */
export function stopSandboxesOnTerm(): void {
  process.on("SIGTERM", () => {
    terminating = true;
    const sweep = () => {
      // the run groups first: they hold a sandbox's inner processes wherever the tree lost them
      killRunCgroupsOf(process.pid);
      for (const pid of processTree(process.pid).slice(1)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          /* gone */
        }
      }
    };
    sweep();
    // a sandbox being set up at this moment may spawn a little later
    setTimeout(() => {
      sweep();
      process.exit(143);
    }, 300);
  });
}

export async function runSlurmTask(dir: string, task: number, sandbox: Sandbox = new BwrapSandbox()): Promise<SlurmTaskResult[]> {
  const file = join(dir, "jobs.json");
  let parsed: SlurmArrayFile;
  try {
    parsed = SlurmArrayFile.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
  const entry = parsed.tasks[task];
  if (!entry) throw new Error(`${file}: no task ${task} (the array has ${parsed.tasks.length})`);
  const node = process.env.SLURMD_NODENAME ?? hostname();
  const results: SlurmTaskResult[] = [];
  for (const { index, job } of entry.jobs) {
    if (terminating) break;
    const out = join(dir, "results", `${index}.json`);
    if (existsSync(out)) continue;
    let result: SlurmTaskResult;
    try {
      result = { index, node, run: await sandbox.run(job.command, runOptionsOf(job)), error: null };
    } catch (e) {
      result = { index, node, run: null, error: (e as Error).message };
    }
    const tmp = `${out}.${process.pid}.partial`;
    writeFileSync(tmp, JSON.stringify(result), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, out);
    results.push(result);
  }
  return results;
}

/** The slurm executor: the local cluster's when one is up, else the cluster $SLURM_CONF names. */
export function openSlurmExecutor(opts: SlurmExecutorOptions = {}): SlurmExecutor {
  return new SlurmExecutor(opts);
}

/** The `cluster --engine slurm` engine over the default state folder. */
export function slurmClusterEngine(dir?: string): SlurmCluster {
  return new SlurmCluster({ dir });
}

export interface SlurmArrayRun {
  jobId: string;
  /** Each task's last state as Slurm reports it (COMPLETED, FAILED, CANCELLED, NODE_FAIL…). */
  tasks: { index: number; state: string; node: string }[];
}

/**
 * Runs `count` copies of one of the lab's own commands as a Slurm job array and waits for all of
 * them: copy i sees SLURM_ARRAY_TASK_ID=i (the rank). For trusted lab code that must reach the
 * network (DiLoCo ranks meeting through S3), so it runs as submitted, not in the job sandbox.
 * Environment: the submitter's (sbatch --export=ALL), so AWS_* settings reach every rank.
 */
export async function runSlurmArray(o: {
  /** argv after `composer-lab`; the literal "$SLURM_ARRAY_TASK_ID" is expanded on the node. */
  args: string[];
  count: number;
  name: string;
  conf?: string;
  partition?: string;
  /** Folder for the tasks' output (%a.out per task). */
  logDir: string;
  env?: Record<string, string>;
  pollMs?: number;
  onSubmitted?: (jobId: string) => void;
  signal?: AbortSignal;
}): Promise<SlurmArrayRun> {
  const env = { ...process.env, ...(o.conf ? { SLURM_CONF: o.conf } : {}), ...o.env };
  const sh = async (cmd: string, args: string[]) => (await execFileP(cmd, args, { env, maxBuffer: 64 * 2 ** 20 })).stdout;
  mkdirSync(o.logDir, { recursive: true });
  const argv = [process.execPath, join(projectRoot(), "bin", "composer-lab.js"), ...o.args].map((a) => (a === "$SLURM_ARRAY_TASK_ID" ? `"$SLURM_ARRAY_TASK_ID"` : shq(a)));
  const out = await sh("sbatch", ["--parsable", `--array=0-${o.count - 1}`, `--partition=${o.partition ?? SLURM_PARTITION}`, `--job-name=${o.name}`, `--output=${join(o.logDir, "%a.out")}`, "--no-requeue", "--cpus-per-task=1", "--chdir=/", `--wrap=exec ${argv.join(" ")}`]);
  const jobId = out.trim().split(";")[0]!;
  if (!/^\d+$/.test(jobId)) throw new Error(`sbatch printed ${JSON.stringify(out.trim())}, not a job id`);
  o.onSubmitted?.(jobId);
  const cancel = () => void sh("scancel", [jobId]).catch(() => "");
  o.signal?.addEventListener("abort", cancel, { once: true });
  const seen = new Map<string, { state: string; node: string }>();
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, o.pollMs ?? 500));
      const q = parseQueue(await sh("squeue", ["-h", "-r", "-t", "all", "-o", "%i|%T|%N", "-j", jobId]).catch(() => ""));
      for (const [k, v] of q) seen.set(k, v);
      // a task Slurm listed once and no longer lists ended long ago (purged after MinJobAge)
      const stateOf = (k: string) => q.get(k) ?? (seen.has(k) ? { state: ENDED.has(seen.get(k)!.state) ? seen.get(k)!.state : "PURGED", node: seen.get(k)!.node } : { state: "UNKNOWN", node: "" });
      const tasks = Array.from({ length: o.count }, (_, index) => ({ index, ...stateOf(`${jobId}_${index}`) }));
      // an array listed as one pending line ("123_[0-2]") has no per-task lines yet
      if (tasks.every((t) => ENDED.has(t.state))) return { jobId, tasks };
    }
  } finally {
    o.signal?.removeEventListener("abort", cancel);
  }
}
