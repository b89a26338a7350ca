// The behavioural runner's warm path (issue 31 §4): runBehaviour on a read-only bwrap run forks
// the warm grader's behave zygote (forkserver.py --kind behave: behave.py and the standard library
// imported, no pytest, no project) instead of starting an interpreter. It must judge like the cold
// path (one bwrap + `python3 -I -B behave.py` per run), start every run from the same clean image
// (nothing a previous run's code did or wrote survives: not in the interpreter, not in /tmp, not in
// the memory a fork inherits), and keep the cold path's containment (masks, read-only tree, no
// network). Real bwrap, real forks.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BwrapSandbox, runBehaviour, warmWorker, type BCall, type BOutcome, type BValue } from "../lib/sandbox/index.js";
import { tmp } from "./helpers.js";

const warm = new BwrapSandbox("bwrap", { warm: true });
const cold = new BwrapSandbox("bwrap", { warm: false });

const PKG = `
import builtins, os, sys

# what this process had imported before the package (the runner's own image)
PRELOADED = sorted(m for m in sys.modules if m.split(".")[0] in ("pytest", "_pytest", "pluggy", "harness", "composer_lab_harness", "markupsafe"))


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


class S(str):
    pass


def f(kind, arg=None):
    if kind == "int":
        return arg * 3
    if kind == "str":
        return S(arg.upper())
    if kind == "point":
        return Point(arg, [arg])
    if kind == "raise":
        raise KeyError(arg)
    if kind == "mutate":
        arg.append(len(arg))
        return None
    if kind == "env":
        return [sys.flags.isolated, sys.flags.dont_write_bytecode, os.getcwd(), sys.argv[0].rsplit("/", 1)[-1], os.path.basename(sys.modules["__main__"].__file__), os.environ.get("LANG"), sorted(os.environ), PRELOADED, sys.path, sys.getfilesystemencoding(), sys.stdin is None or sys.stdin.closed]
    if kind == "dirty":
        # everything a run can leave behind in its own process and tree
        builtins.zyg_leak = 1
        sys.zyg_leak = 1
        sys.modules["__main__"].zyg_leak = 1
        os.environ["ZYG_LEAK"] = "1"
        global LEAKED
        LEAKED = 1
        sys.path.append("/zyg-leak")
        with open("/tmp/zyg-leak", "w") as fh:
            fh.write("1")
        # results no later run may find in the memory it inherits (a 20 kB line, as a real run's)
        return ["ZYG" + "LEAK" + os.urandom(32).hex() for _ in range(256)]
    if kind == "clean":
        return [hasattr(builtins, "zyg_leak"), hasattr(sys, "zyg_leak"), hasattr(sys.modules["__main__"], "zyg_leak"), "ZYG_LEAK" in os.environ, "LEAKED" in globals(), "/zyg-leak" in sys.path, os.path.exists("/tmp/zyg-leak")]
    if kind == "scan":
        return scan()
    if kind == "masked":
        try:
            import markupsafe
            imported = markupsafe.__name__
        except ImportError as e:
            imported = "ImportError"
        with open("/usr/lib/python3/dist-packages/markupsafe/__init__.py") as fh:
            return [imported, "composer-lab" in fh.read(2000)]
    if kind == "contained":
        import socket
        out = []
        for what in (lambda: open("/work/pkg/new.py", "w"), lambda: socket.create_connection(("1.1.1.1", 53), timeout=1), lambda: os.listdir("/spool") if os.path.isdir("/spool") else []):
            try:
                got = what()
                out.append("ok:" + repr(got)[:40])
            except OSError as e:
                out.append(type(e).__name__)
        return out
    return kind


def scan():
    """Every writable mapping of this process, searched for a previous run's result and for this
    run's own spool folder (the zygote's request for this fork: proof the scan reads the inherited heap)."""
    import re
    leak = re.compile(rb"ZYG" rb"LEAK[0-9a-f]{64}")
    spool = re.compile(rb"/spool/[0-9a-f]{16}/tree")
    found, own, read = set(), 0, 0
    with open("/proc/self/maps") as fh:
        maps = fh.read().splitlines()
    fd = os.open("/proc/self/mem", os.O_RDONLY)
    try:
        for line in maps:
            addr, perms = line.split()[:2]
            if not perms.startswith("rw"):
                continue
            lo, hi = (int(x, 16) for x in addr.split("-"))
            if hi - lo > 1 << 28:
                continue
            try:
                data = os.pread(fd, hi - lo, lo)
            except OSError:
                continue
            read += len(data)
            found.update(m.decode() for m in leak.findall(data))
            own += len(spool.findall(data))
    finally:
        os.close(fd)
    return [sorted(found), own > 0, read > 1 << 20]
`;

function repo(): string {
  const d = tmp("behave-zygote-");
  mkdirSync(join(d, "pkg"));
  writeFileSync(join(d, "pkg", "__init__.py"), "");
  writeFileSync(join(d, "pkg", "m.py"), PKG);
  return d;
}

const str = (v: string): BValue => ({ t: "str", v });
const int = (v: number): BValue => ({ t: "int", v: String(v) });
const call = (id: string, kind: string, arg?: BValue): BCall => ({ id, symbol: 0, pos: [str(kind), ...(arg ? [arg] : [])], kw: [] });
const symbols = [{ module: "pkg.m", qualname: "f" }];
const run = (sb: BwrapSandbox, d: string, calls: BCall[], masks: { path: string; kind: "package" }[] = []) =>
  runBehaviour(sb, d, { symbols, calls, roots: ["."], project: ["pkg"] }, { call_timeout_ms: 10_000 }, { pyenv: null, masks });
