/**
 * Per-run cgroups for pids, memory and CPU (RLIMIT_NPROC counts per uid, so it cannot bound one
 * run). Works with cgroup v2 (unified) or v1 (separate pids/memory/cpu hierarchies) where this
 * process may create groups (root); otherwise runs go without, and `check` says so.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface CgroupLimits {
  memoryMb: number;
  pids: number;
  cpus: number;
}

export interface RunCgroup {
  /** Files to write the child's pid into (before it execs the sandbox). */
  procsFiles: string[];
  oomKilled(): boolean;
  /** Kills whatever is left and removes the groups. */
  cleanup(): Promise<void>;
}

type Mode = { kind: "v2"; root: string } | { kind: "v1"; pids: string; memory: string; cpu: string } | { kind: "none"; why: string };

let mode: Mode | undefined;

/**
 * Every run's group sits under one `composer-lab` group, and the CPU scheduler weighs a group like
 * ONE ordinary process: with the default weight, all sandboxed runs together got the share of a
 * single host process (at load 20 on 2 cores, ~5% of the machine, while an unsandboxed pytest got
 * its full share). The parent is weighted as this many processes; each run stays capped by its own
 * CPU quota (`cpus`), so the weight cannot let runs take more than their limits.
 */
export const SANDBOX_TASK_WEIGHT = 16;

function weighParent(file: string, value: string): void {
  try {
    if (readFileSync(file, "utf8").trim() !== value) writeFileSync(file, value);
  } catch {
    /* no cpu controller there: runs are weighed as they were */
  }
}

function writable(dir: string): boolean {
  try {
    const probe = join(dir, `composer-lab-probe-${process.pid}`);
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

export function cgroupMode(): Mode {
  if (mode) return mode;
  const base = "/sys/fs/cgroup";
  if (existsSync(join(base, "cgroup.controllers"))) {
    const root = join(base, "composer-lab");
    try {
      mkdirSync(root, { recursive: true });
      // enable the controllers for our children
      const available = readFileSync(join(base, "cgroup.controllers"), "utf8");
      for (const c of ["pids", "memory", "cpu"]) if (available.includes(c)) writeFileSync(join(root, "cgroup.subtree_control"), `+${c}`);
      mode = { kind: "v2", root };
      weighParent(join(root, "cpu.weight"), String(100 * SANDBOX_TASK_WEIGHT));
    } catch (e) {
      mode = { kind: "none", why: `cgroup v2 not writable: ${(e as Error).message}` };
    }
    return mode;
  }
  const dirs = { pids: join(base, "pids"), memory: join(base, "memory"), cpu: join(base, "cpu") };
  if (Object.values(dirs).every((d) => existsSync(d) && writable(d))) {
    for (const d of Object.values(dirs)) mkdirSync(join(d, "composer-lab"), { recursive: true });
    mode = { kind: "v1", pids: join(dirs.pids, "composer-lab"), memory: join(dirs.memory, "composer-lab"), cpu: join(dirs.cpu, "composer-lab") };
    weighParent(join(mode.cpu, "cpu.shares"), String(1024 * SANDBOX_TASK_WEIGHT));
  } else mode = { kind: "none", why: "no writable cgroup hierarchy (run as root, or with a delegated cgroup)" };
  return mode;
}

const killAll = (procs: string) => {
  try {
    for (const pid of readFileSync(procs, "utf8").split("\n").filter(Boolean)) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        /* gone */
      }
    }
  } catch {
    /* no group */
  }
};

const rmdirRetry = async (dir: string) => {
  for (let i = 0; i < 100; i++) {
    try {
      rmdirSync(dir);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 10)); // tasks still exiting
    }
  }
};

/** Kills every process in a group: at once through cgroup.kill where the kernel has it (v2). */
function killGroup(dir: string): void {
  try {
    writeFileSync(join(dir, "cgroup.kill"), "1");
  } catch {
    killAll(join(dir, "cgroup.procs"));
  }
}

/** The folders the lab makes its groups in: one, or one per controller on v1. */
const groupParents = (m: Mode): string[] => (m.kind === "v2" ? [m.root] : m.kind === "v1" ? [m.pids, m.memory, m.cpu] : []);

/** The groups under `parent`, each with the pid of the process that made it (`<kind>-<pid>-<hex>`). */
function labGroups(parent: string): { dir: string; pid: number }[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const pid = Number(/-(\d+)-[0-9a-f]+$/.exec(name)?.[1] ?? NaN);
    return Number.isInteger(pid) ? [{ dir: join(parent, name), pid }] : [];
  });
}

/**
 * Kills every process in the run groups process `pid` created, wherever those processes now sit
 * in the process tree. A sandbox killed from the top while its inner process was still being set
 * up (bwrap's child, before it sets its parent-death signal) is re-parented out of any tree walk;
 * its group still holds it. Returns how many groups it killed.
 */
