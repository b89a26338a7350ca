/**
 * `swarm`: each job is a Docker Swarm `replicated-job` service (one task, restart none) created
 * through the manager's API (dockerode). Containment matches the local Docker sandbox: no network
 * but lo (no network attached: swarm refuses `none`, and the engines run with --bridge=none; only
 * a job that asks for `network: "host"`, a DiLoCo rank reaching its store, joins the node's network),
 * read-only root, the workdir staged on a capped tmpfs owned by the sandbox user (read-only for
 * grading), a capped /tmp, memory / CPU / pids limits. The container's first process is
 * swarm_runner.py: root with only CAP_SETUID/CAP_SETGID, it reads the spec and stdin from a
 * root-only /job folder, starts the command as the sandbox user with no capabilities and
 * no_new_privs, and writes the result as data (it always exits 0: a swarm re-runs failed tasks).
 *
 * Lost jobs: a task whose node goes down, that the engine rejects (no image there…), or that ends
 * without a result is removed and the job re-run (up to its retries) on another node.
 *
 * Paths: job folders, workdirs and mounts are host paths every node must see at the same place;
 * on this machine all nodes are engines of one host. On a multi-host swarm they must sit on a
 * shared filesystem (set TMPDIR to it), which was not tested here.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Docker from "dockerode";
import pLimit, { type LimitFunction } from "p-limit";
import { projectRoot, tempDir } from "../core/index.js";
import { DEFAULT_IMAGE, SANDBOX_WORKDIR, argv, baseEnv, dockerClient, lendDirs, maskStub, protectedInside, sandboxHostIds, stageWorkdir, watchDisk, type RunResult, type Sandbox } from "../sandbox/index.js";
import { LostJobError, OpenBatches, runBatch, type AttemptContext } from "./batch.js";
import { executorSandbox } from "./sandbox.js";
import type { Batch, Executor, ExecutorCheck, JobSpec, JobSpecInput, SubmitOptions } from "./types.js";

/** Label naming the lab node of a swarm node (set by `cluster up`). */
export const NODE_LABEL = "composer-lab.node";
/** Label on every service this executor creates (`cluster down` removes what is left). */
export const SERVICE_LABEL = "composer-lab.executor";

export interface SwarmExecutorOptions {
  /** The manager's Docker socket (default: the lab's engine, as for the Docker sandbox). */
  socketPath?: string;
  image?: string;
  /** Jobs in flight at once (default: 2 per ready node). */
  concurrency?: number;
  /** How often task and node states are read from the manager. */
  pollMs?: number;
  /** Seconds past a job's own timeout (counted from its task running) before it is taken as lost. */
  graceS?: number;
}

interface SwarmTask {
  ID: string;
  NodeID?: string;
  Status: { State: string; Err?: string; ContainerStatus?: { ExitCode?: number } };
  DesiredState: string;
}
interface NodeInfo {
  name: string;
  state: string;
}

const TERMINAL = new Set(["complete", "failed", "rejected", "shutdown", "orphaned", "remove"]);

let runnerSource: string | undefined;
const runner = (): string => (runnerSource ??= readFileSync(join(projectRoot(), "lib", "executor", "swarm_runner.py"), "utf8"));

/** Reads the manager's task and node states for every job in flight, one request each per poll. */
class Watcher {
  private readonly watched = new Map<string, (task: SwarmTask | undefined, nodes: Map<string, NodeInfo>) => void>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  nodes = new Map<string, NodeInfo>();
  constructor(private readonly docker: Docker, private readonly pollMs: number) {}

