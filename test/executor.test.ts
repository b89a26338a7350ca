// The executor interface (lib/executor) and the `local` executor on the real sandbox (bubblewrap):
// batches stream results as they finish, lost attempts are re-run, cancel stops what is queued, and
// the executor's Sandbox face grades exactly as the sandbox itself does (same one pytest runner).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalExecutor, LostJobError, gradeMany, jobOf, parseJobs, runBatch, runOptionsOf, type JobResult } from "../lib/executor/index.js";
import { BwrapSandbox, RunOptions, runPytest } from "../lib/sandbox/index.js";
import { loadTask } from "../lib/tasks/index.js";
import pLimit from "p-limit";
import { withExecutor } from "../lib/cli/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";
import { wrongDiff } from "./support/wrong-body.js";

const sb = new BwrapSandbox();

describe("job specs", () => {
  it("name the job and the field of a bad spec, and refuse duplicate ids", () => {
    expect(() => parseJobs([{ id: "ok", command: "true", workdir: "/tmp" }, { id: "bad", command: "true", workdir: "/tmp", limits: { memoryMb: -1 } }])).toThrow(/^jobs\[1\] \(bad\)\.limits\.memoryMb: /);
    expect(() => parseJobs([{ id: "a b", command: "true", workdir: "/tmp" }])).toThrow(/jobs\[0\] \(a b\)\.id/);
    expect(() => parseJobs([{ id: "x", command: [], workdir: "/tmp" }])).toThrow(/jobs\[0\] \(x\)\.command/);
    expect(() => parseJobs([{ id: "x", command: "true", workdir: "/tmp", mounts: [{ host: "/etc", inside: "etc" }] }])).toThrow(/mounts\.0\.inside: an absolute path/);
    expect(() => parseJobs([{ id: "x", command: "true", workdir: "/tmp" }, { id: "x", command: "true", workdir: "/tmp" }])).toThrow(/jobs\[1\]\.id: "x" appears twice/);
    const [j] = parseJobs([{ id: "x", command: "true", workdir: "/tmp" }]);
    expect(j).toMatchObject({ limits: { timeoutMs: 60_000, memoryMb: 1024, cpus: 1, pids: 256, diskMb: 1024 }, retries: 2, mounts: [], env: {} });
  });

  it("a sandbox run made a job and back keeps every RunOptions field, each given other than its default (round 21: the run at home's five had been dropped)", () => {
    // (one value a field, none its default: a field RunOptions gains fails here until it is given one)
    const options: Required<RunOptions> = {
      workdir: "/tmp/w", timeoutMs: 1234, memoryMb: 321, cpus: 2, pids: 77, env: { HOME: "/home/a", LANG: "C" }, maxOutputBytes: 4321, stallMs: 999,
      roBinds: { "/srv/a": "/opt/a" }, rwBinds: { "/srv/b": "/opt/b" }, stdin: "in", diskMb: 55, workdirReadOnly: true, scratchWorkdir: true,
      protectPaths: ["conftest.py"], masks: [{ path: "/usr/x", kind: "package" }], hostname: "build-7", procFiles: { "/etc/machine-id": "ab\n" },
      cpuRlimit: false, cwd: "/home/a/src", accounts: ["systemd-timesync"], tmpfs: ["/home/a"], bareEnv: true, fsizeUnlimited: true, nofile: 4096, user: "alice", userHome: "/srv/alice", uptimeS: 86_400 * 90,
    };
    expect(Object.keys(options).sort()).toEqual(Object.keys(RunOptions.shape).sort());
    const defaults = RunOptions.parse({ workdir: "/" }) as Record<string, unknown>;
    for (const [k, v] of Object.entries(options)) if (k !== "workdir") expect(v, k).not.toEqual(defaults[k]);
    expect(RunOptions.parse(runOptionsOf(jobOf("j1", ["true"], options)))).toEqual(RunOptions.parse(options));
  });
});

