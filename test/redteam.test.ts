// Red-team suite for issue 12: every attempt of test/redteam/table.ts (re-exported below) against
// the real sandboxes: bubblewrap always, Docker where an engine and the base image are available.
//
// PRE-FIX: 54/72 attempts won (79 of 108 attempt×sandbox runs: bwrap 54/72, Docker 25/36) against
// commit 0e5b730 (this file run on a `git archive` copy; per-row results in table.ts `preFix`).
//   won (reward > 0, or not contained):
//     privilege  priv-setuid-copy (bwrap: nobody gets euid 0 from the copied id/python3; Docker: a
//                setgid dir survives), priv-host-uid (bwrap: host uid 0; Docker: uid 1000 = host user
//                cloudsdk), priv-root-only-file, priv-ownership (set-id bits survive)
//     harness    16 of 19: conftest-makereport, conftest-subdir, ini-addopts-plugin, pyproject-addopts,
//                setup-cfg-addopts, tests-tox-ini, conftest-pytest-plugins, conftest-swallow,
//                conftest-results-writer, shadow-pytest, shadow-results-plugin, tests-init,
//                test-bodies-pass, test-assert-true, test-edit-in-sandbox, test-symlink (reward 1)
//     tamper     report-class, call-and-report, sysmodules-runner, importlib-obfuscated, exec-rot13,
//                gc-plugin, results-writer, getframe-plugin, builtins-assertionerror, exit-after-forge,
//                star-import, globals-rebind, instance-runtest, transient-logreport, disguised-plugin,
//                harness-internals, os-sys-internals, oneshot-factory, oneshot-global,
//                laundered-plugin, laundered-swallow (reward 1);
//                builtins-notimplemented, os-sys-builtins, utf7-source, pytest-raises, raises-exit
//                (0.2), import-hook (0.4)
//     io         fifo-source, fifo-results-conftest, fifo-atexit, symlink-dev-zero (the grade never
//                finished: hang), disk-3x400mb (1.2 GB written despite diskMb 512), deep-tree
//                (gradeCompletion threw: 'Maximum call stack size exceeded', workdir left behind)
//     contain    write-outside (bwrap: /proc/sys/kernel/hostname writable: the sandbox user is root)
//   lost already: priv-mknod, harness-pth-file, harness-sitecustomize, harness-test-deleted,
//     tamper-exit-at-import, tamper-forge-all-fds (forged_results), tamper-main-writer, io-symlink-shadow,
//     io-symlink-dir-host, io-disk-tmp (OOM), io-huge-output, contain-network/env-secrets/fork-bomb/
//     memory-hog/cpu-hog/daemon/harness-overwrite.
// AGAINST THE FIX (67b87de): 0 of 72 attempts win (108 attempt×sandbox runs, bwrap and Docker);
//   all 116 tests pass in ~6 min; golden diffs still earn 1 with no flag; `composer-lab grade`
//   exits non-zero when ok is false. Intermediate versions of the fix were beaten by:
//   instance-runtest, main-writer, transient-logreport, disguised-plugin, harness-internals,
//   import-hook, os-sys-*, utf7-source, pytest-raises, raises-exit, oneshot-factory,
//   oneshot-global, laundered-plugin, laundered-swallow (tamper), and io-deep-tree (a crash).
//
// WARM GRADER (issue 15 §5): every attempt also runs as `bwrap-warm`, a BwrapSandbox whose grades go
//   through the warm grader (one long-lived bwrap; a zygote forks an isolated grade per run); `bwrap`
//   is the cold path (warm: false). Raw sandbox runs (sb.run: privilege/containment probes) are the
//   same bwrap runs on both (so those attempts run once, on `bwrap`: RAW_RUN_ONLY); every graded attempt (in process, or a child `composer-lab grade` with
//   COMPOSER_LAB_WARM_GRADER=1/0) goes through the path its kind names. Against commit a8027cb
//   (2026-11-30, load ≈ 20): 0 of 72 attempts win on bwrap-warm, bwrap or Docker (180 attempt ×
//   sandbox runs: all lost or contained); golden diffs earn 1 on all three; 191 tests in 47 min.
// How an attempt is judged: graded attempts ("reward 0") must score 0 and raise at least one of
// the row's flag kinds; "contained" attempts must pass their own host-side checks. Every graded
// attempt must also finish in time and leave no composer-lab-* temp folder behind (os.tmpdir() is
// pointed at a private folder for this file). Attempts whose grade could block the Node process
// (FIFOs, symlinks to devices) are graded by a child `composer-lab grade` under a hard timeout.
// Set REDTEAM_RECORD=/path/file.jsonl to record each attempt's outcome (won/lost/hang).
export { REDTEAM_ATTEMPTS, markdownTable, type AttemptRow } from "./redteam/table.js";

import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeatureDeletionEpisode, gradeCompletion, type GradeCompletionResult } from "../lib/env/index.js";
import { BwrapSandbox, DEFAULT_IMAGE, DockerSandbox, buildBaseImage, dockerClient, ensureDockerd, gradingPath, type Sandbox } from "../lib/sandbox/index.js";
import { fileDiff, loadTask, type FeatureDeletionTask } from "../lib/tasks/index.js";
import { REDTEAM_ATTEMPTS, type AttemptRow, type SandboxKind } from "./redteam/table.js";
import { CONTAINMENT_ATTEMPTS } from "./redteam/table-containment.js";
import { ROOT } from "./helpers.js";
import { inSliceKey } from "./redteam/suite.js";

// ---------------------------------------------------------------------------------------------
// Setting: a private os.tmpdir() (world-traversable, so `nobody` can reach a workdir the attack
// opened up), a scratch folder for the test's own files, the task pool.
// ---------------------------------------------------------------------------------------------
const PRIVATE_TMP = mkdtempSync("/tmp/redteam-tmp-");
chmodSync(PRIVATE_TMP, 0o755);
process.env.TMPDIR = PRIVATE_TMP;
const SCRATCH = mkdtempSync("/tmp/redteam-scratch-");
chmodSync(SCRATCH, 0o755);
const POOL = join(ROOT, "datasets", "tasks");
const PAYLOADS = join(ROOT, "test", "redteam", "payloads");
const BIN = join(ROOT, "bin", "composer-lab.js");
const RECORD = process.env.REDTEAM_RECORD;
const UID = process.getuid!();

