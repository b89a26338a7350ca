import { spawn } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend/index.js";
import { ToolCallEnvironment } from "../lib/env/index.js";
import { HeldoutSplit, HeldoutViolation, LocalStore, RunLayout, S3Store, openStore, routeGroup, runWorker, summarizeRun, syncDataParallel, type Rollout, type Store } from "../lib/store/index.js";
import { PolicyDilocoModel, demonstrationShards, syncPolicyTraining } from "../lib/train/index.js";
import { ROOT, cliAsync, oneJson, tmp } from "./helpers.js";

let server: S3rver;
let endpoint: string;
const S3_ENV = () => ({ AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_REGION: "us-east-1" });

beforeAll(async () => {
  server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: tmp("s3rver-") });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  const c = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  for (const b of ["lab-store", "lab-diloco"]) await c.send(new CreateBucketCommand({ Bucket: b }));
});
afterAll(async () => {
  await server?.close();
});

const s3 = (prefix: string): Store => new S3Store({ bucket: "lab-store", prefix, endpoint, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });

describe.each([
  ["local", () => new LocalStore(tmp())],
  ["s3 (s3rver on loopback)", () => s3(`t-${Math.random().toString(36).slice(2)}`)],
])("Store: %s", (_name, make) => {
  it("puts, gets, lists and deletes; a missing key is null", async () => {
    const st = make();
    await st.put("runs/a/x.json", "{}");
    await st.put("runs/a/sub/y.bin", new Uint8Array([1, 2, 3]));
    await st.put("runs/b/z.json", "z");
    expect(await st.list("runs/a/")).toEqual(["runs/a/sub/y.bin", "runs/a/x.json"]);
    expect([...(await st.get("runs/a/sub/y.bin"))!]).toEqual([1, 2, 3]);
    expect(await st.get("runs/nope")).toBeNull();
    expect(await st.exists("runs/b/z.json")).toBe(true);
    await st.delete("runs/b/z.json");
    expect(await st.exists("runs/b/z.json")).toBe(false);
    await expect(st.put("../escape", "x")).rejects.toThrow(/bad store key/);
  });
});

describe("LocalStore atomicity", () => {
  it("never exposes a partial object: readers see the old or the new whole file", async () => {
    const root = tmp();
    const st = new LocalStore(root);
    const big = "x".repeat(5_000_000);
    await st.put("k", "old");
    const writes = Array.from({ length: 5 }, (_, i) => st.put("k", big + i));
    const reads: number[] = [];
    for (let i = 0; i < 20; i++) reads.push((await st.get("k"))!.length);
    await Promise.all(writes);
    expect(reads.every((n) => n === 3 || n === 5_000_001)).toBe(true);
    expect(readdirSync(root)).toEqual(["k"]);
  });
});

describe("run layout", () => {
  const rollout = (id: string, task: string, passed: boolean): Rollout => ({
    id, task_id: task, messages: [{ role: "user", content: `fix ${task}` }, { role: "assistant", content: id }], completion: `diff-${id}`, reward: passed ? 1 : 0.2, passed,
  });

  it("routes a group: winners to sft_corpus, losers to wm_tuples and as rejected to dpo_pairs", async () => {
    const run = new RunLayout(new LocalStore(tmp()), "r1", new HeldoutSplit(0, 1));
    const counts = await routeGroup(run, [rollout("a", "t1", true), rollout("b", "t1", false), rollout("c", "t1", false)]);
    await run.flushAll();
    expect(counts).toEqual({ sft: 1, dpo: 2, wm: 3, holdout: 0 });
    expect((await run.read("sft_corpus")).map((x) => x.id)).toEqual(["a"]);
    expect((await run.read("dpo_pairs")).map((x) => [x.chosen, x.rejected])).toEqual([["diff-a", "diff-b"], ["diff-a", "diff-c"]]);
    expect((await run.read("wm_tuples")).map((x) => x.next_state)).toEqual(["passed", "failed", "failed"]);
    // a group with no winner produces no DPO pair and nothing for SFT
    await routeGroup(run, [rollout("d", "t2", false)]);
    await run.flushAll();
    expect((await run.read("sft_corpus")).some((x) => x.task_id === "t2")).toBe(false);
    expect(await run.counts()).toMatchObject({ sft_corpus: 1, dpo_pairs: 2, wm_tuples: 4 });
  });

  it("shards with a manifest written last, on S3 too", async () => {
    const run = new RunLayout(s3("layout"), "r2", new HeldoutSplit(0, 1));
    const w = run.writer("rl_task_pool", 2);
    for (let i = 0; i < 5; i++) await w.add({ id: `t${i}`, task_id: `t${i}`, difficulty_prior: 0.5 });
    await w.flush();
    const m = (await run.manifest("rl_task_pool"))!;
    expect(m.shards.map((s) => s.items)).toEqual([2, 2, 1]);
    expect((await run.read("rl_task_pool")).map((x) => x.id)).toEqual(["t0", "t1", "t2", "t3", "t4"]);
    await expect(w.add({ id: "bad" } as never)).rejects.toThrow();
  });

  it("HeldoutSplit is seeded, stable and disjoint; held-out items cannot enter a training prefix", async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `task-${i}`);
    const a = new HeldoutSplit(0.2, 7).split(ids, (x) => x);
    const b = new HeldoutSplit(0.2, 7).split([...ids].reverse(), (x) => x);
    expect(new Set(a.holdout)).toEqual(new Set(b.holdout));
    expect(a.holdout.filter((x) => a.train.includes(x))).toEqual([]);
    expect(a.holdout.length).toBeGreaterThan(150);
    expect(a.holdout.length).toBeLessThan(250);
    expect(new HeldoutSplit(0.2, 8).split(ids, (x) => x).holdout).not.toEqual(a.holdout);
    const run = new RunLayout(new LocalStore(tmp()), "r3", new HeldoutSplit(0.2, 7));
    const held = a.holdout[0]!;
    await expect(run.writer("sft_corpus").add({ id: "x", task_id: held, messages: [{ role: "user", content: "hi" }], reward: 1 })).rejects.toThrow(HeldoutViolation);
    await expect(run.writer("holdout").add({ id: held })).resolves.toBeUndefined();
    expect(await routeGroup(run, [rollout("z", held, true)])).toEqual({ sft: 0, dpo: 0, wm: 0, holdout: 1 });
  });
});

