/**
 * The warm grader: long-lived bubblewrap sandboxes (the same bwrap arguments and host user as a
 * cold grade) each run harness/forkserver.py, a zygote for one job kind: "pytest" has imported
 * pytest, its plugins and the harness, "behave" the behavioural runner (behave.py, the standard
 * library only); neither imports repo code or runs grade code itself, so each grade starts from
 * the same clean image. Each grade is a fork of its kind's zygote that isolates itself (its own user, mount,
 * pid, ipc, net, uts and cgroup namespaces; its tree read-only at /work; a private /tmp and
 * /dev/shm of `diskMb`; a tmpfs over the spool of other grades' trees; no capabilities,
 * no_new_privs, the cold path's rlimits) and runs the harness's per-grade main. The host moves
 * each grade into its own cgroups (pids, memory, CPU) before it may start, signs its results with a
 * one-time key and tag sent to that grade alone, and kills it at the timeout. A zygote that dies
 * is started again on the next grade (in-flight grades fail with WarmWorkerGone and run cold).
 * A grade's output reaches this process by splice(2) through the zygote's stdout (an "out" header,
 * then the raw bytes): it never enters the zygote's memory, so no later fork inherits it.
 *
 * runPytest (pytest.ts) uses the pytest kind for read-only grading runs without coverage;
 * runBehaviour (behave.ts) the behave kind for the behavioural check's read-only runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { chmod, cp, mkdir, rm, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { holdChild, transientDir } from "../core/index.js";
import { GROUP, PASSWD, PROC_FD, type BwrapSandbox } from "./bwrap.js";
import { CFG_MOUNT, HARNESS_MOUNT, harnessDir, sleepShim, sleepShimMissing } from "./harness-dir.js";
import { cgroupMode, createRunCgroup, type RunCgroup } from "./cgroup.js";
import { asSandboxUser, protectedInside, runningAsRoot, sandboxHostIds, sanitizeTree } from "./isolation.js";
import { ELSEWHERE_ENV, anotherMachine, clockEnv, moveTimes } from "./machine.js";
import { existingMasks, maskStubInside } from "./mask.js";
import { PYENV_MOUNT, SYSTEM_PYTHON, type PyEnv } from "./pyenv.js";
import { RunOptions, baseEnv, type ResolvedRunOptions, type RunResult } from "./types.js";

/** What the zygote says on its stdout (one JSON object a line). */
export const WarmEvent = z.discriminatedUnion("ev", [
  z.object({ ev: z.literal("ready"), pid: z.number().int(), ok: z.boolean(), why: z.string().nullable(), kind: z.enum(["pytest", "behave"]), pytest: z.string().nullable() }),
  z.object({ ev: z.literal("forked"), id: z.string(), pid: z.number().int() }),
  /** followed on the stream by `n` raw bytes of the grade's fd */
  z.object({ ev: z.literal("out"), id: z.string(), fd: z.union([z.literal(1), z.literal(2)]), n: z.number().int().nonnegative() }),
  z.object({ ev: z.literal("exit"), id: z.string(), code: z.number().int().nullable(), signal: z.string().nullable(), truncated: z.boolean(), cpuMs: z.number() }),
  z.object({ ev: z.literal("pong"), grades: z.number().int() }),
]);
export type WarmEvent = z.infer<typeof WarmEvent>;

/** What a zygote serves: pytest under the trusted harness, the behavioural runner, or the
 *  behavioural runner on another machine ("elsewhere": the behavioural check's run elsewhere,
 *  machine.ts; a behave zygote started there, its forks each a run elsewhere). */
export const WarmKind = z.enum(["pytest", "behave", "elsewhere"]);
export type WarmKind = z.infer<typeof WarmKind>;

/** A grade that was in flight when its zygote died: run it again (runPytest runs it cold). */
export class WarmWorkerGone extends Error {}

