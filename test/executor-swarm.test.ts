// The swarm executor on a real two-node Docker Swarm on this machine (`cluster up --engine swarm
// --nodes 2`: the lab's engine as manager, a second dockerd on 127.0.0.2): the local Docker
// sandbox's containment (checked from inside and from the host), the red-team containment rows of
// test/redteam/table.ts, the same rewards as the local pool for golden and wrong bodies, and no job
// lost when a node is stopped mid-batch; DiLoCo ranks as swarm jobs meeting only through s3rver
// (the same parameters as local ranks; a rank whose container is killed mid-round is dropped), the
// host network they need given only on request; `train` and `outer run --executor swarm` grading as
// the local run of the same seed does. `cluster down` must leave nothing running.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalExecutor, gradeMany, labCommandJob, NODE_INSIDE, type Executor, type GradeItem } from "../lib/executor/index.js";
import { CLUSTER_ROOT, swarmCluster } from "../lib/executor/swarm-cluster.js";
import { SERVICE_LABEL, SwarmExecutor, readyNodes } from "../lib/executor/swarm.js";
import { BwrapSandbox, DEFAULT_IMAGE, dockerClient, dockerSocketPath, sandboxHostIds } from "../lib/sandbox/index.js";
import { openStore } from "../lib/store/index.js";
import { loadTask, readIndex } from "../lib/tasks/index.js";
import { ROOT, cli, cliAsync, oneJson } from "./helpers.js";
import { expectOuterLikeLocal, expectTrainLikeLocal } from "./support/cluster-loops.js";
import { describeContainmentRows } from "./support/containment.js";
import { S3RVER_CREDENTIALS, expectRankTwoDropped, s3rverBucket } from "./support/diloco.js";
import { wrongDiff } from "./support/wrong-body.js";

// A private, world-traversable temp root: the jobs' folders live here, and the harness-overwrite
// check looks for planted files in it.
const PRIVATE_TMP = mkdtempSync("/tmp/executor-swarm-tmp-");
chmodSync(PRIVATE_TMP, 0o755);
process.env.TMPDIR = PRIVATE_TMP;

