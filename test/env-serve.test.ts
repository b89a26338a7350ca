/**
 * `composer-lab env serve` / serveEnv: the environment as an OpenEnv-style HTTP server on loopback,
 * graded in real bubblewrap, driven by the lab's stdlib Python client (lib/env/composer_lab_env.py
 * under /usr/bin/python3): TRL reward function (golden 1, broken 0), episode loops (concurrent),
 * 4xx naming the field, idle reaping, graceful shutdown of the CLI on SIGTERM, and a small load test
 * with no leaked temp folder or sandbox process afterwards.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveEnv, type RunningEnvServer } from "../lib/env/index.js";
import { BwrapSandbox } from "../lib/sandbox/index.js";
import { applyUnifiedDiff, loadTask, readIndex } from "../lib/tasks/index.js";
import { loadEpisodes, ownTempDirs, sandboxProcesses } from "../bench/envserve-load.js";
import { ROOT, tmp } from "./helpers.js";

const POOL = join(ROOT, "datasets", "tasks");
const CLIENT_DIR = join(ROOT, "lib", "env");
const sb = new BwrapSandbox();
let server: RunningEnvServer;

/** Runs a Python snippet with the client importable; its last stdout line is JSON. */
async function py(code: string, input: unknown): Promise<Record<string, any>> {
  // asynchronously: the server answers from this process's event loop
  const child = spawn("/usr/bin/python3", ["-c", `import sys, json\nsys.path.insert(0, ${JSON.stringify(CLIENT_DIR)})\nfrom composer_lab_env import *\nARGS = json.loads(sys.stdin.read())\n${code}`], { stdio: ["pipe", "pipe", "pipe"], timeout: 300_000 });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  child.stdin.end(JSON.stringify(input));
  const code_ = await new Promise<number | null>((r) => child.on("close", (c) => r(c)));
  if (code_ !== 0) throw new Error(`python exited ${code_}: ${err}`);
  return JSON.parse(out.trim().split("\n").pop()!);
}

/** Each task's target file with the golden diff applied (what a solving agent writes). */
function solved(taskId: string): { path: string; broken: string; fixed: string } {
  const t = loadTask(POOL, taskId);
  const dir = tmp();
  cpSync((t.broken as { path: string }).path, dir, { recursive: true });
  const path = t.deleted_symbols[0]?.file ?? t.golden_diff.match(/^\+\+\+ b\/(.+)$/m)![1]!;
  const broken = readFileSync(join(dir, path), "utf8");
  applyUnifiedDiff(dir, t.golden_diff);
  return { path, broken, fixed: readFileSync(join(dir, path), "utf8") };
}

const post = async (path: string, body: unknown) => {
  const r = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as Record<string, any> };
};

beforeAll(async () => {
  server = await serveEnv({ pool: POOL, sandbox: sb, port: 0 });
});
afterAll(async () => {
  await server?.close();
});