  /** Calls `onState` with the task of service `serviceId` (undefined until scheduled) on every poll. */
  watch(serviceId: string, onState: (task: SwarmTask | undefined, nodes: Map<string, NodeInfo>) => void): () => void {
    this.watched.set(serviceId, onState);
    this.timer ??= setInterval(() => void this.poll(), this.pollMs);
    return () => {
      this.watched.delete(serviceId);
      if (this.watched.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private async poll(): Promise<void> {
    if (this.polling || this.watched.size === 0) return;
    this.polling = true;
    try {
      const ids = [...this.watched.keys()];
      const [tasks, nodes] = await Promise.all([
        this.docker.listTasks({ filters: JSON.stringify({ service: ids }) }) as Promise<(SwarmTask & { ServiceID: string })[]>,
        this.docker.listNodes() as Promise<{ ID: string; Spec?: { Labels?: Record<string, string> }; Description?: { Hostname?: string }; Status?: { State?: string; Addr?: string } }[]>,
      ]);
      this.nodes = new Map(nodes.map((n) => [n.ID, { name: n.Spec?.Labels?.[NODE_LABEL] ?? `${n.Description?.Hostname ?? n.ID}@${n.Status?.Addr ?? "?"}`, state: n.Status?.State ?? "unknown" }]));
      // a job service has one task (restart none)
      const byService = new Map(tasks.map((t) => [t.ServiceID, t]));
      for (const [id, cb] of this.watched) cb(byService.get(id), this.nodes);
    } catch {
      /* the manager did not answer this time: try again next poll */
    } finally {
      this.polling = false;
    }
  }
}

export class SwarmExecutor implements Executor {
  readonly name = "swarm" as const;
  readonly containment = "docker" as const;
  readonly docker: Docker;
  readonly limit: LimitFunction;
  private readonly watcher: Watcher;
  private readonly tag = randomBytes(4).toString("hex");
  private readonly open = new OpenBatches();
  private seq = 0;

  constructor(readonly opts: SwarmExecutorOptions & { concurrency: number }) {
    this.docker = dockerClient(opts.socketPath);
    this.limit = pLimit(opts.concurrency);
    this.watcher = new Watcher(this.docker, opts.pollMs ?? 250);
  }
  get image(): string {
    return this.opts.image ?? DEFAULT_IMAGE;
  }

  async check(): Promise<ExecutorCheck> {
    let info: { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
    try {
      info = await this.docker.info();
    } catch (e) {
      return { ok: false, why: `no Docker engine at ${this.opts.socketPath ?? "the lab's socket"} (${(e as Error).message}); start a swarm with \`composer-lab cluster up --engine swarm\`` };
    }
    if (info.Swarm?.LocalNodeState !== "active" || !info.Swarm.ControlAvailable) return { ok: false, why: "the engine is not a swarm manager: start a swarm with `composer-lab cluster up --engine swarm --nodes N`" };
    const nodes = await readyNodes(this.docker);
    if (nodes.length === 0) return { ok: false, why: "the swarm has no ready node" };
    try {
      await this.docker.getImage(this.image).inspect();
    } catch {
      return { ok: false, why: `image ${this.image} is missing on the manager: build it with \`composer-lab sandbox image\`` };
    }
    return { ok: true, why: null, detail: { nodes, image: this.image, concurrency: this.opts.concurrency } };
  }

  submit(jobs: JobSpecInput[], opts: SubmitOptions = {}): Batch {
    const batch = runBatch(jobs, (ctx) => this.attempt(ctx), { ...opts, limit: this.limit, networks: ["none", "host"] });
    return this.open.track(batch);
  }

  asSandbox(): Sandbox {
    return executorSandbox(this);
  }

  /** Cancels open batches and removes every service this executor still has. */
  async close(): Promise<void> {
    await this.open.cancelAll();
    const left = (await this.docker.listServices({ filters: JSON.stringify({ label: [`${SERVICE_LABEL}=${this.tag}`] }) }).catch(() => [])) as { ID: string }[];
    await Promise.all(left.map((s) => this.docker.getService(s.ID).remove().catch(() => {})));
  }

  private hostNetworkId: string | undefined;

  /** Nodes where this job was lost, kept off its next attempts (while another node is ready). */
  private readonly avoid = new Map<string, Set<string>>();

  private async attempt({ job, attempt, signal, setNode }: AttemptContext): Promise<RunResult> {
    const t0 = performance.now();
    const ready = await readyNodes(this.docker).catch((e: Error) => {
      throw new LostJobError(`the swarm manager did not answer: ${e.message}`);
    });
    // the scheduler would keep a task no node can hold pending for ever
    const most = Math.max(0, ...ready.map((n) => n.cpus));
    if (job.limits.cpus > most) throw new Error(`asks for ${job.limits.cpus} CPUs; the largest ready node has ${most}`);
    const ids = sandboxHostIds();
    const stage = stageWorkdir(job.workdir, { diskMb: job.limits.diskMb, writable: !job.workdirReadOnly && !job.scratchWorkdir, copy: job.scratchWorkdir });
    const rw = job.mounts.filter((m) => m.mode === "rw").map((m) => m.host);
    const giveBack = lendDirs(rw);
    const jobDir = tempDir("swarm-job-");
    let unwatchDisk = () => {};
    let diskExceeded = false;
    const name = `cl-${this.tag}-${++this.seq}-${attempt}`;
    let serviceId: string | null = null;
    let result: RunResult | undefined;
    const none = { removedSpecial: [] as string[], clearedModes: [] as string[] };
    try {
      writeFileSync(join(jobDir.path, "spec.json"), JSON.stringify({
        argv: argv(job.command), env: baseEnv(job.env), uid: ids.uid, gid: ids.gid, timeout_ms: job.limits.timeoutMs,
        max_output: job.limits.maxOutputBytes, disk_mb: job.limits.diskMb,
      }), { mode: 0o600 });
      if (job.stdin !== undefined) writeFileSync(join(jobDir.path, "stdin"), job.stdin, { mode: 0o600 });
      chmodSync(jobDir.path, 0o700);
      const avoid = [...(this.avoid.get(job.id) ?? [])];
      const constraints = ready.some((n) => !avoid.includes(n.id)) ? avoid.map((id) => `node.id!=${id}`) : [];
      const mb = (n: number) => n * 1024 * 1024;
      // a swarm service joins the host's network by the id of the manager's "host" network
      const networks = job.network === "host" ? [{ Target: (this.hostNetworkId ??= (await this.docker.getNetwork("host").inspect()).Id as string) }] : [];
      const service = await this.docker.createService({
        Name: name,
        Labels: { [SERVICE_LABEL]: this.tag, "composer-lab.job": job.id },
        TaskTemplate: {
          ContainerSpec: {
            Image: this.image,
            Command: ["python3", "-I", "-S", "-c", runner()],
            User: "0:0",
            Dir: SANDBOX_WORKDIR,
            Hostname: "sandbox",
            ReadOnly: true,
            Env: ["PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"],
            Mounts: [
              { Type: "bind", Source: stage.path, Target: SANDBOX_WORKDIR, ReadOnly: job.workdirReadOnly },
              { Type: "bind", Source: jobDir.path, Target: "/job", ReadOnly: false },
              ...job.mounts.map((m) => ({ Type: "bind" as const, Source: m.host, Target: m.inside, ReadOnly: m.mode === "ro" })),
              // as the Docker sandbox does: protected files over the (scratch) tree, stubs over the
              // installed copies (the scan ran in this image through the executor, so the paths are its own)
              ...protectedInside(stage.path, job.protectPaths).map((rel) => ({ Type: "bind" as const, Source: join(stage.path, rel), Target: `${SANDBOX_WORKDIR}/${rel}`, ReadOnly: true })),
              ...job.masks.map((m) => ({ Type: "bind" as const, Source: maskStub(m.kind), Target: m.path, ReadOnly: true })),
              { Type: "tmpfs" as const, Target: "/tmp", TmpfsOptions: { SizeBytes: mb(job.limits.diskMb), Mode: 0o1777 } },
            ],
            CapabilityDrop: ["ALL"],
            CapabilityAdd: ["CAP_SETUID", "CAP_SETGID"],
          } as Docker.ContainerSpec,
          Resources: {
            Limits: { NanoCPUs: Math.round(job.limits.cpus * 1e9), MemoryBytes: mb(job.limits.memoryMb), Pids: job.limits.pids } as Docker.ResourceRequirements["Limits"],
            Reservations: { NanoCPUs: Math.round(job.limits.cpus * 1e9) },
          },
          RestartPolicy: { Condition: "none", MaxAttempts: 0 },
          Placement: { Constraints: constraints },
          Networks: networks,
          LogDriver: { Name: "none" },
        },
        Mode: { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } },
      } as unknown as Docker.CreateServiceOptions);
      serviceId = service.id;
      if (!stage.hardCap && !job.workdirReadOnly) {
        unwatchDisk = watchDisk([stage.path, ...rw], mb(job.limits.diskMb), () => {
          diskExceeded = true;
          void this.docker.getService(service.id).remove().catch(() => {});
        });
      }
      const end = await this.until(service.id, job, signal, setNode);
      if (end.kind === "lost") {
        if (end.nodeId) this.avoid.set(job.id, new Set([...(this.avoid.get(job.id) ?? []), end.nodeId]));
        throw new LostJobError(end.why, end.node);
      }
      const resultFile = join(jobDir.path, "result.json");
      if (!existsSync(resultFile)) {
        const runnerError = join(jobDir.path, "runner-error");
        if (existsSync(runnerError)) throw new Error(`the job runner failed on ${end.node}: ${readFileSync(runnerError, "utf8")}`);
        if (diskExceeded) result = { exitCode: null, signal: "SIGKILL", stdout: "", stderr: "", timedOut: false, stalled: false, oomKilled: false, outputTruncated: false, sandbox: "docker", diskExceeded, sanitized: none, wallMs: performance.now() - t0 };
        // The runner never dies of the job's memory (the command is the OOM killer's first pick): a
        // task that ended without its result was stopped from outside (its engine shut down…).
        else throw new LostJobError(`task ended (${end.state}${end.err ? `: ${end.err}` : ""}) without a result`, end.node);
      } else {
        const r = JSON.parse(readFileSync(resultFile, "utf8")) as Pick<RunResult, "exitCode" | "signal" | "timedOut" | "oomKilled" | "outputTruncated" | "wallMs">;
        const text = (f: string) => (existsSync(join(jobDir.path, f)) ? readFileSync(join(jobDir.path, f), "utf8") : "");
        result = {
          exitCode: r.exitCode, signal: r.signal, stdout: text("stdout"), stderr: text("stderr"), timedOut: r.timedOut, stalled: false, oomKilled: r.oomKilled,
          wallMs: performance.now() - t0, outputTruncated: r.outputTruncated, sandbox: "docker", diskExceeded, sanitized: none,
        };
      }
    } finally {
      unwatchDisk();
      if (serviceId) await this.docker.getService(serviceId).remove().catch(() => {});
      jobDir.remove();
      giveBack();
      if (!result) stage.finish();
    }
    // like the local sandboxes: the tree comes back sanitized (special files removed, set-id bits cleared)
    const cleaned = stage.finish();
    return { ...result, sanitized: { removedSpecial: cleaned.removedSpecial, clearedModes: cleaned.clearedModes } };
  }

  /** Waits for the job's task to end: done (complete / failed with a result to read) or lost. */
  private until(serviceId: string, job: JobSpec, signal: AbortSignal, setNode: (n: string | null) => void): Promise<{ kind: "ended"; state: string; err?: string; exitCode?: number; node: string | null } | { kind: "lost"; why: string; node: string | null; nodeId: string | null }> {
    return new Promise((resolve, reject) => {
      let runningSince: number | null = null;
      const graceMs = (this.opts.graceS ?? 30) * 1000;
      const stop = this.watcher.watch(serviceId, (task, nodes) => {
        if (!task) return; // not scheduled yet
        const node = task.NodeID ? nodes.get(task.NodeID) : undefined;
        const nodeName = node?.name ?? null;
        if (nodeName) setNode(nodeName);
        const state = task.Status.State;
        if (TERMINAL.has(state)) {
          done();
          if (state === "complete" || state === "failed") resolve({ kind: "ended", state, err: task.Status.Err, exitCode: task.Status.ContainerStatus?.ExitCode, node: nodeName });
          else resolve({ kind: "lost", why: `task ${state}${task.Status.Err ? `: ${task.Status.Err}` : ""}`, node: nodeName, nodeId: task.NodeID ?? null });
          return;
        }
        if (node && node.state !== "ready") {
          done();
          resolve({ kind: "lost", why: `node ${node.name} is ${node.state}`, node: nodeName, nodeId: task.NodeID ?? null });
          return;
        }
        if (state === "running") runningSince ??= performance.now();
        if (runningSince !== null && performance.now() - runningSince > job.limits.timeoutMs + graceMs) {
          done();
          resolve({ kind: "lost", why: `still running ${graceMs / 1000} s past its timeout`, node: nodeName, nodeId: task.NodeID ?? null });
        }
      });
      const onAbort = () => {
        done();
        reject(new Error("cancelled"));
      };
      const done = () => {
        stop();
        signal.removeEventListener("abort", onAbort);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}

/** The swarm's nodes that accept tasks. */
export async function readyNodes(docker: Docker): Promise<{ id: string; name: string; addr: string; role: string; cpus: number }[]> {
  const nodes = (await docker.listNodes()) as { ID: string; Spec?: { Role?: string; Availability?: string; Labels?: Record<string, string> }; Description?: { Hostname?: string; Resources?: { NanoCPUs?: number } }; Status?: { State?: string; Addr?: string } }[];
  return nodes
    .filter((n) => n.Status?.State === "ready" && n.Spec?.Availability === "active")
    .map((n) => ({ id: n.ID, name: n.Spec?.Labels?.[NODE_LABEL] ?? n.Description?.Hostname ?? n.ID, addr: n.Status?.Addr ?? "", role: n.Spec?.Role ?? "worker", cpus: (n.Description?.Resources?.NanoCPUs ?? 0) / 1e9 }));
}

/** The swarm executor on the lab's engine (a swarm manager: `composer-lab cluster up --engine swarm`). */
export async function openSwarmExecutor(opts: SwarmExecutorOptions = {}): Promise<SwarmExecutor> {
  let concurrency = opts.concurrency;
  if (concurrency === undefined) {
    const nodes = await readyNodes(dockerClient(opts.socketPath)).catch(() => []);
    concurrency = Math.max(2, 2 * nodes.length);
  }
  return new SwarmExecutor({ ...opts, concurrency });
}
