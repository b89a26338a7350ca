// The run elsewhere's environment (issue 26, round 21): each variable the package looked up by name
// in the graded run is given the other way there (flipEnv); the standard library's own lookups are
// the interpreter's configuration and are not.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BwrapSandbox, deployedValue, flipEnv, runBehaviour, type BCall, type BValue } from "../lib/sandbox/index.js";
import { tmp } from "./helpers.js";

const plain = (v: BValue): unknown => {
  const x = v as { t: string; v?: unknown };
  if (x.t === "list") return (x.v as BValue[]).map(plain);
  if (x.t === "int") return Number(x.v);
  return x.v ?? null;
};

describe("the run elsewhere's environment", () => {
  it("unsets what the package found, sets what it missed, and never touches HOME, PATH, TZ, the temporary folder or the interpreter's own", () => {
    const env = { PATH: "/usr/bin", HOME: "/home/a", LANG: "C.UTF-8", PWD: "/home/a", USER: "a" };
    const out = flipEnv(env, { found: ["LANG", "PWD", "HOME", "PATH"], missing: ["KUBERNETES_SERVICE_HOST", "LC_ALL", "PYTHONPATH", "TZ", "TMPDIR", "LD_PRELOAD", "bad name"] });
    expect(out).toEqual({ PATH: "/usr/bin", HOME: "/home/a", USER: "a", KUBERNETES_SERVICE_HOST: deployedValue("KUBERNETES_SERVICE_HOST"), LC_ALL: deployedValue("LC_ALL") });
    // (the package's own default where it gave one; where it gave none or an empty one, a deployment's value)
    expect(flipEnv(env, { found: [], missing: ["LOG_LEVEL", "APP_ID"], defaults: { LOG_LEVEL: "WARNING", APP_ID: "" } }, "s")).toEqual({ ...env, LOG_LEVEL: "WARNING", APP_ID: deployedValue("APP_ID", "s") });
    // (nothing looked up: the drawn environment as it is)
    expect(flipEnv(env, undefined)).toBe(env);
    expect(flipEnv(env, { found: [], missing: [] })).toEqual(env);
  });

  it("the graded run notes the variables the package looked up (not the standard library's), and the run elsewhere meets each the other way, exactly", async () => {
    const d = tmp("home-env-");
    mkdirSync(join(d, "pkg"));
    writeFileSync(join(d, "pkg", "__init__.py"), "");
    // (its own lookups four ways; the standard library's through zoneinfo, shutil and getpass)
    // (and through os.environb and posix.environ, the same dict on POSIX)
    // (and through the standard library on its behalf: string.Template, a ChainMap; zoneinfo's import
    // reads sysconfig's configuration, which is the interpreter's)
    writeFileSync(join(d, "pkg", "m.py"), `import collections, os, posix, string, zoneinfo


def look(x):
    zoneinfo.ZoneInfo("UTC")
    return [os.environ.get("LANG"), "PKG_FLAG" in os.environ, os.getenv("PWD") is not None, os.environ.get("PKG_MODE", "off"),
            os.environb.get(b"PKG_B") is not None, b"PKG_P" in posix.environ, string.Template("$PKG_T").safe_substitute(os.environ),
            collections.ChainMap(os.environ).get("PKG_C", "dflt"), x]
`);
    const calls: BCall[] = [0, 1, 2].map((i) => ({ id: `c${i}`, symbol: 0, pos: [{ t: "int", v: String(i) }] as BValue[], kw: [] }));
    const req = { symbols: [{ module: "pkg.m", qualname: "look" }], calls, roots: ["."], project: ["pkg"] };
    const sb = new BwrapSandbox("bwrap", { warm: false });
    // (the graded run forked from the warm zygote, as a grade's is, and cold: round 21's a01b paid
    // where the warm run reported every name found, so none)
    const warm = new BwrapSandbox("bwrap");
    const graded = await runBehaviour(warm, d, req, { call_timeout_ms: 10_000 }, { pyenv: null });
    expect([graded.failure, graded.path]).toEqual([null, "warm"]);
    expect((await runBehaviour(sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null })).env).toEqual(graded.env);
    expect(graded.env).toEqual({ found: ["LANG", "PWD"], missing: ["PKG_B", "PKG_C", "PKG_FLAG", "PKG_MODE", "PKG_P", "PKG_T"], defaults: { PKG_MODE: "off" } });
    const away = await runBehaviour(sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 37, days: 4000, machine: true, elsewhere: true, env: graded.env } });
    expect(away.failure, away.run.stderr).toBeNull();
    for (const c of calls) expect(plain((away.outcomes!.get(c.id)![0] as { ret: BValue }).ret)).toEqual([null, true, false, "off", true, true, deployedValue("PKG_T"), deployedValue("PKG_C"), Number(c.id.slice(1))]);
    // (the whole environment read, its size or its names: the run elsewhere's is a bare one then)
    writeFileSync(join(d, "pkg", "m.py"), `import os


def look(x):
    return [len(os.environ), sorted(os.environ)[:1] != [], x]
`);
    const whole = await runBehaviour(warm, d, req, { call_timeout_ms: 10_000 }, { pyenv: null });
    expect(whole.env).toEqual({ found: [], missing: [], whole: true });
    const sized = (r: typeof whole) => calls.map((c) => (plain((r.outcomes!.get(c.id)![0] as { ret: BValue }).ret) as [number])[0]);
    expect(Math.min(...sized(whole))).toBeGreaterThanOrEqual(15);
    const bare = await runBehaviour(sb, d, req, { call_timeout_ms: 10_000 }, { pyenv: null, shift: { pids: 37, days: 4000, machine: true, elsewhere: true, env: whole.env } });
    expect(Math.max(...sized(bare))).toBeLessThan(15);
    expect(flipEnv({ PATH: "/b", HOME: "/h", LANG: "C.UTF-8", USER: "u", TZ: "UTC", PYTHONHASHSEED: "0", LD_PRELOAD: "f.so", FAKETIME: "+1d" }, { found: [], missing: [], whole: true })).toEqual({ PATH: "/b", HOME: "/h", TZ: "UTC", PYTHONHASHSEED: "0", LD_PRELOAD: "f.so", FAKETIME: "+1d" });
  }, 120_000);
});

