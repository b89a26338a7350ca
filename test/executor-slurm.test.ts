// The slurm executor on a real Slurm cluster on this machine (munged, slurmctld and two slurmd on
// 127.0.0.1 / 127.0.0.2, started by SlurmCluster in a private folder): jobs run in the local bwrap
// sandbox on both nodes, cancel and timeouts, the red-team containment rows of
// test/redteam/table.ts, the same rewards as the local pool, no job lost when a node dies
// mid-batch, DiLoCo ranks as a Slurm array meeting only through s3rver (a rank killed mid-round is
// dropped), `train` and `outer run --executor slurm` grading as the local run does (and a SIGTERMed
// train leaving no job queued), and `cluster down` leaving nothing running.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalExecutor, gradeMany, type GradeItem } from "../lib/executor/index.js";
import { SlurmCluster, missingBinaries } from "../lib/executor/slurm-cluster.js";
import { SlurmExecutor } from "../lib/executor/slurm.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { openStore } from "../lib/store/index.js";
import { loadTask, readIndex } from "../lib/tasks/index.js";
import { ROOT, cli, cliAsync, oneJson } from "./helpers.js";
import { expectOuterLikeLocal, expectTrainLikeLocal, tinyTrainConfig } from "./support/cluster-loops.js";
import { describeContainmentRows } from "./support/containment.js";
import { S3RVER_CREDENTIALS, expectRankTwoDropped, s3rverBucket } from "./support/diloco.js";
import { wrongDiff } from "./support/wrong-body.js";

// A private, world-traversable temp root: jobs' folders, and where harness-overwrite looks.
const PRIVATE_TMP = mkdtempSync("/tmp/executor-slurm-tmp-");
chmodSync(PRIVATE_TMP, 0o755);
process.env.TMPDIR = PRIVATE_TMP;
const DIR = join(PRIVATE_TMP, "cluster");
// the CLI (cluster status, diloco --executor slurm) finds this cluster through it
process.env.COMPOSER_LAB_SLURM_DIR = DIR;

let why: string | null = null;
let cluster: SlurmCluster;
let ex: SlurmExecutor;

beforeAll(async () => {
  const missing = await missingBinaries();
  if (process.getuid?.() !== 0) why = "not root (munged runs as user munge, slurmd as root)";
  else if (missing.length) why = `Slurm not installed (${missing.join(", ")}): apt-get install slurm-wlm munge`;
  if (why) {
    console.error(`executor-slurm: skipped: ${why}`);
    return;
  }
  cluster = new SlurmCluster({ dir: DIR });
  await cluster.up({ nodes: 2, log: (m) => console.error(`[cluster] ${m}`) });
  ex = SlurmExecutor.forCluster(cluster, { pollMs: 200 });
}, 180_000);

afterAll(async () => {
  if (!why) {
    await ex?.close();
    const r = await cluster.down({ log: (m) => console.error(`[cluster] ${m}`) });
    expect(r.stopped.join("; ")).toMatch(/slurmd node1.*slurmctld.*munged/);
    // nothing the cluster started may still run (daemons and job steps name its folder)
    const left = spawnSync("pgrep", ["-af", DIR], { encoding: "utf8" }).stdout.trim();
    expect(left, "processes of the cluster after down()").toBe("");
  }
  rmSync(PRIVATE_TMP, { recursive: true, force: true });
}, 120_000);

const scratch = (): string => {
  const d = mkdtempSync(join(PRIVATE_TMP, "wd-"));
  chmodSync(d, 0o755);
  return d;
};