describe("DiLoCo over a real S3-compatible server", () => {
  it("with H = 1, outer lr 1 and no momentum equals synchronous data-parallel averaging (3 worker processes)", async () => {
    // A generous straggler timeout: this test is about the arithmetic, and CI machines are loaded.
    const cfg = { rounds: 4, inner_steps: 1, outer_lr: 1, momentum: 0, inner_lr: 0.05, batch: 16, timeout_s: 150 };
    const file = join(tmp(), "diloco.json");
    writeFileSync(file, JSON.stringify(cfg));
    const r = await cliAsync(["diloco", "--workers", "3", "--store", "s3://lab-diloco/equiv", "--config", file, "--run", "eq", "--json"], { env: S3_ENV() });
    expect(r.code, r.stderr).toBe(0);
    const out = oneJson(r.stdout);
    expect(out).toMatchObject({ rounds: 4, workers: 3, droppedRanks: [] });
    const expected = Array.from(syncDataParallel(cfg, 3, 4));
    out.params.forEach((p: number, i: number) => expect(p).toBeCloseTo(expected[i]!, 5));
    expect(out.lossHistory[4]).toBeLessThan(out.lossHistory[0]);
  });

  it("drops a worker killed mid-round, completes the rounds, and a restarted worker resumes from the last completed round", async () => {
    const file = join(tmp(), "diloco.json");
    writeFileSync(file, JSON.stringify({ rounds: 3, inner_steps: 2, timeout_s: 5, poll_ms: 50 }));
    const store = "s3://lab-diloco/kill";
    const prefix = "runs/k/diloco_rendezvous";
    const worker = (rank: number, extra: string[] = [], cfgFile = file) =>
      spawn(process.execPath, [join(ROOT, "bin", "composer-lab.js"), "diloco-worker", "--rank", String(rank), "--workers", "3", "--store", store, "--prefix", prefix, "--config", cfgFile, "--json", ...extra], { env: { ...process.env, ...S3_ENV() }, stdio: ["ignore", "pipe", "pipe"] });
    const done = (p: ReturnType<typeof spawn>) => new Promise<{ code: number | null; out: string }>((res) => {
      let out = "";
      p.stdout!.on("data", (d) => (out += d));
      p.on("close", (code) => res({ code, out }));
    });
    const w0 = done(worker(0));
    const w1 = done(worker(1));
    const slow = worker(2, ["--inner-delay-ms", "60000"]);
    const w2 = done(slow);
    setTimeout(() => slow.kill("SIGKILL"), 4000); // in the middle of round 1
    const [r0, r1, r2] = await Promise.all([w0, w1, w2]);
    expect(r0.code).toBe(0);
    expect(r1.code).toBe(0);
    expect(r2.code).not.toBe(0);
    const s = await summarizeRun(openStore(store, { endpoint, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } }), prefix, 3);
    expect(s.rounds).toBe(3);
    // rank 2 is gone from every round (on a loaded machine another rank may also arrive late once)
    expect(s.droppedRanks).toEqual(expect.arrayContaining([{ round: 1, rank: 2 }, { round: 2, rank: 2 }, { round: 3, rank: 2 }]));
    expect(s.droppedRanks.filter((d) => d.rank === 0)).toEqual([]);

    // restart with one more round: the restarted ranks resume from round 3
    const more = join(tmp(), "more.json");
    writeFileSync(more, JSON.stringify({ rounds: 4, inner_steps: 2, timeout_s: 5, poll_ms: 50 }));
    const [a, b] = await Promise.all([done(worker(0, [], more)), done(worker(2, [], more))]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(oneJson(a.out)).toMatchObject({ resumed_from: 3, rounds_done: 1 });
    expect(oneJson(b.out)).toMatchObject({ resumed_from: 3, rounds_done: 1 });
    const s2 = await summarizeRun(openStore(store, { endpoint, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } }), prefix, 3);
    expect(s2.rounds).toBe(4);
    expect(s2.droppedRanks.filter((d) => d.round === 4)).toEqual(expect.arrayContaining([{ round: 4, rank: 1 }]));
  });
});

