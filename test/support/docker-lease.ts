/**
 * Which test runs use the lab's Docker engine, so that the last one, not the first, stops it.
 * Every vitest run holds a lease while it runs: a file named by its pid under `<root>/test-leases`
 * (with the process's start time, so a reused pid is not taken for the run). The engine a test run
 * started is recorded there too (`started.json`: its pid, start time and socket). A run leaving
 * stops that engine only when no live lease remains and no swarm lives on it; an engine a user or
 * the system started is never stopped. Leases of dead processes are ignored (and removed), so a
 * killed run's lease keeps nothing alive. Taking and leaving happen under a lock file (holder's pid
 * inside; a dead holder's lock is broken), so a run starting while another stops the engine waits
 * and then starts a fresh one.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { dockerClient, ensureDockerd } from "../../lib/sandbox/index.js";

/** A process as a lease names it: its pid and its start time (field 22 of /proc/PID/stat). */
interface ProcessId {
  pid: number;
  start: string;
}

/** The start time of a running process, or null when it is gone (zombies count as gone). */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" ? null : fields[19]!;
  } catch {
    return null;
  }
}

const isLive = (p: ProcessId): boolean => processStart(p.pid) === p.start;

function processId(pid: number): ProcessId {
  const start = processStart(pid);
  if (start === null) throw new Error(`process ${pid} is not running`);
  return { pid, start };
}

function readId(file: string): (ProcessId & { socketPath?: string }) | null {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const LOCK_WAIT_MS = 180_000;

/** Runs `fn` holding `<dir>/lock` (created exclusively; a dead holder's lock is broken). */
async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(dir, "lock");
  const me = JSON.stringify(processId(process.pid));
  const deadline = Date.now() + LOCK_WAIT_MS;
  let unreadableSince = 0;
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, me);
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = readId(lock);
      if (holder) unreadableSince = 0;
      else unreadableSince ||= Date.now();
      // a holder that died, or a lock file still half-written after 5 s (its writer died)
      if (holder ? !isLive(holder) : Date.now() - unreadableSince > 5_000) rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`${lock}: held by pid ${holder?.pid ?? "?"} for over ${LOCK_WAIT_MS / 1000} s`);
      else await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

export interface EngineLease {
  /** The engine's socket. */
  socketPath: string;
  /** Whether this run started it. */
  started: boolean;
  /** Leaves; the last run to leave stops an engine a test run started. Says what it did. */
  release(): Promise<{ stopped: boolean; why: string }>;
}

/**
 * Takes a lease for `owner` (default: this process) on the lab's Docker engine under `root`,
 * starting the engine if none answers (ensureDockerd).
 */
export async function leaseEngine(opts: { root: string; owner?: number; log?: (m: string) => void }): Promise<EngineLease> {
  const dir = join(opts.root, "test-leases");
  mkdirSync(dir, { recursive: true });
  const owner = processId(opts.owner ?? process.pid);
  const leaseFile = join(dir, String(owner.pid));
  const startedFile = join(dir, "started.json");
  const engine = await withLock(dir, async () => {
    const e = await ensureDockerd({ root: opts.root, log: opts.log });
    if (e.process) {
      // it must outlive this run when another run still uses it: the last one stops it by pid
      e.process.unref();
      rmSync(startedFile, { force: true });
      writeSafely(startedFile, JSON.stringify({ ...processId(e.process.pid!), socketPath: e.socketPath }));
    }
    writeSafely(leaseFile, JSON.stringify(owner));
    return e;
  });
  let released = false;
  return {
    socketPath: engine.socketPath,
    started: engine.process !== null,
    release: () => {
      if (released) return Promise.resolve({ stopped: false, why: "released already" });
      released = true;
      return withLock(dir, async () => {
        rmSync(leaseFile, { force: true });
        const others = liveLeases(dir);
        if (others.length) return { stopped: false, why: `still used by ${others.length} other test run(s) (pid ${others.join(", ")})` };
        const started = readId(startedFile);
        if (!started) return { stopped: false, why: "not started by a test run" };
        if (!isLive(started)) {
          rmSync(startedFile, { force: true });
          return { stopped: false, why: `the engine a test run started (pid ${started.pid}) is gone` };
        }
        const swarm = await dockerClient(started.socketPath).info().then((i: { Swarm?: { LocalNodeState?: string } }) => i.Swarm?.LocalNodeState, () => null);
        if (swarm === "active") return { stopped: false, why: "a swarm lives on it (`composer-lab cluster down --engine swarm` first)" };
        await stopProcess(started);
        rmSync(startedFile, { force: true });
        return { stopped: true, why: `the last test run using it (dockerd pid ${started.pid})` };
      });
    },
  };
}

/** Pids of the live leases under `dir`; dead ones are removed. */
function liveLeases(dir: string): number[] {
  const live: number[] = [];
  for (const name of readdirSync(dir)) {
    if (!/^\d+$/.test(name)) continue;
    const lease = readId(join(dir, name));
    if (lease && isLive(lease)) live.push(lease.pid);
    else rmSync(join(dir, name), { force: true });
  }
  return live;
}

/** Writes `text` to a fresh file via a temp name and rename, so a reader never sees half of it. */
function writeSafely(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w");
  writeSync(fd, text);
  closeSync(fd);
  renameSync(tmp, file); // atomic within one folder
}

/** SIGTERM, then SIGKILL after 60 s; returns once the process is gone. */
async function stopProcess(p: ProcessId): Promise<void> {
  process.kill(p.pid, "SIGTERM");
  for (let i = 0; i < 600 && isLive(p); i++) await sleep(100);
  if (isLive(p)) {
    process.kill(p.pid, "SIGKILL");
    for (let i = 0; i < 100 && isLive(p); i++) await sleep(100);
  }
}
