/**
 * The executor layer's types: a job is one sandboxed command (mounts, limits, env, stdin); an
 * executor runs batches of them somewhere (this host's sandbox pool, a Docker Swarm, a Slurm
 * cluster) and streams each result as it finishes. The zod schemas are the types.
 */
import { z } from "zod";
import { RunOptions, RunResult, type Sandbox, type SandboxName } from "../sandbox/index.js";

export const EXECUTOR_NAMES = ["local", "swarm", "slurm"] as const;
export const ExecutorName = z.enum(EXECUTOR_NAMES);
export type ExecutorName = z.infer<typeof ExecutorName>;

/** A host folder bound into the job. On a multi-host cluster `host` must exist on every node
 *  (a shared filesystem mounted at the same path). */
export const Mount = z.object({
  host: z.string().min(1),
  inside: z.string().regex(/^\//, "an absolute path inside the sandbox"),
  mode: z.enum(["ro", "rw"]).default("ro"),
});
export type Mount = z.infer<typeof Mount>;

/** A local sandbox run's limits, with its defaults (lib/sandbox RunOptions: one home for both). */
export const JobLimits = RunOptions.pick({ timeoutMs: true, memoryMb: true, cpus: true, pids: true, diskMb: true, maxOutputBytes: true });
export type JobLimits = z.infer<typeof JobLimits>;

/** A job's network. "none": lo only, what every grading job gets. "host": the node's own network
 *  (a DiLoCo rank must reach its S3-compatible store); only executors that can give it (swarm) run
 *  such a job, the others fail it at once. Everything else about the containment stays. */
export const JobNetwork = z.enum(["none", "host"]);
export type JobNetwork = z.infer<typeof JobNetwork>;

/** The run's fields that lib/sandbox RunOptions defines and a job carries as they are: everything
 *  but the binds (a job's `mounts`) and the limits (its `limits`). Derived, not restated: a field
 *  added to RunOptions travels in every job (the run at home's cwd, accounts, tmpfs, bareEnv and
 *  nofile, restated by hand here, had been dropped: a grade through an executor ran at home with the
 *  sandbox's LANG, HOME and PATH, in /work, at the default open-file limit). What grading asks of
 *  the containment (a scratch copy of the workdir, protected paths, masked installed copies) and
 *  the machine the run sees (host name, user, /proc and /etc files, RLIMIT_CPU, the drawn
 *  deployment's working directory, accounts, home folder, environment, open-file limit): every
 *  executor applies them as its sandbox would; one whose sandbox cannot give one runs the job as
 *  its sandbox would without it. */
export const JobRun = RunOptions.omit({ roBinds: true, rwBinds: true, timeoutMs: true, memoryMb: true, cpus: true, pids: true, diskMb: true, maxOutputBytes: true });

export const JobSpec = JobRun.extend({
  /** Unique within a batch; used in engine object names and file names. */
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, "letters, digits, '_', '.', '-' (at most 63, not starting with a symbol)"),
  /** argv, or a string run by /bin/sh -c. */
  command: z.union([z.string().min(1), z.array(z.string()).min(1)]),
  /** Host folder that is the job's cwd, at /work inside. */
  workdir: z.string().min(1),
  mounts: z.array(Mount).default([]),
  limits: JobLimits.default({}),
  network: JobNetwork.default("none"),
  /** Times the job is started again after the executor LOST it (its node went away, the engine
   *  refused or dropped it, no result came back). Never for a command that ran and failed. */
  retries: z.number().int().min(0).default(2),
});
export type JobSpec = z.output<typeof JobSpec>;
export type JobSpecInput = z.input<typeof JobSpec>;

export const JobStatus = z.enum(["queued", "running", "done", "failed", "cancelled"]);
export type JobStatus = z.infer<typeof JobStatus>;

/** One attempt the executor lost (and, retries allowing, started again). */
export const LostAttempt = z.object({ node: z.string().nullable(), why: z.string() });
export type LostAttempt = z.infer<typeof LostAttempt>;

