import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BwrapSandbox, GvisorSandbox, NoSandbox, cgroupMode, checkShellCommand, createRunCgroup, foldReports, killRunCgroupsOf, runPytest } from "../lib/sandbox/index.js";
import { ROOT, cli, oneJson, tmp } from "./helpers.js";

const sb = new BwrapSandbox();
const py = (code: string) => ["python3", "-c", code];
const alive = (marker: string) => spawnSync("pgrep", ["-f", marker]).stdout.toString().trim();

describe("bubblewrap sandbox: containment", () => {
  let wd: string;
  beforeAll(async () => {
    expect((await sb.check()).ok).toBe(true);
    wd = tmp();
    writeFileSync(join(wd, "data.txt"), "inside\n");
  });

  it("runs in the workdir with a clean environment and no host secrets", async () => {
    process.env.COMPOSER_LAB_TEST_SECRET = "s3cret-value";
    const r = await sb.run("pwd; cat data.txt; env", { workdir: wd, env: { ALLOWED: "yes" } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("/work\ninside\n");
    expect(r.stdout).toContain("ALLOWED=yes");
    expect(r.stdout).not.toContain("s3cret-value");
    expect(r.stdout).not.toMatch(/^(OPENAI|AWS|HOME=\/root)/m);
  });

  it("a run may be given another host name and other /proc files (the key probe's second run: another machine); by default the host's boot id", async () => {
    const show = "hostname; cat /proc/sys/kernel/random/boot_id; grep ^btime /proc/stat";
    const plain = await sb.run(show, { workdir: wd });
    expect(plain.exitCode, plain.stderr).toBe(0);
    const host = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    expect(plain.stdout.split("\n").slice(0, 2)).toEqual(["sandbox", host]);
    const other = await sb.run(show, { workdir: wd, hostname: "sandbox-b", procFiles: { "/proc/sys/kernel/random/boot_id": "00000000-1111-2222-3333-444444444444\n", "/proc/stat": "btime 12345\n" } });
    expect(other.exitCode, other.stderr).toBe(0);
    expect(other.stdout).toBe("sandbox-b\n00000000-1111-2222-3333-444444444444\nbtime 12345\n");
    // a machine id where the plain run has none, and the other user
    const ids = "cat /etc/machine-id 2>/dev/null || echo none; id -u; id -un";
    expect((await sb.run(ids, { workdir: wd })).stdout).toBe("none\n1000\nsandbox\n");
    const b = await sb.run(ids, { workdir: wd, user: "sandbox-b", procFiles: { "/etc/machine-id": "0123456789abcdef0123456789abcdef\n" } });
    expect(b.stdout, b.stderr).toBe("0123456789abcdef0123456789abcdef\n1001\nsandbox-b\n");
    // (read-only: the run cannot put the host's back)
    const write = await sb.run("echo x > /proc/sys/kernel/random/boot_id", { workdir: wd, procFiles: { "/proc/sys/kernel/random/boot_id": "y\n" } });
    expect(write.exitCode).not.toBe(0);
  });

  it("has no network: connect and DNS fail", async () => {
    const r = await sb.run(py(`
import socket
for target in [("1.1.1.1", 80), ("127.0.0.1", 22)]:
    try:
        socket.create_connection(target, timeout=2); print("CONNECTED", target)
    except OSError as e: print("connect failed", e.errno)
try:
    socket.getaddrinfo("deb.debian.org", 80); print("RESOLVED")
except OSError as e: print("dns failed")
`), { workdir: wd });
    expect(r.stdout).not.toContain("CONNECTED");
    expect(r.stdout).not.toContain("RESOLVED");
    expect(r.stdout).toContain("dns failed");
  });

  it("cannot write outside the workdir; /tmp is private", async () => {
    const r = await sb.run(py(`
import os
for p in ["/usr/evil", "/etc/evil", "/evil", "/work/../evil"]:
    try:
        open(p, "w").write("x"); print("WROTE", p)
    except OSError as e: print("denied", p)
open("/tmp/private", "w").write("x"); print("tmp ok")
`), { workdir: wd });
    expect(r.stdout).not.toContain("WROTE");
    expect(r.stdout).toContain("tmp ok");
    expect(existsSync("/tmp/private")).toBe(false);
    expect(existsSync("/evil")).toBe(false);
  });

  it("cannot read /root or /etc/shadow", async () => {
    const r = await sb.run("cat /etc/shadow; ls /root; cat /root/.bashrc; echo done", { workdir: wd });
    expect(r.stdout.trim()).toBe("done");
    expect(r.stderr).toMatch(/No such file or directory/);
  });

  it("a symlink in the workdir cannot reach host files", async () => {
    const d = tmp();
    symlinkSync("/etc/hostname", join(d, "host-link"));
    const r = await sb.run("cat host-link; ln -s /etc/shadow made-inside && cat made-inside; echo done", { workdir: d });
    expect(r.stdout.trim()).toBe("done");
    expect(r.stdout).not.toContain(readFileSync("/etc/hostname", "utf8").trim() || "\u0000");
  });

  it("bounds a fork bomb and leaves no process behind", async () => {
    const r = await sb.run(py(`
import os, time
n = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(4343); os._exit(0)
        n += 1
except OSError as e:
    print("fork refused after", n)
`), { workdir: wd, pids: 64, timeoutMs: 8000 });
    if (cgroupMode().kind !== "none") expect(r.stdout).toMatch(/fork refused after \d+/);
    else expect(r.timedOut || r.exitCode !== 0).toBe(true);
    expect(alive("sleep 4343|4343")).toBe("");
  });

  it("kills a memory hog", async () => {
    const r = await sb.run(py("x = bytearray(3 * 1024**3); print('ALLOCATED')"), { workdir: wd, memoryMb: 256 });
    expect(r.stdout).not.toContain("ALLOCATED");
    expect(r.exitCode).not.toBe(0);
    if (cgroupMode().kind !== "none") expect(r.oomKilled).toBe(true);
    // the emptied group is kept for the next run with its limits (cgroup.ts idle): that run is not
    // told of the kill before it, and still meets the limit itself
    const next = await sb.run(py("x = bytearray(64 * 1024**2); print('ALLOCATED', len(x))"), { workdir: wd, memoryMb: 256 });
    expect([next.stdout.trim(), next.exitCode, next.oomKilled]).toEqual(["ALLOCATED 67108864", 0, false]);
    const again = await sb.run(py("x = bytearray(3 * 1024**3); print('ALLOCATED')"), { workdir: wd, memoryMb: 256 });
    expect(again.stdout).not.toContain("ALLOCATED");
    if (cgroupMode().kind !== "none") expect(again.oomKilled).toBe(true);
  });

  it.runIf(cgroupMode().kind !== "none")("keeps an emptied run's groups for the next run with the same limits, and makes new ones for other limits", async () => {
    const limits = { memoryMb: 321, pids: 77, cpus: 1 };
    const a = createRunCgroup(`run-${process.pid}-${randomBytes(4).toString("hex")}`, limits)!;
    await a.cleanup();
    const b = createRunCgroup(`run-${process.pid}-${randomBytes(4).toString("hex")}`, limits)!;
    expect(b.procsFiles).toEqual(a.procsFiles);
    const c = createRunCgroup(`run-${process.pid}-${randomBytes(4).toString("hex")}`, { ...limits, pids: 78 })!;
    expect(c.procsFiles).not.toEqual(a.procsFiles);
    await b.cleanup();
    await c.cleanup();
  });

  it("stops a CPU hog and a sleep at the timeout", async () => {
    const hog = await sb.run(py("while True: pass"), { workdir: wd, timeoutMs: 1500 });
    expect(hog.timedOut).toBe(true);
    expect(hog.wallMs).toBeLessThan(6000);
    const sleeper = await sb.run(["sleep", "30"], { workdir: wd, timeoutMs: 800 });
    expect(sleeper.timedOut).toBe(true);
    expect(sleeper.wallMs).toBeLessThan(5000);
  });

  it("stops a run whose stdout stays silent for stallMs, not one that keeps writing (RunOptions.stallMs)", async () => {
    // (silent after its first line: stopped as stalled, long before its timeout)
    const quiet = await sb.run(["sh", "-c", "echo started; sleep 60"], { workdir: wd, timeoutMs: 60_000, stallMs: 1000 });
    expect({ timedOut: quiet.timedOut, stalled: quiet.stalled, stdout: quiet.stdout }).toEqual({ timedOut: true, stalled: true, stdout: "started\n" });
    // (writing every 200 ms for 3 s: a stall of 1 s never comes; the run ends on its own)
    const busy = await sb.run(["sh", "-c", "for i in $(seq 15); do echo $i; sleep 0.2; done"], { workdir: wd, timeoutMs: 60_000, stallMs: 1000 });
    expect({ timedOut: busy.timedOut, stalled: busy.stalled, exitCode: busy.exitCode }).toEqual({ timedOut: false, stalled: false, exitCode: 0 });
    // (the silence before its first output is the sandbox's and the interpreter's start: not counted)
    const late = await sb.run(["sh", "-c", "sleep 2; echo late"], { workdir: wd, timeoutMs: 60_000, stallMs: 1000 });
    expect({ timedOut: late.timedOut, stalled: late.stalled, stdout: late.stdout }).toEqual({ timedOut: false, stalled: false, stdout: "late\n" });
    // (stderr is the code's own to write to: it does not keep a run alive)
    const loud = await sb.run(["sh", "-c", "echo started; while true; do echo e >&2; sleep 0.1; done"], { workdir: wd, timeoutMs: 60_000, stallMs: 1000 });
    expect({ timedOut: loud.timedOut, stalled: loud.stalled }).toEqual({ timedOut: true, stalled: true });
    // (the whole run's timeout still stands for one that writes on)
    const chatty = await sb.run(["sh", "-c", "while true; do echo x; sleep 0.1; done"], { workdir: wd, timeoutMs: 1500, stallMs: 1000 });
    expect({ timedOut: chatty.timedOut, stalled: chatty.stalled }).toEqual({ timedOut: true, stalled: false });
  });

  it("gVisor and the unsandboxed run stop a silent run at stallMs too (runsc's sandbox killed with it)", async (ctx) => {
    const gvisor = new GvisorSandbox();
    const g = await gvisor.check();
    for (const box of [new NoSandbox(), ...(g.ok ? [gvisor] : [])]) {
      const quiet = await box.run(["sh", "-c", "echo started; sleep 60"], { workdir: wd, timeoutMs: 60_000, stallMs: 1500 });
      expect({ box: box.name, timedOut: quiet.timedOut, stalled: quiet.stalled, stdout: quiet.stdout }).toEqual({ box: box.name, timedOut: true, stalled: true, stdout: "started\n" });
    }
    if (!g.ok) ctx.skip(`gVisor unavailable: ${g.why}`);
  });

  it("caps huge output without holding it in memory", async () => {
    const r = await sb.run(py("import sys\nfor _ in range(200): sys.stdout.write('y' * 1_000_000)"), { workdir: wd, maxOutputBytes: 10_000, timeoutMs: 20_000 });
    expect(r.outputTruncated).toBe(true);
    expect(r.stdout.length).toBe(10_000);
  });

  it("leaves no background process behind", async () => {
    const r = await sb.run("sleep 4242 & echo started", { workdir: wd });
    expect(r.stdout.trim()).toBe("started");
    await new Promise((res) => setTimeout(res, 200));
    expect(alive("sleep 4242")).toBe("");
  });

  it("a run's cgroup holds all of it: killing the groups this process made ends a live run (a slurm task's SIGTERM sweep)", async (ctx) => {
    if (cgroupMode().kind === "none") return ctx.skip("no writable cgroup hierarchy");
    const running = sb.run("sleep 4343.7", { workdir: wd, timeoutMs: 60_000 });
    // (the sleep itself, not the `sh -c` that starts the sandbox and names it in its arguments: that
    // one is there before it has joined the run's groups, and a kill then missed the run on a fast
    // machine, which a run before it had warmed)
    while (!alive("^sleep 4343.7")) await new Promise((res) => setTimeout(res, 50));
    expect(killRunCgroupsOf(process.pid)).toBeGreaterThanOrEqual(1);
    const r = await running;
    expect(r.timedOut).toBe(false);
    expect(r.exitCode === 0 && r.signal === null).toBe(false);
    expect(alive("sleep 4343.7")).toBe("");
  }, 90_000);
});

describe("pytest in the sandbox", () => {
  it("reports one result per test, selectable by node id, with xfail/xpass, setup errors and collection errors", async () => {
    const d = tmp();
    mkdirSync(join(d, "tests"));
    writeFileSync(join(d, "tests", "test_a.py"), `
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")

def test_ok(): assert 1 + 1 == 2
def test_fail(): assert 1 == 2
def test_setup_error(broken): pass
@pytest.mark.skip(reason="no")
def test_skip(): pass
@pytest.mark.xfail
def test_xfail(): assert False
@pytest.mark.xfail
def test_xpass(): assert True
`);
    writeFileSync(join(d, "tests", "test_broken.py"), "import nosuchmodule\n");
    const r = await runPytest(sb, d);
    const by = Object.fromEntries(r.tests.map((t) => [t.nodeid.split("::")[1], t.outcome]));
    expect(by).toEqual({ test_ok: "passed", test_fail: "failed", test_setup_error: "error", test_skip: "skipped", test_xfail: "xfailed", test_xpass: "xpassed" });
    expect(r.collectionErrors.map((c) => c.nodeid)).toEqual(["tests/test_broken.py"]);
    expect(r.collectionErrors[0]!.message).toContain("nosuchmodule");
    expect(r.tests.find((t) => t.nodeid.endsWith("test_fail"))!.message).toContain("assert 1 == 2");
    const one = await runPytest(sb, d, { tests: ["tests/test_a.py::test_ok"] });
    expect(one.tests.map((t) => t.nodeid)).toEqual(["tests/test_a.py::test_ok"]);
    expect(existsSync(join(d, "tests", "__pycache__"))).toBe(false); // no bytecode left in the tree
  });

  it("drops and counts result lines forged by the code under test", async () => {
    const d = tmp();
    mkdirSync(join(d, "tests"));
    writeFileSync(join(d, "tests", "test_f.py"), `
import json, os

def test_target():
    # a "solution" that writes a passing report for itself on every pipe and socket it holds, then fails
    line = json.dumps({"nodeid": "tests/test_f.py::test_target", "phase": "call", "outcome": "passed", "duration": 0, "seq": 1})
    for fd in map(int, os.listdir("/proc/self/fd")):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith(("pipe:", "socket:")):
                os.write(fd, ("@composer-lab x " + json.dumps({"r": line, "s": "0" * 64}) + "\\n").encode())
        except OSError:
            pass
    assert False
`);
    const r = await runPytest(sb, d);
    expect(r.forged).toBeGreaterThanOrEqual(1);
    expect(r.sessionFinished).toBe(true);
    expect(r.tests).toEqual([expect.objectContaining({ nodeid: "tests/test_f.py::test_target", outcome: "failed" })]);
  });

  it("folds teardown failures into errors", () => {
    const f = foldReports([
      { nodeid: "t::a", phase: "setup", outcome: "passed" },
      { nodeid: "t::a", phase: "call", outcome: "passed" },
      { nodeid: "t::a", phase: "teardown", outcome: "failed", longrepr: "boom" },
    ]);
    expect(f.tests[0]).toMatchObject({ outcome: "error", phase: "teardown", message: "boom" });
  });
});

describe("the agent's shell shim (hygiene on top of the namespaces)", () => {
  it.each([
    ["python3 -m pytest -q tests/test_a.py", true],
    ["ls -la && cat inventory/stock.py | head -20", true],
    ["find . -name '*.pyc'", false],
    ["git log -p", false],
    ["strings inventory/__pycache__/stock.cpython-311.pyc", false],
    ["cat inventory/__pycache__/stock.cpython-311.pyc", false],
    ["python3 -m pip download inventory", false],
    ["echo $(find .)", false],
    ["FOO=1 unzip x.zip", false],
    ["/usr/bin/objdump -d x.so", false],
    ["ls .mypy_cache/3.11", false],
  ])("%s → %s", (cmd, allowed) => expect(checkShellCommand(cmd).allowed).toBe(allowed));
});

describe("composer-lab sandbox", () => {
  it("check reports each sandbox with a reason", () => {
    const out = oneJson(cli(["sandbox", "check", "--json"]).stdout);
    expect(out.bwrap.ok).toBe(true);
    expect(typeof out.docker.ok).toBe("boolean");
    if (!out.docker.ok) expect(out.docker.why).toMatch(/Docker|image/);
  });

  it("exec runs a command and returns the run result", () => {
    const wd = tmp();
    const r = cli(["sandbox", "exec", "--sandbox", "bwrap", "--workdir", wd, "--json", "--", "python3", "-c", "import os; print(os.getcwd())"]);
    expect(r.code, r.stderr).toBe(0);
    expect(oneJson(r.stdout)).toMatchObject({ exitCode: 0, stdout: "/work\n", timedOut: false, sandbox: "bwrap" });
    void ROOT;
  });
});
