/**
 * The OUTER loop with real processes: two lab checkpoints served by `composer-lab serve` (the
 * committed tool-call SFT checkpoint and a fresh policy of another seed) as two of the models, the
 * reference policy (golden solutions, so trees have winners) on a loopback HTTP server, a real
 * loopback server that answers with malformed tool calls, and a port nothing listens on. Trees grow
 * over bundled micro feature-deletion tasks graded in the sandbox; the run is killed with SIGKILL
 * mid-tree through the real CLI and resumed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { isAbsolute, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend/index.js";
import { ModelClient, extractDpoPairs, histogram, nodeId, parseBudget, parseModelList, runOuter, serveChat, serveReference, teacherReplay, type ChatEndpoint, type OuterRunSummary } from "../lib/outer/index.js";
import { getSandbox } from "../lib/sandbox/index.js";
import { RunLayout, SECTIONS, openStore, type Section } from "../lib/store/index.js";
import { readIndex } from "../lib/tasks/index.js";
import { collect } from "../lib/traces/index.js";
import { Policy, PolicyConfig, saveCheckpoint, verifyCheckpoint } from "../lib/train/index.js";
import { ROOT, oneJson, tmp } from "./helpers.js";

const POOL = join(ROOT, "datasets", "fd-micro", "pool");
const SFT = join(ROOT, "datasets", "train", "toolcall-sft");
/** The first three tasks of the pool: two trained on, one held out (index 2). */
const LIMIT = 3;
const SECTION_NAMES = Object.keys(SECTIONS) as Section[];

const children: ChildProcess[] = [];
const endpoints: ChatEndpoint[] = [];
let servedA: string;
let servedB: string;
let reference: ChatEndpoint;
let malformed: ChatEndpoint;
let down: string;

/** `composer-lab serve --port 0 --json …` as a child process; resolves with its base URL. */
async function serveCli(args: string[]): Promise<string> {
  const proc = spawn(process.execPath, [join(ROOT, "bin", "composer-lab.js"), "serve", "--port", "0", "--json", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.push(proc);
  let out = "";
  let err = "";
  proc.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!).base_url);
    });
    proc.on("exit", (code) => reject(new Error(`serve exited (${code}):\n${err}`)));
  });
}

/** A loopback port with nothing listening on it. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Short answers (a micro body is a few dozen bytes) keep the byte-level policies quick. */
const client = (url: string) => new ModelClient({ url, max_tokens: 40, retries: 1, timeout_ms: 120_000 });

beforeAll(async () => {
  await initBackend();
  const config = PolicyConfig.parse({ ...verifyCheckpoint(join(SFT, "ckpt_000600")).config, seed: 11 });
  const policy = new Policy(config);
  const fresh = join(tmp("outer-ckpt-"), "fresh-seed11");
  await saveCheckpoint(fresh, { policy, rngState: 0, step: 0 });
  policy.dispose();
  [servedA, servedB] = await Promise.all([serveCli(["--checkpoint", SFT]), serveCli(["--checkpoint", fresh, "--name", "fresh"])]);
  reference = await serveReference(POOL);
  // a real server whose tool calls are broken: arguments that are not JSON, then an unknown tool
  let n = 0;
  malformed = await serveChat("broken", () => (n++ % 2 === 0 ? { content: null, tool_calls: [{ name: "read_file", arguments: '{"path": "micro' }] } : { content: null, tool_calls: [{ name: "open_file", arguments: "{}" }] }));
  endpoints.push(reference, malformed);
  down = `http://127.0.0.1:${await deadPort()}/v1`;
}, 180_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await Promise.all(endpoints.map((e) => e.close()));
});

async function sectionItems(store: string, run: string): Promise<Record<Section, Record<string, any>[]>> {
  const layout = new RunLayout(openStore(store), run);
  const out = {} as Record<Section, Record<string, any>[]>;
  for (const s of SECTION_NAMES) out[s] = await layout.read(s);
  return out;
}

