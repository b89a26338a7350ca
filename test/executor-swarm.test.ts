// The swarm executor on a real two-node Docker Swarm on this machine (`cluster up --engine swarm
// --nodes 2`: the lab's engine as manager, a second dockerd on 127.0.0.2): the local Docker
// sandbox's containment (checked from inside and from the host), the red-team containment rows of
// test/redteam/table.ts, the same rewards as the local pool for golden and wrong bodies, and no job
// lost when a node is stopped mid-batch. `cluster down` must leave nothing running.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeatureDeletionEnv } from "../lib/env/index.js";
import { LocalExecutor, gradeMany, type Executor, type GradeItem } from "../lib/executor/index.js";
import { CLUSTER_ROOT, swarmCluster } from "../lib/executor/swarm-cluster.js";
import { SwarmExecutor, readyNodes } from "../lib/executor/swarm.js";
import { BwrapSandbox, DEFAULT_IMAGE, dockerClient, dockerSocketPath, sandboxHostIds, type Sandbox } from "../lib/sandbox/index.js";
import { fileDiff, loadTask, readIndex } from "../lib/tasks/index.js";
import { REDTEAM_ATTEMPTS } from "./redteam/table.js";
import { ROOT, cli, oneJson } from "./helpers.js";
import { wrongDiff } from "./support/wrong-body.js";

// A private, world-traversable temp root: the jobs' folders live here, and the harness-overwrite
// check looks for planted files in it.
const PRIVATE_TMP = mkdtempSync("/tmp/executor-swarm-tmp-");
chmodSync(PRIVATE_TMP, 0o755);
process.env.TMPDIR = PRIVATE_TMP;

let why: string | null = null;
let ex: SwarmExecutor;
let sb: Sandbox;

beforeAll(async () => {
  try {
    const docker = dockerClient(dockerSocketPath());
    await docker.ping();
    await docker.getImage(DEFAULT_IMAGE).inspect();
  } catch (e) {
    why = `no Docker engine with ${DEFAULT_IMAGE} (${(e as Error).message.split("\n")[0]})`;
    console.error(`executor-swarm: skipped: ${why}`);
    return;
  }
  await swarmCluster.up({ nodes: 2, log: (m) => console.error(`[cluster] ${m}`) });
  ex = new SwarmExecutor({ concurrency: 4 });
  sb = ex.asSandbox();
}, 600_000);

afterAll(async () => {
  if (!why) {
    await ex?.close();
    await swarmCluster.down({ log: (m) => console.error(`[cluster] ${m}`) });
    // nothing the cluster started may still run
    const left = spawnSync("pgrep", ["-f", `${CLUSTER_ROOT}/`], { encoding: "utf8" }).stdout.trim();
    expect(left, "processes of the cluster's nodes after `cluster down`").toBe("");
  }
  rmSync(PRIVATE_TMP, { recursive: true, force: true });
}, 300_000);

const scratch = (): string => {
  const d = mkdtempSync(join(PRIVATE_TMP, "wd-"));
  chmodSync(d, 0o755);
  return d;
};
const pidsOf = (marker: string): number[] => spawnSync("pgrep", ["-f", marker], { encoding: "utf8" }).stdout.split("\n").filter(Boolean).map(Number).filter((p) => p !== process.pid);

