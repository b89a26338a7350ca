/**
 * The Docker sandbox against a real dockerd: the test uses the engine that answers, or starts its
 * own (and stops it afterwards); the base image is built with debootstrap when missing.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DockerSandbox, buildBaseImage, dockerClient, ensureDockerd, runPytest, sandboxHostIds, type Dockerd } from "../lib/sandbox/index.js";
import { gradeCompletion } from "../lib/env/index.js";
import { loadTask } from "../lib/tasks/index.js";
import { ROOT, tmp } from "./helpers.js";

let dockerd: Dockerd;
let sb: DockerSandbox;

beforeAll(async () => {
  dockerd = await ensureDockerd({ log: (m) => console.error(m) });
  await buildBaseImage(dockerClient(dockerd.socketPath), { log: (m) => console.error(m) });
  sb = new DockerSandbox({ socketPath: dockerd.socketPath });
  expect((await sb.check()).ok).toBe(true);
}, 900_000);

// the engine is shared by every test file: test/support/global-docker.ts stops it after all of them

describe("Docker sandbox", () => {
  it("runs as a non-root user in the workdir, with no network, a read-only root and no host environment", async () => {
    process.env.COMPOSER_LAB_TEST_SECRET = "s3cret-value";
    const r = await sb.run(["python3", "-c", `
import os, socket
print(os.getuid(), os.getcwd())
print("SECRET" if "s3cret-value" in str(os.environ) else "clean")
try:
    socket.create_connection(("1.1.1.1", 80), timeout=2); print("CONNECTED")
except OSError: print("no network")
for p in ["/usr/evil", "/etc/evil", "/evil"]:
    try: open(p, "w"); print("WROTE", p)
    except OSError: pass
open("out.txt", "w").write("ok")
print(open("/etc/shadow").read() if os.access("/etc/shadow", os.R_OK) else "shadow unreadable")
`], { workdir: tmp() });
    expect(r.exitCode, r.stderr).toBe(0);
    // the container user is the lab's unprivileged sandbox user, never root nor a real user's uid
    const uid = sandboxHostIds().uid;
    expect(uid).not.toBe(0);
    expect(r.stdout).toBe(`${uid} /work\nclean\nno network\nshadow unreadable\n`);
  });

  it("enforces memory, timeout and output limits and removes the container", async () => {
    const wd = tmp();
    const mem = await sb.run(["python3", "-c", "x = bytearray(2 * 1024**3); print('ALLOCATED')"], { workdir: wd, memoryMb: 128 });
    expect(mem.stdout).not.toContain("ALLOCATED");
    expect(mem.oomKilled || mem.exitCode !== 0).toBe(true);
    const slow = await sb.run(["sleep", "60"], { workdir: wd, timeoutMs: 1500 });
    expect(slow.timedOut).toBe(true);
    // (a silent stdout stops the run at stallMs: RunOptions.stallMs)
    const stuck = await sb.run(["sh", "-c", "echo started; sleep 60"], { workdir: wd, timeoutMs: 60_000, stallMs: 1500 });
    expect({ timedOut: stuck.timedOut, stalled: stuck.stalled, stdout: stuck.stdout }).toEqual({ timedOut: true, stalled: true, stdout: "started\n" });
    const loud = await sb.run(["python3", "-c", "import sys\nfor _ in range(50): sys.stdout.write('y' * 1_000_000)"], { workdir: wd, maxOutputBytes: 5000 });
    expect(loud.outputTruncated).toBe(true);
    expect(loud.stdout.length).toBe(5000);
    // only this test's containers: other test files may be grading in Docker at the same time
    const left = await dockerClient(dockerd.socketPath).listContainers({ all: true });
    expect(left.filter((c) => c.Image === sb.image && /bytearray\(2 \* 1024|sleep 60|'y' \* 1_000_000/.test(c.Command))).toEqual([]);
  });

  it("runs the same pytest suite and grades a task like bubblewrap does", async () => {
    const r = await runPytest(sb, join(ROOT, "datasets", "repos", "inventory"));
    expect(r.counts.passed).toBe(60);
    const task = loadTask(join(ROOT, "datasets", "tasks"), "inventory-totals");
    const g = await gradeCompletion(task, task.golden_diff, sb);
    expect(g).toMatchObject({ reward: 1, guardOk: true, hacked: false });
  });
});