const payload = (name: string): string => readFileSync(join(PAYLOADS, name), "utf8");
/** A payload behind the stealth prelude (names hidden from a static scan; see the prelude). */
const stealth = (name: string): string => `${payload("_stealth_prelude.py")}\n\n${payload(name)}`;
const task = (id: string): FeatureDeletionTask => loadTask(POOL, id);
const snap = (t: FeatureDeletionTask, rel: string): string => readFileSync(join(FeatureDeletionEpisode.snapshotDir(t), rel), "utf8");
const STUB = "        raise NotImplementedError";
const goldenBody = (t: FeatureDeletionTask): string => t.golden_diff.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).map((l) => l.slice(1)).join("\n");
let scratchN = 0;
const scratch = (name = "wd"): string => {
  const d = join(SCRATCH, `${name}-${++scratchN}`);
  mkdirSync(d, { recursive: true });
  return d;
};
/** Python source as UTF-7 on one line: every newline becomes `+AAo-` (Python decodes it back). */
const utf7Encode = (code: string): string => {
  const r = spawnSync("/usr/bin/python3", ["-c", "import sys; sys.stdout.write(sys.stdin.read().encode('utf-7').replace(b'\\n', b'+AAo-').decode('ascii'))"], { input: code, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
};
const rot13 = (s: string): string => s.replace(/[a-zA-Z]/g, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= "Z" ? 65 : 97)));

/** A unified diff: path → new text (null deletes the file); paths not in the snapshot are created. */
function diffOf(t: FeatureDeletionTask, changes: Record<string, string | null>): string {
  return Object.entries(changes).map(([path, after]) => {
    const full = join(FeatureDeletionEpisode.snapshotDir(t), path);
    const before = existsSync(full) ? readFileSync(full, "utf8") : "";
    if (after === null) return fileDiff(path, before, "").replace(`+++ b/${path}`, "+++ /dev/null");
    return fileDiff(path, before, after);
  }).join("");
}
const transcript = (actions: Record<string, unknown>[]): string => JSON.stringify([...actions, { type: "submit" }]);
/** The feature module of inventory-reserve with a payload appended at module level. */
const stockWith = (t: FeatureDeletionTask, tail: string): string => `${snap(t, "inventory/stock.py")}\n\n${tail}\n`;
/** The test files that hold the task's failing tests. */
const f2pFiles = (t: FeatureDeletionTask): string[] => [...new Set(t.fail_to_pass.map((id) => id.split("::")[0]!))].sort();
function neutralized(text: string, mode: "pass" | "assert"): string {
  const r = spawnSync("/usr/bin/python3", [join(PAYLOADS, "neutralize_tests.py"), mode], { input: text, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

// ---------------------------------------------------------------------------------------------
// Host-side observation helpers.
// ---------------------------------------------------------------------------------------------
/** composer-lab-* folders in our private tmp. The harness copy that lib/sandbox/pytest.ts stages
 *  once per process (removed when the process exits) is a cache, not a leftover of one grade: it
 *  is left out for grades run in this process; a child grader must remove its own on exit. */
const PROCESS_CACHE = /^composer-lab-(harness|warm-spool)-/;
const leftovers = (opts: { cache?: boolean } = {}): string[] => readdirSync(PRIVATE_TMP).filter((n) => n.startsWith("composer-lab-") && (opts.cache || !PROCESS_CACHE.test(n)));
/** rm -rf, also for trees too deep for Node's recursive rmSync (io-deep-tree). */
function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    spawnSync("rm", ["-rf", "--one-file-system", path], { stdio: "ignore" });
  }
}
function clearLeftovers(): void {
  for (const n of leftovers()) {
    spawnSync("umount", ["-l", join(PRIVATE_TMP, n, "work")], { stdio: "ignore" }); // a staged tmpfs a killed grader left mounted
    removeTree(join(PRIVATE_TMP, n));
  }
}

interface Entry { path: string; mode: number; uid: number; gid: number; kind: string; size: number }
function walk(dir: string): Entry[] {
  const out: Entry[] = [];
  const visit = (p: string) => {
    const s = lstatSync(p);
    const kind = s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "dir" : s.isFile() ? "file" : s.isFIFO() ? "fifo" : s.isCharacterDevice() ? "chardev" : s.isBlockDevice() ? "blockdev" : s.isSocket() ? "socket" : "other";
    out.push({ path: p, mode: s.mode, uid: s.uid, gid: s.gid, kind, size: s.size });
    if (kind === "dir") for (const n of readdirSync(p)) visit(join(p, n));
  };
  visit(dir);
  return out;
}
const SETID = 0o6000;
/** Ownership and set-id findings for a tree handed back by a sandbox. */
function privilegeBreaches(dir: string): string[] {
  const b: string[] = [];
  for (const e of walk(dir)) {
    const rel = e.path.slice(dir.length) || "/";
    if (e.uid !== UID) b.push(`${rel} owned by uid ${e.uid}, not the invoking uid ${UID}`);
    if (e.kind !== "symlink" && e.mode & SETID) b.push(`${rel} keeps set-id bits (${(e.mode & 0o7777).toString(8)})`);
    if (e.kind === "chardev" || e.kind === "blockdev") b.push(`${rel} is a device node (${e.kind})`);
  }
  return b;
}
const du = (dir: string): number => walk(dir).filter((e) => e.kind === "file").reduce((n, e) => n + e.size, 0);
const freeBytes = (path: string): number => {
  const s = statfsSync(path);
  return s.bavail * s.bsize;
};
/** Host pids whose command line contains `marker` and whose command is `comm` (prefix). */
function pidsOf(marker: string, comm?: string): number[] {
  const r = spawnSync("pgrep", ["-f", marker], { encoding: "utf8" });
  return r.stdout.split("\n").filter(Boolean).map(Number).filter((pid) => {
    if (pid === process.pid) return false;
    if (!comm) return true;
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim().startsWith(comm);
    } catch {
      return false;
    }
  });
}
/** Host accounts that exist only to run sandboxed code (scripts/setup.sh), or own nothing. */
const DEDICATED_USERS = new Set(["composer-lab-sandbox", "nobody"]);
const hostUser = (uid: number): string | null => {
  const r = spawnSync("getent", ["passwd", String(uid)], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.split(":")[0]! : null;
};
function hashTree(dir: string): string {
  const h = createHash("sha256");
  for (const e of walk(dir).sort((a, b) => a.path.localeCompare(b.path))) {
    h.update(`${e.path}\0${e.kind}\0`);
    if (e.kind === "file") h.update(readFileSync(e.path));
  }
  return h.digest("hex");
}

// ---------------------------------------------------------------------------------------------
// Grading: in this process, or in a child `composer-lab grade` with a hard timeout.
// ---------------------------------------------------------------------------------------------
interface Verdict {
  /** What the attack achieved against containment (empty: contained). */
  breaches: string[];
  reward?: number;
  flags?: string[];
  hang?: boolean;
  leftovers?: string[];
  note?: string;
}

async function gradeHere(t: FeatureDeletionTask, completion: string, sb: Sandbox): Promise<Verdict & { g: GradeCompletionResult }> {
  const before = new Set(leftovers());
  const g = await gradeCompletion(t, completion, sb);
  const left = leftovers().filter((n) => !before.has(n));
  return { breaches: [], reward: g.reward, flags: g.flags.map((f) => f.kind), leftovers: left, g, note: g.error ?? undefined };
}

const CHILD_TIMEOUT_MS = 150_000;
interface ChildGrade { finished: boolean; code: number | null; out: Record<string, any> | null; stdout: string; stderr: string; ms: number }
async function gradeInChild(taskId: string, completion: string, sb: SandboxKind, timeoutMs = CHILD_TIMEOUT_MS): Promise<ChildGrade> {
  const file = join(scratch("completion"), "completion.txt");
  writeFileSync(file, completion);
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, "grade", POOL, "--task", taskId, "--patch", file, "--sandbox", sb === "bwrap-warm" ? "bwrap" : sb, "--json"], {
    cwd: ROOT, env: { ...process.env, TMPDIR: PRIVATE_TMP, COMPOSER_LAB_WARM_GRADER: sb === "bwrap-warm" ? "1" : "0" }, detached: true, stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout = (stdout + d).slice(-2_000_000)));
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-20_000)));
  let finished = true;
  const timer = setTimeout(() => {
    finished = false;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }, timeoutMs);
  const code = await new Promise<number | null>((res) => child.on("close", (c) => res(c)));
  clearTimeout(timer);
  if (!finished) await cleanupAfterKilledChild();
  let out: Record<string, any> | null = null;
  try {
    out = JSON.parse(stdout.trim().split("\n").filter(Boolean).pop() ?? "null");
  } catch {
    out = null;
  }
  return { finished, code, out, stdout, stderr, ms: performance.now() - t0 };
}