describe("env server", () => {
  it("the Python client's TRL reward function: golden diffs earn 1, the broken repo and a wrong body 0, with per-completion verdicts", async () => {
    const ids = readIndex(POOL).map((t) => t.task_id);
    const golden = ids.map((id) => loadTask(POOL, id).golden_diff);
    // a "fix" that returns the wrong value: the target tests fail
    const wrong = loadTask(POOL, "inventory-reserve").golden_diff.replace("return free - qty", "return free");
    const out = await py(`
seen = []
reward = make_reward_func(ARGS["url"], on_results=seen.extend)
completions = ARGS["completions"]
# the first as a TRL conversational completion (a list of messages)
completions[0] = [{"role": "user", "content": "ignored"}, {"role": "assistant", "content": completions[0]}]
rewards = reward(ARGS["prompts"], completions, task_id=ARGS["task_id"], extra_column=[0] * len(completions))
print(json.dumps({"rewards": rewards, "name": reward.__name__, "results": seen}))
`, { url: server.url, prompts: [...ids, "x", "y"].map((i) => `fix ${i}`), completions: [...golden, "no diff at all", wrong], task_id: [...ids, ids[0], "inventory-reserve"] });
    expect(out.rewards).toEqual([1, 1, 1, 0, 0]);
    expect(out.name).toBe("composer_lab_reward");
    expect(out.results.map((r: { kind: string }) => r.kind)).toEqual(["diff", "diff", "diff", "invalid", "diff"]);
    expect(out.results[4].frac).toBeLessThan(1);
    expect(out.results[0].hacked).toBe(false);
  });

  it("Python episode loops, four at once: solving ones earn 1, one that submits the broken repo 0", async () => {
    const ids = readIndex(POOL).map((t) => t.task_id);
    const plans = [...ids, "inventory-reserve"].map((task_id, i) => ({ task_id, ...solved(task_id), solve: i < ids.length }));
    const out = await py(`
import threading
client = EnvClient(ARGS["url"])
results = [None] * len(ARGS["plans"])
def policy_for(plan):
    # read, write a work-in-progress, then the fix (two writes), run the tests, submit
    script = [{"type": "list_dir", "path": "."}, {"type": "read_file", "path": plan["path"]}]
    if plan["solve"]:
        script += [{"type": "write_file", "path": plan["path"], "content": plan["broken"] + "\\n# work in progress\\n"},
                   {"type": "write_file", "path": plan["path"], "content": plan["fixed"]},
                   {"type": "run_tests"}]
    script.append({"type": "submit"})
    it = iter(script)
    return lambda obs: next(it)
def run(i, plan):
    results[i] = run_episode(client, policy_for(plan), task_id=plan["task_id"])
threads = [threading.Thread(target=run, args=(i, p)) for i, p in enumerate(ARGS["plans"])]
[t.start() for t in threads]; [t.join() for t in threads]
print(json.dumps([{"reward": r["reward"], "task_id": r["task_id"], "steps": r["steps"], "flags": r["grade"]["flags"], "stub": "raise NotImplementedError" in r["trajectory"][1]["observation"]["text"]} for r in results]))
`, { url: server.url, plans });
    expect(out.map((r: { reward: number }) => r.reward)).toEqual([1, 1, 1, 0]);
    expect(out.map((r: { task_id: string }) => r.task_id)).toEqual(plans.map((p) => p.task_id));
    expect(out.every((r: { flags: unknown[] }) => r.flags.length === 0)).toBe(true);
    expect(out.map((r: { stub: boolean }) => r.stub)).toEqual([true, true, true, true]); // each episode read its own broken copy
    expect(server.sessions()).toBe(0); // run_episode closed each one
  });

  it("bad actions, unknown episodes and tasks get a 4xx naming the field (and the Python client raises EnvError with it)", async () => {
    const { body: start } = await post("/reset", { task_id: "inventory-reserve" });
    const eid = start.episode_id as string;
    expect(start.observation.prompt).toContain("tests/test_stock.py::test_reserve_insufficient");
    expect(start.observation.prompt).not.toContain("return free - qty");
    const cases: [string, unknown, number, string][] = [
      ["/step", { episode_id: eid, action: { type: "read_file" } }, 422, "action.path"],
      ["/step", { episode_id: eid, action: { type: "teleport" } }, 422, "action.type"],
      ["/step", { episode_id: eid, action: { type: "edit", path: "a.py", search: "", replace: "x" } }, 422, "action.search"],
      ["/step", { episode_id: eid, action: { type: "list_dir" }, turbo: true }, 422, "turbo"],
      ["/step", { episode_id: "nope", action: { type: "list_dir" } }, 404, "episode_id"],
      ["/reset", { task_id: "no-such-task" }, 422, "task_id"],
      ["/reward", { completions: ["a", "b"], task_id: ["inventory-reserve"] }, 422, "task_id"],
      ["/reward", { completions: ["a"], task_id: ["inventory-nope"] }, 422, "task_id[0]"],
      ["/reward", { task_id: "inventory-reserve" }, 422, "completions"],
    ];
    for (const [path, body, status, field] of cases) {
      const r = await post(path, body);
      expect([path, r.status, r.body.error.field]).toEqual([path, status, field]);
    }
    const loc = (await post("/step", { episode_id: eid, action: { type: "read_file" } })).body.detail[0].loc;
    expect(loc).toEqual(["body", "action", "path"]);
    // the rejected actions took no turn
    const st = (await (await fetch(`${server.url}/state?episode_id=${eid}`)).json()) as Record<string, any>;
    expect(st).toMatchObject({ episode_id: eid, step_count: 0, task_id: "inventory-reserve", done: false });
    expect((await fetch(`${server.url}/reset`)).status).toBe(405);
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
    const health = (await (await fetch(`${server.url}/health`)).json()) as Record<string, any>;
    expect(health).toMatchObject({ status: "healthy", sessions: 1, tasks: 3 });
    const viaPython = await py(`
c = EnvClient(ARGS["url"])
try:
    c.step(ARGS["eid"], {"type": "write_file", "path": "x.py"})
    print(json.dumps({"raised": False}))
except EnvError as e:
    print(json.dumps({"raised": True, "status": e.status, "field": e.field}))
`, { url: server.url, eid });
    expect(viaPython).toEqual({ raised: true, status: 422, field: "action.content" });
    expect((await post("/close", { episode_id: eid })).status).toBe(200);
    expect((await post("/close", { episode_id: eid })).status).toBe(404);
  });

  it("reaps idle episodes with their working copies", async () => {
    const s = await serveEnv({ pool: POOL, sandbox: sb, port: 0, idle_timeout_s: 0.4 });
    try {
      const before = new Set(ownTempDirs());
      const a = await (await fetch(`${s.url}/reset`, { method: "POST", body: JSON.stringify({ seed: 0 }) })).json() as Record<string, any>;
      const made = ownTempDirs().filter((d) => !before.has(d));
      expect(made.length).toBe(1);
      expect(made[0]).toContain("composer-lab-env-");
      await new Promise((r) => setTimeout(r, 900));
      expect(s.sessions()).toBe(0);
      expect(s.stats.episodes_reaped).toBe(1);
      expect(existsSync(made[0]!)).toBe(false);
      const r = await fetch(`${s.url}/step`, { method: "POST", body: JSON.stringify({ episode_id: a.episode_id, action: { type: "list_dir" } }) });
      expect(r.status).toBe(404);
      expect(((await r.json()) as Record<string, any>).error.message).toMatch(/reaped after 0.4 s idle/);
    } finally {
      await s.close();
    }
  });

  it("a small load test: 6 episodes at once, step latencies measured, nothing leaked after close", async () => {
    const s = await serveEnv({ pool: POOL, sandbox: sb, port: 0 });
    const before = new Set(ownTempDirs());
    const tasks = readIndex(POOL).map((t) => ({ task_id: t.task_id, file: loadTask(POOL, t.task_id).deleted_symbols[0]!.file, test: t.fail_to_pass[0]! }));
    const report = await loadEpisodes(s.url, 6, tasks);
    await s.close();
    console.error(`[env-serve load] ${JSON.stringify(report)}`);
    expect(report.steps).toBe(30);
    expect(report.rewards).toEqual([0, 0, 0, 0, 0, 0]); // nothing was fixed
    expect(report.latency.p95).toBeGreaterThanOrEqual(report.latency.p50);
    const leaked = ownTempDirs().filter((d) => !before.has(d));
    expect(leaked).toEqual([]);
    expect(sandboxProcesses(leaked)).toEqual([]);
  });

  it("the CLI: --json prints one object once listening; SIGTERM answers the in-flight step, releases the episode and exits 0", async () => {
    const child = spawn(process.execPath, [join(ROOT, "bin", "composer-lab.js"), "env", "serve", "--pool", POOL, "--port", "0", "--sandbox", "bwrap", "--json"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const lines: string[] = [];
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    const first = await new Promise<Record<string, any>>((res, rej) => {
      createInterface({ input: child.stdout }).on("line", (l) => (lines.push(l), lines.length === 1 && res(JSON.parse(l))));
      child.on("exit", () => rej(new Error(`exited early: ${stderr}`)));
    });
    expect(first).toMatchObject({ ok: true, sandbox: "bwrap" });
    const url = first.url as string;
    const start = (await (await fetch(`${url}/reset`, { method: "POST", body: JSON.stringify({ task_id: "inventory-reserve" }) })).json()) as Record<string, any>;
    const dirs = readdirTemp(child.pid!);
    expect(dirs.length).toBe(1);
    // a step that runs the tests in the sandbox, then SIGTERM while it runs
    const step = fetch(`${url}/step`, { method: "POST", body: JSON.stringify({ episode_id: start.episode_id, action: { type: "run_tests" } }) });
    await new Promise((r) => setTimeout(r, 150));
    child.kill("SIGTERM");
    const answered = await step;
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as Record<string, any>).observation.text).toMatch(/passed|failed/);
    expect(await exited).toBe(0);
    expect(lines.length).toBe(1);
    expect(stderr).toMatch(/SIGTERM: no new requests/);
    expect(readdirTemp(child.pid!)).toEqual([]);
    expect(sandboxProcesses(dirs, child.pid!)).toEqual([]);
  });
});

const readdirTemp = (pid: number) => ownTempDirs(pid);