describe("the batch runner", () => {
  it("re-runs a lost attempt up to `retries` times, then reports it failed; an error that is not a loss fails at once", async () => {
    const tries: Record<string, number> = {};
    const batch = runBatch([
      { id: "lost-once", command: "true", workdir: "/tmp" },
      { id: "always-lost", command: "true", workdir: "/tmp", retries: 1 },
      { id: "broken", command: "true", workdir: "/tmp" },
    ], async ({ job, attempt, setNode }) => {
      tries[job.id] = attempt;
      setNode(`n${attempt}`);
      if (job.id === "broken") throw new Error("cannot run this");
      if (job.id === "always-lost" || attempt === 1) throw new LostJobError(`node n${attempt} went away`);
      return { exitCode: 0, signal: null, stdout: "ran", stderr: "", timedOut: false, stalled: false, oomKilled: false, wallMs: 1, outputTruncated: false, sandbox: "bwrap", diskExceeded: false, sanitized: { removedSpecial: [], clearedModes: [] } };
    }, { limit: pLimit(2) });
    const [once, always, broken] = await batch.results();
    expect(once).toMatchObject({ status: "done", attempts: 2, node: "n2", lost: [{ node: "n1", why: "node n1 went away" }], run: { stdout: "ran" } });
    expect(always).toMatchObject({ status: "failed", attempts: 2, run: null, error: "lost 2 time(s); last: node n2 went away" });
    expect(always!.lost).toHaveLength(2);
    expect(broken).toMatchObject({ status: "failed", attempts: 1, error: "cannot run this", lost: [] });
    expect(tries).toEqual({ "lost-once": 2, "always-lost": 2, broken: 1 });
    expect(batch.statuses().map((s) => s.status)).toEqual(["done", "failed", "failed"]);
    expect(() => batch.status("nope")).toThrow(/no job "nope"/);
  });
});

describe("the local executor (bubblewrap)", () => {
  it("streams results as they finish, keeps the sandbox's containment, limits and timeouts; results() in submission order", async () => {
    const wd = tmp("exec-wd-");
    writeFileSync(join(wd, "data.txt"), "from the workdir\n");
    const ex = new LocalExecutor(sb, { concurrency: 3 });
    const seen: string[] = [];
    const batch = ex.submit([
      { id: "slow", command: "sleep 2; echo slow", workdir: wd },
      { id: "env-stdin", command: ["python3", "-c", "import os, sys; print(sorted(k for k in os.environ if k.startswith('JOB_')), sys.stdin.read().strip(), open('data.txt').read().strip())"], workdir: wd, env: { JOB_A: "1" }, stdin: "piped in" },
      { id: "readonly", command: "echo x > data.txt", workdir: wd, workdirReadOnly: true },
      { id: "timeout", command: ["python3", "-c", "while True: pass"], workdir: wd, limits: { timeoutMs: 1500 } },
    ], { onResult: (r) => seen.push(r.id) });
    expect(batch.jobIds).toEqual(["slow", "env-stdin", "readonly", "timeout"]);
    const streamed: JobResult[] = [];
    for await (const r of batch) streamed.push(r);
    expect(streamed.map((r) => r.id)).toEqual(seen);
    expect(streamed.map((r) => r.id).indexOf("slow")).toBeGreaterThan(streamed.map((r) => r.id).indexOf("env-stdin"));
    const [slow, envStdin, readonly, timeout] = await batch.results();
    expect(slow).toMatchObject({ status: "done", node: "local", attempts: 1, run: { exitCode: 0, stdout: "slow\n", sandbox: "bwrap" } });
    expect(envStdin!.run!.stdout).toBe("['JOB_A'] piped in from the workdir\n");
    expect(readonly!.run!.exitCode).not.toBe(0);
    expect(timeout!.run).toMatchObject({ timedOut: true });
    expect(batch.statuses().every((s) => s.status === "done")).toBe(true);
    expect(slow!.latencyMs).toBeGreaterThanOrEqual(2000);
  });

  it("cancel: queued jobs come back cancelled, the running one finishes and is reported cancelled", async () => {
    const wd = tmp("exec-cancel-");
    const ex = new LocalExecutor(sb, { concurrency: 1 });
    const batch = ex.submit(["a", "b", "c"].map((id) => ({ id, command: "sleep 1", workdir: wd })));
    while (batch.status("a").status !== "running") await new Promise((r) => setTimeout(r, 20));
    await batch.cancel("enough");
    const rs = await batch.results();
    expect(rs.map((r) => [r.id, r.status, r.error])).toEqual([["a", "cancelled", "enough"], ["b", "cancelled", "enough"], ["c", "cancelled", "enough"]]);
    expect(rs[1]!.attempts).toBe(0);
  });

  it("as a Sandbox, runs the one pytest runner with the same outcomes as the sandbox, and grades golden 1 / wrong 0", async () => {
    const repo = tmp("exec-repo-");
    mkdirSync(join(repo, "tests"));
    writeFileSync(join(repo, "tests", "test_x.py"), "def test_ok():\n    assert 1 + 1 == 2\n\ndef test_bad():\n    assert 1 + 1 == 3\n");
    const ex = new LocalExecutor(sb, { concurrency: 2 });
    const [direct, viaExecutor] = await Promise.all([runPytest(sb, repo), runPytest(ex.asSandbox(), repo)]);
    const outcomes = (r: typeof direct) => r.tests.map((t) => [t.nodeid, t.outcome]).sort();
    expect(outcomes(viaExecutor)).toEqual(outcomes(direct));
    expect(outcomes(direct)).toEqual([["tests/test_x.py::test_bad", "failed"], ["tests/test_x.py::test_ok", "passed"]]);
    expect(viaExecutor.sessionFinished).toBe(true);

    const task = loadTask(join(ROOT, "datasets", "tasks"), "inventory-totals");
    const grades = await gradeMany([{ task, completion: task.golden_diff, label: "golden" }, { task, completion: wrongDiff(task.golden_diff), label: "wrong" }], ex);
    expect(grades.map((g) => [g.label, g.reward, g.error, g.flags])).toEqual([["golden", 1, null, []], ["wrong", 0, null, []]]);
  });
});