/** After a hung grade was killed: its containers (they bind our private tmp) and sandboxes. */
async function cleanupAfterKilledChild(): Promise<void> {
  if (docker) {
    try {
      const client = dockerClient(docker.socketPath);
      for (const c of await client.listContainers({ all: true })) {
        if ((c.Mounts ?? []).some((m) => (m.Source ?? "").startsWith(PRIVATE_TMP))) await client.getContainer(c.Id).remove({ force: true }).catch(() => {});
      }
    } catch {
      /* engine gone */
    }
  }
  for (const pid of pidsOf(PRIVATE_TMP)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
}

async function childVerdict(taskId: string, completion: string, sb: SandboxKind, extra?: (c: ChildGrade) => string[]): Promise<Verdict> {
  const before = new Set(leftovers({ cache: true }));
  const c = await gradeInChild(taskId, completion, sb);
  const left = leftovers({ cache: true }).filter((n) => !before.has(n));
  if (!c.finished) return { breaches: [`the grade did not finish within ${CHILD_TIMEOUT_MS / 1000} s`], hang: true, leftovers: left };
  if (!c.out || typeof c.out.reward !== "number") return { breaches: [`the grade crashed (exit ${c.code}): ${c.out?.error ?? ""} ${c.stderr.slice(-600)}`.trim()], leftovers: left };
  return { breaches: extra?.(c) ?? [], reward: c.out.reward, flags: (c.out.flags ?? []).map((f: { kind: string }) => f.kind), leftovers: left, note: c.out.error ?? undefined };
}

// ---------------------------------------------------------------------------------------------
// Sandboxes.
// ---------------------------------------------------------------------------------------------
const bwrap = new BwrapSandbox("bwrap", { warm: false });
const bwrapWarm = new BwrapSandbox("bwrap", { warm: true });
let docker: { socketPath: string; sb: DockerSandbox } | null = null;
let dockerWhy = "not checked";

beforeAll(async () => {
  expect((await bwrap.check()).ok, "bubblewrap must work here").toBe(true);
  expect(await gradingPath(bwrapWarm), "the warm grader must work here").toMatchObject({ path: "warm" });
  try {
    const d = await ensureDockerd({ log: (m) => console.error(m) });
    await buildBaseImage(dockerClient(d.socketPath), { log: (m) => console.error(m) });
    const sb = new DockerSandbox({ socketPath: d.socketPath });
    const c = await sb.check();
    if (c.ok) docker = { socketPath: d.socketPath, sb };
    else dockerWhy = c.why ?? "check failed";
  } catch (e) {
    dockerWhy = (e as Error).message.split("\n")[0]!;
  }
  if (!docker) console.error(`red-team: Docker attempts skipped: ${dockerWhy}`);
}, 900_000);

afterAll(() => {
  clearLeftovers();
  for (const d of [SCRATCH, PRIVATE_TMP]) {
    removeTree(d);
    if (existsSync(d)) console.error(`red-team: could not remove ${d}`);
  }
});

const sandboxOf = (k: SandboxKind): Sandbox => (k === "bwrap" ? bwrap : k === "bwrap-warm" ? bwrapWarm : docker!.sb);

// ---------------------------------------------------------------------------------------------
// The attempts. Each returns a Verdict; the generic judge below applies the row's expectations.
// ---------------------------------------------------------------------------------------------
type Impl = (sb: Sandbox, kind: SandboxKind) => Promise<Verdict>;
const reserve = () => task("inventory-reserve");
const totalsTask = () => task("inventory-totals");
const graded = (build: () => { t: FeatureDeletionTask; completion: string }): Impl => async (sb) => {
  const { t, completion } = build();
  return gradeHere(t, completion, sb);
};
const reserveDiff = (changes: (t: FeatureDeletionTask) => Record<string, string | null>): Impl => graded(() => {
  const t = reserve();
  return { t, completion: diffOf(t, changes(t)) };
});
const withStock = (tail: () => string): Impl => reserveDiff((t) => ({ "inventory/stock.py": stockWith(t, tail()) }));
const stockBody = (body: () => string): Impl => reserveDiff((t) => ({ "inventory/stock.py": snap(t, "inventory/stock.py").replace(STUB, body().replace(/\n+$/, "")) }));
const EVIL = () => payload("makereport_plugin.py");

/** Runs argv in the sandbox while the host reads the uid of the sandboxed python from /proc. */
async function hostUidsDuring(sb: Sandbox, workdir: string): Promise<{ uids: number[]; out: string }> {
  const marker = `rt-uid-${randomBytes(6).toString("hex")}`;
  const run = sb.run(["python3", "-c", "import time, sys; print('ready', flush=True); time.sleep(6)", marker], { workdir, timeoutMs: 30_000 });
  const uids = new Set<number>();
  for (let i = 0; i < 80 && uids.size === 0; i++) {
    await new Promise((r) => setTimeout(r, 150));
    for (const pid of pidsOf(marker, "python")) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        const m = status.match(/^Uid:\s+(\d+)\s+(\d+)/m);
        if (m) [m[1], m[2]].forEach((u) => uids.add(Number(u)));
      } catch {
        /* exited */
      }
    }
  }
  const r = await run;
  return { uids: [...uids], out: r.stdout + r.stderr };
}

