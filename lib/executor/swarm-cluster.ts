/**
 * `composer-lab cluster up|down --engine swarm`: a Docker Swarm on this machine. The lab's engine
 * (ensureDockerd: started here if none answers) becomes the manager on 127.0.0.1; every further
 * node is its own dockerd (own data-root, exec-root, socket and pidfile under CLUSTER_ROOT) that
 * listens on 127.0.0.<k+1> and joins as a worker, after the sandbox image is copied into it
 * (save → load: no registry here). Nodes are labelled composer-lab.node=node<k>. The state file
 * lets `down` (from any process) leave the swarm and stop, by pid, exactly what `up` started.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Docker from "dockerode";
import { DEFAULT_IMAGE, dockerClient, ensureDockerd } from "../sandbox/index.js";
import { NODE_LABEL, SERVICE_LABEL } from "./swarm.js";
import { ClusterState, type ClusterEngine, type ClusterNode } from "./types.js";

/** Where local clusters keep their nodes and state. */
export const CLUSTER_ROOT = process.env.COMPOSER_LAB_CLUSTER_ROOT ?? "/var/lib/composer-lab-cluster";
const stateFile = () => join(CLUSTER_ROOT, "swarm.json");
const nodeRoot = (k: number) => join(CLUSTER_ROOT, "swarm", `node${k}`);
const MAX_NODES = 16;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readState(): ClusterState | null {
  if (!existsSync(stateFile())) return null;
  const r = ClusterState.safeParse(JSON.parse(readFileSync(stateFile(), "utf8")));
  if (!r.success) throw new Error(`${stateFile()}: ${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message} (remove the file after stopping its engines by hand)`);
  return r.data;
}

function alive(pid: number | null, socket: string | null): boolean {
  if (pid === null) return false;
  try {
    // the pid must still be the dockerd we started (pids are reused)
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(socket ?? "\u0000none");
  } catch {
    return false;
  }
}

async function answers(docker: Docker): Promise<boolean> {
  try {
    await docker.ping();
    return true;
  } catch {
    return false;
  }
}

/** Starts one worker node's dockerd, listening for swarm traffic on `addr`. */
async function startNodeEngine(k: number, log: (m: string) => void): Promise<{ pid: number; socket: string; root: string }> {
  const root = nodeRoot(k);
  mkdirSync(root, { recursive: true });
  const socket = join(root, "docker.sock");
  rmSync(socket, { force: true });
  const logFile = join(root, "dockerd.log");
  log(`node${k}: starting dockerd (data in ${root})`);
  // output to a file: the engine outlives the process that started it
  const fd = openSync(logFile, "a");
  const child = spawn("dockerd", [
    "--host", `unix://${socket}`, "--data-root", join(root, "data"), "--exec-root", join(root, "exec"), "--pidfile", join(root, "docker.pid"),
    "--iptables=false", "--ip-masq=false", "--bridge=none",
  ], { stdio: ["ignore", fd, fd], detached: true });
  closeSync(fd);
  child.unref();
  const docker = dockerClient(socket);
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`node${k}: dockerd exited (${child.exitCode}):\n${readFileSync(logFile, "utf8").slice(-2000)}`);
    if (await answers(docker)) return { pid: child.pid!, socket, root };
    await sleep(250);
  }
  child.kill("SIGKILL");
  throw new Error(`node${k}: dockerd did not answer within 60 s (log: ${logFile})`);
}

/** Copies the image from the manager's engine into a node's engine unless it has the same one. */
async function copyImage(from: Docker, to: Docker, image: string, node: string, log: (m: string) => void): Promise<boolean> {
  const want = (await from.getImage(image).inspect()).Id;
  const have = await to.getImage(image).inspect().then((i) => i.Id, () => null);
  if (have === want) return false;
  log(`${node}: loading ${image} (docker save | docker load)`);
  const tar = await from.getImage(image).get();
  const res = (await to.loadImage(tar)) as NodeJS.ReadableStream;
  let body = "";
  await new Promise<void>((ok, fail) => {
    res.on("data", (d: Buffer) => (body += d));
    res.on("end", () => ok());
    res.on("error", fail);
  });
  if (/"error"/.test(body)) throw new Error(`${node}: docker load failed: ${body.slice(-500)}`);
  return true;
}

async function labelNode(manager: Docker, nodeId: string, name: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const n = (await manager.getNode(nodeId).inspect().catch(() => null)) as { Version: { Index: number }; Spec: Record<string, unknown> & { Labels?: Record<string, string> }; Status?: { State?: string } } | null;
    if (n && n.Status?.State === "ready") {
      await manager.getNode(nodeId).update({ version: n.Version.Index, ...n.Spec, Labels: { ...(n.Spec.Labels ?? {}), [NODE_LABEL]: name } });
      return;
    }
    await sleep(250);
  }
  throw new Error(`${name}: did not become ready in the swarm within 30 s`);
}

async function leave(docker: Docker): Promise<void> {
  await docker.swarmLeave({ force: true }).catch(() => {});
}

/** Kills, with their descendants, the processes whose command line names `marker` (a killed
 *  dockerd leaves its containerd shims, and their containers, running). */
function killLeftovers(marker: string): number[] {
  const procs = readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number).flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return [{ pid, ppid: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]), cmd: readFileSync(`/proc/${pid}/cmdline`, "utf8") }];
    } catch {
      return [];
    }
  });
  const doomed = new Set(procs.filter((p) => p.cmd.includes(marker) && p.pid !== process.pid).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (!doomed.has(p.pid) && doomed.has(p.ppid)) grew = !!doomed.add(p.pid);
  }
  for (const pid of doomed) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  return [...doomed];
}

