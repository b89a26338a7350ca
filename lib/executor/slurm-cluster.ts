/**
 * `composer-lab cluster up|down --engine slurm`: a Slurm cluster on this machine, started by hand
 * the way issue 17 measured it works without systemd: munged (as user munge, its own key and
 * socket), slurmctld (-i: no saved state needed), and N slurmd, each a "node" on 127.0.0.(i+1)
 * with its own port, spool and log. Everything lives under one state folder; `down` stops what
 * `up` started, by pid. The lab's own jobs reach it through SLURM_CONF (slurmEnv).
 *
 * Why these settings: proctrack/linuxproc and task/none need no cgroup delegation (the lab's
 * sandbox makes its own cgroups); accounting_storage/none needs no slurmdbd; SlurmdTimeout 5 s so
 * a lost node is declared DOWN quickly; sched_interval=1 so array tasks start within a second of a
 * free slot (the default, 60 s, left slots idle: 200 trivial tasks took 113 s, 22 s with it).
 */
import { execFile, spawn } from "node:child_process";
import { chownSync, chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { scratchDir } from "../core/index.js";
import { ClusterState, type ClusterEngine, type ClusterNode } from "./types.js";

const execFileP = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The Debian binaries a local Slurm cluster needs (scripts/setup.sh installs them). */
export const SLURM_BINARIES = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo", "scontrol"] as const;
/** The partition every node is in (the executor submits to it). */
export const SLURM_PARTITION = "lab";
/** Set in each slurmd's environment (slurmstepd inherits it): finds a node's processes. */
const NODE_MARK = "COMPOSER_LAB_SLURM_NODE";
/** Daemons live in /usr/sbin, which a non-login PATH may lack. */
const SBIN_PATH = [...new Set([...(process.env.PATH ?? "").split(":").filter(Boolean), "/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"])].join(":");

/** The default state folder of `cluster --engine slurm` ($COMPOSER_LAB_SLURM_DIR, else scratch/cluster/slurm). */
export const defaultSlurmDir = (): string => process.env.COMPOSER_LAB_SLURM_DIR || scratchDir("cluster", "slurm");

/** What `up` records beyond ClusterState's nodes (ClusterState.extra). */
interface SlurmExtra {
  dir: string;
  conf: string;
  mungeSocket: string;
  mungedPid: number;
  ctldPort: number;
  cpusPerNode: number;
}

export interface SlurmClusterOptions {
  /** State folder (default scratch/cluster/slurm). */
  dir?: string;
  /** CPUs each node offers Slurm (default: this machine's CPU count). */
  cpusPerNode?: number;
}

async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: n }, () => new Promise<import("node:net").Server>((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "0.0.0.0", () => res(s));
  })));
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** Whether pid is alive and runs `binary` (a recycled pid must never be signalled). */
export function pidRuns(pid: number | null | undefined, binary: string): boolean {
  if (!pid) return false;
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // a zombie is gone for our purposes
    if (/^\d+ \(.*\) Z /.test(stat)) return false;
    return cmd.includes(binary);
  } catch {
    return false;
  }
}