describe("outer run", () => {
  const store = tmp("outer-store-");
  let summary: OuterRunSummary;
  let items: Record<Section, Record<string, any>[]>;
  const held = readIndex(POOL)[2]!.task_id;

  beforeAll(async () => {
    const models = [servedA, servedB, reference.url, malformed.url, down].map(client);
    summary = await runOuter({ pool: POOL, models, store: openStore(store), run_id: "r1", sandbox: await getSandbox("auto"), limit: LIMIT, budget: { depth: 2, width: 4, nodes: 10 }, quiet: true });
    items = await sectionItems(store, "r1");
  }, 400_000);

  it("grows trees with two served checkpoints, records a down endpoint and malformed tool calls, and goes on", () => {
    expect(summary).toMatchObject({ tasks: 2, holdout_tasks: 1, resumed_tasks: 0 });
    const [a, b, ref, bad, dead] = summary.models;
    // the served checkpoints answered every state (in the compact view: their context is 256 bytes)
    for (const m of [a!, b!]) expect(m).toMatchObject({ errors: 0 });
    expect(a!.model).toMatch(/^toolcall-sft@/);
    expect(b!.model).toMatch(/^fresh@/);
    expect(a!.requests).toBe(summary.expansions);
    expect(a!.completion_tokens).toBeGreaterThan(0);
    expect(ref!.errors).toBe(0);
    expect(bad).toMatchObject({ errors: 0, malformed: summary.expansions });
    expect(dead).toMatchObject({ errors: summary.expansions, requests: summary.expansions });
    expect(summary.errors.some((e) => e.kind === "malformed" && /not JSON|open_file/.test(e.why))).toBe(true);
    expect(summary.errors.some((e) => e.kind === "error" && /Connection/.test(e.why))).toBe(true);
    expect(summary.graded).toBeGreaterThan(summary.tasks);
    expect(summary.passed).toBeGreaterThanOrEqual(summary.tasks); // the reference path wins each tree
  });

  it("fills all six prefixes and never expands or trains on a held-out task", async () => {
    for (const s of SECTION_NAMES) expect(items[s].length, s).toBeGreaterThan(0);
    expect(summary.counts).toEqual(Object.fromEntries(SECTION_NAMES.map((s) => [s, items[s].length])));
    expect(items.holdout.map((h) => h.task_id)).toEqual([held]);
    for (const s of SECTION_NAMES.filter((x) => x !== "holdout")) expect(items[s].some((x) => x.task_id === held), s).toBe(false);
    // never expanded: no proposals were asked for its root state
    expect(existsSync(join(store, "runs", "r1", "outer", "proposals", `${nodeId(held, "")}.json`))).toBe(false);
    expect(existsSync(join(store, "runs", "r1", "outer", "proposals", `${nodeId(readIndex(POOL)[0]!.task_id, "")}.json`))).toBe(true);
    // every record carries its round
    for (const s of SECTION_NAMES) expect(items[s].every((x) => x.round === 0), s).toBe(true);
  });

  it("keeps a task the run's holdout section already lists held out whatever the split says (--holdout-fraction 0), naming the pool relative to the store", async () => {
    const dir = tmp("outer-holdout-");
    const first = readIndex(POOL)[0]!.task_id; // trained on under the default split (the run above expanded it)
    const pre = new RunLayout(openStore(dir), "r2");
    await pre.writer("holdout").add({ id: first, task_id: first });
    await pre.flushAll();
    const s = await runOuter({ pool: POOL, models: [client(down)], store: openStore(dir), run_id: "r2", sandbox: await getSandbox("auto"), limit: 1, holdout: { fraction: 0, seed: 0 }, quiet: true });
    expect(s).toMatchObject({ tasks: 0, holdout_tasks: 1, nodes: 0 });
    const r2 = await sectionItems(dir, "r2");
    expect(r2.holdout.map((h) => h.task_id)).toEqual([first]);
    expect(r2.rl_task_pool).toEqual([]);
    expect(existsSync(join(dir, "runs", "r2", "outer", "proposals", `${nodeId(first, "")}.json`))).toBe(false);
    // the trees of the first run name the pool relative to their store's root, so store and pool move together
    const ref = items.rl_task_pool[0]!.pool as string;
    expect(isAbsolute(ref)).toBe(false);
    expect(resolve(store, ref)).toBe(POOL);
  });

  it("routes per the keystone: winners only in sft_corpus, every step in wm_tuples, DPO pairs with the fork's full state", () => {
    expect(items.sft_corpus.every((x) => x.reward >= 1)).toBe(true);
    // one tuple per env step: every edge has at least one (a body is write_file then submit)
    expect(new Set(items.wm_tuples.map((x) => x.node_id)).size).toBe(summary.nodes - summary.tasks);
    expect(items.wm_tuples.length).toBeGreaterThan(summary.nodes - summary.tasks);
    expect(items.wm_tuples.some((x) => x.outcome === 0) && items.wm_tuples.some((x) => x.outcome === 1)).toBe(true);
    const forks = new Map(items.divergence_pairs.map((d) => [d.node_id, d]));
    for (const p of items.dpo_pairs) {
      const fork = forks.get(p.node_id)!;
      expect(p.state_messages).toEqual(fork.state_messages);
      expect(p.state_messages.length).toBeGreaterThanOrEqual(2);
      expect(p.chosen).not.toBe(p.rejected);
    }
    // a deeper fork's state holds the whole episode so far, tool results included
    expect(items.dpo_pairs.some((p) => p.state_messages.some((m: { role: string }) => m.role === "tool"))).toBe(true);
    for (const d of items.divergence_pairs) {
      expect(d.divergence).toBeGreaterThan(0);
      expect(d.branches.length).toBeGreaterThanOrEqual(2);
      const rewards = new Set(d.branches.map((b: { reward: number }) => b.reward));
      if (rewards.size > 1) expect(d.branches.map((b: { node_id: string }) => b.node_id)).toContain(d.separated_first.node_id);
      else expect(d.separated_first).toBeNull();
    }
    expect(summary.divergence_histogram.counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(items.rl_task_pool.every((t) => t.difficulty_prior >= 0 && t.difficulty_prior <= 1 && t.leaves > 0)).toBe(true);
  });

  it("writes each rollout as a chat-format trace lib/traces ingests as is, and teacher replay turns its error sites into DPO pairs", async () => {
    const traces = join(store, "runs", "r1", "traces");
    const files = readdirSync(join(traces, "round_0000")).map((f) => join(traces, "round_0000", f));
    const lines = files.flatMap((f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)));
    expect(lines.length).toBe(summary.graded);
    expect(lines.every((l) => l.round === 0)).toBe(true);
    const { sessions, sites, issues } = await collect([traces]);
    expect(issues).toEqual([]);
    expect(sessions.length).toBe(summary.graded);
    expect(sites.length).toBeGreaterThan(0); // failed submits and steps are tool errors

    // round 1 starts from round 0's traces: the reference (twice: a consensus of two) answers each error site
    const second = await serveReference(POOL);
    endpoints.push(second);
    const replay = await teacherReplay({ paths: [traces], models: [reference.url, second.url].map(client), store: openStore(store), run_id: "r1", round: 1 });
    expect(replay.replayed).toBeGreaterThan(0);
    expect(replay.written).toBeGreaterThan(0);
    const pairs = (await new RunLayout(openStore(store), "r1").read("dpo_pairs")).filter((p) => p.source === "teacher_replay");
    expect(pairs.length).toBe(replay.written);
    for (const p of pairs) {
      expect(p.round).toBe(1);
      expect(p.chosen_models).toHaveLength(2);
      expect(p.state_messages.length).toBeGreaterThanOrEqual(2);
    }
    // replaying again adds nothing
    const again = await teacherReplay({ paths: [traces], models: [reference.url, second.url].map(client), store: openStore(store), run_id: "r1", round: 1 });
    expect(again.written).toBe(0);
  }, 300_000);
});