describe("deployedValue", () => {
  // (independent of the rules' text: each value checked against the convention it stands for)
  const shapes: [string, RegExp][] = [
    ["LANG", /^[a-z]{2}_[A-Z]{2}\.UTF-8$/], ["LC_ALL", /^[a-z]{2}_[A-Z]{2}\.UTF-8$/], ["DJANGO_SETTINGS_MODULE", /^[a-z_]+(\.[a-z_]+)+$/],
    ["INVOCATION_ID", /^[0-9a-f]{32}$/], ["REQUEST_UUID", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/], ["HTTPS_PROXY", /^(https?|redis):\/\/[^\s/]+:\d+/],
    ["DB_HOST", /^[\w.-]+$/], ["PORT", /^\d{2,5}$/], ["DATA_DIR", /^\/[\w/.-]+$/], ["AWS_REGION", /^[a-z]+-[a-z]+-?\d$/], ["LOG_LEVEL", /^(INFO|WARNING|DEBUG|ERROR)$/], ["DYNO", /^[a-z]+\.\d$/],
  ];
  it("gives each name a value of its convention, drawn from the seed: the same seed the same value, other seeds other values", () => {
    for (const [name, re] of shapes) for (const seed of ["", "a", "b", "c"]) expect(deployedValue(name, seed), `${name} ${seed}`).toMatch(re);
    for (const [name] of shapes) expect(deployedValue(name, "x")).toBe(deployedValue(name, "x"));
    const drawn = new Set(Array.from({ length: 40 }, (_, i) => deployedValue("SOME_FLAG_XYZ", String(i))));
    expect(drawn.size).toBeGreaterThanOrEqual(4);
  });
});
