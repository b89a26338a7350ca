/**
 * Issue 29: the world-model head and the learned branch gate, with real components throughout.
 *  - the head trains offline on the fixture store's wm_tuples (datasets/fd-micro/wm-store: one real
 *    OUTER round, scripts/make-wm-fixture.ts) over the fd-micro SFT student's frozen trunk, and is
 *    evaluated on held-out tasks against the policy without the adapter and the outcome prior;
 *  - parameter isolation: the policy's outputs without `<deliberate>` are those of a run without the
 *    head — bit for bit offline, every weight within 1e-6 inside the trainer's step (two real Trainer
 *    runs, toolcall env);
 *  - a real tree (two served fd-micro students, the reference policy, micro tasks graded in the
 *    sandbox) with the confidence gate from a saved head, its wm_tuples replayed step by step in a
 *    fresh FeatureDeletionEpisode against the env's own observations, the gates compared on the same pool
 *    and budget, and `outer run --gate confidence --gate-checkpoint DIR --json` through the CLI.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBackend, tf } from "../lib/backend/index.js";
import { FeatureDeletionEpisode } from "../lib/env/index.js";
import { GATES, ModelClient, TreeController, binaryEntropy, compareGates, runOuter, serveReference, type ChatEndpoint, type Tree } from "../lib/outer/index.js";
import { getSandbox, type Sandbox } from "../lib/sandbox/index.js";
import { serve, type RunningServer } from "../lib/serve/index.js";
import { HeldoutSplit, RunLayout, openStore, routeGroup } from "../lib/store/index.js";
import { loadTask, readIndex } from "../lib/tasks/index.js";
import {
  Policy, Trainer, WorldModelConfig, encode, evaluateWorldModel, loadCheckpoint, loadLatestCheckpoint, loadWorldModel, outcomeScores, readMetrics, readWmTuples,
  saveWorldModel, splitWmTuples, trainWorldModel, wmRow, worldModelLoss, worldModelScorer, type TrainConfigInput, type WorldModelTrainResult,
} from "../lib/train/index.js";
import { ROOT, cliAsync, oneJson, tmp } from "./helpers.js";
import { maxAbsDiff } from "./support/tiny-train.js";

const FIXTURE = { store: join(ROOT, "datasets", "fd-micro", "wm-store"), run: "wm-r0" };
const STUDENT = join(ROOT, "datasets", "train", "fd-micro-sft", "ckpt_000150");
const POOL = join(ROOT, "datasets", "fd-micro", "pool");
/** The offline head, saved as a gate checkpoint (head.json + trunk/): round k's student for the tree below. */
let headDir: string;

/** The policy's logits on a few byte strings (its own forward: no `<deliberate>`, no adapter). */
function logitsOf(policy: Policy, texts: string[]): Float32Array {
  return tf.tidy(() => {
    const rows = texts.map((t) => encode(t, { bos: true }).slice(0, policy.config.block_size));
    const T = Math.max(...rows.map((r) => r.length));
    const ids = tf.tensor2d(rows.map((r) => [...r, ...new Array<number>(T - r.length).fill(32)]), [rows.length, T], "int32");
    return policy.forward(ids).dataSync() as Float32Array;
  });
}

beforeAll(async () => {
  await initBackend();
});