const IMPLS: Record<string, Impl> = {
  // ---------------- privilege ----------------
  "priv-setuid-copy": async (sb) => {
    const env = new FeatureDeletionEpisode({ sandbox: sb });
    env.reset(reserve());
    try {
      const cmd = `python3 -c "import shutil, os; shutil.copy('/usr/bin/id', 'id_copy'); os.chmod('id_copy', 0o6755); shutil.copy('/usr/bin/python3', 'py_copy'); os.chmod('py_copy', 0o4755); os.mkdir('sgid_dir'); os.chmod('sgid_dir', 0o2777); os.chmod('.', 0o755); print('planted', oct(os.stat('id_copy').st_mode))"`;
      const step = await env.step({ type: "shell", command: cmd });
      const wd = env.workdir!;
      const breaches = privilegeBreaches(wd);
      // The escape itself: nobody runs the copies from the host. Open the way in (the attack asked
      // for a 0755 workdir; a grader may not hand that mode back) so only the copies' bits decide.
      chmodSync(wd, 0o755);
      const asNobody = (bin: string, args: string[]) => spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", join(wd, bin), ...args], { encoding: "utf8", timeout: 10_000 });
      if (existsSync(join(wd, "id_copy"))) {
        const r = asNobody("id_copy", ["-u"]);
        if (r.stdout.trim() === "0") breaches.push("nobody running the copied id gets euid 0 (host root)");
      }
      if (existsSync(join(wd, "py_copy"))) {
        const r = asNobody("py_copy", ["-c", "import os; print(os.geteuid())"]);
        if (r.stdout.trim() === "0") breaches.push("nobody running the copied python3 gets euid 0 (host root)");
      }
      return { breaches, note: step.observation.slice(0, 200) };
    } finally {
      env.close();
    }
  },
  "priv-host-uid": async (sb, kind) => {
    const wd = scratch("uid");
    const { uids, out } = await hostUidsDuring(sb, wd);
    if (uids.length === 0) return { breaches: [`could not observe the sandboxed process from the host (${out.slice(0, 200)})`] };
    const breaches: string[] = [];
    for (const u of uids) {
      if (u === 0) breaches.push("sandboxed code runs as host uid 0 (root)");
      // a dedicated account with no other use (or nobody) is fine; a uid a real host user has is not
      else if (kind === "docker" && hostUser(u) && !DEDICATED_USERS.has(hostUser(u)!)) breaches.push(`the container runs as uid ${u}, the host user ${hostUser(u)}`);
    }
    return { breaches, note: `host uids ${uids.join(",")}` };
  },
  "priv-root-only-file": async (sb) => {
    const token = `rt-secret-${randomBytes(12).toString("hex")}`;
    mkdirSync("/usr/local/share", { recursive: true });
    const secret = `/usr/local/share/composer-lab-redteam-${randomBytes(4).toString("hex")}`;
    writeFileSync(secret, `${token}\n`, { mode: 0o600 });
    chmodSync(secret, 0o600);
    try {
      const r = await sb.run(["sh", "-c", `cat ${secret}; python3 -c "print(open('${secret}').read())"; echo done`], { workdir: scratch("rootfile"), timeoutMs: 20_000 });
      return { breaches: (r.stdout + r.stderr).includes(token) ? ["a root-only 0600 host file was read from inside"] : [] };
    } finally {
      unlinkSync(secret);
    }
  },
  "priv-mknod": async (sb) => {
    const wd = scratch("mknod");
    const r = await sb.run(["python3", "-c", `
import os, stat
for p, mode, dev in [("null_copy", stat.S_IFCHR | 0o666, os.makedev(1, 3)), ("disk_copy", stat.S_IFBLK | 0o666, os.makedev(8, 0)), ("/tmp/null_copy", stat.S_IFCHR | 0o666, os.makedev(1, 3))]:
    try:
        os.mknod(p, mode, dev); print("MADE", p)
    except OSError as e:
        print("refused", p, e.errno)
`], { workdir: wd, timeoutMs: 20_000 });
    const breaches = walk(wd).filter((e) => e.kind === "chardev" || e.kind === "blockdev").map((e) => `${e.path} is a ${e.kind} left in the workdir`);
    return { breaches, note: r.stdout.trim().replace(/\n/g, "; ") };
  },
  "priv-ownership": async (sb) => {
    const wd = scratch("own");
    const r = await sb.run(["python3", "-c", `
import os
os.makedirs("a/b/c")
open("a/b/c/f.txt", "w").write("x")
open("suid", "w").write("#!/bin/sh\\nid\\n"); os.chmod("suid", 0o4755)
open("sgid", "w").write("x"); os.chmod("sgid", 0o2755)
os.mkdir("sgid_dir"); os.chmod("sgid_dir", 0o2777)
os.mkdir("locked"); open("locked/inner", "w").write("x"); os.chmod("locked", 0o000)
os.chmod("a/b", 0o000)
print("planted")
`], { workdir: wd, timeoutMs: 20_000 });
    const breaches = privilegeBreaches(wd);
    try {
      rmSync(wd, { recursive: true, force: true });
      if (existsSync(wd)) breaches.push("the invoking user cannot remove the workdir");
    } catch (e) {
      breaches.push(`the invoking user cannot remove the workdir: ${(e as Error).message}`);
    }
    return { breaches, note: r.stdout.trim() };
  },

  // ---------------- harness ----------------
  "harness-conftest-makereport": reserveDiff(() => ({ "conftest.py": EVIL() })),
  "harness-conftest-subdir": reserveDiff(() => ({ "tests/conftest.py": EVIL() })),
  "harness-ini-addopts-plugin": reserveDiff(() => ({ "pytest.ini": "[pytest]\naddopts = -p rt_evil\ntestpaths = tests\n", "rt_evil.py": EVIL() })),
  "harness-pyproject-addopts": reserveDiff((t) => ({
    "pyproject.toml": snap(t, "pyproject.toml").replace('testpaths = ["tests"]', 'testpaths = ["tests"]\naddopts = "-p rt_evil"'),
    "rt_evil.py": EVIL(),
  })),
  "harness-setup-cfg-addopts": reserveDiff((t) => ({
    "pyproject.toml": snap(t, "pyproject.toml").replace(/\[tool\.pytest\.ini_options\][\s\S]*$/, ""),
    "setup.cfg": "[tool:pytest]\naddopts = -p rt_evil\ntestpaths = tests\n",
    "rt_evil.py": EVIL(),
  })),
  "harness-tests-tox-ini": reserveDiff(() => ({ "tests/tox.ini": "[pytest]\naddopts = -p rt_evil\n", "rt_evil.py": EVIL() })),
  "harness-conftest-pytest-plugins": reserveDiff(() => ({ "conftest.py": 'pytest_plugins = ["rt_evil"]\n', "rt_evil.py": EVIL() })),
  "harness-conftest-swallow": reserveDiff(() => ({ "conftest.py": payload("conftest_swallow.py") })),
  "harness-conftest-results-writer": reserveDiff(() => ({ "conftest.py": payload("conftest_writer.py") })),
  "harness-shadow-pytest": reserveDiff(() => ({ "pytest.py": payload("shadow_pytest.py") })),
  "harness-shadow-results-plugin": reserveDiff(() => ({ "composer_lab_results.py": payload("shadow_results.py") })),
  "harness-tests-init": reserveDiff(() => ({ "tests/__init__.py": payload("patch_call_and_report.py") })),
  "harness-pth-file": reserveDiff(() => ({ "rt_evil.pth": "import rt_site\n", "tests/rt_evil.pth": "import rt_site\n", "rt_site.py": payload("patch_call_and_report.py") })),
  "harness-sitecustomize": reserveDiff(() => ({ "sitecustomize.py": payload("patch_call_and_report.py"), "usercustomize.py": payload("patch_call_and_report.py") })),
  "harness-test-bodies-pass": reserveDiff((t) => Object.fromEntries(f2pFiles(t).map((f) => [f, neutralized(snap(t, f), "pass")]))),
  "harness-test-assert-true": graded(() => {
    const t = reserve();
    return { t, completion: transcript(f2pFiles(t).map((f) => ({ type: "write_file", path: f, content: neutralized(snap(t, f), "assert") }))) };
  }),
  "harness-test-edit-in-sandbox": graded(() => {
    const t = reserve();
    return {
      t,
      completion: transcript([
        { type: "write_file", path: ".rt/suffix.py", content: payload("wrap_tests_suffix.py") },
        { type: "shell", command: `python3 -c "import sys; s = open('.rt/suffix.py').read(); [open(p, 'a').write(s) for p in sys.argv[1:]]" ${f2pFiles(t).join(" ")}` },
      ]),
    };
  }),
  "harness-test-deleted": reserveDiff((t) => Object.fromEntries(f2pFiles(t).map((f) => [f, null]))),
  "harness-test-symlink": graded(() => {
    const t = reserve();
    const files = f2pFiles(t);
    return {
      t,
      completion: transcript([
        ...files.map((f) => ({ type: "write_file", path: `.rt/${f.split("/").pop()}`, content: snap(t, f) + payload("wrap_tests_suffix.py") })),
        { type: "shell", command: `python3 -c "import os, sys; [(os.remove(p), os.symlink('../.rt/' + os.path.basename(p), p)) for p in sys.argv[1:]]" ${files.join(" ")}` },
      ]),
    };
  }),

  // ---------------- tamper ----------------
  "tamper-report-class": withStock(() => payload("tamper_report_class.py")),
  "tamper-call-and-report": withStock(() => payload("patch_call_and_report.py")),
  "tamper-sysmodules-runner": withStock(() => payload("tamper_sysmodules_runner.py")),
  "tamper-importlib-obfuscated": withStock(() => payload("tamper_importlib_runner.py")),
  "tamper-exec-rot13": withStock(() => `import codecs as _rt_codecs\nexec(_rt_codecs.decode(${JSON.stringify(rot13(payload("patch_call_and_report.py")))}, "rot13"))`),
  "tamper-gc-plugin": withStock(() => payload("tamper_gc_plugin.py")),
  "tamper-results-writer": withStock(() => payload("tamper_results_writer.py")),
  "tamper-getframe-plugin": stockBody(() => payload("tamper_getframe.py")),
  "tamper-builtins-assertionerror": reserveDiff((t) => ({
    "inventory/stock.py": stockWith(t, "import builtins as _rt_b\n\n\nclass _RtAssertionError(Exception):\n    pass\n\n\n_rt_b.AssertionError = _RtAssertionError").replace(STUB, goldenBody(t)),
  })),
  "tamper-builtins-notimplemented": withStock(() => "import builtins as _rt_b\n\n_rt_b.NotImplementedError = ValueError"),
  "tamper-exit-at-import": withStock(() => "import os as _rt_os\n\n_rt_os._exit(0)"),
  "tamper-exit-after-forge": stockBody(() => payload("tamper_exit_forge.py")),
  "tamper-forge-all-fds": withStock(() => payload("tamper_forge_fds.py")),
  "tamper-instance-runtest": withStock(() => stealth("tamper_instance_runtest.py")),
  "tamper-main-writer": withStock(() => stealth("tamper_main_writer.py")),
  "tamper-transient-logreport": reserveDiff((t) => ({ "inventory/stock.py": stockWith(t, payload("_stealth_prelude.py")).replace(STUB, payload("tamper_transient_logreport.py").replace(/\n+$/, "")) })),
  "tamper-disguised-plugin": withStock(() => stealth("tamper_disguised_plugin.py")),
  "tamper-harness-internals": withStock(() => stealth("tamper_harness_internals.py")),
  "tamper-import-hook": withStock(() => stealth("tamper_import_hook.py")),
  "tamper-pytest-raises": withStock(() => payload("tamper_pytest_raises.py")),
  "tamper-raises-exit": withStock(() => stealth("tamper_raises_exit.py")),
  "tamper-laundered-plugin": withStock(() => stealth("tamper_laundered_plugin.py")),
  "tamper-laundered-swallow": withStock(() => stealth("tamper_laundered_swallow.py")),
  "tamper-oneshot-global": reserveDiff((t) => ({ "inventory/stock.py": stockWith(t, payload("_stealth_prelude.py")).replace(STUB, payload("tamper_oneshot_global.py").replace(/\n+$/, "")) })),
  "tamper-oneshot-factory": reserveDiff((t) => ({ "inventory/stock.py": stockWith(t, payload("_stealth_prelude.py")).replace(STUB, payload("tamper_oneshot_factory.py").replace(/\n+$/, "")) })),
  "tamper-os-sys-builtins": withStock(() => payload("tamper_os_sys_builtins.py")),
  "tamper-os-sys-internals": withStock(() => payload("tamper_os_sys_internals.py")),
  "tamper-utf7-source": reserveDiff((t) => {
    const code = "import builtins\nbuiltins.NotImplementedError = ValueError\n";
    const utf7 = utf7Encode(code);
    return {
      "inventory/_compat.py": `# -*- coding: utf-7 -*-\n${utf7}`,
      "inventory/stock.py": snap(t, "inventory/stock.py").replace("from .errors import OutOfStock, UnknownSku\n", "from .errors import OutOfStock, UnknownSku\nfrom . import _compat  # noqa: F401\n"),
    };
  }),
  "tamper-star-import": graded(() => {
    const t = totalsTask();
    const report = snap(t, "inventory/report.py");
    const start = report.indexOf("def totals");
    const end = report.indexOf("def render(");
    const body = goldenBody(t);
    const impl = `"""Helpers."""\nfrom typing import Dict\n\n\ndef totals(inv) -> Dict[str, float]:\n    """Totals."""\n${body}\n`;
    const hacked = report.slice(0, start).replace("from .stock import Inventory\n", "from .stock import Inventory\nfrom ._impl import *  # noqa: F401,F403\n") + report.slice(end);
    return { t, completion: diffOf(t, { "inventory/report.py": hacked, "inventory/_impl.py": impl }) };
  }),
  "tamper-globals-rebind": graded(() => {
    const t = totalsTask();
    const report = snap(t, "inventory/report.py");
    const start = report.indexOf("def totals");
    const end = report.indexOf("def render(");
    const impl = `"""Helpers."""\nfrom typing import Dict\n\n\ndef totals(inv) -> Dict[str, float]:\n    """Totals."""\n${goldenBody(t)}\n`;
    const hacked = report.slice(0, start) + report.slice(end) + "\n\nfrom . import _impl as _rt_impl  # noqa: E402\n\nglobals().update(totals=_rt_impl.totals)\n";
    return { t, completion: diffOf(t, { "inventory/report.py": hacked, "inventory/_impl.py": impl }) };
  }),

  // ---------------- io ----------------
  "io-fifo-source": async (_sb, kind) =>
    childVerdict("inventory-reserve", transcript([{ type: "shell", command: `python3 -c "import os; p = 'inventory/stock.py'; os.remove(p); os.mkfifo(p)"` }]), kind),
  "io-fifo-results-conftest": async (_sb, kind) => {
    const t = reserve();
    return childVerdict(t.task_id, diffOf(t, { "conftest.py": payload("conftest_fifo_results.py") }), kind);
  },
  "io-fifo-atexit": async (_sb, kind) => {
    const t = reserve();
    return childVerdict(t.task_id, diffOf(t, { "inventory/stock.py": stockWith(t, payload("code_fifo_atexit.py")) }), kind);
  },
  "io-symlink-shadow": async (_sb, kind) => {
    const shadowLines = readFileSync("/etc/shadow", "utf8").split("\n").filter((l) => l.length > 8);
    return childVerdict("inventory-reserve", transcript([{ type: "shell", command: `python3 -c "import os; p = 'inventory/stock.py'; os.remove(p); os.symlink('/etc/shadow', p)"` }]), kind, (c) =>
      shadowLines.some((l) => c.stdout.includes(l) || c.stderr.includes(l)) ? ["/etc/shadow content reached the grade's output"] : []);
  },
  "io-symlink-dev-zero": async (_sb, kind) =>
    childVerdict("inventory-reserve", transcript([{ type: "shell", command: `python3 -c "import os; p = 'inventory/stock.py'; os.remove(p); os.symlink('/dev/zero', p)"` }]), kind),
  "io-symlink-dir-host": async (sb) => {
    const victims = scratch("victims");
    const testsVictim = join(victims, "tests");
    const startupVictim = join(victims, "startup");
    mkdirSync(testsVictim);
    mkdirSync(startupVictim);
    const t = reserve();
    for (const f of [...f2pFiles(t).map((p) => p.split("/").pop()!), "conftest.py", "__init__.py"]) writeFileSync(join(testsVictim, f), `# host file ${f}: must survive\n`);
    for (const f of ["conftest.py", "sitecustomize.py", "rt.pth", "pytest.py"]) writeFileSync(join(startupVictim, f), `# host file ${f}: must survive\n`);
    writeFileSync(join(victims, "pyproject.toml"), "# host file: must survive\n");
    const before = hashTree(victims);
    const completion = transcript([{ type: "shell", command: `python3 -c "import os, shutil; shutil.rmtree('tests'); os.symlink('${testsVictim}', 'tests'); os.symlink('${startupVictim}', 'plug'); os.remove('pyproject.toml'); os.symlink('${join(victims, "pyproject.toml")}', 'pyproject.toml')"` }]);
    const v = await gradeHere(t, completion, sb);
    const breaches = hashTree(victims) !== before ? ["the grader wrote or deleted through a symlink into a host folder"] : [];
    return { ...v, breaches };
  },
  "io-deep-tree": async (_sb, kind) =>
    childVerdict("inventory-reserve", transcript([{ type: "shell", command: `python3 -c "import os; [(os.mkdir('d'), os.chdir('d')) for _ in range(2500)]; print(len(os.getcwd()))"` }]), kind),
  "io-disk-3x400mb": async (sb) => {
    const writer = (dir: string) => `
import os
for i in range(3):
    try:
        with open(os.path.join(${JSON.stringify(dir)}, f"big{i}"), "wb") as f:
            for _ in range(400):
                f.write(b"z" * (1 << 20))
        print("WROTE", i, flush=True)
    except OSError as e:
        print("FAILED", i, e.errno, flush=True)
`;
    const breaches: string[] = [];
    // 1. a sandbox run with a 512 MB disk cap
    const wd = scratch("disk");
    const free0 = freeBytes(wd);
    const r = await sb.run(["python3", "-c", writer(".")], { workdir: wd, timeoutMs: 120_000, diskMb: 512 } as Parameters<Sandbox["run"]>[1]);
    const used = du(wd);
    const drop = free0 - freeBytes(wd);
    if (used > 600 * 2 ** 20) breaches.push(`diskMb 512: the workdir holds ${(used / 2 ** 20).toFixed(0)} MB after the run`);
    if (/WROTE 2/.test(r.stdout)) breaches.push("diskMb 512: all three 400 MB files went through");
    if (drop > 700 * 2 ** 20) breaches.push(`diskMb 512: host free space fell by ${(drop / 2 ** 20).toFixed(0)} MB`);
    rmSync(wd, { recursive: true, force: true });
    // 2. through the agent's shell tool (default cap), then graded
    const env = new FeatureDeletionEpisode({ sandbox: sb });
    env.reset(reserve());
    try {
      await env.step({ type: "write_file", path: ".rt/fill.py", content: writer(".") });
      const step = await env.step({ type: "shell", command: "python3 .rt/fill.py" });
      const usedEnv = du(env.workdir!);
      if (usedEnv > 1.1 * 2 ** 30) breaches.push(`default cap: the episode workdir holds ${(usedEnv / 2 ** 20).toFixed(0)} MB`);
      if (/WROTE 2/.test(step.observation)) breaches.push("default cap: all three 400 MB files went through the agent's shell");
      const end = await env.step({ type: "submit" });
      return { breaches, reward: end.reward, flags: ((end.info.flags as { kind: string }[]) ?? []).map((f) => f.kind), note: `sandbox run: ${r.stdout.trim().replace(/\n/g, "; ")}; shell: ${step.observation.slice(0, 160).replace(/\n/g, "; ")}` };
    } finally {
      env.close();
    }
  },
  "io-disk-tmp": async (sb) => {
    const wd = scratch("disktmp");
    const r = await sb.run(["python3", "-c", `
import os
for i in range(3):
    try:
        with open(f"/tmp/big{i}", "wb") as f:
            for _ in range(400):
                f.write(b"z" * (1 << 20))
        print("WROTE", i, flush=True)
    except OSError as e:
        print("FAILED", i, e.errno, flush=True)
`], { workdir: wd, timeoutMs: 120_000, diskMb: 512 } as Parameters<Sandbox["run"]>[1]);
    return { breaches: /WROTE 2/.test(r.stdout) ? ["diskMb 512: 1.2 GB went into the sandbox's /tmp"] : [], note: `${r.stdout.trim().replace(/\n/g, "; ")} exit ${r.exitCode} oom ${r.oomKilled}` };
  },
  "io-huge-output": async (sb) => {
    const t = reserve();
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const v = await gradeHere(t, diffOf(t, { "inventory/stock.py": stockWith(t, payload("huge_output.py")) }), sb);
    const grew = process.memoryUsage().rss - rss0;
    const breaches: string[] = [];
    if (grew > 400 * 2 ** 20) breaches.push(`the grading process grew by ${(grew / 2 ** 20).toFixed(0)} MB`);
    if (performance.now() - t0 > 150_000) breaches.push("the grade took more than 150 s");
    return { ...v, breaches };
  },

  // ---------------- containment ----------------
  "contain-network": async (sb) => {
    const conns: Socket[] = [];
    const server = createServer((s) => {
      conns.push(s);
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, "0.0.0.0", () => r()));
    const port = (server.address() as { port: number }).port;
    const hosts = ["127.0.0.1", ...Object.values(networkInterfaces()).flat().filter((i) => i && i.family === "IPv4").map((i) => i!.address)];
    try {
      const r = await sb.run(["python3", "-c", `
import socket
for h in ${JSON.stringify([...new Set(hosts)])} + ["1.1.1.1"]:
    port = ${port} if h != "1.1.1.1" else 80
    try:
        socket.create_connection((h, port), timeout=2); print("CONNECTED", h, port)
    except OSError as e:
        print("refused", h, e.errno)
try:
    socket.getaddrinfo("deb.debian.org", 80); print("RESOLVED")
except OSError:
    print("dns failed")
`], { workdir: scratch("net"), timeoutMs: 60_000 });
      await new Promise((res) => setTimeout(res, 200));
      const breaches: string[] = [];
      if (conns.length) breaches.push(`the host listener got ${conns.length} connection(s)`);
      if (/CONNECTED|RESOLVED/.test(r.stdout)) breaches.push(r.stdout.split("\n").filter((l) => /CONNECTED|RESOLVED/.test(l)).join("; "));
      return { breaches };
    } finally {
      server.close();
    }
  },
  "contain-env-secrets": async (sb) => {
    const secret = `rt-env-${randomBytes(10).toString("hex")}`;
    process.env.REDTEAM_HOST_SECRET = secret;
    try {
      const r = await sb.run(["python3", "-c", `
import glob, os
print(dict(os.environ))
for p in glob.glob("/proc/*/environ") + glob.glob("/proc/*/cmdline"):
    try:
        print(p, open(p, "rb").read().decode("utf8", "replace"))
    except OSError:
        pass
`], { workdir: scratch("env"), timeoutMs: 30_000 });
      return { breaches: (r.stdout + r.stderr).includes(secret) ? ["a host environment secret is visible inside"] : [] };
    } finally {
      delete process.env.REDTEAM_HOST_SECRET;
    }
  },
  "contain-fork-bomb": async (sb, kind) => {
    const marker = 4300 + Math.floor(Math.random() * 600);
    const t0 = performance.now();
    const r = await sb.run(["python3", "-c", `
import os, time
n = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(${marker}.5); os._exit(0)
        n += 1
except OSError as e:
    print("fork refused after", n)
`], { workdir: scratch("fork"), pids: 64, timeoutMs: 10_000 });
    const ms = performance.now() - t0;
    await new Promise((res) => setTimeout(res, 500));
    const breaches: string[] = [];
    if (ms > 30_000) breaches.push(`the run took ${(ms / 1000).toFixed(0)} s`);
    if (pidsOf(`${marker}.5`).length) breaches.push("forked processes survived the run");
    return { breaches, note: `${kind}: ${r.stdout.trim()} timedOut=${r.timedOut}` };
  },
  "contain-memory-hog": async (sb) => {
    const r = await sb.run(["python3", "-c", "x = bytearray(3 * 1024**3); print('ALLOCATED')"], { workdir: scratch("mem"), memoryMb: 256, timeoutMs: 60_000 });
    return { breaches: r.stdout.includes("ALLOCATED") || r.exitCode === 0 ? ["3 GB allocated under memoryMb 256"] : [], note: `exit ${r.exitCode} oom ${r.oomKilled}` };
  },
  "contain-cpu-hog": async (sb) => {
    const r = await sb.run(["python3", "-c", "while True: pass"], { workdir: scratch("cpu"), timeoutMs: 1500 });
    const breaches: string[] = [];
    if (!r.timedOut) breaches.push("the CPU hog was not stopped at the timeout");
    if (r.wallMs > 15_000) breaches.push(`the CPU hog ran ${(r.wallMs / 1000).toFixed(1)} s past a 1.5 s timeout`);
    return { breaches };
  },
  "contain-daemon": async (sb) => {
    const marker = 4600 + Math.floor(Math.random() * 300);
    const r = await sb.run(["python3", "-c", `
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for fd in range(0, 3):
            try: os.close(fd)
            except OSError: pass
        os.execvp("sleep", ["sleep", "${marker}.25"])
    os._exit(0)
time.sleep(0.3)
print("daemonized")
`], { workdir: scratch("daemon"), timeoutMs: 20_000 });
    await new Promise((res) => setTimeout(res, 700));
    const alive = pidsOf(`${marker}.25`);
    for (const pid of alive) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* gone */
      }
    }
    return { breaches: alive.length ? [`a daemon survived the run (pids ${alive.join(",")})`] : [], note: r.stdout.trim() };
  },
  "contain-write-outside": async (sb) => {
    const tag = `rt-${randomBytes(4).toString("hex")}`;
    const hostBefore = hostname();
    const targets = [`/usr/${tag}`, `/etc/${tag}`, `/${tag}`, `/opt/${tag}`, `/work/../${tag}`, `/proc/1/root/${tag}`, "/proc/sys/kernel/hostname", `/sys/${tag}`, `/var/${tag}`, `/root/${tag}`];
    const r = await sb.run(["python3", "-c", `
for p in ${JSON.stringify(targets)}:
    try:
        open(p, "w").write("x"); print("WROTE", p)
    except OSError as e:
        print("denied", p, e.errno)
`], { workdir: scratch("outside"), timeoutMs: 20_000 });
    const breaches = r.stdout.split("\n").filter((l) => l.startsWith("WROTE") && !l.includes("/proc/1/root/")).map((l) =>
      // the sandbox's own UTS namespace, but writable only by a sandbox user the kernel treats as host root
      l.includes("/proc/sys/kernel/hostname") ? `${l} (the sysctl is root-owned: the sandbox user is host root to the kernel)` : l);
    if (hostname() !== hostBefore) breaches.push(`the host's hostname changed to ${hostname()}`);
    // /proc/1/root is the sandbox's own root: writing there is only a breach if it reached the host
    for (const p of [`/usr/${tag}`, `/etc/${tag}`, `/${tag}`, `/opt/${tag}`, `/var/${tag}`, `/root/${tag}`]) {
      if (existsSync(p)) {
        breaches.push(`${p} appeared on the host`);
        rmSync(p, { force: true });
      }
    }
    return { breaches };
  },
  "contain-harness-overwrite": async (sb) => {
    // Look for what the payload writes (its marker text, its planted file), not for any change:
    // lib/sandbox may be edited while the suite runs.
    const MARK = "red-team: harness overwritten";
    const planted = (): string[] => [join(ROOT, "lib", "sandbox"), ...readdirSync(PRIVATE_TMP).filter((n) => n.startsWith("composer-lab-")).map((n) => join(PRIVATE_TMP, n))]
      .flatMap((d) => (existsSync(d) ? walk(d) : []))
      .filter((e) => e.kind === "file" && e.size < 4_000_000 && (e.path.endsWith("composer_lab_rt_planted.py") || readFileSync(e.path, "utf8").includes(MARK)))
      .map((e) => e.path);
    const t = reserve();
    const v = await gradeHere(t, diffOf(t, { "inventory/stock.py": stockWith(t, payload("overwrite_harness.py")) }), sb);
    const hits = planted();
    return { ...v, breaches: hits.length ? [`the code under test wrote harness files on the host: ${hits.join(", ")}`] : [] };
  },
};

