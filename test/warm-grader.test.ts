// The warm grader (lib/sandbox/warm.ts + harness/forkserver.py): grades like the cold path, and
// each grade is contained from its siblings, the spool and the zygote. Real bwrap, real pytest.
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FeatureDeletionEpisode, gradeWorkdir } from "../lib/env/index.js";
import { BwrapSandbox, cgroupMode, checkSandboxes, runPytest, warmWorker, warmWorkers, type PytestRun } from "../lib/sandbox/index.js";
import { applyUnifiedDiff, loadTask } from "../lib/tasks/index.js";
import { ROOT, tmp } from "./helpers.js";

const warm = new BwrapSandbox("bwrap", { warm: true });
const cold = new BwrapSandbox("bwrap", { warm: false });
const POOL = join(ROOT, "datasets", "tasks");

/** A repo holding tests/test_probe.py with `body` (pytest runs it as a grade: read-only tree). */
function repo(body: string, name = "probe"): string {
  const d = tmp(`warm-${name}-`);
  mkdirSync(join(d, "tests"));
  writeFileSync(join(d, "tests", `test_${name}.py`), body);
  return d;
}
const grade = (dir: string, opts: Parameters<typeof runPytest>[2] = {}): Promise<PytestRun> =>
  runPytest(warm, dir, { workdirReadOnly: true, timeoutMs: 120_000, layout: null, pyenv: null, ...opts });
const outcomes = (r: PytestRun) => Object.fromEntries(r.tests.map((t) => [t.nodeid, t.outcome]));
const workerStarts = () => warmWorker(warm, null).starts;