describe("slurm executor", () => {
  it("cluster up: two idle nodes on 127.0.0.1 / 127.0.0.2 with their own ports and spools; up again is a no-op; `cluster status` reports them", async (ctx) => {
    if (why) return ctx.skip(why);
    const state = (await cluster.status())!;
    const computes = state.nodes.filter((n) => n.role === "compute");
    expect(computes.map((n) => [n.name, n.address])).toEqual([["node1", "127.0.0.1"], ["node2", "127.0.0.2"]]);
    expect(new Set(computes.map((n) => n.endpoint!.split(":")[1])).size).toBe(2);
    expect(new Set(computes.map((n) => n.root)).size).toBe(2);
    const again = await cluster.up({ nodes: 2 });
    expect(again.nodes.map((n) => n.pid)).toEqual(state.nodes.map((n) => n.pid));
    await expect(cluster.up({ nodes: 3 })).rejects.toThrow(/already up/);
    const st = cli(["cluster", "status", "--engine", "slurm", "--json"]);
    expect(st.code, st.stderr).toBe(0);
    expect(oneJson(st.stdout)).toMatchObject({ ok: true, up: true, engine: "slurm", nodes: [{ role: "controller" }, { name: "node1" }, { name: "node2" }] });
    expect(execFileSync("sinfo", ["-h", "-N", "-o", "%N %t"], { env: { ...process.env, ...cluster.env() }, encoding: "utf8" }).trim().split("\n")).toEqual(["node1 idle", "node2 idle"]);
    expect(await ex.check()).toMatchObject({ ok: true });
  }, 120_000);

  it("runs jobs on both nodes in the local sandbox: the sandbox user, no capabilities, no_new_privs, only lo, read-only root; per-job status", async (ctx) => {
    if (why) return ctx.skip(why);
    const probe = `
import os, socket
st = dict(l.split(":\\t", 1) for l in open("/proc/self/status").read().splitlines() if ":\\t" in l)
print("uid", os.getuid(), "caps", st["CapEff"].strip(), "nnp", st["NoNewPrivs"].strip())
print("net", sorted(os.listdir("/sys/class/net")) if os.path.exists("/sys/class/net") else [i[1] for i in socket.if_nameindex()])
print("host", socket.gethostname())
for p in ["/usr/x", "/etc/x", "/x"]:
    try:
        open(p, "w"); print("WROTE", p)
    except OSError:
        print("denied", p)
print("rank", os.environ.get("RANK"))
`;
    // one job per array task, so both nodes get some
    const one = SlurmExecutor.forCluster(cluster, { pollMs: 200, jobsPerTask: 1 });
    try {
      const batch = one.submit(Array.from({ length: 6 }, (_, i) => ({ id: `probe${i}`, command: ["python3", "-c", probe], workdir: scratch(), env: { RANK: String(i) }, limits: { timeoutMs: 60_000 } })));
      expect(batch.statuses().map((s) => s.status)).toEqual(Array(6).fill("queued"));
      const rs = await batch.results();
      rs.forEach((r, i) => {
        expect(r.status, r.error ?? "").toBe("done");
        expect(r.run!.exitCode, r.run!.stderr).toBe(0);
        expect(r.run!.sandbox).toBe("bwrap");
        const out = r.run!.stdout;
        expect(out).toContain("uid 1000 caps 0000000000000000 nnp 1");
        expect(out).toContain("net ['lo']");
        expect(out).toContain("host sandbox");
        expect(out).not.toContain("WROTE");
        expect(out).toContain(`rank ${i}`);
      });
      expect(new Set(rs.map((r) => r.node))).toEqual(new Set(["node1", "node2"]));
      expect(batch.statuses().every((s) => s.status === "done" && s.attempts === 1)).toBe(true);
    } finally {
      await one.close();
    }
  }, 300_000);

  it("timeouts kill the job; cancel scancels running tasks and reports them cancelled, leaving no process", async (ctx) => {
    if (why) return ctx.skip(why);
    const marker = 5100 + Math.floor(Math.random() * 500);
    const [slow] = await ex.submit([{ id: "slow", command: ["sleep", "30"], workdir: scratch(), limits: { timeoutMs: 1500 } }]).results();
    expect(slow!.status).toBe("done");
    expect(slow!.run!.timedOut).toBe(true);
    const batch = ex.submit(Array.from({ length: 3 }, (_, i) => ({ id: `c${i}`, command: ["sleep", `${marker}.${i}`], workdir: scratch() })));
    while (!spawnSync("pgrep", ["-f", `${marker}\\.`]).stdout.length) await new Promise((r) => setTimeout(r, 200));
    await batch.cancel("test");
    const rs = await batch.results();
    expect(rs.map((r) => r.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    let left = "";
    for (let i = 0; i < 50; i++) {
      left = spawnSync("pgrep", ["-af", `${marker}\\.`], { encoding: "utf8" }).stdout.trim();
      if (!left) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(left).toBe("");
  }, 300_000);

  describeContainmentRows("slurm", () => ex, PRIVATE_TMP, () => why);

  it("grades with the same rewards as the local pool: golden 1, wrong 0, the same per-test outcomes", async (ctx) => {
    if (why) return ctx.skip(why);
    const pool = join(ROOT, "datasets", "fd-micro", "pool");
    const tasks = [loadTask(join(ROOT, "datasets", "tasks"), "inventory-reserve"), ...readIndex(pool).slice(0, 2).map((e) => loadTask(pool, e.task_id))];
    const items: GradeItem[] = tasks.flatMap((task) => [{ task, completion: task.golden_diff, label: "golden" }, { task, completion: wrongDiff(task.golden_diff), label: "wrong" }]);
    const summary = (gs: Awaited<ReturnType<typeof gradeMany>>) => gs.map((g) => ({ task: g.task_id, label: g.label, reward: g.reward, frac: g.frac, guardOk: g.guardOk, flags: g.flags, error: g.error, tests: g.perTest.map((t) => `${t.nodeid}=${t.outcome}`) }));
    const local = new LocalExecutor(new BwrapSandbox(), { concurrency: 2 });
    const [onSlurm, onLocal] = await Promise.all([gradeMany(items, ex), gradeMany(items, local)]);
    expect(summary(onSlurm)).toEqual(summary(onLocal));
    expect(onSlurm.map((g) => [g.task_id, g.label, g.reward])).toEqual(tasks.flatMap((t) => [[t.task_id, "golden", 1], [t.task_id, "wrong", 0]]));
  }, 600_000);

  describe("the RL and OUTER loops grading on the cluster (train / outer run --executor slurm)", () => {
    it("a 1-step FD-micro RL run graded on the cluster gives the same grade for every completion as the local run of the same seed", async (ctx) => {
      if (why) return ctx.skip(why);
      await expectTrainLikeLocal("slurm", ["node1", "node2"], scratch);
    }, 600_000);

    it("outer run --executor slurm grades the trees' steps and leaves on the cluster, with the same trees as locally", async (ctx) => {
      if (why) return ctx.skip(why);
      await expectOuterLikeLocal("slurm", ["node1", "node2"], scratch);
    }, 600_000);

    it("a train run stopped by SIGTERM cancels its jobs on the cluster before it exits", async (ctx) => {
      if (why) return ctx.skip(why);
      const slurmEnv = { ...process.env, ...cluster.env() };
      const queued = () => execFileSync("squeue", ["-h", "-n", "composer-lab", "-o", "%i"], { env: slurmEnv, encoding: "utf8" }).trim();
      expect(queued()).toBe("");
      const child = spawn(process.execPath, [join(ROOT, "bin", "composer-lab.js"), "train", "--config", tinyTrainConfig(scratch()), "--run-dir", join(scratch(), "run-killed"), "--executor", "slurm", "--json"], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (d: Buffer) => (stderr += d));
      const exited = new Promise<NodeJS.Signals | number | null>((r) => child.on("exit", (code, sig) => r(sig ?? code)));
      const deadline = Date.now() + 240_000;
      while (!queued() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(queued(), stderr).not.toBe("");
      child.kill("SIGTERM");
      expect(await exited).toBe("SIGTERM");
      expect(stderr).toContain("SIGTERM: closing the slurm executor");
      // scancelled array tasks may show as completing for a moment
      for (let i = 0; i < 50 && queued(); i++) await new Promise((r) => setTimeout(r, 200));
      expect(queued()).toBe("");
    }, 300_000);
  });

  describe("DiLoCo ranks as a Slurm job array over s3rver", () => {
    let s3: Awaited<ReturnType<typeof s3rverBucket>> | undefined;
    beforeAll(async () => {
      if (why) return;
      s3 = await s3rverBucket(mkdtempSync(join(PRIVATE_TMP, "s3rver-")), "lab-diloco");
    });
    afterAll(async () => {
      await s3?.server.close();
    });

    it("completes every round when a rank is killed mid-round (scancel of its array task): the rank is dropped from then on", async (ctx) => {
      if (why) return ctx.skip(why);
      const cfgFile = join(scratch(), "diloco.json");
      // generous for the ranks' start-up on a loaded machine; short enough to drop the dead rank quickly
      writeFileSync(cfgFile, JSON.stringify({ rounds: 4, inner_steps: 2, timeout_s: 20, poll_ms: 100 }));
      const store = openStore("s3://lab-diloco/slurm", { endpoint: s3!.endpoint, credentials: S3RVER_CREDENTIALS });
      const prefix = "runs/k/diloco_rendezvous";
      const run = cliAsync(["diloco", "--workers", "3", "--executor", "slurm", "--store", "s3://lab-diloco/slurm", "--config", cfgFile, "--run", "k", "--inner-delay-ms", "1500", "--json"], { env: s3!.env });
      // once round 1 is committed (every rank alive), kill rank 2 in the middle of round 2
      let killed = "";
      const deadline = Date.now() + 240_000;
      while (!killed && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 300));
        if (!(await store.exists(`${prefix}/round_000001/commit.json`))) continue;
        const ids = execFileSync("squeue", ["-h", "-r", "-n", "composer-lab-diloco", "-t", "RUNNING", "-o", "%i"], { env: { ...process.env, ...cluster.env() }, encoding: "utf8" }).split("\n").filter((l) => l.endsWith("_2"));
        if (ids.length) {
          execFileSync("scancel", ["--signal=KILL", ids[0]!], { env: { ...process.env, ...cluster.env() } });
          killed = ids[0]!;
        }
      }
      expect(killed).not.toBe("");
      const r = await run;
      expect(r.code, r.stderr.slice(-3000)).toBe(0);
      const out = oneJson(r.stdout);
      expect(out).toMatchObject({ ok: true, executor: "slurm", rounds: 4, workers: 3 });
      expect(out.exits.find((e: { rank: number }) => e.rank === 2).code).not.toBe(0);
      expect(out.exits.filter((e: { rank: number; code: number }) => e.rank !== 2).map((e: { code: number }) => e.code)).toEqual([0, 0]);
      await expectRankTwoDropped(store, prefix);
    }, 420_000);
  });

  // last: it kills a node
  it("loses no job when a node dies mid-batch: its tasks are cancelled and the jobs re-run on the other node", async (ctx) => {
    if (why) return ctx.skip(why);
    const one = SlurmExecutor.forCluster(cluster, { pollMs: 200, jobsPerTask: 1 });
    try {
      const batch = one.submit(Array.from({ length: 8 }, (_, i) => ({ id: `n${i}`, command: `sleep 4; echo done ${i}`, workdir: scratch(), limits: { timeoutMs: 120_000 } })));
      while (!batch.statuses().some((s) => s.node === "node2")) await new Promise((r) => setTimeout(r, 100));
      const killed = await cluster.killNode("node2");
      expect(killed.length).toBeGreaterThan(0);
      const rs = await batch.results();
      expect(rs.map((r) => [r.id, r.status, r.run?.stdout])).toEqual(rs.map((_, i) => [`n${i}`, "done", `done ${i}\n`]));
      const moved = rs.filter((r) => r.lost.length > 0);
      expect(moved.length).toBeGreaterThan(0);
      for (const r of moved) {
        expect(r.lost[0]!.node).toBe("node2");
        expect(r.node).toBe("node1");
        expect(r.attempts).toBe(r.lost.length + 1);
      }
      console.error(`node loss: ${moved.length} of ${rs.length} jobs re-run on node1 (${moved.map((r) => `${r.id}: ${r.lost[0]!.why}`).join("; ")})`);
    } finally {
      await one.close();
    }
  }, 300_000);
});