describe("swarm executor", () => {
  it("cluster up: two ready nodes, labelled; up again is a no-op; `cluster status --json` reports them", async (ctx) => {
    if (why) return ctx.skip(why);
    const nodes = await readyNodes(ex.docker);
    expect(nodes.map((n) => n.name).sort()).toEqual(["node0", "node1"]);
    const again = await swarmCluster.up({ nodes: 2 });
    expect(again.nodes.map((n) => [n.name, n.address, n.role])).toEqual([["node0", "127.0.0.1", "manager"], ["node1", "127.0.0.2", "worker"]]);
    const status = cli(["cluster", "status", "--engine", "swarm", "--json"]);
    expect(status.code).toBe(0);
    expect(oneJson(status.stdout)).toMatchObject({ ok: true, up: true, engine: "swarm", nodes: [{ name: "node0" }, { name: "node1", pid: again.nodes[1]!.pid }] });
    expect(await ex.check()).toMatchObject({ ok: true });
  });

  it("fails at once (no retries, no service) a job that no node can hold", async (ctx) => {
    if (why) return ctx.skip(why);
    const [r] = await ex.submit([{ id: "huge", command: "true", workdir: scratch(), limits: { cpus: 64 } }]).results();
    expect(r).toMatchObject({ status: "failed", attempts: 1, run: null });
    expect(r!.error).toMatch(/asks for 64 CPUs; the largest ready node has \d+/);
  });

  it("runs jobs on both nodes under the Docker sandbox's containment: sandbox uid, no capabilities, no_new_privs, lo only, read-only root, limits", async (ctx) => {
    if (why) return ctx.skip(why);
    const wd = scratch();
    const probe = `
import os, socket
st = dict(l.split(":\\t", 1) for l in open("/proc/self/status").read().splitlines() if ":\\t" in l)
print("uid", os.getuid(), os.geteuid(), "gid", os.getgid())
print("caps", st["CapEff"].strip(), st["CapPrm"].strip(), st["CapBnd"].strip(), "nnp", st["NoNewPrivs"].strip())
print("net", sorted(os.listdir("/sys/class/net")))
print("host", socket.gethostname())
for p in ["/usr/x", "/etc/x", "/x"]:
    try:
        open(p, "w"); print("WROTE", p)
    except OSError as e:
        print("denied", p)
open("/tmp/ok", "w").write("tmp is writable")
print("mem", open("/sys/fs/cgroup/memory/memory.limit_in_bytes").read().strip() if os.path.exists("/sys/fs/cgroup/memory/memory.limit_in_bytes") else open("/sys/fs/cgroup/memory.max").read().strip())
`;
    const batch = ex.submit(Array.from({ length: 6 }, (_, i) => ({ id: `probe${i}`, command: ["python3", "-c", probe], workdir: wd, limits: { memoryMb: 300, timeoutMs: 60_000 } })));
    const rs = await batch.results();
    const ids = sandboxHostIds();
    for (const r of rs) {
      expect(r.status, r.error ?? "").toBe("done");
      expect(r.run!.exitCode, r.run!.stderr).toBe(0);
      const out = r.run!.stdout;
      expect(out).toContain(`uid ${ids.uid} ${ids.uid} gid ${ids.gid}`);
      expect(out).toContain("caps 0000000000000000 0000000000000000");
      expect(out).toMatch(/nnp 1/);
      expect(out).toContain("net ['lo']");
      expect(out).toContain("host sandbox");
      expect(out).not.toContain("WROTE");
      expect(out).toContain(`mem ${300 * 1024 * 1024}`);
      expect(r.run!.sandbox).toBe("docker");
    }
    expect(ids.uid).not.toBe(0);
    expect(new Set(rs.map((r) => r.node))).toEqual(new Set(["node0", "node1"]));
  }, 300_000);

  describe("red-team containment rows (test/redteam/table.ts) through the swarm executor", () => {
    const checks: Record<string, () => Promise<string[]>> = {
      "contain-network": async () => {
        const conns: Socket[] = [];
        const server = createServer((s) => {
          conns.push(s);
          s.destroy();
        });
        await new Promise<void>((r) => server.listen(0, "0.0.0.0", () => r()));
        const port = (server.address() as { port: number }).port;
        const hosts = [...new Set(["127.0.0.1", "127.0.0.2", ...Object.values(networkInterfaces()).flat().filter((i) => i?.family === "IPv4").map((i) => i!.address)])];
        try {
          const r = await sb.run(["python3", "-c", `
import socket
for h in ${JSON.stringify(hosts)} + ["1.1.1.1"]:
    try:
        socket.create_connection((h, ${port} if h != "1.1.1.1" else 80), timeout=2); print("CONNECTED", h)
    except OSError as e:
        print("refused", h)
try:
    socket.getaddrinfo("deb.debian.org", 80); print("RESOLVED")
except OSError:
    print("dns failed")
`], { workdir: scratch(), timeoutMs: 60_000 });
          await new Promise((res) => setTimeout(res, 200));
          return [...(conns.length ? [`the host listener got ${conns.length} connection(s)`] : []), ...r.stdout.split("\n").filter((l) => /CONNECTED|RESOLVED/.test(l))];
        } finally {
          server.close();
        }
      },
      "contain-env-secrets": async () => {
        const secret = `rt-env-${randomBytes(8).toString("hex")}`;
        process.env.EXECUTOR_HOST_SECRET = secret;
        try {
          const r = await sb.run(["python3", "-c", "import glob, os\nprint(dict(os.environ))\nfor p in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):\n    try: print(p, open(p, 'rb').read())\n    except OSError: pass\n"], { workdir: scratch(), timeoutMs: 30_000 });
          return (r.stdout + r.stderr).includes(secret) ? ["a host environment secret is visible inside"] : [];
        } finally {
          delete process.env.EXECUTOR_HOST_SECRET;
        }
      },
      "contain-fork-bomb": async () => {
        const marker = 4300 + Math.floor(Math.random() * 600);
        const t0 = performance.now();
        const r = await sb.run(["python3", "-c", `
import os, time
n = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(${marker}.5); os._exit(0)
        n += 1
except OSError:
    print("fork refused after", n)
`], { workdir: scratch(), pids: 64, timeoutMs: 10_000 });
        await new Promise((res) => setTimeout(res, 500));
        const out: string[] = [];
        if (performance.now() - t0 > 60_000) out.push("the run took more than 60 s");
        if (pidsOf(`${marker}.5`).length) out.push("forked processes survived the run");
        if (!/fork refused after \d+/.test(r.stdout) && !r.timedOut) out.push(`no fork was refused under pids 64: ${r.stdout}`);
        return out;
      },
      "contain-memory-hog": async () => {
        const r = await sb.run(["python3", "-c", "x = bytearray(3 * 1024**3); print('ALLOCATED')"], { workdir: scratch(), memoryMb: 256, timeoutMs: 60_000 });
        return [...(r.stdout.includes("ALLOCATED") || r.exitCode === 0 ? ["3 GB allocated under memoryMb 256"] : []), ...(r.oomKilled || r.signal === "SIGKILL" || /MemoryError/.test(r.stderr) ? [] : [`neither killed nor refused: exit ${r.exitCode}`])];
      },
      "contain-cpu-hog": async () => {
        const t0 = performance.now();
        const r = await sb.run(["python3", "-c", "while True: pass"], { workdir: scratch(), timeoutMs: 1500 });
        // host-side time includes creating and removing the service on a loaded machine
        return [...(r.timedOut ? [] : ["the CPU hog was not stopped at the timeout"]), ...(performance.now() - t0 > 60_000 ? ["the CPU hog's job took over 60 s"] : [])];
      },
      "contain-daemon": async () => {
        const marker = 4600 + Math.floor(Math.random() * 300);
        const r = await sb.run(["python3", "-c", `
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in range(0, 3):
            try: os.close(fd)
            except OSError: pass
        os.execvp("sleep", ["sleep", "${marker}.25"])
    os._exit(0)
time.sleep(0.3)
print("daemonized")
`], { workdir: scratch(), timeoutMs: 20_000 });
        await new Promise((res) => setTimeout(res, 700));
        const alive = pidsOf(`${marker}.25`);
        for (const pid of alive) process.kill(pid, "SIGKILL");
        return [...(r.stdout.includes("daemonized") ? [] : [`the attempt did not run: ${r.stderr}`]), ...(alive.length ? [`a daemon survived the run (pids ${alive.join(",")})`] : [])];
      },
      "contain-write-outside": async () => {
        const tag = `rt-${randomBytes(4).toString("hex")}`;
        const targets = [`/usr/${tag}`, `/etc/${tag}`, `/${tag}`, `/opt/${tag}`, `/work/../${tag}`, `/proc/1/root/${tag}`, "/proc/sys/kernel/hostname", `/sys/${tag}`, `/var/${tag}`, `/root/${tag}`];
        const r = await sb.run(["python3", "-c", `
for p in ${JSON.stringify(targets)}:
    try:
        open(p, "w").write("x"); print("WROTE", p)
    except OSError as e:
        print("denied", p, e.errno)
`], { workdir: scratch(), timeoutMs: 20_000 });
        const out = r.stdout.split("\n").filter((l) => l.startsWith("WROTE"));
        for (const p of [`/usr/${tag}`, `/etc/${tag}`, `/${tag}`, `/opt/${tag}`, `/var/${tag}`, `/root/${tag}`]) if (existsSync(p)) out.push(`${p} appeared on the host`);
        return r.stdout.includes("denied") ? out : [...out, `the attempt did not run: ${r.stderr}`];
      },
      "contain-harness-overwrite": async () => {
        const MARK = "red-team: harness overwritten";
        const t = loadTask(join(ROOT, "datasets", "tasks"), "inventory-reserve");
        const stock = readFileSync(join(FeatureDeletionEnv.snapshotDir(t), "inventory/stock.py"), "utf8");
        const payload = readFileSync(join(ROOT, "test", "redteam", "payloads", "overwrite_harness.py"), "utf8");
        const [g] = await gradeMany([{ task: t, completion: fileDiff("inventory/stock.py", stock, `${stock}\n\n${payload}\n`) }], ex);
        const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.isFile() ? [join(d, e.name)] : []));
        const planted = [join(ROOT, "lib", "sandbox"), PRIVATE_TMP].flatMap((d) => walk(d)).filter((f) => f.endsWith("composer_lab_rt_planted.py") || (statSync(f).size < 4_000_000 && readFileSync(f, "utf8").includes(MARK)));
        return [...(g!.reward !== 0 ? [`reward ${g!.reward}`] : []), ...(planted.length ? [`harness files written on the host: ${planted.join(", ")}`] : [])];
      },
    };
    const rows = REDTEAM_ATTEMPTS.filter((r) => r.class === "containment");
    it("has a swarm check for every containment row of the table", () => {
      expect(rows.map((r) => r.id).filter((id) => !checks[id])).toEqual([]);
    });
    for (const row of rows) {
      it(`${row.id}: contained`, async (ctx) => {
        if (why) return ctx.skip(why);
        expect(await checks[row.id]!(), row.attack).toEqual([]);
      }, 300_000);
    }
  });

  it("grades a pool with the same rewards as the local pool: golden 1, wrong 0, the same per-test outcomes", async (ctx) => {
    if (why) return ctx.skip(why);
    const tasks = [
      loadTask(join(ROOT, "datasets", "tasks"), "inventory-totals"),
      ...readIndex(join(ROOT, "datasets", "fd-micro", "pool")).slice(0, 2).map((e) => loadTask(join(ROOT, "datasets", "fd-micro", "pool"), e.task_id)),
    ];
    const items: GradeItem[] = tasks.flatMap((task) => [{ task, completion: task.golden_diff, label: "golden" }, { task, completion: wrongDiff(task.golden_diff), label: "wrong" }]);
    const summary = (gs: Awaited<ReturnType<typeof gradeMany>>) => gs.map((g) => ({ task: g.task_id, label: g.label, reward: g.reward, frac: g.frac, guardOk: g.guardOk, flags: g.flags, error: g.error, tests: g.perTest.map((t) => `${t.nodeid}=${t.outcome}`) }));
    const local: Executor = new LocalExecutor(new BwrapSandbox(), { concurrency: 2 });
    const [onSwarm, onLocal] = await Promise.all([gradeMany(items, ex), gradeMany(items, local)]);
    expect(summary(onSwarm)).toEqual(summary(onLocal));
    expect(onSwarm.map((g) => [g.task_id, g.label, g.reward])).toEqual(tasks.flatMap((t) => [[t.task_id, "golden", 1], [t.task_id, "wrong", 0]]));
  }, 600_000);

  // last: it stops a node
  it("loses no job when a node is stopped mid-batch: its jobs are re-run on the other node", async (ctx) => {
    if (why) return ctx.skip(why);
    const state = (await swarmCluster.status())!;
    const node1 = state.nodes.find((n) => n.name === "node1")!;
    const wd = scratch();
    const batch = ex.submit(Array.from({ length: 8 }, (_, i) => ({ id: `n${i}`, command: `sleep 3; echo done ${i}`, workdir: wd, limits: { timeoutMs: 60_000 } })));
    while (!batch.statuses().some((s) => s.node === "node1" && s.status === "running")) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000)); // its task is starting or running there
    process.kill(node1.pid!, "SIGTERM"); // the worker's engine stops (as `systemctl stop docker` would)
    const rs = await batch.results();
    expect(rs.map((r) => [r.id, r.status, r.run?.stdout])).toEqual(rs.map((_, i) => [`n${i}`, "done", `done ${i}\n`]));
    const moved = rs.filter((r) => r.lost.length > 0);
    expect(moved.length).toBeGreaterThan(0);
    for (const r of moved) {
      expect(r.lost[0]!.node).toBe("node1");
      expect(r.node).toBe("node0");
      expect(r.attempts).toBe(r.lost.length + 1);
    }
    console.error(`node loss: ${moved.length} of ${rs.length} jobs re-run on node0 (${moved.map((r) => `${r.id}: ${r.lost[0]!.why}`).join("; ")})`);
  }, 600_000);
});