export interface WarmRun {
  /** Which zygote forks the grade (default "pytest"). */
  kind?: WarmKind;
  /** pytest: the harness's argv after harness.py ([repo, "--", ...pytest arguments]); behave: the
   *  runner's after behave.py ([the request file]). */
  argv: string[];
  /** Variables the grade sees besides baseEnv's. */
  env: Record<string, string>;
  /** The host tree graded (copied, sanitized, into the spool; bound read-only at /work). */
  workdir: string;
  /** Files for /opt/composer-lab-cfg (a pinned config's lab copy). */
  cfgFiles: Record<string, string>;
  /** "KEY TAG", sent to this grade alone (pytest; the behave kind gets none). */
  secret: string;
  options: RunOptions;
  /** The "elsewhere" kind: how far its clock and its tree's file times are moved on (the zygote's
   *  clock is set when it starts: a run asking for other days runs cold). */
  days?: number;
  /** Process ids the grade's first process uses up before it forks the grade (behave.py's
   *  pid_shift, without a second fork): the grade's pid is not the one every grade has. */
  pidShift?: number;
}

/** Where each part of a warm grade's time went (ms), for the bench. */
export interface WarmTimings {
  kind: WarmKind;
  stage: number;
  fork: number;
  cgroup: number;
  run: number;
  cleanup: number;
  /** CPU time of the grade's processes (G, H and what H started), from wait4. */
  gradeCpu: number;
}

interface Pending {
  forked: (pid: number) => void;
  out: Buffer[][];
  exit: (e: Extract<WarmEvent, { ev: "exit" }>) => void;
  fail: (e: Error) => void;
}

const ZYGOTE_START_MS = 60_000;

/** PPid and NSpid of these host pids (default: every process). */
function processTable(pids?: string[]): Map<number, { ppid: number; nspid: number[] }> {
  const t = new Map<number, { ppid: number; nspid: number[] }>();
  for (const name of pids ?? readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = readFileSync(`/proc/${name}/status`, "utf8");
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(s)?.[1] ?? -1);
      const nspid = (/^NSpid:\s+(.*)$/m.exec(s)?.[1] ?? name).trim().split(/\s+/).map(Number);
      t.set(Number(name), { ppid, nspid });
    } catch {
      /* exited */
    }
  }
  return t;
}

class Zygote {
  readonly pending = new Map<string, Pending>();
  hostPid = 0;
  /** How many pid namespaces deep the zygote is (its NSpid entries). */
  nsDepth = 0;
  /** An incomplete event line carried to the next chunk. */
  private rest: Buffer = Buffer.alloc(0);
  /** The raw bytes still due after an "out" header (for a grade no longer pending: dropped). */
  private raw: { out: Buffer[] | null; left: number } | null = null;
  private stderrTail = "";
  private readyWaiter?: { res: (e: Extract<WarmEvent, { ev: "ready" }>) => void; rej: (e: Error) => void };
  dead = false;
  ready?: Extract<WarmEvent, { ev: "ready" }>;