/** The CLI as a child process, without blocking this process's event loop (test/helpers' `cli`
 *  does, and the reference endpoint these runs call lives in this process). */
function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(p);
    let stdout = "";
    let stderr = "";
    p.stdout!.on("data", (d: Buffer) => (stdout += d));
    p.stderr!.on("data", (d: Buffer) => (stderr += d));
    p.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("outer run through the CLI", () => {
  it("is killed with SIGKILL mid-tree, resumes, and writes no record twice", async () => {
    const store = tmp("outer-kill-");
    const args = [join(ROOT, "bin", "composer-lab.js"), "outer", "run", "--pool", POOL, "--models", `${servedA},${reference.url}`, "--store", store, "--run", "k1", "--limit", "5", "--budget", "depth=2,width=2,nodes=6", "--task-concurrency", "1", "--max-tokens", "40", "--json"];
    const done = join(store, "runs", "k1", "outer", "done");
    // a SIGKILLed process cannot remove its temp folders (episodes, the harness copy, the warm
    // grader's spool): the runs get a TMPDIR of the test's own, removed with it
    const childTmp = tmp("outer-kill-tmp-");
    chmodSync(childTmp, 0o755); // the sandbox user reaches the harness copy and staged trees inside
    const env = { ...process.env, TMPDIR: childTmp };
    const first = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(first);
    const exited = new Promise<NodeJS.Signals | null>((r) => first.on("exit", (_code, signal) => r(signal)));
    // kill once one task is finished and the next has journaled proposals
    const deadline = Date.now() + 240_000;
    const proposals = join(store, "runs", "k1", "outer", "proposals");
    while (Date.now() < deadline && !(existsSync(done) && readdirSync(done).length >= 1 && readdirSync(proposals).length >= 3)) await new Promise((r) => setTimeout(r, 100));
    expect(first.exitCode).toBeNull(); // still mid-run
    first.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const finishedBefore = readdirSync(done).length;
    expect(finishedBefore).toBeLessThan(4);

    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    const s = oneJson(second.stdout);
    expect(s).toMatchObject({ ok: true, tasks: 4, holdout_tasks: 1, resumed_tasks: finishedBefore });
    const items = await sectionItems(store, "k1");
    for (const sec of SECTION_NAMES) {
      const ids = items[sec].map((x) => x.id);
      expect(new Set(ids).size, sec).toBe(ids.length);
      expect(s.counts[sec]).toBe(ids.length);
    }
    expect(items.rl_task_pool).toHaveLength(4);
    expect(items.holdout).toHaveLength(1);
    expect(new Set(items.wm_tuples.map((x) => x.node_id)).size).toBe(s.nodes - s.tasks);
    for (const sec of SECTION_NAMES) expect(items[sec].length, sec).toBeGreaterThan(0);
  }, 500_000);
});