describe("DiLoCo trains the tfjs policy (3 workers over s3rver)", () => {
  const H1 = { rounds: 3, inner_steps: 1, inner_lr: 0.05, outer_lr: 1, momentum: 0, timeout_s: 120, poll_ms: 20 };
  const setup = async () => {
    await initBackend();
    const shards = demonstrationShards(new ToolCallEnvironment({ env: { seed: 0, n_tasks: 60 } }), 3, 8, 128);
    return (inner_steps: number, inner_lr: number) => (rank: number) => new PolicyDilocoModel({ policy: { block_size: 128, n_layer: 1, n_head: 2, n_embd: 16 }, rows: shards[rank]!, inner_steps, inner_lr, batch: 4, seed: 3 });
  };

  it("at H = 1 (outer lr 1, no momentum) reaches synchronous data-parallel SGD's parameters and loss within 1e-4", async () => {
    const models = await setup();
    const store = s3(`diloco-policy-h1-${Date.now()}`);
    await Promise.all([0, 1, 2].map((rank) => runWorker({ store, prefix: "runs/p/diloco_rendezvous", rank, workers: 3, config: H1, model: models(1, H1.inner_lr) })));
    const got = await summarizeRun(store, "runs/p/diloco_rendezvous", 3);
    const ref = syncPolicyTraining([0, 1, 2].map(models(1, H1.inner_lr)), H1.rounds, H1.inner_lr);
    expect(got.droppedRanks).toEqual([]);
    expect(Math.abs(got.loss - ref.loss) / ref.loss).toBeLessThan(1e-4);
    const maxDiff = got.params.reduce((m, p, i) => Math.max(m, Math.abs(p - ref.theta[i]!)), 0);
    expect(maxDiff).toBeLessThan(1e-4);
    expect(got.lossHistory.at(-1)!).toBeLessThan(got.lossHistory[0]!);
  }, 300_000);

  it("trains with H = 4 and Nesterov momentum: the loss falls round over round", async () => {
    const models = await setup();
    const store = s3(`diloco-policy-h4-${Date.now()}`);
    const cfg = { ...H1, rounds: 3, inner_steps: 4, outer_lr: 0.7, momentum: 0.5 };
    await Promise.all([0, 1, 2].map((rank) => runWorker({ store, prefix: "runs/q/diloco_rendezvous", rank, workers: 3, config: cfg, model: models(4, cfg.inner_lr) })));
    const got = await summarizeRun(store, "runs/q/diloco_rendezvous", 3);
    expect(got.rounds).toBe(3);
    expect(got.lossHistory.at(-1)!).toBeLessThan(got.lossHistory[0]! - 0.05);
  }, 300_000);
});

describe("composer-lab store ls", () => {
  it("lists a local store and an S3 prefix as one JSON object", async () => {
    const dir = tmp();
    await new LocalStore(dir).put("runs/x/a.json", "{}");
    const local = oneJson((await cliAsync(["store", "ls", dir, "--json"])).stdout);
    expect(local.keys).toEqual(["runs/x/a.json"]);
    await s3("ls-test").put("runs/y/b.json", "{}");
    const remote = oneJson((await cliAsync(["store", "ls", "s3://lab-store/ls-test", "--json"], { env: S3_ENV() })).stdout);
    expect(remote).toMatchObject({ uri: "s3://lab-store/ls-test", keys: ["runs/y/b.json"] });
  });
});