/** pid and every descendant, from /proc (children before parents are not needed: we SIGKILL). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}

/** Processes whose environment carries `mark` (a node's slurmstepd and what they started). */
function markedProcesses(mark: string): number[] {
  const needle = Buffer.from(`${NODE_MARK}=${mark}\0`);
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${e}/environ`).includes(needle)) out.push(Number(e));
    } catch {
      /* exited, or not ours to read */
    }
  }
  return out;
}

function kill(pids: number[], signal: NodeJS.Signals): void {
  for (const p of pids) {
    try {
      process.kill(p, signal);
    } catch {
      /* already gone */
    }
  }
}

/** SIGTERM, then SIGKILL whatever still runs after `graceMs`. */
async function stopPid(pid: number, binary: string, graceMs = 5000): Promise<boolean> {
  if (!pidRuns(pid, binary)) return false;
  kill([pid], "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (pidRuns(pid, binary) && Date.now() < deadline) await sleep(100);
  if (pidRuns(pid, binary)) kill(processTree(pid), "SIGKILL");
  return true;
}

/** A local Slurm cluster's state folder and the processes `up` started in it. */
export class SlurmCluster implements ClusterEngine {
  readonly engine = "slurm" as const;
  readonly dir: string;
  constructor(readonly opts: SlurmClusterOptions = {}) {
    this.dir = resolve(opts.dir ?? defaultSlurmDir());
  }
  private get stateFile(): string {
    return join(this.dir, "cluster.json");
  }
  /** The slurm.conf `up` wrote (clients read it through SLURM_CONF). */
  get conf(): string {
    return join(this.dir, "slurm.conf");
  }
  /** The folder shared by the submit host and every node (here: the same disk). */
  get sharedDir(): string {
    return join(this.dir, "shared");
  }

  async status(): Promise<ClusterState | null> {
    if (!existsSync(this.stateFile)) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.stateFile, "utf8"));
    } catch (e) {
      throw new Error(`${this.stateFile}: not JSON (${(e as Error).message})`);
    }
    const r = ClusterState.safeParse(parsed);
    if (!r.success) throw new Error(`${this.stateFile}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`);
    return r.data;
  }

  /** Environment for Slurm's client commands (sbatch, squeue…) against this cluster. */
  env(): Record<string, string> {
    return { SLURM_CONF: this.conf };
  }

  private extra(state: ClusterState): SlurmExtra {
    return state.extra as unknown as SlurmExtra;
  }

  async up(o: { nodes: number; log?: (m: string) => void }): Promise<ClusterState> {
    const log = o.log ?? (() => {});
    if (!Number.isInteger(o.nodes) || o.nodes < 1 || o.nodes > 250) throw new Error(`--nodes ${o.nodes}: a whole number from 1 to 250 (one 127.0.0.x address each)`);
    if (process.getuid?.() !== 0) throw new Error("cluster --engine slurm starts munged as user munge and slurmd as root: run it as root");
    const missing = await missingBinaries();
    if (missing.length) throw new Error(`Slurm is not installed: ${missing.join(", ")} not found (apt-get install slurm-wlm munge, or bash scripts/setup.sh)`);
    const existing = await this.status();
    if (existing) {
      const computes = existing.nodes.filter((n) => n.role === "compute");
      const alive = existing.nodes.every((n) => pidRuns(n.pid, n.role === "controller" ? "slurmctld" : "slurmd")) && pidRuns(this.extra(existing).mungedPid, "munged");
      if (alive && computes.length === o.nodes) {
        log(`slurm cluster already up in ${this.dir} (${o.nodes} nodes)`);
        return existing;
      }
      if (alive) throw new Error(`a slurm cluster with ${computes.length} node(s) is already up in ${this.dir}: run \`composer-lab cluster down --engine slurm\` first`);
      log("a previous cluster's processes are gone: cleaning up its state");
      await this.down({ log });
    }
    const cpusPerNode = this.opts.cpusPerNode ?? cpus().length;
    const d = (...p: string[]) => join(this.dir, ...p);
    rmSync(this.dir, { recursive: true, force: true });
    for (const sub of ["ctld", "log", "shared"]) mkdirSync(d(sub), { recursive: true, mode: 0o755 });
    chmodSync(this.dir, 0o755);
    const started: ClusterNode[] = [];
    let mungedPid = 0;
    try {
      // munged refuses keys and sockets in folders others can write; its key folder is its own.
      const [mungeUid, mungeGid] = await idsOf("munge");
      for (const [sub, mode] of [["munge", 0o700], ["munge-run", 0o755]] as const) {
        mkdirSync(d(sub), { mode });
        chownSync(d(sub), mungeUid, mungeGid);
      }
      writeFileSync(d("munge", "munge.key"), randomBytes(1024), { mode: 0o600 });
      chownSync(d("munge", "munge.key"), mungeUid, mungeGid);
      const mungeSocket = d("munge-run", "munge.sock");
      mungedPid = startDaemon("setpriv", [`--reuid=${mungeUid}`, `--regid=${mungeGid}`, "--init-groups", "--", "munged", "-F", `--key-file=${d("munge", "munge.key")}`, `--socket=${mungeSocket}`, `--pid-file=${d("munge-run", "munged.pid")}`, `--log-file=${d("munge", "munged.log")}`, `--seed-file=${d("munge", "munged.seed")}`], d("log", "munged.out"), { PATH: SBIN_PATH });
      await waitFor(async () => (await execFileP("munge", ["-n", "-S", mungeSocket]).then(() => true, () => false)), 15_000, () => `munged did not start (see ${d("log", "munged.out")})`);
      log(`munged up (pid ${mungedPid})`);

      const [ctldPort, ...nodePorts] = await freePorts(1 + o.nodes);
      const nodes = Array.from({ length: o.nodes }, (_, i) => ({ name: `node${i + 1}`, address: `127.0.0.${i + 1}`, port: nodePorts[i]! }));
      writeFileSync(this.conf, slurmConf({ dir: this.dir, mungeSocket, ctldPort: ctldPort!, nodes, cpusPerNode, memoryMb: Math.floor(totalmem() / 2 ** 20 / o.nodes) }));
      const env = { ...process.env, PATH: SBIN_PATH, ...this.env() };
      const ctldPid = startDaemon("slurmctld", ["-D", "-i", "-f", this.conf], d("log", "slurmctld.out"), env);
      started.push({ name: "controller", address: "127.0.0.1", pid: ctldPid, role: "controller", endpoint: `127.0.0.1:${ctldPort}`, root: d("ctld") });
      await waitFor(async () => /UP/.test(await this.run("scontrol", ["ping"]).catch(() => "")), 30_000, () => `slurmctld did not answer (see ${d("log", "slurmctld.log")})`);
      log(`slurmctld up (pid ${ctldPid}, port ${ctldPort})`);
      for (const n of nodes) {
        mkdirSync(d(n.name), { recursive: true });
        const pid = startDaemon("slurmd", ["-D", "-N", n.name, "-f", this.conf], d("log", `slurmd-${n.name}.out`), { ...env, [NODE_MARK]: `${this.dir}#${n.name}` });
        started.push({ name: n.name, address: n.address, pid, role: "compute", endpoint: `${n.address}:${n.port}`, root: d(n.name) });
      }
      const state: ClusterState = { engine: "slurm", startedAt: new Date().toISOString(), nodes: started, extra: { dir: this.dir, conf: this.conf, mungeSocket, mungedPid, ctldPort: ctldPort!, cpusPerNode } satisfies SlurmExtra };
      writeFileSync(this.stateFile, JSON.stringify(state, null, 2));
      await this.waitIdle(nodes.map((n) => n.name), 60_000);
      log(`${o.nodes} slurmd up: ${nodes.map((n) => `${n.name}@${n.address}:${n.port}`).join(", ")}`);
      return state;
    } catch (e) {
      for (const n of started.reverse()) await stopPid(n.pid!, n.role === "controller" ? "slurmctld" : "slurmd", 2000);
      if (mungedPid) await stopPid(mungedPid, "munged", 2000);
      rmSync(this.stateFile, { force: true });
      throw e;
    }
  }

  /** Waits until every named node is idle (registered and free). */
  async waitIdle(names: string[], timeoutMs: number): Promise<void> {
    let last = "";
    await waitFor(async () => {
      last = await this.run("sinfo", ["-h", "-N", "-o", "%N %t"]).catch((e) => String(e));
      const states = new Map(last.trim().split("\n").map((l) => l.trim().split(/\s+/) as [string, string]));
      return names.every((n) => states.get(n) === "idle");
    }, timeoutMs, () => `nodes did not become idle in ${timeoutMs / 1000} s: ${last.trim().replace(/\n/g, "; ")} (logs in ${join(this.dir, "log")})`);
  }

  /** A Slurm client command against this cluster; its stdout. */
  async run(cmd: string, args: string[]): Promise<string> {
    const r = await execFileP(cmd, args, { env: { ...process.env, PATH: SBIN_PATH, ...this.env() }, maxBuffer: 64 * 2 ** 20 });
    return r.stdout;
  }

  /**
   * Takes a node away hard, as a crashed machine would: SIGKILL its slurmd and every job step
   * process it started (found by the mark in their environment). Slurm notices after
   * SlurmdTimeout and sets the node DOWN. Returns the pids killed.
   */
  async killNode(name: string): Promise<number[]> {
    const state = await this.status();
    const node = state?.nodes.find((n) => n.name === name && n.role === "compute");
    if (!state || !node) throw new Error(`no compute node "${name}" in ${this.stateFile}`);
    const pids = [...(pidRuns(node.pid, "slurmd") ? [node.pid!] : []), ...markedProcesses(`${this.dir}#${name}`)];
    const all = [...new Set(pids.flatMap(processTree))];
    kill(all, "SIGKILL");
    return all;
  }

  async down(o: { log?: (m: string) => void } = {}): Promise<{ stopped: string[]; state: ClusterState | null }> {
    const log = o.log ?? (() => {});
    const state = await this.status();
    if (!state) return { stopped: [], state: null };
    const extra = this.extra(state);
    const stopped: string[] = [];
    const ctld = state.nodes.find((n) => n.role === "controller");
    if (ctld && pidRuns(ctld.pid, "slurmctld")) {
      // end running jobs first, so no job step outlives its node
      const ids = (await this.run("squeue", ["-h", "-o", "%A"]).catch(() => "")).split("\n").map((s) => s.trim()).filter(Boolean);
      if (ids.length) await this.run("scancel", [...new Set(ids)]).catch(() => "");
    }
    for (const n of state.nodes.filter((x) => x.role === "compute")) {
      if (await stopPid(n.pid!, "slurmd")) stopped.push(`slurmd ${n.name} (pid ${n.pid})`);
      const steps = markedProcesses(`${extra.dir}#${n.name}`);
      if (steps.length) {
        kill([...new Set(steps.flatMap(processTree))], "SIGKILL");
        stopped.push(`${steps.length} job step process(es) of ${n.name}`);
      }
    }
    if (ctld && (await stopPid(ctld.pid!, "slurmctld"))) stopped.push(`slurmctld (pid ${ctld.pid})`);
    if (await stopPid(extra.mungedPid, "munged")) stopped.push(`munged (pid ${extra.mungedPid})`);
    for (const s of stopped) log(`stopped ${s}`);
    rmSync(this.stateFile, { force: true });
    // the state folder holds only what `up` made (keys, spools, shared job files): remove it
    rmSync(this.dir, { recursive: true, force: true });
    return { stopped, state };
  }
}