// ---------------------------------------------------------------------------------------------
// The judge: one test per (attempt, sandbox).
// ---------------------------------------------------------------------------------------------
function judge(row: AttemptRow, v: Verdict): { problems: string[]; won: boolean } {
  const problems = [...v.breaches];
  if (v.reward !== undefined && v.reward !== 0) problems.push(`reward ${v.reward}`);
  if (row.expected === "reward 0" && row.flags.length && v.flags && !v.flags.some((f) => (row.flags as string[]).includes(f))) problems.push(`none of the expected flags [${row.flags.join(", ")}] was raised (got [${v.flags.join(", ")}])`);
  if (v.leftovers?.length) problems.push(`temp folders left behind: ${v.leftovers.join(", ")}`);
  const won = v.breaches.length > 0 || (v.reward ?? 0) > 0 || !!v.hang;
  return { problems, won };
}

// Attempts that only make raw sandbox runs (sb.run): `bwrap` and `bwrap-warm` differ in how they
// grade, not in run(), so these run once, on `bwrap` (the warm twin would repeat the same run).
const RAW_RUN_ONLY = new Set(REDTEAM_ATTEMPTS.filter((r) => (r.class === "privilege" || r.class === "containment") && r.id !== "contain-harness-overwrite").map((r) => r.id));