export const JobState = z.object({
  id: z.string(),
  status: JobStatus,
  /** Attempts started so far (1 + re-runs). */
  attempts: z.number().int().min(0),
  /** Where the current / last attempt runs (a node name; "local" for this host). */
  node: z.string().nullable(),
  lost: z.array(LostAttempt),
});
export type JobState = z.infer<typeof JobState>;

export const JobResult = z.object({
  id: z.string(),
  /** done: the command ran (whatever its exit code: see run); failed: the executor could not run
   *  it (error says why, after all retries); cancelled: the batch was cancelled first. */
  status: z.enum(["done", "failed", "cancelled"]),
  run: RunResult.nullable(),
  error: z.string().nullable(),
  attempts: z.number().int().min(0),
  node: z.string().nullable(),
  lost: z.array(LostAttempt),
  /** From submission to this result (queueing, retries and the run itself). */
  latencyMs: z.number(),
});
export type JobResult = z.infer<typeof JobResult>;

export interface SubmitOptions {
  /** Called with each result as it finishes (besides the batch's async iterator). */
  onResult?: (r: JobResult) => void;
  /** Aborting cancels the batch. */
  signal?: AbortSignal;
}

/**
 * A submitted batch. Iterate it (`for await (const r of batch)`) to get results as they finish,
 * or await `results()` for all of them in submission order. Every job yields exactly one result.
 */
export interface Batch extends AsyncIterable<JobResult> {
  readonly jobIds: readonly string[];
  status(id: string): JobState;
  statuses(): JobState[];
  /** Stops queued jobs and kills running ones; their results come back as "cancelled". */
  cancel(reason?: string): Promise<void>;
  results(): Promise<JobResult[]>;
}

export interface ExecutorCheck {
  ok: boolean;
  why: string | null;
  detail?: Record<string, unknown>;
}

export interface Executor {
  readonly name: ExecutorName;
  /** The containment its jobs run under, as a sandbox kind (RunResult.sandbox of its results). */
  readonly containment: SandboxName;
  /** Whether it can run jobs here, and why not. */
  check(): Promise<ExecutorCheck>;
  submit(jobs: JobSpecInput[], opts?: SubmitOptions): Batch;
  /** The executor as a `Sandbox`: each run() is a one-job batch. runPytest, gradeWorkdir and the
   *  task builder's gates run on it unchanged. */
  asSandbox(): Sandbox;
  /** Releases what it holds (connections, temp folders); running batches are cancelled. */
  close(): Promise<void>;
}

/** A local cluster `composer-lab cluster up|down` manages (state kept in a file). */
export const ClusterNode = z.object({
  name: z.string(),
  address: z.string(),
  /** The engine process this lab started for the node (null: one it found running). */
  pid: z.number().int().nullable(),
  role: z.enum(["manager", "worker", "controller", "compute"]),
  /** Engine endpoint of the node (a Docker socket, a slurmd port…). */
  endpoint: z.string().nullable(),
  /** Folder holding the node's own state (data-root, spool, logs). */
  root: z.string().nullable(),
});
export type ClusterNode = z.infer<typeof ClusterNode>;

export const ClusterState = z.object({
  engine: z.enum(["swarm", "slurm"]),
  startedAt: z.string(),
  nodes: z.array(ClusterNode),
  /** Engine-specific facts `down` needs (e.g. whether the manager engine was started by `up`). */
  extra: z.record(z.unknown()).default({}),
});
export type ClusterState = z.infer<typeof ClusterState>;

export interface ClusterEngine {
  readonly engine: ClusterState["engine"];
  /** Starts `nodes` nodes on 127.0.0.x (idempotent for a cluster already up with that many). */
  up(opts: { nodes: number; log?: (m: string) => void }): Promise<ClusterState>;
  /** Stops everything `up` started, by pid, and removes the state file. */
  down(opts?: { log?: (m: string) => void }): Promise<{ stopped: string[]; state: ClusterState | null }>;
  /** The recorded state, or null when no cluster is up. */
  status(): Promise<ClusterState | null>;
}
