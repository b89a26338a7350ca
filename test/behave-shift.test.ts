// The run elsewhere (lib/sandbox/behave.ts runBehaviour's `shift`; the key probe's second run and the check's run elsewhere):
// every fact a body could salt a key with must read otherwise there than in the plain run, and the
// facts must tell one story inside each run (/proc's kernel release is the one uname(2) gives; the
// CPU count /proc/stat gives is the affinity mask's). Real bwrap, real runs of behave.py.
import { cpus, release } from "node:os";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { BwrapSandbox, CALLING, SETUPS, WINDOWS, timeNamespaces, DockerSandbox, homeContexts, homeVariants, homeTogether, homePlan, partnerId, PARTNER, homeEntry, ELSEWHERE_ZONES, GvisorSandbox, ensureDockerd, HOME_ZONES, drawClocks, drawHome, runBehaviour, type BCall, type BValue, type Home, type Sandbox } from "../lib/sandbox/index.js";
import { execFileSync } from "node:child_process";
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
        return "slept " + type(time.sleep).__name__
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

/** Runs facts() at each home in `sandbox` and checks what it saw (the run at home's contract). */
async function checkHomes(sandbox: Sandbox, homes: Home[]): Promise<void> {
  const d = tmp("behave-home-");
  mkdirSync(join(d, "pkg"));
  writeFileSync(join(d, "pkg", "__init__.py"), "");
  writeFileSync(join(d, "pkg", "m.py"), `import getpass, os, pwd, resource, signal, socket, sys, time
AT_IMPORT = [time.time(), time.localtime().tm_gmtoff]


def facts():
    environ = open("/proc/self/environ", "rb").read()
    return [time.time(), time.localtime().tm_gmtoff, list(time.tzname), AT_IMPORT, "TZ" in os.environ, b"TZ=" in environ,
            b"FAKETIME" in environ or b"faketime" in environ, "faketime" in open("/proc/self/maps").read(),
            getpass.getuser(), pwd.getpwuid(os.getuid()).pw_name, os.getuid(), socket.gethostname(), __file__,
            "sandbox" in open("/etc/passwd").read() + open("/etc/group").read(), open("/etc/machine-id").read().strip(),
            sys.flags.isolated, os.getcwd(), os.uname().release, [list(kv) for kv in sorted(os.environ.items())], sys.excepthook is sys.__excepthook__,
            sys.stdout is not sys.stderr, signal.getsignal(signal.SIGALRM) == signal.SIG_DFL, resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            any(os.path.exists(os.path.join(p, "behave.py")) for p in sys.path if p), _writes_home()]


def _writes_home():
    # (a cache under the home folder, as honest code may keep one: the graded run's HOME is writable too)
    p = os.path.join(os.path.expanduser("~"), ".cache", "pkg")
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, "x"), "w") as fh:
        fh.write("1")
    return open(os.path.join(p, "x")).read() == "1"
`);
  const calls: BCall[] = Array.from({ length: 3 }, (_, i) => ({ id: `c${i}`, symbol: 0, pos: [], kw: [] }));
  const req = { symbols: [{ module: "pkg.m", qualname: "facts" }], calls, roots: ["."], project: ["pkg"] };
  // (gVisor's Sentry names its own kernel release)
  const kernelWant = sandbox.name === "gvisor" ? (await sandbox.run(["uname", "-r"], { workdir: d })).stdout.trim() : release();
  for (const home of homes) {
    const t0 = Date.now() / 1000;
    const r = await runBehaviour(sandbox, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 37, days: 0, elsewhere: true, home } });
    expect(r.failure, r.run.stderr).toBeNull();
    // what the zone's offset is now, by the host's Python reading tzdata (not by the lab's code)
    const want = JSON.parse(execFileSync("python3", ["-c", `import json, time, zoneinfo, datetime; z = zoneinfo.ZoneInfo(${JSON.stringify(home.zone)}); n = datetime.datetime.now(z); print(json.dumps([int(n.utcoffset().total_seconds()), n.tzname()]))`], { encoding: "utf8" })) as [number, string];
    for (const c of calls) {
      expect(r.outcomes!.get(c.id)![0]!.k, JSON.stringify(r.outcomes!.get(c.id))).toBe("return");
      const [t, off, tzname, atImport, tzInEnviron, tzInProc, ftInProc, ftMapped, user, pwName, uid, host, file, sandboxNames, machineId, isolated, cwd, kernel, environ, excepthook, streamsApart, noAlarm, nofile, runnerOnPath, writesHome] = plain((r.outcomes!.get(c.id)![0] as { ret: BValue }).ret) as [number, number, string[], [number, number], boolean, boolean, boolean, boolean, string, string, number, string, string, boolean, string, number, string, string, [string, string][], boolean, boolean, boolean, number, boolean, boolean];
      // the real clock, at import too, in the drawn zone
      expect(Math.abs(t - t0)).toBeLessThan(60);
      expect(Math.abs(atImport[0] - t0)).toBeLessThan(60);
      expect([off, atImport[1]]).toEqual([want[0], want[0]]);
      expect(tzname).toContain(want[1]);
      // nothing of the run elsewhere's clock machinery, nor a TZ rule, anywhere the body can read;
      // TZ only where the draw names the zone there
      expect([tzInProc, ftInProc, ftMapped]).toEqual(["TZ" in home.env, false, false]);
      if (home.env.TZ) expect(home.env.TZ.replace(/^:/, "")).toBe(home.zone);
      // (a login's uid 1000, root's 0, a service account's its system id: www-data's 33, another's 999)
      const uidWant = home.user === "root" ? 0 : home.home.startsWith("/home/") ? 1000 : home.user === "www-data" ? 33 : 999;
      expect([user, pwName, uid, host]).toEqual([home.user, home.user, uidWant, home.hostname]);
      expect(file).toBe(`${home.tree}/pkg/m.py`);
      expect(sandboxNames).toBe(false);
      expect(machineId).toBe(home.machineId);
      // the run elsewhere's habits (no -I), but the host's own kernel, and a working directory a
      // user would have (the project or the home folder), PWD saying so
      expect([isolated, kernel]).toEqual([0, kernelWant]);
      expect(cwd).toBe(home.cwd);
      expect([home.tree, home.home]).toContain(cwd);
      expect(home.env.HOME ?? (home.user === "root" ? "/root" : undefined)).toBe(home.home);
      // the environment is the drawn one exactly (no sandbox's base variables), nothing of the runner's,
      // PWD only where the draw has one (a process a container's exec-form command or a service
      // manager starts has none), and where no locale is set the one Python's C locale coercion
      // (PEP 538) sets in any process, a deployment's too
      const env = Object.fromEntries(environ as unknown as [string, string][]);
      const coerced = !home.env.LANG && !home.env.LC_ALL && !home.env.LC_CTYPE ? { LC_CTYPE: "C.UTF-8" } : {};
      // (and the environment set-ups' changes, where one was dealt this call or before)
      const dealt = homeContexts(calls, home);
      // (each its own window: from its set-up to the call before its end's)
      const inWindow = (on: number, off: number) => { const [i, k] = [dealt.indexOf(on), dealt.indexOf(off)]; return i >= 0 && i <= calls.indexOf(c) && (k < 0 || calls.indexOf(c) < k); };
      const [env1, env2] = [inWindow(CALLING.environ, CALLING.environOff), inWindow(CALLING.environ2, CALLING.environ2Off)];
      const changed = { ...(env1 ? home.setup.environ[0] : {}), ...(env2 ? home.setup.environ[1] : {}) };
      expect(env).toEqual({ ...home.env, ...coerced, ...changed });
      expect(tzInEnviron).toBe("TZ" in env);
      expect(Object.keys(env)).not.toContain("PYTHONDONTWRITEBYTECODE");
      // (the default excepthook until an error tracker's set-up, if one is dealt this call or before)
      expect([excepthook, streamsApart, noAlarm, nofile, runnerOnPath, writesHome]).toEqual([!inWindow(CALLING.tracker, CALLING.trackerOff), true, true, home.nofile, false, true]);
    }
  }
}

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
    // time.sleep sleeps in every run (libfaketime's clock_nanosleep made it raise EINVAL where the
    // clock was moved), and is the interpreter's own there too (the sleep shim preloaded before
    // libfaketime: a Python stand-in told the run elsewhere apart, round 38's w01)
    for (const run of [here, there, hereWarm, thereWarm]) expect(run["time.sleep"]).toBe("slept builtin_function_or_method");
    // the cold and warm runs elsewhere are one machine's story (but their own ids and pids)
    const own = ["machine id", "boot id", "pid"];
    expect(Object.fromEntries(NAMES.filter((n) => !own.includes(n)).map((n) => [n, thereWarm[n]]))).toEqual(Object.fromEntries(NAMES.filter((n) => !own.includes(n)).map((n) => [n, there[n]])));
  }, 120_000);

  it("runs each block of calls under its own clock and zone (RunShift.clocks), cold and forked from the warm zygote, FAKETIME and TZ out of os.environ's sight", async () => {
    const d = tmp("behave-clocks-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), `import os, time\nAT_IMPORT = [int(time.time()), time.localtime().tm_gmtoff]\n\ndef now():\n    return [int(time.time()), time.localtime().tm_gmtoff, os.environ.get("TZ"), "FAKETIME" in os.environ, AT_IMPORT]\n`);
    const calls: BCall[] = Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, symbol: 0, pos: [], kw: [] }));
    const req = { symbols: [{ module: "pkg.m", qualname: "now" }], calls, roots: ["."], project: ["pkg"] };
    const clocks = [{ seconds: 4000 * 86_400 + 3 * 3_600, tz: "JST-9" }, { seconds: 7_200, tz: "<-03>3" }, { seconds: 30 * 86_400, tz: "CET-1CEST,M3.5.0,M10.5.0/3" }];
    const offsets = [9 * 3_600, -3 * 3_600, 3_600];
    for (const warm of [false, true]) {
      const sb = new BwrapSandbox("bwrap", { warm });
      const t0 = Math.floor(Date.now() / 1000);
      const r = await runBehaviour(sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, warm, shift: { pids: 37, days: 4000, machine: true, elsewhere: true, clocks } });
      expect(r.failure, r.run.stderr).toBeNull();
      expect(r.path).toBe(warm ? "warm" : "cold");
      const seen = calls.map((c) => plain((r.outcomes!.get(c.id)![0] as { ret: BValue }).ret) as [number, number, string, boolean, [number, number]]);
      seen.forEach(([t, off, tz, hasFaketime], i) => {
        const b = Math.floor(i / 2);
        expect(Math.abs(t - t0 - clocks[b]!.seconds), `call ${i}, warm ${warm}`).toBeLessThan(120);
        // the zone through time, not os.environ: a POSIX rule there told the run elsewhere (round 14's a06 a09)
        expect([off, tz ?? null, hasFaketime]).toEqual([offsets[b], null, false]);
      });
      // the package was imported under the first clock
      expect(Math.abs(seen[0]![4][0] - t0 - clocks[0]!.seconds)).toBeLessThan(120);
      expect(seen[0]![4][1]).toBe(offsets[0]);
    }
  }, 120_000);

  it("runs at home (RunShift.home) on a drawn deployment's machine at the real clock: its zone from /etc/localtime with no TZ anywhere, no libfaketime, its own user, accounts, host name and paths, nothing of the sandbox's names", async () => {
    await checkHomes(new BwrapSandbox("bwrap", { warm: false }), [0, 1, 2, 3].map(() => drawHome(randomBytes(32))));
    // the draws: from tzdata's zones only, never one whose offset is 0, the same seed the same home
    for (const z of HOME_ZONES) expect(z).toMatch(/^[A-Z][A-Za-z_]+\/[A-Za-z_\/]+$/);
    const seed = randomBytes(32);
    expect(drawHome(seed)).toEqual(drawHome(seed));
    const draws = Array.from({ length: 400 }, () => drawHome(randomBytes(32)));
    expect(new Set(draws.map((h) => h.zone)).size).toBeGreaterThan(40);
    // no variable but PATH and HOME is in every draw, nor absent from every draw (LANG in three
    // draws of four, PWD in seven of ten: round 21's a01b a02); no set of names repeats often
    const names = new Set(draws.flatMap((h) => Object.keys(h.env)));
    for (const k of names) {
      const share = draws.filter((h) => k in h.env).length / draws.length;
      // (HOME too where no draw is root: only root's may lack it)
      if (k === "PATH" || k === "HOME") expect(share, k).toBe(1);
      else expect(share, k).toBeLessThan(0.95);
    }
    for (const k of ["LANG", "PWD"]) expect(draws.filter((h) => k in h.env).length / draws.length, k).toBeGreaterThan(0.5);
    // what deployments have and a login session does not, each in some draws: a service account's
    // home, a stale PWD, TZ naming the zone, a preloaded allocator, a proxy, a PATH without
    // local/bin (round 22's a24b a23b a25 a26 a28 a27)
    const some = (p: (h: Home) => boolean) => draws.filter(p).length / draws.length;
    expect(some((h) => /^\/(var|srv|run|app|opt)\//.test(h.env.HOME ?? ""))).toBeGreaterThan(0.1);
    const rooted = Array.from({ length: 400 }, () => drawHome(randomBytes(32), { root: true })).filter((h) => h.user === "root");
    expect(rooted.filter((h) => h.env.HOME === undefined).length / rooted.length).toBeGreaterThan(0.1);
    expect(some((h) => h.env.PWD !== undefined && h.env.PWD !== h.cwd)).toBeGreaterThan(0.1);
    expect(some((h) => h.env.TZ !== undefined)).toBeGreaterThan(0.15);
    expect(some((h) => /malloc/.test(h.env.LD_PRELOAD ?? ""))).toBeGreaterThan(0.1);
    expect(some((h) => Object.keys(h.env).some((k) => /^https?_proxy$/i.test(k)))).toBeGreaterThan(0.1);
    expect(some((h) => !h.env.PATH!.split(":").some((d) => d.endsWith("local/bin")))).toBeGreaterThan(0.1);
    const sets = new Map<string, number>();
    for (const h of draws) sets.set(Object.keys(h.env).sort().join(" "), (sets.get(Object.keys(h.env).sort().join(" ")) ?? 0) + 1);
    expect(Math.max(...sets.values())).toBeLessThan(10);
  }, 120_000);

  it("runs at home on gVisor too: the drawn user, host name, machine id, zone, home folder and working directory are the run's there as on bwrap", async (ctx) => {
    const g = await new GvisorSandbox().check();
    if (!g.ok) return ctx.skip(`gVisor unavailable: ${g.why}`);
    await checkHomes(new GvisorSandbox(), [0, 1].map(() => drawHome(randomBytes(32))));
  }, 120_000);

  it("at home the package finds no module the runner added and a script's stack under its import and calls, and decimal's and datetime's values go in and out as in the graded run", async () => {
    const d = tmp("behave-home-mods-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), `import sys
ADDED = sorted(m for m in ("_decimal", "_json", "_datetime", "numbers", "collections.abc") if m in sys.modules)


def added():
    return ADDED


def _room():
    n = [0]

    def r():
        n[0] += 1
        r()

    try:
        r()
    except RecursionError:
        pass
    return n[0]


AT_IMPORT = _room()


def room():
    return [AT_IMPORT, _room()]


def caller():
    # the caller's file and line (a warning's record), and this function's references during the call
    import warnings
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        warnings.warn("where", RuntimeWarning, stacklevel=2)
    return [seen[0].filename, seen[0].lineno, sys.getrefcount(caller)]


def shift(d, t):
    import datetime, decimal, numbers
    return [d + decimal.Decimal("0.1"), t + datetime.timedelta(days=1), datetime.time(1, 2, 3), isinstance(d, numbers.Number), type(d).__module__]
`);
    writeFileSync(join(d, "script.py"), "import json\nimport pkg.m\nfrom pkg.m import caller\nprint(json.dumps([pkg.m.room(), caller()[2]]))\n");
    const calls: BCall[] = [
      { id: "added", symbol: 0, pos: [], kw: [] },
      { id: "shift", symbol: 1, pos: [{ t: "std", cls: "decimal.Decimal", v: "1.5" }, { t: "std", cls: "datetime.date", v: "2020-02-28" }] as BValue[], kw: [] },
      { id: "room", symbol: 2, pos: [], kw: [] },
      ...[0, 1, 2, 3].map((i) => ({ id: `caller${i}`, symbol: 3, pos: [], kw: [] })),
    ];
    const req = { symbols: ["added", "shift", "room", "caller"].map((qualname) => ({ module: "pkg.m", qualname })), calls, roots: ["."], project: ["pkg"] };
    const sb = new BwrapSandbox("bwrap", { warm: false });
    const graded = await runBehaviour(new BwrapSandbox("bwrap", { warm: true }), d, req, { call_timeout_ms: 10_000 }, { pyenv: null });
    // (every call from the entry's top level here: the other contexts are the next test's)
    const drawn = { ...drawHome(randomBytes(32)), calling: [], setups: [] };
    const home = await runBehaviour(sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 37, days: 0, elsewhere: true, home: drawn } });
    for (const r of [graded, home]) expect(r.failure, r.run.stderr).toBeNull();
    // (the plain interpreter's own modules, by the host's python3 with the sandbox's flags: none of these)
    expect(plain((home.outcomes!.get("added")![0] as { ret: BValue }).ret)).toEqual([]);
    const want = [{ t: "std", cls: "decimal.Decimal", v: "1.6" }, { t: "std", cls: "datetime.date", v: "2020-02-29" }, { t: "std", cls: "datetime.time", v: "01:02:03" }, { t: "bool", v: true }, { t: "str", v: "decimal" }];
    for (const r of [graded, home]) expect((r.outcomes!.get("shift")![0] as { k: string; ret: BValue }).ret).toMatchObject({ t: "list", v: want });
    // the recursion room at the package's import and in a call: a script's (the same interpreter,
    // in the same sandbox), where the graded run's stack is deeper
    const script = await sb.run(["python3", "script.py"], { workdir: d });
    expect(script.exitCode, script.stderr).toBe(0);
    const [scriptRoom, scriptRefs] = JSON.parse(script.stdout) as [number[], number];
    // (at the import too: the run at home's entry imports with a literal statement, as the script
    // does; round 15's v03 found one level less when the runner imported with __import__)
    expect(plain((home.outcomes!.get("room")![0] as { ret: BValue }).ret)).toEqual(scriptRoom);
    expect(plain((graded.outcomes!.get("room")![0] as { ret: BValue }).ret)).not.toEqual(scriptRoom);
    // the caller: a script of the drawn name at a line past its drawn docstring, holding the function
    // as a script that imported it by name does (round 16's a05 a15 a20 a21, a08 a10)
    // (four calls, one from each copy of the call line, each past its drawn gap)
    const seen = [0, 1, 2, 3].map((i) => plain((home.outcomes!.get(`caller${i}`)![0] as { ret: BValue }).ret) as [string, number, number]);
    for (const [file, , refs] of seen) {
      expect(file).toBe(`${drawn.harness}/${drawn.entry}`);
      expect(refs).toBe(scriptRefs);
    }
    // (four lines, as many as the script has copies of the call line, none behave.py's)
    expect(new Set(seen.map(([, line]) => line)).size).toBe(4);
    const [gradedFile, , gradedRefs] = plain((graded.outcomes!.get("caller0")![0] as { ret: BValue }).ret) as [string, number, number];
    expect(gradedFile.endsWith("/behave.py")).toBe(true);
    expect(gradedRefs).toBeGreaterThan(scriptRefs);
  }, 120_000);

  it("at home the calls come from the script's top level and from its functions: one or two calls deep, 30–60 or 60–200 frames down, in a worker thread and an event loop that serve call after call, while it handles an exception raised some frames down, typed at a prompt, and before and after each set-up: logging, warnings ignored, a raised recursion limit, an interactive session's prompts, a fork; a thread pool, tasks side by side, a loop in debug mode, chained exceptions, quiet logging, warnings always shown, a second fork (rounds 18–20)", async () => {
    const d = tmp("behave-home-ctx-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), `import contextvars, logging, os, sys, threading, warnings


def where(x):
    import asyncio
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    f, depth = sys._getframe(1), 0
    while f is not None:
        depth, f = depth + 1, f.f_back
    caller = sys._getframe(1)
    exc = sys.exc_info()
    tb, n = exc[2], 0
    while tb is not None:
        n, tb = n + 1, tb.tb_next
    root = logging.getLogger()
    ignored = bool(warnings.filters) and warnings.filters[0][0] == "ignore" and warnings.filters[0][1] is None and warnings.filters[0][2] is Warning
    filters = warnings.filters[0][0] if warnings.filters else ""
    # (what the entry's own garbage would warn of, when collected: none; in the main thread alone,
    # catch_warnings being no thread's own: overlapping calls' would leave a filter behind)
    import gc
    leaked = []
    if threading.current_thread() is threading.main_thread():
        with warnings.catch_warnings(record=True) as leaked:
            warnings.simplefilter("always")
            gc.collect()
    return [threading.current_thread() is threading.main_thread(), loop is not None, exc[0] is not None, depth, len(root.handlers) > 0, caller.f_code.co_filename, caller.f_lineno,
            threading.get_ident(), id(loop) if loop is not None else 0, n, ignored, sys.getrecursionlimit(), hasattr(sys, "ps1"), os.getpid(),
            ",".join(type(h).__name__ for h in root.handlers), logging.getLevelName(root.level), exc[0].__name__ if exc[0] else "",
            loop.get_debug() if loop is not None else None, len(asyncio.all_tasks()) if loop is not None else 0,
            type(exc[1].__cause__).__name__ if exc[1] is not None and exc[1].__cause__ is not None else "",
            type(exc[1].__context__).__name__ if exc[1] is not None and exc[1].__context__ is not None else "",
            filters, logging.raiseExceptions, threading.active_count(), len(_vars()) > 0,
            [str(w.message)[:60] for w in leaked if issubclass(w.category, ResourceWarning)],
            _umask(), os.nice(0), _decimal(), [_LOG.disabled, logging.root.manager.disable], logging.Logger.callHandlers.__module__, len(_vars()),
            [os.environ.get(k) for k in ENVIRON]]


ENVIRON = ("TZ", "PATH", "PWD", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "LD_PRELOAD", "MALLOC_ARENA_MAX")


_LOG = logging.getLogger(__name__)


def _umask():
    m = os.umask(0o022)
    os.umask(m)
    return m


def _decimal():
    import decimal
    c = decimal.getcontext()
    return [c.rounding, c.prec]


def _vars():
    # (the context's variables but decimal's own, which holds the thread's decimal context once read)
    return [v for v in contextvars.copy_context() if v.name != "decimal_context"]
`);
    type Seen = [boolean, boolean, boolean, number, boolean, string, number, number, number, number, boolean, number, boolean, number, string, string, string, boolean | null, number, string, string, string, boolean, number, boolean, string[], number, number, [string, number], [boolean, number], string, number, (string | null)[]];
    const calls: BCall[] = Array.from({ length: 98 }, (_, i) => ({ id: `c${i}`, symbol: 0, pos: [{ t: "int", v: String(i) }] as BValue[], kw: [] }));
    const req = { symbols: [{ module: "pkg.m", qualname: "where" }], calls, roots: ["."], project: ["pkg"] };
    const drawn = drawHome(randomBytes(32));
    expect([...drawn.calling].sort()).toEqual(Object.values(CALLING).filter((c) => !(SETUPS as readonly number[]).includes(c)).sort());
    const dealt = homeContexts(calls, drawn);
    const home = await runBehaviour(new BwrapSandbox("bwrap", { warm: false }), d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 0, days: 0, elsewhere: true, home: drawn } });
    expect(home.failure, home.run.stderr).toBeNull();
    const seen = calls.map((c) => plain((home.outcomes!.get(c.id)![0] as { ret: BValue }).ret) as Seen);
    const at = (code: number) => seen.filter((_, i) => dealt[i] === code);
    const count = (p: (w: Seen) => boolean) => seen.filter(p).length;
    // each context on nine or ten calls of the ninety-eight (ten contexts dealt over and over), but
    // the nine that set something up
    expect(count(([main, loop, handling, depth, , file]) => main && !loop && !handling && depth === 1 && file !== "<stdin>")).toBe(at(CALLING.top).length); // the top level
    expect(count(([main, loop, handling, depth, , file, line]) => main && !loop && !handling && depth === 2 && file === "<stdin>" && line === 1)).toBe(at(CALLING.interactive).length); // typed at a prompt
    expect(count(([main, loop, handling, depth, , file]) => main && !loop && !handling && depth === 2 && file !== "<stdin>")).toBe(at(CALLING.nested).length + SETUPS.length); // one call deep (the set-ups' calls too)
    expect(count(([main, loop, handling, depth]) => main && !loop && !handling && depth === 3)).toBe(at(CALLING.nested2).length); // two
    for (const c of drawn.calling) expect(at(c).length).toBeGreaterThanOrEqual(1);
    // 30–60 and 60–200 frames down, at the drawn depths
    for (const [code, drawnDepths, least] of [[CALLING.deep, drawn.setup.depths.slice(0, 2), 30], [CALLING.deeper, drawn.setup.depths.slice(2), 60]] as const) {
      const deep = at(code);
      for (const [main, loop, handling, depth] of deep) expect([main, loop, handling, drawnDepths.map((n) => n + 3).includes(depth)]).toEqual([true, false, false, true]);
      expect(Math.min(...deep.map(([, , , depth]) => depth))).toBeGreaterThanOrEqual(least + 3);
    }
    // one worker thread serves the calls from a thread, one event loop those in a loop (a fresh one after the fork)
    const perProcess = (xs: Seen[], key: (w: Seen) => number) => new Map(xs.map((w) => [w[13], new Set(xs.filter((v) => v[13] === w[13]).map(key))]));
    const threaded = at(CALLING.thread);
    expect(threaded.every(([main]) => !main)).toBe(true);
    expect([...perProcess(threaded, (w) => w[7]).values()].every((ids) => ids.size === 1)).toBe(true);
    const looped = at(CALLING.loop);
    expect(looped.every(([, loop]) => loop)).toBe(true);
    expect([...perProcess(looped, (w) => w[8]).values()].every((ids) => ids.size === 1)).toBe(true);
    // (alone and beside another task by turns, a busy server's at most 31 in debug mode; in debug
    // mode from its set-up on)
    expect(looped.every((w) => [1, 2, 4, 8, ...drawn.setup.tasks.map((n) => (w[17] ? Math.min(n, 31) : n) + 1)].includes(w[18]))).toBe(true);
    const debugFrom = dealt.indexOf(CALLING.loopDebug);
    expect(seen.flatMap((w, j) => (w[1] ? [w[17] === j > debugFrom] : []))).not.toContain(false);
    // a pool of the drawn number of threads, none the main one
    const pooled = at(CALLING.pool);
    expect(pooled.every(([main]) => !main)).toBe(true);
    expect([...perProcess(pooled, (w) => w[7]).values()].every((ids) => ids.size <= drawn.setup.workers)).toBe(true);
    expect(pooled.every((w) => w[23] >= drawn.setup.workers)).toBe(true);
    // (a request's context variable from its set-up on, in the main thread)
    const ctxFrom = dealt.indexOf(CALLING.context);
    expect(seen.flatMap((w, j) => (w[0] && !w[1] ? [w[24] === (j >= ctxFrom)] : []))).not.toContain(false);
    // handling the drawn error, raised the drawn number of frames down
    const handled = at(CALLING.handling);
    for (const w of handled) expect([w[2], [drawn.setup.error, ...drawn.setup.errors, drawn.setup.base.split(".").pop(), "ExceptionGroup"].includes(w[16]), drawn.setup.raises.map((n) => n + 2).includes(w[9])]).toEqual([true, true, true]);
    // (the request's context: its variable, its own and the drawn others, two or more: round 22's a12)
    // (a request served plainly: one whose error handler handles an exception has its thread's)
    for (const w of seen.filter((w, j) => j >= ctxFrom && (!w[0] || w[1]) && !w[2] && dealt[j] !== CALLING.burst)) expect(w[31]).toBe(2 + drawn.setup.vars);
    // (calls that overlap: the drawn number of threads at once, the main one among them; this
    // function's answer names its thread, so each call's is another thread's than the main one's,
    // the first unlike it: round 23's a52)
    const burst = at(CALLING.burst);
    expect(burst.length).toBeGreaterThanOrEqual(1);
    expect(burst.map((w) => [w[0], w[23] >= 2])).toEqual(burst.map(() => [false, true]));
    for (const w of seen.filter((w, j) => j >= ctxFrom && w[0] && !w[1])) expect(w[31]).toBe(1 + drawn.setup.vars);
    // (raised alone, from another, while another was handled, or while one raised from another
    // was: round 23's a13)
    for (const w of handled) expect(["|", "LookupError|", "|LookupError", "|KeyError"]).toContain(`${w[19]}|${w[20]}`);
    // each set-up at one call of the run: the calls before it meet the process without it, its own
    // and those after with it; those that cannot be undone in the middle two fifths, the windows
    // (WINDOWS) starting in the first part and ending in the last, crossing
    const before = (code: number) => { const i = dealt.indexOf(code); expect(i).toBeGreaterThanOrEqual(Math.floor((WINDOWS.some(([on, off]) => on === code || off === code) ? 0.05 : 0.3) * 98)); expect(i).toBeLessThan(98); return (j: number) => j < i; };
    const within = (code: number) => { const [on, off] = WINDOWS.find(([on]) => on === code)!; const [a, b] = [before(on), before(off)]; return (j: number) => !a(j) && b(j); };
    const starts = WINDOWS.filter(([on]) => on !== CALLING.environ3).map(([on, off]) => [dealt.indexOf(on), dealt.indexOf(off)] as const).sort((x, y) => x[0] - y[0]);
    expect(starts.map(([, end]) => end)).toEqual(starts.map(([, end]) => end).sort((x, y) => x - y));
    expect(Math.max(...starts.map(([s]) => s))).toBeLessThan(Math.min(...SETUPS.filter((c) => !WINDOWS.flat().includes(c as never)).map((c) => dealt.indexOf(c))));
    // (logging in two steps: a handler of the drawn kind and level, later one of the other kind, the
    // level raised and logging's own errors not raised)
    const logged = before(CALLING.logging);
    const logged2 = before(CALLING.logging2);
    const kinds = drawn.setup.log.file ? ["FileHandler", "StreamHandler"] : ["StreamHandler", "FileHandler"];
    expect(seen.map((w) => [w[14], w[15], w[22]])).toEqual(seen.map((_, j) => (logged(j) ? ["", "WARNING", true] : logged2(j) ? [kinds[0], drawn.setup.log.level, true] : [kinds.join(","), drawn.setup.log.quiet, false])));
    // (warnings ignored, then always shown, then errors; not where calls overlap: this function's
    // own catch_warnings changes the process's filters while another thread reads them)
    const warned = before(CALLING.warnings);
    const warned2 = before(CALLING.warnings2);
    const warned3 = before(CALLING.warnings3);
    const alone = (_: unknown, j: number) => dealt[j] !== CALLING.burst;
    expect(seen.filter(alone).map((w) => [w[10], w[21]])).toEqual(seen.map((_, j) => (warned(j) ? [false, "default"] : warned2(j) ? [true, "ignore"] : warned3(j) ? [false, "always"] : [false, "error"])).filter(alone));
    const limited = within(CALLING.recursion);
    expect(seen.map((w) => w[11])).toEqual(seen.map((_, j) => (limited(j) ? drawn.setup.recursion : 1000)));
    const prompted = before(CALLING.prompt);
    expect(seen.map((w) => w[12])).toEqual(seen.map((_, j) => !prompted(j)));
    // (a deployment's process state from each set-up on: a stricter umask, a nice value, the
    // application's decimal context (the main thread's), its loggers silenced, an error tracker's
    // hooks; round 22's a21 a22 a19 a10 a11)
    const masked = within(CALLING.umask);
    expect(drawn.setup.umask).not.toBe(seen[0]![26]);
    expect(seen.map((w) => w[26])).toEqual(seen.map((_, j) => (masked(j) ? drawn.setup.umask : seen[0]![26])));
    const niced = before(CALLING.nice);
    // (every thread's: Linux's nice value is a thread's, and a reniced service's are all niced)
    expect(seen.map((w) => w[27])).toEqual(seen.map((_, j) => (niced(j) ? seen[0]![27] : Math.min(19, seen[0]![27] + drawn.setup.nice))));
    const dec = within(CALLING.decimal);
    expect(seen.flatMap((w, j) => (w[0] ? [w[28]] : []))).toEqual(seen.flatMap((w, j) => (w[0] ? [dec(j) ? [drawn.setup.decimal.rounding, drawn.setup.decimal.prec] : ["ROUND_HALF_EVEN", 28]] : [])));
    const off = within(CALLING.loggingOff);
    const levels: Record<string, number> = { CRITICAL: 50, ERROR: 40, WARNING: 30 };
    expect(seen.map((w) => w[29])).toEqual(seen.map((_, j) => (off(j) ? [true, drawn.setup.loggingOff ? levels[drawn.setup.loggingOff] : 0] : [false, 0])));
    // (the tracker's hooks defined in its library's module, from its set-up to its window's end)
    const tracked = within(CALLING.tracker);
    expect(seen.map((w) => w[30])).toEqual(seen.map((_, j) => (tracked(j) ? drawn.setup.tracker : "logging")));
    // (the environment a deployment's in two steps, each change in one of them, each its own window:
    // round 22's a23b a25 a26 a27 a28)
    const [env1, env2] = [within(CALLING.environ), within(CALLING.environ2)];
    const ENVIRON = ["TZ", "PATH", "PWD", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "LD_PRELOAD", "MALLOC_ARENA_MAX"];
    const envAt = (j: number) => ({ ...drawn.env, ...(env1(j) ? drawn.setup.environ[0] : {}), ...(env2(j) ? drawn.setup.environ[1] : {}) }) as Record<string, string | undefined>;
    expect(seen.map((w) => w[32])).toEqual(seen.map((_, j) => ENVIRON.map((k) => envAt(j)[k])));
    const last = envAt(49);
    expect([last.TZ?.replace(/^:/, ""), /local\/bin/.test(last.PATH!), last.PWD !== drawn.cwd, !!(last.HTTP_PROXY ?? last.http_proxy), last.MALLOC_ARENA_MAX !== undefined]).toEqual([drawn.zone, false, true, true, true]);
    // (two forks: one process before the first, when any call is, its child, and that child's child)
    // (nothing the entry leaves behind warns when collected: round 21's CI, an unclosed loop's
    // ResourceWarning shown inside an import failed an honest call with Python 3.11's KeyError)
    expect(seen.flatMap((w) => w[25])).toEqual([]);
    const pids = seen.map((w) => w[13]);
    const [fork, fork2] = [dealt.indexOf(CALLING.fork), dealt.indexOf(CALLING.fork2)];
    expect(fork2).toBeGreaterThan(fork);
    expect([pids.slice(0, fork), pids.slice(fork, fork2), pids.slice(fork2)].map((xs) => new Set(xs).size)).toEqual([fork ? 1 : 0, 1, 1]);
    expect(new Set([pids[0], pids[fork], pids[fork2]]).size).toBe(fork ? 3 : 2);
    // (the handled exception's four families by turns, one no Exception, a shutdown's: round 22's
    // a08; fourteen calls all made while one is handled)
    const handling = await runBehaviour(new BwrapSandbox("bwrap", { warm: false }), d, { ...req, calls: calls.slice(0, 14) }, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 0, days: 0, elsewhere: true, home: { ...drawn, calling: [CALLING.handling], setups: [] } } });
    const types = calls.slice(0, 14).map((c) => (plain((handling.outcomes!.get(c.id)![0] as { ret: BValue }).ret) as Seen)[16]);
    expect(new Set(types.filter((t) => !/ExceptionGroup$/.test(t)))).toEqual(new Set([drawn.setup.error, ...drawn.setup.errors, drawn.setup.base.split(".").pop()]));
    expect(types.some((t) => /ExceptionGroup$/.test(t))).toBe(true);
    // (a server's requests, thirty from a worker thread: every third in its error handler, by turns
    // alone, from another, while another is handled, in a chain of three and in an exception group;
    // round 23's a12 a13)
    const served = await runBehaviour(new BwrapSandbox("bwrap", { warm: false }), d, { ...req, calls: calls.slice(0, 30) }, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 0, days: 0, elsewhere: true, home: { ...drawn, calling: [CALLING.thread], setups: [] } } });
    const chains = calls.slice(0, 30).map((c) => plain((served.outcomes!.get(c.id)![0] as { ret: BValue }).ret) as Seen).filter((w) => w[2]).map((w) => `${w[16]}|${w[19]}|${w[20]}`);
    expect(chains.length).toBe(10);
    expect(new Set(chains.map((c) => (/ExceptionGroup\|/.test(c) ? "group" : c.split("|").slice(1).join("|"))))).toEqual(new Set(["|", "LookupError|", "|LookupError", "|KeyError", "group"]));
    // and the same calls from the top level alone, nothing set up (calling: [], setups: [])
    const top = await runBehaviour(new BwrapSandbox("bwrap", { warm: false }), d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 0, days: 0, elsewhere: true, home: { ...drawn, calling: [], setups: [] } } });
    expect(calls.every((c) => JSON.stringify((plain((top.outcomes!.get(c.id)![0] as { ret: BValue }).ret) as unknown[]).slice(0, 5)) === "[true,false,false,1,false]")).toBe(true);
  }, 120_000);

  it("the entry script's top level binds no name twice over: a loop's variable there is `_` alone, and no name the script assigns at its top level is one of its functions' (a set-up's `for t in ...` had rebound the worker thread named t: honest calls raised AttributeError at home, 26 rows of rounds 12–13)", () => {
    const calls: BCall[] = [{ id: "c0", symbol: 0, pos: [{ t: "int", v: "1" }], kw: [] }];
    const scripts = Array.from({ length: 60 }, () => homeEntry({ symbols: [{ module: "pkg.m", qualname: "f" }], calls }, drawHome(randomBytes(32)))!.text);
    // (Python's own parser: every top-level binding, by statement kind, and every def's name)
    const check = `import ast, json, sys
out = []
for text in json.load(sys.stdin):
    tree = ast.parse(text)
    funcs, stores, loops = set(), {}, set()
    def walk(node, top):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if top: funcs.add(child.name)
                continue
            if isinstance(child, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
                continue
            if top and isinstance(child, ast.For):
                loops.update(n.id for n in ast.walk(child.target) if isinstance(n, ast.Name))
            if top and isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                stores.setdefault(child.id, 0)
            walk(child, top)
    walk(tree, True)
    out.append([sorted(loops - {"_"}), sorted(funcs & set(stores))])
print(json.dumps(out))`;
    const found = JSON.parse(execFileSync("python3", ["-c", check], { input: JSON.stringify(scripts), encoding: "utf8" })) as [string[], string[]][];
    expect(found.filter(([loops, both]) => loops.length || both.length)).toEqual([]);
  });

  it("the run elsewhere has a deployment's process state from its start, at the package's import too: the umask, the nice value, the decimal context (round 23: a body that read them at import met only the defaults)", async () => {
    const d = tmp("behave-start-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), `import decimal, os, sys


def _state():
    m = os.umask(0o022)
    os.umask(m)
    c = decimal.getcontext()
    logging = sys.modules.get("logging")
    root = logging.getLogger() if logging else None
    return [m, os.nice(0), c.rounding, c.prec, [logging.getLevelName(root.level), len(root.handlers)] if root else None]


AT_IMPORT = _state()


def state():
    return [AT_IMPORT, _state()]
`);
    const req = { symbols: [{ module: "pkg.m", qualname: "state" }], calls: [{ id: "s", symbol: 0, pos: [], kw: [] }], roots: ["."], project: ["pkg"] };
    const sb = new BwrapSandbox("bwrap", { warm: false });
    const plainRun = await runBehaviour(sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, warm: false });
    const base = plain((plainRun.outcomes!.get("s")![0] as { ret: BValue }).ret) as [number, number, string, number][];
    expect(base[0]).toEqual(base[1]);
    expect(base[0]!.slice(2)).toEqual(["ROUND_HALF_EVEN", 28, undefined]);
    const state = drawHome(randomBytes(32)).setup.atStart;
    const away = await runBehaviour(sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 37, days: 0, elsewhere: true, state } });
    expect(away.failure, away.run.stderr).toBeNull();
    const [atImport, atCall] = plain((away.outcomes!.get("s")![0] as { ret: BValue }).ret) as [number, number, string, number][];
    // (and logging configured before the import: a root handler at the drawn level; round 23's a49)
    const want = [state.umask, Math.min(19, base[0]![1] + state.nice), state.rounding, state.prec, [state.log.level, 1]];
    expect([atImport, atCall]).toEqual([want, want]);
  });

  it("at home the machine is a deployment's: more CPUs than the grader's (os.cpu_count()), up for the drawn days (time.monotonic, /proc/uptime: a time namespace of its own), and calls that overlap from several threads (round 23's a21 a22 a52)", async () => {
    const d = tmp("behave-home-machine-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), `import os, threading, time


def machine():
    return [os.cpu_count(), time.monotonic(), float(open("/proc/uptime").read().split()[0]), threading.active_count()]
`);
    const calls: BCall[] = Array.from({ length: 120 }, (_, i) => ({ id: `c${i}`, symbol: 0, pos: [], kw: [] }));
    const req = { symbols: [{ module: "pkg.m", qualname: "machine" }], calls, roots: ["."], project: ["pkg"] };
    const sb = new BwrapSandbox("bwrap", { warm: false });
    const graded = await runBehaviour(sb, d, { ...req, calls: calls.slice(0, 1) }, { call_timeout_ms: 10_000 }, { pyenv: null, warm: false });
    // (floats come back as their repr's text)
    const [cpus, monotonic] = (plain((graded.outcomes!.get("c0")![0] as { ret: BValue }).ret) as unknown[]).map(Number);
    const drawn = drawHome(randomBytes(32));
    const home = await runBehaviour(sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 37, days: 0, elsewhere: true, home: drawn } });
    expect(home.failure, home.run.stderr).toBeNull();
    const seen = calls.map((c) => (plain((home.outcomes!.get(c.id)![0] as { ret: BValue }).ret) as unknown[]).map(Number));
    expect(new Set(seen.map((w) => w[0]))).toEqual(new Set([cpus! * drawn.setup.cpuTimes]));
    const up = drawn.setup.uptimeDays * 86_400;
    if (timeNamespaces()) for (const w of seen) expect([w[1]! >= monotonic! + up - 60, w[1]! < monotonic! + up + 600, Math.abs(w[2]! - w[1]!) < 60], JSON.stringify([w, monotonic, up])).toEqual([true, true, true]);
    // (the calls dealt to overlap run beside the drawn number of threads)
    const dealt = homeContexts(calls, drawn);
    const burst = seen.filter((_, j) => dealt[j] === CALLING.burst);
    expect(burst.length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it("at home calls overlap as a server's do: the process's first eight calls together, then by turns one call from 2-8 threads, 32 calls together, one from 2 and one from 4, sharing the arguments the original left as they were (round 24's a16 a17 a18 a43)", async () => {
    const d = tmp("behave-home-burst-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    // (each thread notes the list it was given, then all of them count the lists the call met:
    // one where the threads share it, as many as the threads where each has its own copy)
    writeFileSync(join(d, "pkg", "m.py"), `import time

_seen = {}


def lists(xs):
    _seen.setdefault(xs[0], {})[id(xs)] = xs
    time.sleep(0.05)
    return [len(_seen[xs[0]]), len(_seen)]
`);
    const calls: BCall[] = Array.from({ length: 200 }, (_, i) => ({ id: `c${i}`, symbol: 0, pos: [{ t: "list", v: [{ t: "int", v: String(i) }] }] as BValue[], kw: [] }));
    const drawn = drawHome(randomBytes(32));
    const shared = new Set(calls.filter((_, i) => i % 3 === 0).map((c) => c.id));
    const sb = new BwrapSandbox("bwrap", { warm: false });
    const home = await runBehaviour(sb, d, { symbols: [{ module: "pkg.m", qualname: "lists" }], calls, roots: ["."], project: ["pkg"], shared }, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 37, days: 0, elsewhere: true, home: drawn } });
    expect(home.failure, home.run.stderr).toBeNull();
    const dealt = homeContexts(calls, drawn);
    const variants = homeVariants(calls, dealt);
    expect(dealt[0]).toBe(CALLING.burst);
    const answer = (id: string) => plain((home.outcomes!.get(id)![0] as { ret: BValue }).ret) as number[];
    // bursts made together (homePlan): the run's first call with copies of the next seven, a burst at
    // its 32-thread turn with copies of the next 31 (no set-up's), each its own call with its own
    // list, all begun before any ended; each call still made in its own turn too; the burst's own
    // call from four threads beside them, and at its other turns from the drawn number, 2 or 4
    const plan = homePlan(calls, dealt, shared);
    const together = homeTogether(dealt, variants);
    expect(together[0]).toBe(8);
    expect(together.some((k) => k === 32)).toBe(true);
    const sizes = [drawn.setup.overlap, 32, 2, 4];
    // (how many lists a call's key had met before: one for each partner's copy made earlier)
    const prior = new Map<number, number>();
    let groups = 0;
    for (const [p, c] of plan.calls.entries()) {
      const k = plan.together[p]!;
      if (k < 2) continue;
      groups++;
      const partners = plan.calls.slice(p + 1, p + k);
      const i = calls.indexOf(c);
      expect(partners.map((x) => x.id)).toEqual(partners.map((x) => partnerId(x.id.split(PARTNER)[0]!, i)));
      const seen = [answer(c.id), ...partners.map((x) => answer(x.id))];
      // (each partner its own list; the call's own from four threads, one list where shared)
      const indexOf = (x: BCall) => calls.findIndex((y) => y.id === x.id.split(PARTNER)[0]);
      expect(seen.map((a) => a[0]), `group at ${i}`).toEqual([(shared.has(c.id) ? 1 : 4) + (prior.get(i) ?? 0), ...partners.map((x) => 1 + (prior.get(indexOf(x)) ?? 0))]);
      expect(new Set(seen.map((a) => a[1])).size, `group at ${i}`).toBe(1);
      if (i === 0) expect(seen[0]![1]).toBe(8);
      for (const x of partners) prior.set(indexOf(x), (prior.get(indexOf(x)) ?? 0) + 1);
    }
    expect(groups).toBeGreaterThanOrEqual(2);
    const bursts = calls.flatMap((c, j) => (together[j] === 0 && dealt[j] === CALLING.burst ? [{ got: answer(c.id)[0], want: (shared.has(c.id) ? 1 : sizes[variants[j]! % 4]!) + (prior.get(j) ?? 0) }] : []));
    expect(bursts.map((b) => b.got)).toEqual(bursts.map((b) => b.want));
    expect(bursts.some((b) => b.want > 2)).toBe(true);
  }, 120_000);

  it("at home each call meets its context's variant by its kind: a kind's calls there meet the variants from the kind's index on, one each (round 22's a08 a15: a global counter's turns had missed a variant for a whole kind)", () => {
    // three kinds (int, str, None arguments), forty calls each, dealt the drawn contexts
    const calls: BCall[] = [
      ...Array.from({ length: 40 }, (_, i) => ({ id: `i${i}`, symbol: 0, pos: [{ t: "int", v: String(i) }] as BValue[], kw: [] })),
      ...Array.from({ length: 40 }, (_, i) => ({ id: `s${i}`, symbol: 0, pos: [{ t: "str", v: `x${i}` }] as BValue[], kw: [] })),
      ...Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, symbol: 0, pos: [{ t: "none" }] as BValue[], kw: [] })),
    ];
    const drawn = drawHome(randomBytes(32));
    const contexts = homeContexts(calls, drawn);
    const variants = homeVariants(calls, contexts);
    // (the kinds in the order the contexts are dealt: by their types' names)
    const kinds = ["i", "n", "s"];
    for (const [k, kind] of kinds.entries()) {
      for (const code of new Set(contexts)) {
        const got = calls.flatMap((c, j) => (c.id.startsWith(kind) && contexts[j] === code ? [variants[j]!] : []));
        expect([...got].sort((a, b) => a - b), `${kind} ${code}`).toEqual(got.map((_, r) => k + r));
      }
    }
    // the loop's calls of each kind meet as many of its eight variants (its task counts) as they are
    for (const kind of kinds) expect(new Set(calls.flatMap((c, j) => (c.id.startsWith(kind) && contexts[j] === CALLING.loop ? [variants[j]! % 8] : []))).size, kind).toBe(Math.min(8, calls.filter((c, j) => c.id.startsWith(kind) && contexts[j] === CALLING.loop).length));
  });

  it("at home the runner's module is read from its bytecode as a deployed module's import reads it: the .pyc beside it", async () => {
    const d = tmp("behave-home-pyc-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), `import os, sys


def runner():
    main = sys.modules["__main__"]
    here = os.path.dirname(main.__file__)
    out = []
    for m in list(vars(main).values()):
        f = getattr(m, "__file__", None) if type(m) is type(os) else None
        if m is main or not f or os.path.dirname(f) != here:
            continue
        out.append([os.path.basename(f), os.path.exists(m.__cached__)])
    return out
`);
    const req = { symbols: [{ module: "pkg.m", qualname: "runner" }], calls: [{ id: "r", symbol: 0, pos: [], kw: [] }], roots: ["."], project: ["pkg"] };
    const drawn = drawHome(randomBytes(32));
    const home = await runBehaviour(new BwrapSandbox("bwrap", { warm: false }), d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 0, days: 0, elsewhere: true, home: drawn } });
    expect(home.failure, home.run.stderr).toBeNull();
    // one module beside the entry: the runner, its .pyc there (a timestamp .pyc of the source's mtime
    // and size: one the import did not accept would have been compiled again and not written, the
    // folder being read-only)
    expect(plain((home.outcomes!.get("r")![0] as { ret: BValue }).ret)).toEqual([[`${drawn.runner}.py`, true]]);
  }, 120_000);

  it("at home a call whose function cannot be found answers as elsewhere: a setup error, not a call of something else", async () => {
    const d = tmp("behave-home-setup-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    writeFileSync(join(d, "pkg", "m.py"), "class C:\n    def here(self):\n        return 1\n");
    const req = { symbols: [{ module: "pkg.m", qualname: "C.gone" }], calls: [{ id: "g", symbol: 0, pos: [], kw: [] }] as BCall[], roots: ["."], project: ["pkg"] };
    const graded = await runBehaviour(new BwrapSandbox("bwrap", { warm: true }), d, req, {}, { pyenv: null });
    const home = await runBehaviour(new BwrapSandbox("bwrap", { warm: false }), d, req, {}, { pyenv: null, shift: { pids: 37, days: 0, elsewhere: true, home: drawHome(randomBytes(32)) } });
    for (const r of [graded, home]) {
      expect(r.failure, r.run.stderr).toBeNull();
      expect(r.outcomes!.get("g")![0]).toMatchObject({ k: "error", why: "setup: AttributeError" });
    }
  }, 120_000);

  it("runs at home on Docker too (its host name, user with a passwd naming it, machine id; runc lets no bind cover boot_id)", async (ctx) => {
    let sb: DockerSandbox;
    try {
      sb = new DockerSandbox({ socketPath: (await ensureDockerd()).socketPath });
      const c = await sb.check();
      if (!c.ok) return ctx.skip(`Docker unavailable: ${c.why}`);
    } catch (e) {
      return ctx.skip(`Docker unavailable: ${(e as Error).message.split("\n")[0]}`);
    }
    await checkHomes(sb, [0, 1].map(() => drawHome(randomBytes(32))));
  }, 300_000);

  it("draws the run elsewhere's clocks from the grader's seed: never UTC, a zone each, the first hours off a whole day past `days`, the others log-uniform from an hour to a century", () => {
    const n = 3000;
    let inWindow = 0;
    let anyInWindow = 0;
    const seen = new Set<string>();
    for (let i = 0; i < n; i++) {
      const clocks = drawClocks(randomBytes(32), 4000);
      expect(clocks).toHaveLength(4);
      expect(new Set(clocks.map((c) => c.tz)).size).toBe(4);
      for (const c of clocks) expect(ELSEWHERE_ZONES).toContain(c.tz);
      const hours = (clocks[0]!.seconds - 4000 * 86_400) / 3_600;
      expect(hours).toBeGreaterThanOrEqual(1);
      expect(hours).toBeLessThan(24);
      const window = (c: { seconds: number }) => c.seconds >= 86_400 && c.seconds <= 3652.5 * 86_400;
      for (const c of clocks.slice(1)) {
        expect(c.seconds).toBeGreaterThanOrEqual(3_600);
        expect(c.seconds).toBeLessThanOrEqual(100 * 365.25 * 86_400 + 1);
      }
      inWindow += window(clocks[1]!) ? 1 : 0;
      anyInWindow += clocks.slice(1).some(window) ? 1 : 0;
      seen.add(clocks[0]!.tz!);
    }
    // a window from tomorrow to ten years on: ln(3,652.5) / ln(876,600) = 0.599 of one clock's
    // draws, 1 − 0.401³ = 0.936 of three's (the formula, not the code, says so)
    const p = Math.log(3652.5) / Math.log(876_600);
    expect(Math.abs(inWindow / n - p)).toBeLessThan(0.035);
    expect(Math.abs(anyInWindow / n - (1 - (1 - p) ** 3))).toBeLessThan(0.02);
    expect(seen.size).toBe(ELSEWHERE_ZONES.length);
    // (no zone is UTC at any time of year)
    for (const z of ELSEWHERE_ZONES) expect(z).not.toMatch(/^(UTC|GMT)|^<\+00>|^[A-Z]+0[A-Z]/);
    // the same seed draws the same clocks
    const seed = randomBytes(32);
    expect(drawClocks(seed, 4000)).toEqual(drawClocks(seed, 4000));
  });
});