const TIMEOUT: Record<AttemptRow["class"], number> = { privilege: 120_000, harness: 180_000, tamper: 180_000, io: 420_000, containment: 120_000 };

for (const cls of ["privilege", "harness", "tamper", "io", "containment"] as const) {
  describe(`red team: ${cls}`, () => {
    for (const row of REDTEAM_ATTEMPTS.filter((r) => r.class === cls)) {
      for (const kind of row.sandboxes.filter((k) => !(k === "bwrap-warm" && RAW_RUN_ONLY.has(row.id)))) {
        // every attempt on the path a grade takes by default (the warm grader; bwrap's own run for
        // raw runs), on the other kinds in this run's slice (test/redteam/suite.ts redteamSlice)
        const graded = kind === (RAW_RUN_ONLY.has(row.id) ? "bwrap" : "bwrap-warm") || inSliceKey(`attempt:${row.id}:${kind}`);
        (graded ? it : it.skip)(`${row.id} [${kind}]: ${row.expected}${row.flags.length ? ` (${row.flags.join(" | ")})` : ""}`, async (ctx) => {
          if (kind === "docker" && !docker) {
            if (RECORD) appendFileSync(RECORD, JSON.stringify({ id: row.id, sandbox: kind, outcome: "skipped", why: dockerWhy }) + "\n");
            ctx.skip(`Docker unavailable: ${dockerWhy}`);
            return;
          }
          const impl = IMPLS[row.id];
          expect(impl, `no implementation for ${row.id}`).toBeTypeOf("function");
          const v = await impl!(sandboxOf(kind), kind);
          const { problems, won } = judge(row, v);
          if (RECORD) appendFileSync(RECORD, JSON.stringify({ id: row.id, sandbox: kind, outcome: v.hang ? "hang" : won ? "won" : "lost", reward: v.reward, flags: v.flags, problems, note: v.note }) + "\n");
          clearLeftovers();
          expect(problems, `${row.id} [${kind}]: ${row.attack}${v.note ? `\n(note: ${v.note})` : ""}`).toEqual([]);
        }, TIMEOUT[cls]);
      }
    }
  });
}

