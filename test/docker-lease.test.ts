// The lease every vitest run takes on the lab's Docker engine (test/support/docker-lease.ts, used by
// test/support/global-docker.ts), on a real dockerd in a private folder: two runs starting together
// start one engine; the first run to leave keeps it for the other; a run killed without leaving
// keeps nothing alive, so the last live run stops it; an engine a user started, or one a swarm
// lives on, is never stopped; a dead holder's lock is broken. `sleep` processes stand in for the
// vitest runs (a lease names a process).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerClient, ensureDockerd } from "../lib/sandbox/index.js";
import { leaseEngine } from "./support/docker-lease.js";

const ROOT = mkdtempSync("/tmp/docker-lease-");
const SOCKET = join(ROOT, "docker.sock");
const LEASES = join(ROOT, "test-leases");
const savedDockerHost = process.env.DOCKER_HOST;
let why: string | null = null;
const runs: ChildProcess[] = [];

/** A live process standing in for a vitest run. */
function run(): number {
  const p = spawn("sleep", ["600"], { stdio: "ignore" });
  runs.push(p);
  return p.pid!;
}

const answers = () => dockerClient(SOCKET).ping().then(() => true, () => false);
const enginePid = (): number => Number(readFileSync(join(ROOT, "docker.pid"), "utf8"));
const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));

beforeAll(() => {
  if (process.getuid?.() !== 0) why = "not root (dockerd needs root)";
  else if (spawnSync("dockerd", ["--version"]).error) why = "dockerd not installed";
  // ensureDockerd looks at DOCKER_HOST first: point it at the private engine, not the lab's
  else process.env.DOCKER_HOST = `unix://${SOCKET}`;
});

afterAll(async () => {
  if (existsSync(join(ROOT, "docker.pid")) && alive(enginePid())) {
    const pid = enginePid();
    process.kill(pid, "SIGTERM");
    for (let i = 0; i < 300 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  }
  for (const p of runs) p.kill("SIGKILL");
  // a swarm's network namespaces may stay mounted under the exec-root
  for (const m of readFileSync("/proc/mounts", "utf8").split("\n").map((l) => l.split(" ")[1]).filter((m) => m?.startsWith(ROOT)).reverse()) spawnSync("umount", ["-l", m!]);
  rmSync(ROOT, { recursive: true, force: true });
  if (savedDockerHost === undefined) delete process.env.DOCKER_HOST;
  else process.env.DOCKER_HOST = savedDockerHost;
}, 60_000);

describe("the test runs' lease on the lab's Docker engine", () => {
  it("starts one engine for two runs starting together; the first to leave keeps it; a killed run's lease is ignored; the last live run stops it", async (ctx) => {
    if (why) return ctx.skip(why);
    const [a, b] = await Promise.all([leaseEngine({ root: ROOT, owner: run() }), leaseEngine({ root: ROOT, owner: run() })]);
    expect([a.started, b.started].sort()).toEqual([false, true]);
    expect([a.socketPath, b.socketPath]).toEqual([SOCKET, SOCKET]);
    const pid = enginePid();
    expect(await a.release()).toEqual({ stopped: false, why: expect.stringMatching(/still used by 1 other test run/) });
    expect(await answers()).toBe(true);
    // b's run dies without leaving (a killed vitest): its lease no longer counts
    const bRun = runs[1]!;
    bRun.kill("SIGKILL");
    await new Promise((r) => bRun.once("exit", r));
    const c = await leaseEngine({ root: ROOT, owner: run() });
    expect(c.started).toBe(false);
    expect(await c.release()).toEqual({ stopped: true, why: expect.stringMatching(/last test run/) });
    expect(alive(pid)).toBe(false);
    expect(await answers()).toBe(false);
    expect(readdirSync(LEASES)).toEqual([]);
    expect(await c.release()).toMatchObject({ stopped: false });
  }, 120_000);

  it("never stops an engine a user started, nor one a swarm lives on; breaks a dead holder's lock", async (ctx) => {
    if (why) return ctx.skip(why);
    // a user's engine (`composer-lab sandbox dockerd`)
    const user = await ensureDockerd({ root: ROOT });
    user.process!.unref();
    expect(user.process).not.toBeNull();
    // a lock left by a run that died while holding it
    const dead = spawnSync("true").pid!;
    writeFileSync(join(LEASES, "lock"), JSON.stringify({ pid: dead, start: "1" }));
    const l = await leaseEngine({ root: ROOT, owner: run() });
    expect(l.started).toBe(false);
    expect(await l.release()).toEqual({ stopped: false, why: "not started by a test run" });
    expect(await answers()).toBe(true);
    await user.stop();

    // an engine a test run started, then a swarm brought up on it (a user's `cluster up`)
    const t = await leaseEngine({ root: ROOT, owner: run() });
    expect(t.started).toBe(true);
    const docker = dockerClient(SOCKET);
    // an address of its own: a local cluster may be using 127.0.0.1:2377
    await docker.swarmInit({ ListenAddr: "127.0.0.201:2377", AdvertiseAddr: "127.0.0.201" });
    expect(await t.release()).toEqual({ stopped: false, why: expect.stringMatching(/a swarm lives on it/) });
    expect(await answers()).toBe(true);
    await docker.swarmLeave({ force: true });
    // the next run to leave stops it, the swarm gone
    const u = await leaseEngine({ root: ROOT, owner: run() });
    expect(u.started).toBe(false);
    expect(await u.release()).toMatchObject({ stopped: true });
    expect(await answers()).toBe(false);
  }, 180_000);
});