/** An outcome without its timing. */
const bare = (o: BOutcome | undefined) => {
  const { ms: _ms, ...rest } = (o ?? { k: "error", why: "missing" }) as BOutcome & { ms?: number };
  return rest;
};
const ret = (o: BOutcome | undefined): unknown => {
  const b = bare(o);
  return b.k === "return" ? b.ret : b;
};
/** A plain JS value of a serialized list of scalars / lists. */
const plain = (v: unknown): unknown => {
  const x = v as BValue;
  if (x.t === "list" || x.t === "tuple") return x.v.map(plain);
  if (x.t === "bool") return x.v;
  if (x.t === "int") return Number(x.v);
  if (x.t === "str") return x.v;
  if (x.t === "none") return null;
  return x;
};

describe("the behave zygote (warm behavioural runner)", () => {
  beforeAll(async () => {
    expect(await warmWorker(warm, null).check("behave")).toEqual({ ok: true, why: null });
  }, 120_000);

  it("judges like the cold path: the same outcomes, from an interpreter that has imported neither pytest nor the project", { timeout: 60_000 }, async () => {
    const d = repo();
    const calls = [call("i", "int", int(14)), call("s", "str", str("abc")), call("p", "point", int(2)), call("r", "raise", str("k")), call("m", "mutate", { t: "list", v: [int(7)] }), call("e", "env"), call("o", "other")];
    const [w, c] = await Promise.all([run(warm, d, calls), run(cold, d, calls)]);
    expect(w.failure, w.run.stderr.slice(-800)).toBeNull();
    expect(c.failure, c.run.stderr.slice(-800)).toBeNull();
    expect(w.path).toBe("warm");
    expect(c.path).toBe("cold");
    for (const k of calls) expect(bare(w.outcomes!.get(k.id)![0]), k.id).toEqual(bare(c.outcomes!.get(k.id)![0]));
    expect(ret(w.outcomes!.get("i")![0])).toEqual(int(42));
    expect(plain(ret(w.outcomes!.get("e")![0]))).toMatchObject([1, 1, "/work", "behave.py", "behave.py", "C.UTF-8", /* the sandbox's and a login session's (SESSION_ENV) */ ["COLUMNS", "DISPLAY", "EDITOR", "HISTSIZE", "HOME", "LANG", "LANGUAGE", "LESSCHARSET", "LINES", "LOGNAME", "MAIL", "OLDPWD", "PAGER", "PATH", "PWD", "PYTHONDONTWRITEBYTECODE", "SHELL", "SHLVL", "TERM", "USER", "VISUAL", "XDG_RUNTIME_DIR", "XDG_SESSION_CLASS", "XDG_SESSION_TYPE", "_"], [], expect.arrayContaining(["/work"]), "utf-8", false]);
  });

  it("a run sees nothing of the one before: no global, environment, path or /tmp file, and not its result in the memory it inherits", { timeout: 60_000 }, async () => {
    const d = repo();
    const first = await run(warm, d, [call("dirty", "dirty")]);
    expect(first.failure, first.run.stderr.slice(-800)).toBeNull();
    const markers = plain(ret(first.outcomes!.get("dirty")![0])) as string[];
    expect(markers.length).toBe(256);
    for (const m of markers) expect(m).toMatch(/^ZYGLEAK[0-9a-f]{64}$/);
    const next = await run(warm, d, [call("clean", "clean"), call("scan", "scan")]);
    expect(next.failure, next.run.stderr.slice(-800)).toBeNull();
    expect(next.path).toBe("warm");
    expect(plain(ret(next.outcomes!.get("clean")![0]))).toEqual([false, false, false, false, false, false, false]);
    // the scan read the inherited heap (it found this fork's own request there) and no earlier result
    expect(plain(ret(next.outcomes!.get("scan")![0]))).toEqual([[], true, true]);
  });

  it("keeps the cold path's containment: the installed copy masked, the tree read-only, no network, no spool", { timeout: 60_000 }, async () => {
    const d = repo();
    const calls = [call("masked", "masked"), call("contained", "contained")];
    const mask = [{ path: "/usr/lib/python3/dist-packages/markupsafe", kind: "package" as const }];
    const [w, c, open] = await Promise.all([run(warm, d, calls, mask), run(cold, d, calls, mask), run(warm, d, calls)]);
    for (const r of [w, c, open]) expect(r.failure, r.run.stderr.slice(-800)).toBeNull();
    expect(w.path).toBe("warm");
    expect(plain(ret(w.outcomes!.get("masked")![0]))).toEqual(["ImportError", true]);
    expect(plain(ret(w.outcomes!.get("contained")![0]))).toEqual(["OSError", "OSError", "ok:[]"]);
    for (const k of calls) expect(bare(w.outcomes!.get(k.id)![0]), k.id).toEqual(bare(c.outcomes!.get(k.id)![0]));
    // without the mask the installed copy answers: the mask is what stops it
    expect(plain(ret(open.outcomes!.get("masked")![0]))).toEqual(["markupsafe", false]);
  });
});