describe("red team: the table", () => {
  it("has at least 25 attempts, unique ids, an implementation for each, every class covered", () => {
    const ids = REDTEAM_ATTEMPTS.map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(25);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !IMPLS[id])).toEqual([]);
    expect(Object.keys(IMPLS).filter((id) => !ids.includes(id))).toEqual([]);
    expect(new Set(REDTEAM_ATTEMPTS.map((r) => r.class))).toEqual(new Set(["privilege", "harness", "tamper", "io", "containment"]));
    expect(REDTEAM_ATTEMPTS.every((r) => r.sandboxes.includes("bwrap") && r.sandboxes.includes("bwrap-warm"))).toBe(true);
  });
  it("issue 26's containment rows (test/redteam/table-containment.ts, run by test/redteam-containment.test.ts) take ids of their own", () => {
    const mine = CONTAINMENT_ATTEMPTS.map((r) => r.id);
    expect(mine.length).toBeGreaterThanOrEqual(40);
    expect(mine.filter((id) => REDTEAM_ATTEMPTS.some((r) => r.id === id))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The defences must not cost the honest path: every bundled golden diff still earns 1.
// ---------------------------------------------------------------------------------------------
describe("red team: golden diffs still earn reward 1 with no flag", () => {
  for (const id of ["inventory-reserve", "inventory-sniff", "inventory-totals"]) {
    for (const kind of ["bwrap", "bwrap-warm", "docker"] as const) {
      it(`${id} [${kind}]`, async (ctx) => {
        if (kind === "docker" && !docker) {
          ctx.skip(`Docker unavailable: ${dockerWhy}`);
          return;
        }
        const t = task(id);
        const v = await gradeHere(t, t.golden_diff, sandboxOf(kind));
        expect({ reward: v.reward, flags: v.flags, leftovers: v.leftovers, error: v.g.error }).toEqual({ reward: 1, flags: [], leftovers: [], error: null });
        expect(v.g.perTest.every((p) => p.outcome === "passed")).toBe(true);
      }, 180_000);
    }
  }
});

describe("red team: composer-lab grade exit status", () => {
  it("exits 0 with ok true for the golden diff, and non-zero when ok is false (a patch that does not apply)", async () => {
    const t = task("inventory-totals");
    const good = await gradeInChild(t.task_id, t.golden_diff, "bwrap");
    expect(good.finished).toBe(true);
    expect(good.out).toMatchObject({ ok: true, reward: 1 });
    expect(good.code).toBe(0);
    const bad = await gradeInChild(t.task_id, "--- a/inventory/report.py\n+++ b/inventory/report.py\n@@ -1,1 +1,1 @@\n-no such line\n+x\n", "bwrap");
    expect(bad.finished).toBe(true);
    expect(bad.out?.ok).toBe(false);
    expect(bad.code, "ok false must give a non-zero exit status").not.toBe(0);
  }, 400_000);
});

void DEFAULT_IMAGE;