describe("--executor on the commands that grade (train, compare, outer run, grade, tasks build)", () => {
  it("an unknown executor is refused naming the known ones; a swarm/slurm executor for the in-process toy env is refused", () => {
    for (const args of [["train"], ["compare"], ["outer", "run", "--pool", "p", "--store", "s", "--models", "http://127.0.0.1:9/v1"], ["grade", "p", "--golden"]]) {
      const r = cli([...args, "--executor", "kubernetes", "--json"]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(oneJson(r.stdout)).toMatchObject({ ok: false, error: expect.stringMatching(/--executor <name>' argument 'kubernetes' is invalid\. Allowed choices are local, swarm, slurm/) });
    }
    const toy = cli(["train", "--config", join(ROOT, "datasets", "configs", "toolcall.yaml"), "--executor", "slurm", "--json"]);
    expect(toy.code).toBe(1);
    expect(oneJson(toy.stdout).error).toBe("--executor slurm: the toolcall environment grades in this process; --executor applies to env.kind feature_deletion");
  });

  it("withExecutor: names the known executors; counts results by node; closes the executor when the command throws", async () => {
    await expect(withExecutor("k8s", {}, async () => 1)).rejects.toThrow("--executor k8s: unknown executor (one of local, swarm, slurm)");
    let held: Awaited<Parameters<Parameters<typeof withExecutor>[2]>[0]> | null = null;
    let running: Promise<unknown> | null = null;
    await expect(withExecutor("local", { sandbox: "bwrap", concurrency: 1 }, async (ex) => {
      held = ex;
      const [r] = await ex.submit([{ id: "one", command: "true", workdir: tmp() }]).results();
      expect(r!.status).toBe("done");
      expect(await ex.asSandbox().run(["true"], { workdir: tmp() })).toMatchObject({ exitCode: 0 });
      expect(ex.tally()).toMatchObject({ executor: "local", jobs: 2, done: 2, nodes: { local: 2 } });
      running = ex.submit([{ id: "in-flight", command: "sleep 2", workdir: tmp() }]).results();
      throw new Error("the command failed");
    })).rejects.toThrow("the command failed");
    // closing cancelled the batch still in flight
    expect(((await running!) as { status: string }[])[0]!.status).toBe("cancelled");
    expect(held!.tally().cancelled).toBe(1);
  });
});
