// The red-team containment rows of test/redteam/table.ts as checks against any executor's Sandbox
// face (each returns the breaches it found: [] = contained). Jobs' folders are made under
// `privateTmp` (world-traversable), where the harness-overwrite check also looks for planted files.
// The host-side checks (pgrep, the host's own paths) hold because every node runs on this machine.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { FeatureDeletionEpisode } from "../../lib/env/index.js";
import { gradeMany, type Executor } from "../../lib/executor/index.js";
import { fileDiff, loadTask } from "../../lib/tasks/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";
import { REDTEAM_ATTEMPTS } from "../redteam/table.js";

export function containmentChecks(ex: Executor, privateTmp: string): Record<string, () => Promise<string[]>> {
  const sb = ex.asSandbox();
  const PRIVATE_TMP = privateTmp;
  const scratch = (): string => {
    const d = mkdtempSync(join(PRIVATE_TMP, "wd-"));
    chmodSync(d, 0o755);
    return d;
  };
  const pidsOf = (marker: string): number[] => spawnSync("pgrep", ["-f", marker], { encoding: "utf8" }).stdout.split("\n").filter(Boolean).map(Number).filter((p) => p !== process.pid);
  return {
    "contain-network": async () => {
      const conns: Socket[] = [];
      const server = createServer((s) => {
        conns.push(s);
        s.destroy();
      });
      await new Promise<void>((r) => server.listen(0, "0.0.0.0", () => r()));
      const port = (server.address() as { port: number }).port;
      const hosts = [...new Set(["127.0.0.1", "127.0.0.2", ...Object.values(networkInterfaces()).flat().filter((i) => i?.family === "IPv4").map((i) => i!.address)])];
      try {
        const r = await sb.run(["python3", "-c", `
import socket
for h in ${JSON.stringify(hosts)} + ["1.1.1.1"]:
  try:
      socket.create_connection((h, ${port} if h != "1.1.1.1" else 80), timeout=2); print("CONNECTED", h)
  except OSError as e:
      print("refused", h)
try:
  socket.getaddrinfo("deb.debian.org", 80); print("RESOLVED")
except OSError:
  print("dns failed")
`], { workdir: scratch(), timeoutMs: 60_000 });
        await new Promise((res) => setTimeout(res, 200));
        return [...(conns.length ? [`the host listener got ${conns.length} connection(s)`] : []), ...r.stdout.split("\n").filter((l) => /CONNECTED|RESOLVED/.test(l))];
      } finally {
        server.close();
      }
    },
    "contain-env-secrets": async () => {
      const secret = `rt-env-${randomBytes(8).toString("hex")}`;
      process.env.EXECUTOR_HOST_SECRET = secret;
      try {
        const r = await sb.run(["python3", "-c", "import glob, os\nprint(dict(os.environ))\nfor p in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):\n    try: print(p, open(p, 'rb').read())\n    except OSError: pass\n"], { workdir: scratch(), timeoutMs: 30_000 });
        return (r.stdout + r.stderr).includes(secret) ? ["a host environment secret is visible inside"] : [];
      } finally {
        delete process.env.EXECUTOR_HOST_SECRET;
      }
    },
    "contain-fork-bomb": async () => {
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
except OSError:
  print("fork refused after", n)
`], { workdir: scratch(), pids: 64, timeoutMs: 10_000 });
      await new Promise((res) => setTimeout(res, 500));
      const out: string[] = [];
      if (performance.now() - t0 > 60_000) out.push("the run took more than 60 s");
      if (pidsOf(`${marker}.5`).length) out.push("forked processes survived the run");
      if (!/fork refused after \d+/.test(r.stdout) && !r.timedOut) out.push(`no fork was refused under pids 64: ${r.stdout}`);
      return out;
    },
    "contain-memory-hog": async () => {
      const r = await sb.run(["python3", "-c", "x = bytearray(3 * 1024**3); print('ALLOCATED')"], { workdir: scratch(), memoryMb: 256, timeoutMs: 60_000 });
      return [...(r.stdout.includes("ALLOCATED") || r.exitCode === 0 ? ["3 GB allocated under memoryMb 256"] : []), ...(r.oomKilled || r.signal === "SIGKILL" || /MemoryError/.test(r.stderr) ? [] : [`neither killed nor refused: exit ${r.exitCode}`])];
    },
    "contain-cpu-hog": async () => {
      const t0 = performance.now();
      const r = await sb.run(["python3", "-c", "while True: pass"], { workdir: scratch(), timeoutMs: 1500 });
      // host-side time includes creating and removing the service on a loaded machine
      return [...(r.timedOut ? [] : ["the CPU hog was not stopped at the timeout"]), ...(performance.now() - t0 > 60_000 ? ["the CPU hog's job took over 60 s"] : [])];
    },
    "contain-daemon": async () => {
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
`], { workdir: scratch(), timeoutMs: 20_000 });
      await new Promise((res) => setTimeout(res, 700));
      const alive = pidsOf(`${marker}.25`);
      for (const pid of alive) process.kill(pid, "SIGKILL");
      return [...(r.stdout.includes("daemonized") ? [] : [`the attempt did not run: ${r.stderr}`]), ...(alive.length ? [`a daemon survived the run (pids ${alive.join(",")})`] : [])];
    },
    "contain-write-outside": async () => {
      const tag = `rt-${randomBytes(4).toString("hex")}`;
      const targets = [`/usr/${tag}`, `/etc/${tag}`, `/${tag}`, `/opt/${tag}`, `/work/../${tag}`, `/proc/1/root/${tag}`, "/proc/sys/kernel/hostname", `/sys/${tag}`, `/var/${tag}`, `/root/${tag}`];
      const r = await sb.run(["python3", "-c", `
for p in ${JSON.stringify(targets)}:
  try:
      open(p, "w").write("x"); print("WROTE", p)
  except OSError as e:
      print("denied", p, e.errno)
`], { workdir: scratch(), timeoutMs: 20_000 });
      const out = r.stdout.split("\n").filter((l) => l.startsWith("WROTE"));
      for (const p of [`/usr/${tag}`, `/etc/${tag}`, `/${tag}`, `/opt/${tag}`, `/var/${tag}`, `/root/${tag}`]) if (existsSync(p)) out.push(`${p} appeared on the host`);
      return r.stdout.includes("denied") ? out : [...out, `the attempt did not run: ${r.stderr}`];
    },
    "contain-harness-overwrite": async () => {
      const MARK = "red-team: harness overwritten";
      const t = loadTask(join(ROOT, "datasets", "tasks"), "inventory-reserve");
      const stock = readFileSync(join(FeatureDeletionEpisode.snapshotDir(t), "inventory/stock.py"), "utf8");
      const payload = readFileSync(join(ROOT, "test", "redteam", "payloads", "overwrite_harness.py"), "utf8");
      const [g] = await gradeMany([{ task: t, completion: fileDiff("inventory/stock.py", stock, `${stock}\n\n${payload}\n`) }], ex);
      // Files may vanish while we look (slurmd's and dockerd's own temp files live under PRIVATE_TMP): skip those.
      const gone = <T>(f: () => T, none: T): T => {
        try {
          return f();
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOENT") return none;
          throw e;
        }
      };
      const walk = (d: string): string[] => gone(() => readdirSync(d, { withFileTypes: true }), []).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.isFile() ? [join(d, e.name)] : []));
      const planted = [join(ROOT, "lib", "sandbox"), PRIVATE_TMP].flatMap((d) => walk(d)).filter((f) => f.endsWith("composer_lab_rt_planted.py") || gone(() => statSync(f).size < 4_000_000 && readFileSync(f, "utf8").includes(MARK), false));
      return [...(g!.reward !== 0 ? [`reward ${g!.reward}`] : []), ...(planted.length ? [`harness files written on the host: ${planted.join(", ")}`] : [])];
    },
  };
}

/** Every containment row of the red-team table as a test through an executor (`executor()` and
 *  `skipWhy()` are read once the suite's beforeAll has run). */
export function describeContainmentRows(name: string, executor: () => Executor, privateTmp: string, skipWhy: () => string | null): void {
  describe(`red-team containment rows (test/redteam/table.ts) through the ${name} executor`, () => {
    const rows = REDTEAM_ATTEMPTS.filter((r) => r.class === "containment");
    let checks: ReturnType<typeof containmentChecks> = {};
    beforeAll(() => {
      if (!skipWhy()) checks = containmentChecks(executor(), privateTmp);
    });
    it(`has a ${name} check for every containment row of the table`, (ctx) => {
      if (skipWhy()) return ctx.skip(skipWhy()!);
      expect(rows.map((r) => r.id).filter((id) => !checks[id])).toEqual([]);
    });
    for (const row of rows) {
      it(`${row.id}: contained`, async (ctx) => {
        if (skipWhy()) return ctx.skip(skipWhy()!);
        expect(await checks[row.id]!(), row.attack).toEqual([]);
      }, 300_000);
    }
  });
}