async function stopPid(pid: number, socket: string | null): Promise<boolean> {
  if (!alive(pid, socket)) return false;
  process.kill(pid, "SIGTERM");
  for (let i = 0; i < 120 && alive(pid, socket); i++) await sleep(250);
  if (alive(pid, socket)) process.kill(pid, "SIGKILL");
  return true;
}

export const swarmCluster: ClusterEngine = {
  engine: "swarm",

  async status() {
    return readState();
  },

  async up({ nodes, log = () => {} }) {
    if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES) throw new Error(`--nodes: expected 1…${MAX_NODES}, got ${nodes}`);
    const old = readState();
    if (old) {
      if (old.nodes.length === nodes && old.nodes.every((n) => n.role === "manager" || alive(n.pid, n.endpoint))) {
        const info = await dockerClient(old.nodes[0]!.endpoint!).info().catch(() => null);
        if (info?.Swarm?.LocalNodeState === "active") return old;
      }
      log("a different or broken cluster is recorded: taking it down first");
      await swarmCluster.down({ log });
    }
    const engine = await ensureDockerd({ log });
    engine.process?.unref();
    const manager = dockerClient(engine.socketPath);
    await manager.getImage(DEFAULT_IMAGE).inspect().catch(() => {
      throw new Error(`image ${DEFAULT_IMAGE} is missing on the lab's engine: build it with \`composer-lab sandbox image\``);
    });
    const info = await manager.info();
    if (info.Swarm?.LocalNodeState === "active") {
      // No state file says it is ours, but only the lab's own engine gets here: a crashed run's swarm.
      log("the lab's engine is still in a swarm from an earlier run: leaving it");
      await leave(manager);
    }
    log("swarm init on the lab's engine (127.0.0.1)");
    await manager.swarmInit({ ListenAddr: "127.0.0.1:2377", AdvertiseAddr: "127.0.0.1" });
    const swarm = (await manager.swarmInspect()) as { JoinTokens: { Worker: string } };
    const managerId = ((await manager.info()) as { Swarm: { NodeID: string } }).Swarm.NodeID;
    await labelNode(manager, managerId, "node0");
    const list: ClusterNode[] = [{ name: "node0", address: "127.0.0.1", pid: engine.process?.pid ?? null, role: "manager", endpoint: engine.socketPath, root: null }];
    const state: ClusterState = { engine: "swarm", startedAt: new Date().toISOString(), nodes: list, extra: { managerStartedByUp: engine.process !== null } };
    const save = () => {
      mkdirSync(CLUSTER_ROOT, { recursive: true });
      writeFileSync(stateFile(), JSON.stringify(state, null, 2));
    };
    save();
    try {
      for (let k = 1; k < nodes; k++) {
        const addr = `127.0.0.${k + 1}`;
        const n = await startNodeEngine(k, log);
        list.push({ name: `node${k}`, address: addr, pid: n.pid, role: "worker", endpoint: n.socket, root: n.root });
        save();
        const worker = dockerClient(n.socket);
        await leave(worker); // a data-root kept from an earlier cluster may still name its swarm
        await copyImage(manager, worker, DEFAULT_IMAGE, `node${k}`, log);
        log(`node${k}: joining as a worker on ${addr}`);
        await worker.swarmJoin({ ListenAddr: `${addr}:2377`, AdvertiseAddr: addr, RemoteAddrs: ["127.0.0.1:2377"], JoinToken: swarm.JoinTokens.Worker });
        const id = ((await worker.info()) as { Swarm: { NodeID: string } }).Swarm.NodeID;
        await labelNode(manager, id, `node${k}`);
      }
    } catch (e) {
      await swarmCluster.down({ log }).catch(() => {});
      throw e;
    }
    return state;
  },

  async down({ log = () => {} } = {}) {
    const state = readState();
    if (!state) return { stopped: [], state: null };
    const stopped: string[] = [];
    const [head, ...workers] = state.nodes;
    for (const n of workers) {
      if (n.endpoint && alive(n.pid, n.endpoint)) await leave(dockerClient(n.endpoint));
      if (n.pid !== null && (await stopPid(n.pid, n.endpoint))) {
        log(`${n.name}: dockerd ${n.pid} stopped`);
        stopped.push(n.name);
      }
      if (n.root) {
        const killed = killLeftovers(`${n.root}/`);
        if (killed.length) log(`${n.name}: killed ${killed.length} process(es) its engine left behind (${killed.join(", ")})`);
      }
    }
    if (head?.endpoint) {
      const manager = dockerClient(head.endpoint);
      if (await answers(manager)) {
        const left = (await manager.listServices({ filters: JSON.stringify({ label: [SERVICE_LABEL] }) }).catch(() => [])) as { ID: string }[];
        await Promise.all(left.map((s) => manager.getService(s.ID).remove().catch(() => {})));
        await leave(manager);
        log(`${head.name}: left the swarm`);
      }
      if (state.extra.managerStartedByUp && head.pid !== null && (await stopPid(head.pid, head.endpoint))) {
        log(`${head.name}: dockerd ${head.pid} stopped`);
        stopped.push(head.name);
      }
    }
    rmSync(stateFile(), { force: true });
    return { stopped, state };
  },
};