describe("outer replay through the CLI", () => {
  it("replays the error sites of the bundled chat traces with two teachers and writes their consensus as DPO pairs", async () => {
    const store = tmp("outer-replay-");
    const second = await serveReference(POOL);
    endpoints.push(second);
    const r = await runCli([join(ROOT, "bin", "composer-lab.js"), "outer", "replay", join(ROOT, "datasets", "traces", "chat"), "--models", `${reference.url},${second.url}`, "--store", store, "--run", "rp", "--round", "2", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const s = oneJson(r.stdout);
    expect(s.sites).toBeGreaterThan(0);
    expect(s.replayed).toBeGreaterThan(0);
    expect(s.teacher_errors).toBe(0);
    const pairs = await new RunLayout(openStore(store), "rp").read("dpo_pairs");
    expect(pairs.length).toBe(s.written);
    expect(pairs.length).toBeGreaterThan(0);
    for (const p of pairs) expect(p).toMatchObject({ source: "teacher_replay", round: 2, chosen_models: [expect.stringMatching(/^reference@/), expect.stringMatching(/^reference@/)] });
  }, 120_000);
});

describe("outer pieces", () => {
  it("extractDpoPairs: the teachers' consensus against the trace's action, or nothing", () => {
    const site = { id: "s1", state_messages: [{ role: "user" as const, content: "fix it" }], rejected: "→ open_file({})" };
    const ans = (model: string, text: string | null) => ({ model, text, error: text === null ? "down" : null });
    expect(extractDpoPairs(site, [ans("a", "→ read_file({\"path\":\"x\"})"), ans("b", "→ read_file({\"path\":\"x\"}) "), ans("c", "ls")])[0]).toMatchObject({ chosen_models: ["a", "b"], support: 2, answered: 3, rejected: "→ open_file({})" });
    expect(extractDpoPairs(site, [ans("a", "x"), ans("b", "y")])).toEqual([]); // a tie is no consensus
    expect(extractDpoPairs(site, [ans("a", "→ open_file({})"), ans("b", null)])).toEqual([]); // the trace's own action
    expect(extractDpoPairs(site, [ans("a", null)])).toEqual([]);
  });

  it("parses --models and --budget, naming what is wrong", () => {
    expect(parseModelList("http://h:1/v1#m1, http://h:2").map((e) => [e.url, e.model])).toEqual([["http://h:1/v1", "m1"], ["http://h:2", undefined]]);
    expect(() => parseModelList("nope")).toThrow(/--models item 1 \(nope\)/);
    expect(parseBudget("depth=3,seconds=1.5")).toEqual({ depth: 3, seconds: 1.5 });
    expect(() => parseBudget("depht=3")).toThrow(/depht=3.*depth=N/);
    expect(() => parseBudget("width=0")).toThrow(/width/);
    expect(histogram([0, 0.1, 0.5, 1, 1]).counts).toEqual([2, 0, 1, 0, 2]);
  });
});