describe("the world-model head, offline over the fixture store", () => {
  let policy: Policy;
  let trained: WorldModelTrainResult;
  let before: Float32Array;
  const probe = ["def add_3(x):\n", "submitted: 0/2 target tests pass", "user: A feature of this Python repository"];

  beforeAll(async () => {
    policy = (await loadCheckpoint(STUDENT)).policy;
    before = logitsOf(policy, probe);
    trained = trainWorldModel(policy, await readWmTuples(FIXTURE), { steps: 40, seed: 1 });
    headDir = tmp("wm-head-");
    await saveWorldModel(headDir, trained.head, policy, { prior: trained.prior, eval: trained.eval });
  }, 120_000);

  it("reads real per-step transitions: write_file and submit steps with the env's own observations, both outcomes", async () => {
    const tuples = await readWmTuples(FIXTURE);
    expect(tuples.length).toBeGreaterThan(100);
    expect(tuples.some((t) => t.action.startsWith("submit") && /^submitted: \d+\/\d+ target tests pass/.test(t.next_state))).toBe(true);
    expect(tuples.some((t) => t.action.startsWith("write_file") && /^wrote \S+ \(\d+ characters\)/.test(t.next_state))).toBe(true);
    expect(tuples.every((t) => t.next_state !== "passed" && t.next_state !== "failed")).toBe(true);
    expect(new Set(tuples.map((t) => t.outcome >= 1))).toEqual(new Set([true, false]));
    // held-out tasks are disjoint from the training tasks
    const { train, heldout } = splitWmTuples(tuples, 0.25, 1);
    const trainTasks = new Set(train.map((t) => t.task_id));
    expect(heldout.length).toBeGreaterThan(0);
    expect(heldout.some((t) => trainTasks.has(t.task_id))).toBe(false);
  });

  it("a row keeps the action and the next-state bytes within the block, the state's tail before them", () => {
    const t = { state: "s".repeat(5000) + "THE END", action: "write_file " + "a".repeat(500), next_state: "wrote f.py (12 characters)", outcome: 2 };
    const r = wmRow(t, 192, 48);
    expect(r.ids.length).toBeLessThanOrEqual(192);
    expect(r.outcome).toBe(1); // clamped to [0, 1]
    expect(r.targets).toEqual(encode("wrote f.py (12 characters)"));
    const text = Buffer.from(r.ids.slice(1, r.at + 1)).toString("utf8");
    expect(text).toMatch(/THE END\n» write_file a+…a+\n« $/);
    // an empty observation (an empty listing, a silent command) still fits the block
    const empty = wmRow({ ...t, next_state: "" }, 64, 48);
    expect(empty.ids.length).toBeLessThanOrEqual(64);
    expect(empty.targets).toEqual([]);
  });

  it("worldModelLoss: masked byte CE plus weighted soft-label BCE, matching a hand computation", () => {
    const logits = tf.tensor3d([[[2, 0, 0], [0, 1, 0]]]);
    const l = worldModelLoss({ nextLogits: logits, targets: tf.tensor2d([[0, 2]], [1, 2], "int32"), mask: tf.tensor2d([[1, 0]]), outcomeLogits: tf.tensor1d([0.5]), outcome: tf.tensor1d([0.25]), outcome_weight: 2 });
    const ce = -(2 - Math.log(Math.exp(2) + 2)); // only the first byte counts
    const s = 1 / (1 + Math.exp(-0.5));
    const bce = -(0.25 * Math.log(s) + 0.75 * Math.log(1 - s));
    expect(l.next_state_ce.dataSync()[0]).toBeCloseTo(ce, 5);
    expect(l.outcome_bce.dataSync()[0]).toBeCloseTo(bce, 5);
    expect(l.loss.dataSync()[0]).toBeCloseTo(ce + 2 * bce, 5);
  });

  it("learns: held-out next-state CE below the policy without the adapter; calibration scored against the prior", () => {
    const e = trained.eval!;
    expect(e.n).toBe(trained.heldout);
    expect(trained.history[0]!.loss).toBeGreaterThan(trained.history.at(-1)!.loss);
    expect(e.next_state.head_ce).toBeLessThan(e.next_state.policy_ce);
    expect(e.next_state.diff_ci!.lo).toBeGreaterThan(0);
    expect(e.outcome.reliability.reduce((n, b) => n + b.n, 0)).toBe(e.n);
    expect(e.outcome.prior.p).toBeCloseTo(trained.prior, 10);
    for (const s of [e.outcome.head, e.outcome.prior]) {
      expect(s.brier).toBeGreaterThanOrEqual(0);
      expect(s.accuracy).toBeGreaterThanOrEqual(0);
      expect(s.ece).toBeGreaterThanOrEqual(0);
    }
    // outcomeScores by hand: a perfect and a maximally wrong predictor
    expect(outcomeScores([1, 0], [1, 0])).toMatchObject({ brier: 0, accuracy: 1 });
    expect(outcomeScores([0, 1], [1, 0])).toMatchObject({ brier: 1, accuracy: 0, ece: 1 });
  });

  it("is parameter-isolated: the trunk's weights and the policy's logits without <deliberate> are unchanged, with it they are not", () => {
    expect(maxAbsDiff(logitsOf(policy, probe), before)).toBe(0);
    const r = trained.head.predict(policy, [wmRow({ state: "x", action: "submit {}", next_state: "submitted: 0/2 target tests pass", outcome: 0 }, 192)], { baseline: true });
    expect(Math.abs(r.ce[0]! - r.policy_ce[0]!)).toBeGreaterThan(0.1);
    expect(trained.head.B.dataSync().some((x) => x !== 0)).toBe(true); // the adapter moved off its zero start
  });

  it("saves and loads (head.json + trunk/): the same predictions", async () => {
    const back = await loadWorldModel(headDir);
    const held = splitWmTuples(await readWmTuples(FIXTURE), 0.25, 1).heldout.slice(0, 6);
    const a = evaluateWorldModel(policy, trained.head, held, trained.prior);
    const b = evaluateWorldModel(back.policy, back.head, held, back.file.prior);
    expect(b.outcome.head.brier).toBeCloseTo(a.outcome.head.brier, 6);
    expect(b.next_state.head_ce).toBeCloseTo(a.next_state.head_ce, 5);
    expect(() => WorldModelConfig.parse({ adapter_rank: 0 })).toThrow(/adapter_rank/);
  });

  it("world-model train --json: a head folder the gate loads, the held-out evaluation in the one JSON object", async () => {
    const out = tmp("wm-cli-head-");
    const r = await cliAsync(["world-model", "train", "--store", FIXTURE.store, "--run", FIXTURE.run, "--checkpoint", STUDENT, "--out", out, "--steps", "3", "--rank", "2", "--seed", "1", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const j = oneJson(r.stdout);
    expect(j).toMatchObject({ ok: true, steps: 3, parameters: 64 * (2 * 2 + 2) + 1, heldout: trained.heldout });
    expect(j.eval.n).toBe(trained.heldout); // the same seed: the same held-out split as the in-process pass
    const back = await loadWorldModel(out);
    expect(back.file).toMatchObject({ trained_steps: 3, config: { adapter_rank: 2 } });
  }, 120_000);

  afterAll(() => {
    trained?.head.dispose();
    policy?.dispose();
  });
});

describe("inside the trainer's step", () => {
  const base: TrainConfigInput = {
    seed: 5,
    model: { block_size: 96, n_layer: 1, n_head: 2, n_embd: 16 },
    env: { n_tasks: 24 },
    sft: { steps: 3, batch_size: 4 },
    rl: { steps: 2, prompts_per_step: 2, num_generations: 2, max_completion_length: 10 },
    loss_weights: { grpo: 1, sdpo: 1, dpo: 0.1 },
    sdpo: { gap_check_tasks: 0 },
    heldout: { every: 0, n_tasks: 2 },
    checkpoint: { every: 5, keep: 1 },
  };

  it("world_model enabled: the head trains every step (loss_wm, held-out eval, head saved) and the policy ends where a run without it ends (every weight within 1e-6)", async () => {
    const off = tmp("wm-off-");
    const on = tmp("wm-on-");
    await new Trainer(base, { run_dir: off }).train();
    const r = await new Trainer({ ...base, world_model: { enabled: true, weight: 0.5, adapter_rank: 2, source: FIXTURE, batch_size: 2 } }, { run_dir: on }).train();
    const [a, b] = [(await loadLatestCheckpoint(join(off, "checkpoints")))!.policy, (await loadLatestCheckpoint(join(on, "checkpoints")))!.policy];
    const wa = a.variables().map((v) => v.dataSync() as Float32Array);
    const wb = b.variables().map((v) => v.dataSync() as Float32Array);
    expect(Math.max(...wa.map((w, i) => maxAbsDiff(w, wb[i]!)))).toBeLessThanOrEqual(1e-6);
    expect(maxAbsDiff(logitsOf(a, ["call get_weather"]), logitsOf(b, ["call get_weather"]))).toBeLessThanOrEqual(1e-5);
    const ms = readMetrics(on);
    expect(ms).toHaveLength(5);
    expect(ms.every((m) => typeof m.loss_wm === "number" && m.loss_wm > 0)).toBe(true);
    expect(readMetrics(off).every((m) => m.loss_wm === undefined)).toBe(true);
    expect(r.world_model).toBeTruthy();
    expect(r.world_model!.n).toBeGreaterThan(0);
    const saved = JSON.parse(readFileSync(join(on, "world_model", "head.json"), "utf8"));
    expect(saved.trained_steps).toBe(5);
    expect(existsSync(join(on, "world_model", "trunk"))).toBe(true);
  }, 120_000);

  it("a config with the head on and no source is refused, naming the field", () => {
    expect(() => new Trainer({ world_model: { enabled: true } }, { run_dir: tmp() })).toThrow(/world_model\.source/);
  });
});

describe("the learned branch gate on a real tree", () => {
  let servedA: RunningServer;
  let servedB: RunningServer;
  let reference: ChatEndpoint;
  let sandbox: Sandbox;
  const models = () => [servedA.baseURL, servedB.baseURL, reference.url].map((url) => new ModelClient({ url, max_tokens: 64 }));

  beforeAll(async () => {
    const ckpts = join(ROOT, "datasets", "train", "fd-micro-sft");
    [servedA, servedB, reference] = await Promise.all([
      serve({ checkpoint: join(ckpts, "ckpt_000075"), name: "fd-micro-sft-75", stop: ["\n\n"], tool_prompt: "ignore", port: 0 }),
      serve({ checkpoint: join(ckpts, "ckpt_000150"), name: "fd-micro-sft-150", stop: ["\n\n"], tool_prompt: "ignore", port: 0 }),
      serveReference(POOL),
    ]);
    sandbox = await getSandbox("auto");
  }, 180_000);

  afterAll(async () => {
    await Promise.all([servedA?.close(), servedB?.close(), reference?.close()]);
  });

  it("records both gates' signals, branches by the gate's rule, and writes one wm tuple per env step that replays to the env's own observations", async () => {
    const { head, policy } = await loadWorldModel(headDir);
    const scorer = worldModelScorer(policy, head);
    const trees: Tree[] = [];
    const store = tmp("wm-tree-");
    const s = await runOuter({ pool: POOL, models: models(), store: openStore(store), run_id: "g1", sandbox, limit: 2, budget: { depth: 2, width: 3, nodes: 6 }, gate: { kind: "both", uncertainty: 0.9 }, scorer, quiet: true, onTree: (t) => trees.push(t) });
    expect(s.tasks).toBe(2);
    expect(s.gate).toMatchObject({ kind: "both", scorer: "world-model" });
    const judged = trees.flatMap((t) => [...t.nodes.values()].filter((n) => n.gate));
    expect(judged.length).toBe(s.gate.states);
    expect(s.gate.states).toBeGreaterThan(0);
    for (const n of judged) {
      const g = n.gate!;
      expect(g.confidence!.p.length).toBe(new Set(n.proposals.filter((p) => p.key).map((p) => p.key)).size);
      expect(g.confidence!.uncertainty).toBeCloseTo(binaryEntropy(g.confidence!.followed_p), 12);
      expect(g.branch).toBe(GATES.both.branch(g.divergence_fires, g.confidence!.fires));
      expect(n.children.length > 1).toBe(g.branch && n.children.length > 1);
    }

    // every tuple is one env step; replaying each root→leaf path in a fresh env gives the same observations
    const tuples = await new RunLayout(openStore(store), "g1").read("wm_tuples");
    const nodes = new Map(trees.flatMap((t) => [...t.nodes.entries()]));
    const edges = trees.reduce((k, t) => k + t.nodes.size - 1, 0);
    expect(new Set(tuples.map((x) => x.node_id)).size).toBe(edges);
    expect(tuples.length).toBe([...nodes.values()].reduce((k, n) => k + (n.steps?.length ?? 0), 0));
    let replayed = 0;
    for (const tree of trees) {
      for (const leaf of [...tree.nodes.values()].filter((n) => n.leaf)) {
        const path = [];
        for (let n: typeof leaf | undefined = leaf; n; n = n.parent ? tree.nodes.get(n.parent) : undefined) path.unshift(n);
        const env = new FeatureDeletionEpisode({ sandbox, max_turns: 99 });
        env.reset(tree.task);
        try {
          for (const n of path) {
            const mine = tuples.filter((x) => x.node_id === n.id).sort((a, b) => a.step! - b.step!);
            expect(mine.length).toBe(n.steps?.length ?? 0);
            for (const [k, st] of (n.steps ?? []).entries()) {
              const r = await env.step(st.action);
              expect(mine[k]!.next_state, `${n.id} step ${k}`).toBe(r.observation);
              expect(mine[k]!.done).toBe(r.done);
              replayed++;
            }
          }
        } finally {
          env.close();
        }
      }
    }
    expect(replayed).toBeGreaterThanOrEqual(tuples.length);
  }, 240_000);

  it("an interactive episode's transitions are its steps with the env's own observations, and route one wm tuple per step", async () => {
    const task = loadTask(POOL, readIndex(POOL)[0]!.task_id);
    const env = new FeatureDeletionEpisode({ sandbox });
    env.reset(task);
    const file = task.deleted_symbols[0]!.file;
    const said: string[] = [];
    try {
      for (const a of [{ type: "read_file", path: file }, { type: "run_tests" }, { type: "submit" }]) said.push((await env.step(a)).observation);
      const steps = env.transitions();
      expect(steps.map((t) => t.next_state)).toEqual(said);
      expect(steps.map((t) => t.action.split(" ")[0])).toEqual(["read_file", "run_tests", "submit"]);
      expect(said[2]).toMatch(/^submitted: 0\/\d+ target tests pass/);
      expect(steps[1]!.state).toContain(`tool: ${said[0]}`); // each state holds the earlier steps' results
      const run = new RunLayout(openStore(tmp("wm-episode-")), "ep", new HeldoutSplit(0));
      expect((await routeGroup(run, [{ id: "ep1", task_id: task.task_id, messages: [{ role: "user", content: env.renderPrompt(task) }], completion: "", reward: 0, passed: false, steps }])).wm).toBe(3);
      await run.flushAll();
      expect((await run.read("wm_tuples")).map((t) => t.next_state)).toEqual(said);
    } finally {
      env.close();
    }
  }, 120_000);

  it("compares the gates on the same pool and node budget (graded leaves, winners, distinct DPO pairs per node, seconds)", async () => {
    const { head, policy } = await loadWorldModel(headDir);
    const rows = await compareGates({ pool: POOL, models: models(), sandbox, store: openStore(tmp("wm-cmp-")), run_prefix: "cmp", gates: [{ kind: "divergence" }, { kind: "confidence", uncertainty: 0.9 }], scorer: worldModelScorer(policy, head), budget: { depth: 2, width: 3, nodes: 6 }, limit: 2 });
    expect(rows.map((r) => r.gate)).toEqual(["divergence", "confidence"]);
    for (const r of rows) {
      expect(r.tasks).toBe(2);
      expect(r.nodes).toBeLessThanOrEqual(12);
      expect(r.graded).toBeGreaterThan(0);
      expect(r.distinct_dpo_per_node).toBeCloseTo(r.distinct_dpo_pairs / r.nodes, 12);
      expect(r.confidence_fires).not.toBeNull(); // both signals recorded with either gate
      expect(r.branched).toBe(r.gate === "divergence" ? r.divergence_fires : r.confidence_fires);
    }
  }, 240_000);

  it("outer run --gate confidence --gate-checkpoint DIR --json; a confidence gate without a scorer is refused", async () => {
    expect(() => new TreeController({ models: models(), sandbox, gate: { kind: "confidence" } })).toThrow(/gate confidence: needs an outcome scorer.*--gate-checkpoint/);
    const store = tmp("wm-cli-");
    const r = await cliAsync(["outer", "run", "--pool", POOL, "--models", `${servedB.baseURL},${reference.url}`, "--store", store, "--run", "c1", "--limit", "1", "--budget", "depth=2,width=2,nodes=4", "--max-tokens", "64", "--gate", "confidence", "--gate-checkpoint", headDir, "--gate-uncertainty", "0.9", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const s = oneJson(r.stdout);
    expect(s).toMatchObject({ ok: true, tasks: 1, gate: { kind: "confidence", scorer: `world-model@${headDir}` } });
    expect(s.gate.states).toBeGreaterThan(0);
    expect(s.gate.branched).toBe(s.gate.confidence_fires);
  }, 240_000);
});