export async function missingBinaries(): Promise<string[]> {
  const found = await Promise.all(SLURM_BINARIES.map((b) => execFileP("sh", ["-c", `command -v ${b}`], { env: { ...process.env, PATH: SBIN_PATH } }).then(() => null, () => b)));
  return found.filter((b): b is (typeof SLURM_BINARIES)[number] => b !== null);
}

async function idsOf(user: string): Promise<[number, number]> {
  const r = await execFileP("getent", ["passwd", user]).catch(() => null);
  const f = r?.stdout.trim().split(":") ?? [];
  if (f.length < 4) throw new Error(`no user "${user}" (the munge package creates it: apt-get install munge)`);
  return [Number(f[2]), Number(f[3])];
}

/** Starts a daemon in the foreground of its own session, outliving this process; its pid. */
function startDaemon(cmd: string, args: string[], logFile: string, env: NodeJS.ProcessEnv): number {
  const fd = openSync(logFile, "a");
  try {
    const child = spawn(cmd, args, { detached: true, stdio: ["ignore", fd, fd], env });
    child.unref();
    if (!child.pid) throw new Error(`${cmd} did not start`);
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

async function waitFor(ok: () => Promise<boolean>, timeoutMs: number, why: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(why());
    await sleep(200);
  }
}

function slurmConf(o: { dir: string; mungeSocket: string; ctldPort: number; nodes: { name: string; address: string; port: number }[]; cpusPerNode: number; memoryMb: number }): string {
  const d = (...p: string[]) => join(o.dir, ...p);
  return [
    "# written by `composer-lab cluster up --engine slurm`",
    "ClusterName=composerlab",
    "SlurmctldHost=localhost(127.0.0.1)",
    `SlurmctldPort=${o.ctldPort}`,
    "SlurmUser=root",
    "SlurmdUser=root",
    "AuthType=auth/munge",
    `AuthInfo=socket=${o.mungeSocket}`,
    "CredType=cred/munge",
    `StateSaveLocation=${d("ctld")}`,
    `SlurmdSpoolDir=${d("%n")}`,
    `SlurmctldPidFile=${d("ctld", "slurmctld.pid")}`,
    `SlurmdPidFile=${d("%n", "slurmd.pid")}`,
    `SlurmctldLogFile=${d("log", "slurmctld.log")}`,
    `SlurmdLogFile=${d("log", "slurmd-%n.log")}`,
    "ProctrackType=proctrack/linuxproc",
    "TaskPlugin=task/none",
    "AccountingStorageType=accounting_storage/none",
    "JobAcctGatherType=jobacct_gather/none",
    "MpiDefault=none",
    "MailProg=/bin/true",
    "SchedulerType=sched/builtin",
    "SchedulerParameters=sched_interval=1,sched_min_interval=0,default_queue_depth=10000",
    "SelectType=select/cons_tres",
    "SelectTypeParameters=CR_Core",
    "ReturnToService=2",
    "SlurmdTimeout=5",
    "KillWait=5",
    "MinJobAge=600",
    "MaxArraySize=100001",
    "MaxJobCount=200000",
    ...o.nodes.map((n) => `NodeName=${n.name} NodeAddr=${n.address} NodeHostname=localhost Port=${n.port} CPUs=${o.cpusPerNode} RealMemory=${o.memoryMb} State=UNKNOWN`),
    `PartitionName=${SLURM_PARTITION} Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO`,
    "",
  ].join("\n");
}