  /** The zygote's own cgroup (its forks start there until the host moves them): where the host
   *  looks for a new grade's pid, and a bound on the zygote itself. */
  constructor(readonly child: ChildProcess, readonly hold: RunCgroup | null) {
    child.stdout!.on("data", (d: Buffer) => this.onData(d));
    child.stderr!.on("data", (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString("utf8")).slice(-4000)));
    child.on("close", (code, signal) => this.onClose(`the warm grader's zygote exited (${signal ?? `exit ${code}`}): ${this.stderrTail.trim().slice(-600)}`));
    child.on("error", (e) => this.onClose(`the warm grader's zygote could not start: ${e.message}`));
    // A warm grader must never keep the process alive by itself (grades in flight do: track/untrack).
    holdChild(child, false);
  }

  /** A grade in flight: while any is, the zygote holds the process open (once a grade's timer has
   *  fired and sent the kill, its exit event comes on the zygote's pipes alone; unref'd, a CLI grade
   *  ended with code 13 and no answer). */
  track(id: string, p: Pending): void {
    if (this.pending.size === 0) holdChild(this.child, true);
    this.pending.set(id, p);
  }

  untrack(id: string): void {
    if (this.pending.delete(id) && this.pending.size === 0) holdChild(this.child, false);
  }

  waitReady(): Promise<Extract<WarmEvent, { ev: "ready" }>> {
    return new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`the warm grader's zygote was not ready within ${ZYGOTE_START_MS / 1000} s: ${this.stderrTail.slice(-600)}`)), ZYGOTE_START_MS);
      this.readyWaiter = {
        res: (e) => (clearTimeout(timer), res(e)),
        rej: (e) => (clearTimeout(timer), rej(e)),
      };
    });
  }

  send(obj: Record<string, unknown>): void {
    if (this.dead) throw new WarmWorkerGone("the warm grader's zygote is gone");
    this.child.stdin!.write(`${JSON.stringify(obj)}\n`);
  }

  private onData(d: Buffer): void {
    const buf = this.rest.length ? Buffer.concat([this.rest, d]) : d;
    let i = 0;
    while (i < buf.length && !this.dead) {
      if (this.raw) {
        const take = Math.min(this.raw.left, buf.length - i);
        this.raw.out?.push(Buffer.from(buf.subarray(i, i + take)));
        i += take;
        this.raw.left -= take;
        if (this.raw.left === 0) this.raw = null;
        continue;
      }
      const nl = buf.indexOf(10, i);
      if (nl < 0) break;
      const line = buf.toString("utf8", i, nl);
      i = nl + 1;
      if (!line.trim()) continue;
      let ev: WarmEvent;
      try {
        ev = WarmEvent.parse(JSON.parse(line));
      } catch (e) {
        this.kill(`the warm grader's zygote sent a line that is not a WarmEvent: ${line.slice(0, 200)} (${(e as Error).message.slice(0, 200)})`);
        return;
      }
      if (ev.ev === "out") {
        if (ev.n > 0) this.raw = { out: this.pending.get(ev.id)?.out[ev.fd - 1] ?? null, left: ev.n };
        continue;
      }
      this.onEvent(ev);
    }
    this.rest = i < buf.length ? Buffer.from(buf.subarray(i)) : Buffer.alloc(0);
  }

  private onEvent(ev: WarmEvent): void {
    if (ev.ev === "ready") {
      this.ready = ev;
      this.readyWaiter?.res(ev);
      return;
    }
    if (ev.ev === "pong") return;
    const p = this.pending.get(ev.id);
    if (!p) return;
    if (ev.ev === "forked") p.forked(ev.pid);
    else if (ev.ev === "exit") p.exit(ev);
  }

  /** Host pids in the zygote's cgroup (every process when there is none). */
  members(): Map<number, { ppid: number; nspid: number[] }> {
    if (!this.hold) return processTable();
    return processTable(readFileSync(this.hold.procsFiles[0]!, "utf8").split("\n").filter(Boolean));
  }

  private onClose(why: string): void {
    if (this.dead) return;
    this.dead = true;
    void this.hold?.cleanup();
    this.readyWaiter?.rej(new Error(why));
    for (const p of this.pending.values()) p.fail(new WarmWorkerGone(why));
    this.pending.clear();
    holdChild(this.child, false);
  }

  kill(why: string): void {
    try {
      process.kill(-this.child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
    this.onClose(why);
  }
}

/** Whether the warm grader works here, and why not (probed once per process and interpreter). */
export interface WarmStatus {
  ok: boolean;
  why: string | null;
}

export class WarmWorker {
  private zygotes: Partial<Record<WarmKind, Promise<Zygote>>> = {};
  private spool?: { path: string; remove: () => void };
  private statuses: Partial<Record<WarmKind, WarmStatus>> = {};
  /** Zygotes started so far per kind (1 + restarts). */
  readonly startsOf: Record<WarmKind, number> = { pytest: 0, behave: 0, elsewhere: 0 };
  /** The elsewhere zygote's clock shift (days) and its machine's /proc files in the spool (the
   *  fork request's proc_files), set when it starts. */
  private elsewhere?: { days: number; procFiles: [string, string][] };
  /** pytest zygotes started so far (1 + restarts). */
  get starts(): number {
    return this.startsOf.pytest;
  }
  readonly timings: WarmTimings[] = [];

  constructor(readonly sandbox: BwrapSandbox, readonly pyenv: PyEnv | null) {}

  private spoolDir(): string {
    if (!this.spool) {
      this.spool = transientDir("warm-spool-");
      chmodSync(this.spool.path, 0o711); // the sandbox user passes through to its grade's folder only
      for (const d of ["empty", "grades"]) mkdirSync(join(this.spool.path, d), { mode: 0o755 });
      chmodSync(join(this.spool.path, "grades"), 0o711);
    }
    return this.spool.path;
  }

  private start(kind: WarmKind, days = 0): Promise<Zygote> {
    const spool = this.spoolDir();
    const harness = harnessDir();
    const python = this.pyenv ? `${PYENV_MOUNT}/bin/python` : SYSTEM_PYTHON;
    // elsewhere: another machine (host, user, /etc's machine id, kernel and CPUs through `prefix`,
    // its /proc files bound by each grade from the spool), the clock moved on, and an interpreter
    // with its own defaults (no -I -B, no pycache prefix), as behave.ts's cold run elsewhere
    const other = kind === "elsewhere" ? anotherMachine(days, this.sandbox.name) : null;
    const etcFiles = Object.fromEntries(Object.entries(other?.options.procFiles ?? {}).filter(([p]) => p.startsWith("/etc/")));
    if (other) {
      const dir = join(spool, "grades", "machine");
      mkdirSync(dir, { mode: 0o755, recursive: true });
      const procFiles = Object.entries(other.options.procFiles).filter(([p]) => p.startsWith("/proc/")).map(([target, text], i): [string, string] => {
        writeFileSync(join(dir, String(i)), text, { mode: 0o644 });
        return [`/spool/machine/${i}`, target];
      });
      this.elsewhere = { days, procFiles };
    }
    const o = RunOptions.parse({
      workdir: join(spool, "empty"), workdirReadOnly: true, diskMb: 64,
      ...(other ? { hostname: other.options.hostname, user: other.options.user, procFiles: etcFiles, env: { ...ELSEWHERE_ENV, ...clockEnv({ seconds: days * 86_400 }, sleepShim(HARNESS_MOUNT)) } } : {}),
    });
    const args = this.sandbox.args(
      // the spool is bound writable (its copies are the grades' own; each grade sees only its tree):
      // a read-only bind would lock every grade's /work read-only
      { ...o, roBinds: { [harness]: HARNESS_MOUNT, [join(spool, "empty")]: CFG_MOUNT, ...(this.pyenv ? { [this.pyenv.dir]: PYENV_MOUNT } : {}) }, rwBinds: { [join(spool, "grades")]: "/spool" } },
      join(spool, "empty"),
    );
    const drop = asSandboxUser();
    const interpreter = other ? [...other.argv, python] : [python, "-I", "-B", "-X", "pycache_prefix=/tmp/pycache"];
    const serves = kind === "elsewhere" ? "behave" : kind;
    const argv = [...drop, this.sandbox.bwrapPath, ...args, "prlimit", "--nofile=4096", "--core=0", "--", ...interpreter, `${HARNESS_MOUNT}/forkserver.py`, "--kind", serves];
    const hold = createRunCgroup(`warm-zygote-${process.pid}-${randomBytes(4).toString("hex")}`, { memoryMb: 2048, pids: 4096, cpus: availableParallelism() });
    const joinHold = hold ? hold.procsFiles.map((f) => `echo $$ > '${f}'`).join(" && ") + " && " : "";
    const extra = Object.keys(o.procFiles).length;
    const child = spawn("/bin/sh", ["-c", `${joinHold}exec "$@"`, "sh", ...argv], { stdio: ["pipe", "pipe", "pipe", ...Array(10 + extra).fill("pipe")], env: {}, detached: true });
    const fds = child.stdio as unknown as NodeJS.WritableStream[];
    fds[11]!.end(PASSWD);
    fds[12]!.end(GROUP);
    Object.values(o.procFiles).forEach((text, i) => fds[PROC_FD + i]!.end(text));
    for (let i = 3; i < 13 + extra; i++) (child.stdio[i] as unknown as { unref?: () => void } | null)?.unref?.();
    const z = new Zygote(child, hold);
    this.current[kind] = z;
    this.startsOf[kind]++;
    return z.waitReady().then((ready) => {
      if (!ready.ok || ready.kind !== serves) {
        const why = ready.ok ? `the ${kind} zygote said it serves ${ready.kind}` : `nested namespaces do not work inside bwrap here: ${ready.why}`;
        this.statuses[kind] = { ok: false, why };
        z.kill("not usable");
        throw new Error(why);
      }
      const table = z.members();
      const near = (pid: number) => {
        for (let p = pid, hops = 0; hops < 4 && p > 1; hops++, p = table.get(p)?.ppid ?? 0) if (p === child.pid) return true;
        return false;
      };
      const host = [...table].find(([pid, e]) => e.nspid.at(-1) === ready.pid && e.nspid.length > 1 && near(pid));
      if (!host) {
        z.kill("no host pid");
        throw new Error("the warm grader's zygote could not be found in the host's /proc");
      }
      z.hostPid = host[0];
      z.nsDepth = host[1].nspid.length;
      this.current[kind] = z;
      this.statuses[kind] = { ok: true, why: null };
      return z;
    });
  }

  private live(kind: WarmKind, days = 0): Promise<Zygote> {
    if (kind === "elsewhere" && this.elsewhere && this.elsewhere.days !== days) return Promise.reject(new Error(`the elsewhere zygote's clock is moved ${this.elsewhere.days} days, not ${days}`));
    let p = this.zygotes[kind];
    if (!p) {
      p = this.zygotes[kind] = this.start(kind, days);
      p.catch(() => {
        if (this.zygotes[kind] === p) delete this.zygotes[kind];
      });
    }
    return p.then((z) => {
      if (!z.dead) return z;
      if (this.zygotes[kind] === p) delete this.zygotes[kind];
      return this.live(kind, days);
    });
  }

  /** Starts the kind's zygote (if needed) and says whether warm grading works here (elsewhere: with
   *  its clock moved `days`). */
  async check(kind: WarmKind = "pytest", days = 0): Promise<WarmStatus> {
    const known = this.statuses[kind];
    if (known && !known.ok) return known;
    if (kind === "elsewhere" && this.elsewhere && this.elsewhere.days !== days) return { ok: false, why: `the elsewhere zygote's clock is moved ${this.elsewhere.days} days, not ${days}` };
    try {
      await this.live(kind, days);
      return this.statuses[kind]!;
    } catch (e) {
      return this.statuses[kind] ?? { ok: false, why: (e as Error).message };
    }
  }

  /** The kind's zygote's host pid (tests kill it to check that it comes back). */
  async zygotePid(kind: WarmKind = "pytest"): Promise<number> {
    return (await this.live(kind)).hostPid;
  }

  private current: Partial<Record<WarmKind, Zygote>> = {};

  /** Synchronous kill (process exit). */
  killNow(): void {
    for (const z of Object.values(this.current)) z.kill("exiting");
  }

  /** Kills the zygotes; the next grade of each kind starts a fresh one. */
  async stop(): Promise<void> {
    for (const kind of WarmKind.options) {
      const z = await this.zygotes[kind]?.catch(() => undefined);
      z?.kill("stopped");
      delete this.zygotes[kind];
    }
  }

  async run(req: WarmRun): Promise<RunResult & { timings: WarmTimings }> {
    const o: ResolvedRunOptions = RunOptions.parse(req.options);
    const kind = req.kind ?? "pytest";
    const z = await this.live(kind, req.days ?? 0);
    const t0 = performance.now();
    const id = randomBytes(8).toString("hex");
    const dir = join(this.spoolDir(), "grades", id);
    const T: WarmTimings = { kind, stage: 0, fork: 0, cgroup: 0, run: 0, cleanup: 0, gradeCpu: 0 };
    let lap = performance.now();
    const tick = (k: Exclude<keyof WarmTimings, "gradeCpu" | "kind">) => {
      const now = performance.now();
      T[k] += now - lap;
      lap = now;
    };
    // asynchronously: a directory operation in the spool waits on its siblings' removal (the
    // folder's lock), which done synchronously stalled every other grade's events (≈ 2 ms a grade)
    await mkdir(dir, { mode: 0o700 });
    let cg: ReturnType<typeof createRunCgroup> = null;
    let timer: NodeJS.Timeout | undefined;
    try {
      // The tree as the cold path stages it: a copy, sanitized and owned by the sandbox user.
      // Asynchronously: a tree of hundreds of MB (an agent that filled its disk cap) copied
      // synchronously stalls every other grade's timers and reads in this process.
      const tree = join(dir, "tree");
      await cp(req.workdir, tree, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      if (kind === "elsewhere") moveTimes(tree, req.days ?? 0);
      await mkdir(join(dir, "cfg"), { mode: 0o755 });
      await Promise.all(Object.entries(req.cfgFiles).map(([name, text]) => writeFile(join(dir, "cfg", name), text)));
      const cleaned = sanitizeTree(dir, runningAsRoot() ? sandboxHostIds() : undefined);
      await chmod(tree, 0o755);
      tick("stage");
      const cpuSeconds = Math.ceil(o.timeoutMs / 1000) + 1;
      cg = createRunCgroup(`warm-${process.pid}-${id}`, o);
      const limits = { cpuSeconds: o.cpuRlimit ? cpuSeconds : null, fsizeBytes: Math.min(512, o.diskMb) * 1024 * 1024, nofile: 512, diskBytes: o.diskMb * 1024 * 1024, asBytes: cg ? null : o.memoryMb * 1024 * 1024 };
      const out: Buffer[][] = [[], []];
      let timedOut = false;
      const result = new Promise<Extract<WarmEvent, { ev: "exit" }>>((resolve, reject) => {
        let innerPid = 0;
        z.track(id, {
          out,
          forked: (pid) => {
            innerPid = pid;
            tick("fork");
            void (async () => {
              try {
                if (cg) {
                  // G is pid 1 of its own namespace: its pid as the zygote sees it is one level up
                  const host = [...z.members()].find(([, e]) => e.ppid === z.hostPid && e.nspid[z.nsDepth - 1] === innerPid);
                  if (!host) throw new Error(`grade ${id}: its process ${innerPid} was not found on the host`);
                  // Asynchronously: moving a process into its cgroups blocks in the kernel (≈ 10 ms
                  // a grade for the three v1 hierarchies here), which written synchronously stalls
                  // every other grade's events.
                  for (const f of cg.procsFiles) await writeFile(f, String(host[0]));
                }
                tick("cgroup");
                z.send({ op: "go", id, secret: kind === "pytest" ? req.secret : "-" });
              } catch (e) {
                try {
                  z.send({ op: "kill", id });
                } catch {
                  /* the zygote is gone, and the grade with it */
                }
                reject(e);
              }
            })();
          },
          exit: resolve,
          fail: reject,
        });
        timer = setTimeout(() => {
          timedOut = true;
          z.send({ op: "kill", id });
        }, o.timeoutMs);
        // a scratch grade writes into its spool copy; protected paths and masks as the cold path binds them
        const grading = { writable: o.scratchWorkdir, protect: o.scratchWorkdir ? protectedInside(tree, o.protectPaths) : [], masks: existingMasks(o.masks).map((m) => [maskStubInside(m.kind), m.path]) };
        const machine = { ...(kind === "elsewhere" ? { proc_files: this.elsewhere?.procFiles ?? [] } : {}), ...(req.pidShift ? { pid_shift: req.pidShift } : {}) };
        z.send({ op: "fork", id, argv: req.argv, env: baseEnv(req.env), tree: `/spool/${id}/tree`, cfg: `/spool/${id}/cfg`, limits, maxOutput: o.maxOutputBytes, ...grading, ...machine, ...(process.env.COMPOSER_LAB_WARM_TRACE ? { trace: true } : {}) });
      });
      const ended = await result;
      tick("run");
      T.gradeCpu = ended.cpuMs;
      const oomKilled = cg?.oomKilled() ?? false;
      return {
        exitCode: ended.code, signal: ended.signal, stdout: Buffer.concat(out[0]!).toString("utf8"), stderr: Buffer.concat(out[1]!).toString("utf8"),
        timedOut, stalled: false, oomKilled, wallMs: performance.now() - t0, outputTruncated: ended.truncated, sandbox: "bwrap", diskExceeded: false,
        sanitized: { removedSpecial: cleaned.removedSpecial, clearedModes: cleaned.clearedModes }, timings: T,
      };
    } finally {
      clearTimeout(timer);
      z.untrack(id);
      await cg?.cleanup();
      await rm(dir, { recursive: true, force: true });
      tick("cleanup");
      this.timings.push(T);
      if (this.timings.length > 1000) this.timings.splice(0, 500);
    }
  }
}

const workers = new Map<string, WarmWorker>();
let exitHooked = false;

/** On the way out: kill every zygote (bwrap would follow us anyway) and drop its cgroup; what a
 *  kill leaves behind, the next process's createRunCgroup reaps. */
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    for (const w of workers.values()) w.killNow();
  });
}