let why: string | null = null;
let ex: SwarmExecutor;

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

  describeContainmentRows("swarm", () => ex, PRIVATE_TMP, () => why);

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

  it("gives the host network only to a job that asks for it (containment otherwise the same); executors that cannot give it fail such a job at once", async (ctx) => {
    if (why) return ctx.skip(why);
    const wd = scratch();
    const probe = `const fs = require("fs"); const st = fs.readFileSync("/proc/self/status", "utf8");
let wrote = false; try { fs.writeFileSync("/usr/x", "x"); wrote = true; } catch {}
console.log(JSON.stringify({ uid: process.getuid(), net: fs.readdirSync("/sys/class/net").sort(), caps: /CapEff:\\s*(\\w+)/.exec(st)[1], nnp: /NoNewPrivs:\\s*(\\d)/.exec(st)[1], wrote }));`;
    const { mounts } = labCommandJob({ id: "x", args: [], workdir: wd });
    const [host, none] = await ex.submit([
      { id: "host", command: [NODE_INSIDE, "-e", probe], workdir: wd, mounts, network: "host" },
      { id: "none", command: [NODE_INSIDE, "-e", probe], workdir: wd, mounts },
    ]).results();
    const seen = [host!, none!].map((r) => {
      expect(r.status, r.error ?? "").toBe("done");
      expect(r.run!.exitCode, r.run!.stderr).toBe(0);
      return JSON.parse(r.run!.stdout) as { uid: number; net: string[]; caps: string; nnp: string; wrote: boolean };
    });
    for (const p of seen) expect(p).toMatchObject({ uid: sandboxHostIds().uid, caps: "0000000000000000", nnp: "1", wrote: false });
    expect(seen[1]!.net).toEqual(["lo"]);
    expect(seen[0]!.net.length).toBeGreaterThan(1);
    const local = new LocalExecutor(new BwrapSandbox(), { concurrency: 1 });
    const [refused] = await local.submit([{ id: "host", command: "true", workdir: wd, network: "host" }]).results();
    expect(refused).toMatchObject({ status: "failed", attempts: 0, run: null });
    expect(refused!.error).toMatch(/network "host": this executor gives its jobs only none/);
  }, 300_000);

  describe("the RL and OUTER loops grading on the swarm (train / outer run --executor swarm)", () => {
    it("a 1-step FD-micro RL run graded on the swarm gives the same grade for every completion as the local run of the same seed", async (ctx) => {
      if (why) return ctx.skip(why);
      await expectTrainLikeLocal("swarm", ["node0", "node1"], scratch);
    }, 600_000);

    it("outer run --executor swarm grades the trees' steps and leaves on the swarm, with the same trees as locally", async (ctx) => {
      if (why) return ctx.skip(why);
      await expectOuterLikeLocal("swarm", ["node0", "node1"], scratch);
    }, 600_000);
  });

  describe("DiLoCo ranks as swarm jobs over s3rver", () => {
    let s3: Awaited<ReturnType<typeof s3rverBucket>> | undefined;
    let env: Record<string, string>;
    beforeAll(async () => {
      if (why) return;
      s3 = await s3rverBucket(mkdtempSync(join(PRIVATE_TMP, "s3rver-")), "lab-diloco");
      env = s3.env;
    });
    afterAll(async () => {
      await s3?.server.close();
    });
    const config = (cfg: object): string => {
      const file = join(scratch(), "diloco.json");
      writeFileSync(file, JSON.stringify(cfg));
      return file;
    };
    const diloco = (executor: string, store: string, cfgFile: string, extra: string[] = []) =>
      cliAsync(["diloco", "--workers", "3", "--executor", executor, "--store", store, "--config", cfgFile, "--run", "r", "--json", ...extra], { env });

    it("3 ranks on the swarm reach the parameters of 3 local ranks (H = 1, outer lr 1: within 1e-5), on both nodes", async (ctx) => {
      if (why) return ctx.skip(why);
      // the straggler timeout is generous: this test is about the arithmetic, and the machine is loaded
      const cfgFile = config({ rounds: 4, inner_steps: 1, outer_lr: 1, momentum: 0, inner_lr: 0.05, batch: 16, timeout_s: 150 });
      const onSwarm = await diloco("swarm", "s3://lab-diloco/swarm-eq", cfgFile);
      expect(onSwarm.code, onSwarm.stderr.slice(-3000)).toBe(0);
      const onLocal = await diloco("local", "s3://lab-diloco/local-eq", cfgFile);
      expect(onLocal.code, onLocal.stderr.slice(-3000)).toBe(0);
      const [s, l] = [oneJson(onSwarm.stdout), oneJson(onLocal.stdout)];
      expect(s).toMatchObject({ ok: true, executor: "swarm", rounds: 4, workers: 3, droppedRanks: [], failedWorkers: [] });
      expect(l).toMatchObject({ ok: true, executor: "local", rounds: 4, workers: 3, droppedRanks: [] });
      expect(s.params.length).toBe(l.params.length);
      s.params.forEach((p: number, i: number) => expect(p).toBeCloseTo(l.params[i], 5));
      expect(s.loss).toBeCloseTo(l.loss, 5);
      expect(s.lossHistory[4]).toBeLessThan(s.lossHistory[0]);
      const nodes = new Set(s.exits.map((e: { how: string }) => /on (node\d)/.exec(e.how)?.[1]));
      expect(nodes).toEqual(new Set(["node0", "node1"]));
      // no rank's service is left behind (the swarm's other services are other tests' jobs, running
      // beside this one: a CI run saw one)
      const left = (await ex.docker.listServices({ filters: JSON.stringify({ label: [SERVICE_LABEL] }) })) as { Spec?: { Labels?: Record<string, string> } }[];
      expect(left.filter((x) => /^rank\d+$/.test(x.Spec?.Labels?.["composer-lab.job"] ?? ""))).toEqual([]);
      console.error(`diloco 3 ranks, 4 rounds: swarm ${s.seconds.toFixed(1)} s, local ${l.seconds.toFixed(1)} s`);
    }, 600_000);

    it("completes every round when a rank's container is killed mid-round: the rank is dropped from then on", async (ctx) => {
      if (why) return ctx.skip(why);
      const cfgFile = config({ rounds: 4, inner_steps: 2, timeout_s: 20, poll_ms: 100 });
      const store = openStore("s3://lab-diloco/swarm-kill", { endpoint: s3!.endpoint, credentials: S3RVER_CREDENTIALS });
      const prefix = "runs/r/diloco_rendezvous";
      const run = diloco("swarm", "s3://lab-diloco/swarm-kill", cfgFile, ["--inner-delay-ms", "1500"]);
      // once round 1 is committed (every rank alive), kill rank 2's container in the middle of round 2
      const nodes = (await swarmCluster.status())!.nodes;
      let killed = "";
      const deadline = Date.now() + 240_000;
      while (!killed && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 300));
        if (!(await store.exists(`${prefix}/round_000001/commit.json`))) continue;
        const [service] = (await ex.docker.listServices({ filters: JSON.stringify({ label: ["composer-lab.job=rank2"] }) })) as { ID: string }[];
        if (!service) continue;
        // the store's credentials reach the rank through its root-only spec file, not the service's spec
        expect(JSON.stringify(await ex.docker.getService(service.ID).inspect())).not.toMatch(/AWS_|S3RVER/);
        const tasks = (await ex.docker.listTasks({ filters: JSON.stringify({ service: [service.ID] }) })) as { NodeID: string; Status: { State: string; ContainerStatus?: { ContainerID?: string } } }[];
        const task = tasks.find((t) => t.Status.State === "running" && t.Status.ContainerStatus?.ContainerID);
        if (!task) continue;
        const node = ((await ex.docker.getNode(task.NodeID).inspect()) as { Spec: { Labels: Record<string, string> } }).Spec.Labels["composer-lab.node"];
        const engine = dockerClient(nodes.find((n) => n.name === node)!.endpoint!);
        await engine.getContainer(task.Status.ContainerStatus!.ContainerID!).kill({ signal: "SIGKILL" });
        killed = `${node}:${task.Status.ContainerStatus!.ContainerID!.slice(0, 12)}`;
      }
      expect(killed).not.toBe("");
      const r = await run;
      expect(r.code, r.stderr.slice(-3000)).toBe(0);
      const out = oneJson(r.stdout);
      expect(out).toMatchObject({ ok: true, executor: "swarm", rounds: 4, workers: 3, failedWorkers: [2] });
      expect(out.exits.find((e: { rank: number }) => e.rank === 2).how).toMatch(/^failed: lost 1 time\(s\)/);
      expect(out.exits.filter((e: { rank: number; code: number }) => e.rank !== 2).map((e: { code: number }) => e.code)).toEqual([0, 0]);
      const s = await expectRankTwoDropped(store, prefix);
      console.error(`diloco rank 2 killed (${killed}) mid-round: ${out.seconds.toFixed(1)} s, dropped ${JSON.stringify(s.droppedRanks)}`);
    }, 420_000);
  });

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