describe("warm grader", () => {
  beforeAll(async () => {
    const status = await warmWorker(warm, null).check();
    expect(status, "nested namespaces must work inside bwrap here").toEqual({ ok: true, why: null });
  }, 120_000);

  it("grades a task like the cold path: golden diff 1, broken tree 0, the same per-test outcomes", async () => {
    const t = loadTask(POOL, "inventory-reserve");
    const results: Record<string, { reward: number; flags: string[]; perTest: string[] }> = {};
    for (const [name, sb] of [["warm", warm], ["cold", cold]] as const) {
      for (const which of ["golden", "broken"] as const) {
        const wd = tmp("warm-task-");
        cpSync(FeatureDeletionEpisode.snapshotDir(t), wd, { recursive: true });
        if (which === "golden") applyUnifiedDiff(wd, t.golden_diff);
        const g = await gradeWorkdir(t, wd, [], sb);
        results[`${name}:${which}`] = { reward: g.reward, flags: g.flags.map((f) => `${f.kind}: ${f.detail}`), perTest: g.perTest.map((p) => `${p.nodeid} ${p.outcome}`) };
      }
    }
    expect(results["warm:golden"]!.reward).toBe(1);
    expect(results["warm:golden"]!.flags).toEqual([]);
    expect(results["warm:broken"]!.reward).toBe(0);
    expect(results["warm:broken"]!.perTest.some((p) => p.endsWith(" failed"))).toBe(true);
    expect(results["warm:golden"]).toEqual(results["cold:golden"]);
    expect(results["warm:broken"]).toEqual(results["cold:broken"]);
  }, 300_000);

  it("a grade sees its own tree read-only, no spool, only its own processes, no capabilities, capped /tmp and /dev/shm", async () => {
    const d = repo(`
import errno, os, subprocess

def test_spool_hidden():
    assert os.listdir("/spool") == []

def test_own_pid_namespace():
    pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    assert pids[0] == 1 and os.getpid() == 2 and len(pids) < 10, pids

def test_work_read_only():
    assert os.path.exists("/work/tests/test_probe.py")
    try:
        open("/work/planted", "w")
    except OSError as e:
        assert e.errno == errno.EROFS
    else:
        raise AssertionError("wrote into /work")

def test_no_privileges():
    status = open("/proc/self/status").read()
    for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert "%s:\\t0000000000000000" % k in status, k
    assert "NoNewPrivs:\\t1" in status
    assert os.getuid() == 1000

def test_disk_capped():
    for place in ("/tmp", "/dev/shm"):
        written = 0
        try:
            with open(place + "/fill", "wb") as f:
                for _ in range(64):
                    f.write(b"x" * (1 << 20))
                    f.flush()
                    written += 1
        except OSError as e:
            assert e.errno in (errno.ENOSPC, errno.EFBIG), e
        assert written <= 8, (place, written)
        os.remove(place + "/fill")

def test_a_new_namespace_cannot_peel_the_spool():
    r = subprocess.run(["unshare", "-Urm", "sh", "-c", "umount /spool; umount -l /spool; ls -A /spool | wc -l"], capture_output=True, text=True)
    assert r.stdout.strip() in ("", "0"), (r.stdout, r.stderr)

def test_dev_read_only():
    try:
        open("/dev/planted", "w")
    except OSError as e:
        assert e.errno in (errno.EROFS, errno.EACCES)
    else:
        raise AssertionError("wrote into /dev")
`);
    const r = await grade(d, { diskMb: 8 });
    expect({ outcomes: outcomes(r), tampered: r.tampered, forged: r.forged, finished: r.sessionFinished }, r.run.stderr.slice(-3000)).toEqual({
      outcomes: Object.fromEntries(["spool_hidden", "own_pid_namespace", "work_read_only", "no_privileges", "disk_capped", "a_new_namespace_cannot_peel_the_spool", "dev_read_only"].map((n) => [`tests/test_probe.py::test_${n}`, "passed"])),
      tampered: [], forged: 0, finished: true,
    });
  }, 180_000);

  it("a grade cannot see or signal a concurrent sibling", async () => {
    const sleeper = repo(`
import time

def test_sleeps_through():
    time.sleep(8)
`, "sleeper");
    const killer = repo(`
import os, signal

def test_kills_everything_it_can():
    own = {int(p) for p in os.listdir("/proc") if p.isdigit()}
    hit = []
    for pid in range(2, 4096):
        if pid == os.getpid():
            continue
        try:
            os.kill(pid, signal.SIGKILL)
            hit.append(pid)
        except OSError:
            pass
    assert set(hit) <= own, hit
    assert os.listdir("/spool") == [] and not os.path.exists("/spool/grades")
`, "killer");
    const s = grade(sleeper);
    await new Promise((res) => setTimeout(res, 1500));
    const [rs, rk] = await Promise.all([s, grade(killer)]);
    expect(outcomes(rk), rk.run.stderr.slice(-2000)).toEqual({ "tests/test_killer.py::test_kills_everything_it_can": "passed" });
    expect(outcomes(rs), rs.run.stderr.slice(-2000)).toEqual({ "tests/test_sleeper.py::test_sleeps_through": "passed" });
  }, 180_000);

  it.runIf(cgroupMode().kind !== "none")("a fork bomb meets its own pids limit and leaves its sibling alone", async () => {
    const bomb = repo(`
import os, time

def test_forks_until_refused():
    n = 0
    try:
        while n < 5000:
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
            n += 1
    except OSError:
        pass
    assert n < 64, n
`, "bomb");
    const sibling = repo(`
import os

def test_forks_fine():
    pids = [os.fork() for _ in range(1)]
    for p in pids:
        if p == 0:
            os._exit(0)
        os.waitpid(p, 0)
`, "sibling");
    const [rb, rs] = await Promise.all([grade(bomb, { pids: 64, timeoutMs: 60_000 }), grade(sibling, { pids: 64 })]);
    expect(outcomes(rb), rb.run.stderr.slice(-2000)).toEqual({ "tests/test_bomb.py::test_forks_until_refused": "passed" });
    expect(outcomes(rs), rs.run.stderr.slice(-2000)).toEqual({ "tests/test_sibling.py::test_forks_fine": "passed" });
  }, 180_000);

  it("the timeout kills the whole grade, and the zygote keeps serving", async () => {
    const starts = workerStarts();
    const d = repo(`
import os, time

def test_hangs():
    if os.fork() == 0:
        time.sleep(300)
    time.sleep(300)
`, "hang");
    const t0 = performance.now();
    const r = await grade(d, { timeoutMs: 3_000 });
    expect(r.run.timedOut).toBe(true);
    expect(r.sessionFinished).toBe(false);
    expect(performance.now() - t0).toBeLessThan(60_000);
    const ok = await grade(repo("def test_ok():\n    pass\n", "after"));
    expect(outcomes(ok)).toEqual({ "tests/test_after.py::test_ok": "passed" });
    expect(workerStarts()).toBe(starts);
  }, 180_000);

  it("a zygote that dies is replaced; a grade in flight then runs cold and still grades", async () => {
    const w = warmWorker(warm, null);
    const starts = w.starts;
    const slow = grade(repo("import time\n\ndef test_slow():\n    time.sleep(4)\n", "slow"));
    await new Promise((res) => setTimeout(res, 1500));
    process.kill(await w.zygotePid(), "SIGKILL");
    const r = await slow;
    expect(outcomes(r), r.run.stderr.slice(-2000)).toEqual({ "tests/test_slow.py::test_slow": "passed" });
    const next = await grade(repo("def test_ok():\n    pass\n", "next"));
    expect(outcomes(next)).toEqual({ "tests/test_next.py::test_ok": "passed" });
    expect(w.starts).toBe(starts + 1);
  }, 180_000);

  it("sandbox check says which grading path runs here, and why", async () => {
    const c = await checkSandboxes();
    expect(c.bwrap.detail).toMatchObject({ grading: "warm", grading_why: null });
  }, 120_000);

  it("forged result lines and the signed session record work per grade (the key never crosses grades)", async () => {
    const d = repo(`
import os

def test_forges():
    for fd in range(0, 64):
        try:
            os.write(fd, b'@composer-lab 000000000000 {"r": "{}", "s": "x"}\\n')
        except OSError:
            pass
`, "forge");
    const [a, b] = await Promise.all([grade(d), grade(d)]);
    for (const r of [a, b]) {
      expect(r.sessionFinished).toBe(true);
      expect(outcomes(r)).toEqual({ "tests/test_forge.py::test_forges": "passed" });
    }
    expect(warmWorkers().some((w) => w.timings.length > 0)).toBe(true);
  }, 180_000);
});
