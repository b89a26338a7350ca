// The run elsewhere (lib/sandbox/behave.ts runBehaviour's `shift`; the key probe's second run and the check's run elsewhere):
// every fact a body could salt a key with must read otherwise there than in the plain run, and the
// facts must tell one story inside each run (/proc's kernel release is the one uname(2) gives; the
// CPU count /proc/stat gives is the affinity mask's). Real bwrap, real runs of behave.py.
import { cpus, release } from "node:os";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BwrapSandbox, runBehaviour, type BCall, type BValue } from "../lib/sandbox/index.js";
import { tmp } from "./helpers.js";

const PKG = `
import datetime, os, platform, resource, signal, socket, sys, time


def facts():
    def read(p):
        try:
            with open(p) as fh:
                return fh.read().strip()
        except OSError:
            return "-"
    return [os.uname().release, platform.release(), read("/proc/sys/kernel/osrelease"), len(os.sched_getaffinity(0)), os.cpu_count(),
            socket.gethostname(), os.getuid(), read("/etc/machine-id"), read("/proc/sys/kernel/random/boot_id"),
            [int(f) for f in (sys.flags.isolated, sys.flags.ignore_environment, sys.flags.no_user_site, sys.flags.dont_write_bytecode, sys.flags.safe_path)],
            os.getcwd(), os.environ.get("PATH"), resource.getrlimit(resource.RLIMIT_CPU)[0] == resource.RLIM_INFINITY,
            signal.getitimer(signal.ITIMER_REAL)[0] > 0, os.path.samestat(os.fstat(1), os.fstat(2)), datetime.date.today().year >= 2037,
            sys.pycache_prefix is not None, os.getpid(), runs_fast(), float(read("/proc/uptime").split()[0]) > 4000 * 86400, sleeps(),
            len(os.environ) >= 20 and all(k in os.environ for k in ("TERM", "SHELL", "USER", "LANG")) and time.localtime(0).tm_min == 30]


def runs_fast():
    a = time.monotonic()
    sum(range(100000))
    return time.monotonic() - a > 5  # (the sum takes ≈ 0.5 ms: 50 s at 100,000 times)


def sleeps():
    try:
        time.sleep(0.01)
        return "slept"
    except OSError as e:
        return repr(e)
`;
const NAMES = ["uname release", "platform.release", "/proc osrelease", "affinity CPUs", "os.cpu_count", "host name", "uid", "machine id", "boot id",
  "interpreter flags", "cwd", "PATH", "no CPU rlimit", "a per-call timer armed", "fds 1 and 2 one file", "a date past 2037",
  "a pycache prefix", "pid", "a monotonic clock running fast", "up past 4000 days", "time.sleep", "a login session's environment"] as const;

const plain = (v: BValue): unknown => {
  const x = v as { t: string; v?: unknown };
  if (x.t === "list") return (x.v as BValue[]).map(plain);
  if (x.t === "int") return Number(x.v);
  if (x.t === "bool") return x.v;
  return x.v;
};

describe("the run elsewhere (runBehaviour shift: machine and elsewhere; the behavioural check's ELSEWHERE)", () => {
  it("moves uname(2)'s release, the affinity mask, the CPU count, host, user, machine and boot ids, interpreter flags and pycache prefix, cwd, PATH, CPU rlimit, timer, fds, the date and the pid, each run telling one story", async () => {
    const d = tmp("behave-shift-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), PKG);
    const sb = new BwrapSandbox("bwrap", { warm: false });
    const warmSb = new BwrapSandbox("bwrap", { warm: true });
    const calls: BCall[] = [{ id: "c0", symbol: 0, pos: [], kw: [] }];
    const req = { symbols: [{ module: "pkg.m", qualname: "facts" }], calls, roots: ["."], project: ["pkg"] };
    const facts = async (shift?: { pids: number; days: number; speed: number; machine: boolean; elsewhere: boolean }, path: "cold" | "warm" = "cold") => {
      const r = await runBehaviour(path === "warm" ? warmSb : sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, warm: path === "warm", ...(shift ? { shift } : {}) });
      expect(r.failure, r.run.stderr).toBeNull();
      expect(r.path).toBe(path);
      const o = r.outcomes!.get("c0")![0]!;
      expect(o.k, JSON.stringify(o)).toBe("return");
      return Object.fromEntries((plain((o as { ret: BValue }).ret) as unknown[]).map((v, i) => [NAMES[i], v])) as Record<(typeof NAMES)[number], unknown>;
    };
    const here = await facts();
    const shift = { pids: 37, days: 4000, speed: 100_000, machine: true, elsewhere: true };
    const there = await facts(shift);
    // the run elsewhere forked from the warm grader's elsewhere zygote moves the same facts, and the
    // warm plain run is the cold plain run's machine
    const thereWarm = await facts(shift, "warm");
    const hereWarm = await facts(undefined, "warm");
    // the plain run is this machine
    expect(here["uname release"]).toBe(release());
    expect(here["machine id"]).toBe("-");
    // the graded run as the runner makes it: isolated, in the tree, a timer per call, fds 1 and 2 one file
    expect(here).toMatchObject({ "interpreter flags": [1, 1, 1, 1, 1], cwd: "/work", "no CPU rlimit": false, "a per-call timer armed": true, "fds 1 and 2 one file": true, "a date past 2037": false, "a pycache prefix": true, "a login session's environment": false });
    expect(there).toMatchObject({ "interpreter flags": [0, 0, 0, 0, 0], cwd: "/", "no CPU rlimit": true, "a per-call timer armed": false, "fds 1 and 2 one file": false, "a date past 2037": true, "a pycache prefix": false, "a login session's environment": true });
    for (const run of [here, there, hereWarm, thereWarm]) {
      expect(run["platform.release"]).toBe(run["uname release"]);
      expect(run["/proc osrelease"]).toBe(run["uname release"]);
      expect(run["os.cpu_count"]).toBe(run["affinity CPUs"]);
    }
    const expected = NAMES.filter((n) => cpus().length > 1 || !["affinity CPUs", "os.cpu_count"].includes(n));
    for (const [a, b] of [[here, there], [here, thereWarm], [hereWarm, thereWarm], [hereWarm, there]] as const) {
      const moved = NAMES.filter((n) => JSON.stringify(a[n]) !== JSON.stringify(b[n]));
      expect(moved, JSON.stringify({ a, b })).toEqual(expected.filter((n) => n !== "time.sleep"));
    }
    // time.sleep sleeps in every run (libfaketime's clock_nanosleep made it raise EINVAL where the clock was moved)
    for (const run of [here, there, hereWarm, thereWarm]) expect(run["time.sleep"]).toBe("slept");
    // the cold and warm runs elsewhere are one machine's story (but their own ids and pids)
    const own = ["machine id", "boot id", "pid"];
    expect(Object.fromEntries(NAMES.filter((n) => !own.includes(n)).map((n) => [n, thereWarm[n]]))).toEqual(Object.fromEntries(NAMES.filter((n) => !own.includes(n)).map((n) => [n, there[n]])));
  }, 120_000);
});