/** The warm worker for this sandbox and interpreter (one per bwrap binary and environment). */
export function warmWorker(sandbox: BwrapSandbox, pyenv: PyEnv | null): WarmWorker {
  const key = `${sandbox.bwrapPath}\u0000${pyenv?.dir ?? ""}`;
  let w = workers.get(key);
  if (!w) workers.set(key, (w = new WarmWorker(sandbox, pyenv)));
  hookExit();
  return w;
}

/** Whether cgroups can bound each warm grade (else RLIMIT_AS bounds its memory, as cold runs do). */
export const warmCgroups = (): string => cgroupMode().kind;

/** Every warm worker of this process (the bench reads their timings). */
export const warmWorkers = (): WarmWorker[] => [...workers.values()];

/** Which path grading takes here (what `composer-lab sandbox check` and `doctor` report): "warm"
 *  where the warm grader starts and its probe isolates a grade, else "cold" and why. Starts the
 *  system interpreter's zygote (it then serves this process's grades). */
export async function gradingPath(sandbox: BwrapSandbox): Promise<{ path: "warm" | "cold"; why: string | null; cgroups: string; sleep_shim: string }> {
  // (whether the runs with a moved clock keep the interpreter's own time.sleep: harness-dir.ts)
  const shim = sleepShimMissing();
  const sleep_shim = shim === null ? "built: time.sleep is the interpreter's own in every run" : `missing, so the run elsewhere's time.sleep is the runner's stand-in (a tell a body can read): ${shim}`;
  if (!sandbox.warm) return { path: "cold", why: "the warm grader is off (BwrapSandbox { warm: false } or COMPOSER_LAB_WARM_GRADER=0)", cgroups: warmCgroups(), sleep_shim };
  const s = await warmWorker(sandbox, null).check();
  return { path: s.ok ? "warm" : "cold", why: s.ok ? null : s.why, cgroups: warmCgroups(), sleep_shim };
}