export function killRunCgroupsOf(pid: number = process.pid): number {
  const mine = groupParents(cgroupMode()).flatMap(labGroups).filter((g) => g.pid === pid);
  for (const g of mine) killGroup(g.dir);
  return mine.length;
}

let reaped = false;

/** Removes groups left by lab processes that died without cleaning up (ids carry the creating
 *  process's pid: `<kind>-<pid>-<hex>`); a group that still holds processes is left alone. */
function reapStaleCgroups(m: Mode): void {
  if (reaped) return;
  reaped = true;
  for (const g of groupParents(m).flatMap(labGroups)) {
    if (g.pid === process.pid) continue;
    try {
      process.kill(g.pid, 0);
      continue; // its process is alive
    } catch {
      /* dead: reap */
    }
    try {
      rmdirSync(g.dir);
    } catch {
      /* not empty, or not a group */
    }
  }
}

/** Emptied groups kept for the next run with the same limits, per limits: making and removing a
 *  run's groups (three on v1) cost this process ≈ 3 ms of CPU a run, more than anything else a
 *  failing grade does here (issue 31). A group goes back only where it is empty once its run is
 *  killed; its OOM count is read when it is taken, so a kill in an earlier run is not this run's. */
const idle = new Map<string, { dirs: string[]; memory: string }[]>();
/** Groups kept per limits at most (a grader holds about as many runs in flight). */
export const IDLE_GROUPS = 16;

const oomKills = (file: string): number => {
  try {
    return Number(/oom_kill (\d+)/.exec(readFileSync(file, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
};
const emptyGroup = (dir: string): boolean => {
  try {
    return readFileSync(join(dir, "cgroup.procs"), "utf8").trim() === "";
  } catch {
    return false;
  }
};

/** Creates the groups for one run (or takes emptied ones with the same limits), or returns null
 *  where cgroups are not available. */
export function createRunCgroup(id: string, limits: CgroupLimits): RunCgroup | null {
  const m = cgroupMode();
  reapStaleCgroups(m);
  if (m.kind === "none") return null;
  const key = `${limits.memoryMb}/${limits.pids}/${limits.cpus}`;
  const group = idle.get(key)?.pop() ?? makeGroup(m, id, limits);
  const events = m.kind === "v2" ? join(group.memory, "memory.events") : join(group.memory, "memory.oom_control");
  const before = oomKills(events);
  return {
    procsFiles: group.dirs.map((d) => join(d, "cgroup.procs")),
    oomKilled: () => oomKills(events) > before,
    cleanup: async () => {
      if (m.kind === "v2") killGroup(group.dirs[0]!);
      else for (const d of group.dirs) killAll(join(d, "cgroup.procs"));
      const kept = idle.get(key) ?? [];
      if (group.dirs.every(emptyGroup) && kept.length < IDLE_GROUPS) {
        kept.push(group);
        idle.set(key, kept);
        removeIdleAtExit();
        return;
      }
      for (const d of group.dirs) await rmdirRetry(d);
    },
  };
}

let removing = false;
/** The kept groups go when this process does (one that dies first leaves them to the next
 *  process's reapStaleCgroups: their names carry its pid). */
function removeIdleAtExit(): void {
  if (removing) return;
  removing = true;
  process.once("exit", () => {
    for (const groups of idle.values())
      for (const g of groups)
        for (const d of g.dirs) {
          try {
            rmdirSync(d);
          } catch {
            /* the reaper's */
          }
        }
  });
}

function makeGroup(m: Exclude<Mode, { kind: "none" }>, id: string, limits: CgroupLimits): { dirs: string[]; memory: string } {
  const mem = String(limits.memoryMb * 1024 * 1024);
  if (m.kind === "v2") {
    const dir = join(m.root, id);
    mkdirSync(dir);
    writeFileSync(join(dir, "pids.max"), String(limits.pids));
    writeFileSync(join(dir, "memory.max"), mem);
    try {
      writeFileSync(join(dir, "memory.swap.max"), "0");
    } catch {
      /* no swap accounting */
    }
    writeFileSync(join(dir, "cpu.max"), `${Math.round(limits.cpus * 100_000)} 100000`);
    return { dirs: [dir], memory: dir };
  }
  const dirs = [join(m.pids, id), join(m.memory, id), join(m.cpu, id)] as const;
  for (const d of dirs) mkdirSync(d);
  writeFileSync(join(dirs[0], "pids.max"), String(limits.pids));
  writeFileSync(join(dirs[1], "memory.limit_in_bytes"), mem);
  try {
    writeFileSync(join(dirs[1], "memory.memsw.limit_in_bytes"), mem);
  } catch {
    /* no swap accounting */
  }
  writeFileSync(join(dirs[2], "cpu.cfs_period_us"), "100000");
  writeFileSync(join(dirs[2], "cpu.cfs_quota_us"), String(Math.round(limits.cpus * 100_000)));
  return { dirs: [...dirs], memory: dirs[1] };
}
