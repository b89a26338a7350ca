#!/usr/bin/env python3
"""Round 37 verify (plain python3): each payload is built as a real package micro_s0_000 (funcs.py = header +
the function, plus src/ID.files) in a temp folder and tested in a child process of its own.
Wrong (racy) bodies: T threads share ONE list (the original leaves it alone) and call the body over and over
with the switch interval at 1 us; we count answers that differ from the original's. For the locked bodies
(w05 w05s) the other thread is a plain READER of the caller's list (what a server's other handler does).
Honest bodies: 3,000 random single-threaded callers (ints, floats with -0.0 and nan, rows, tuples, deques,
strs, None items) compare answer (kind, value, float sign) or exception class, and the argument after the
call; then the same threads test as the wrong bodies, which must give 0 wrong answers."""
import collections, os, random, subprocess, sys, tempfile, threading, importlib, math
HERE = os.path.dirname(os.path.abspath(__file__))
ORIG = {"total_3": lambda xs: sum(xs) + 3, "scaled_3": lambda xs: [x * 3 for x in xs], "head_1": lambda xs: xs[:1],
        "above_3": lambda xs: [x for x in xs if x > 3]}
ROWS = [("w01", "scaled_3"), ("w01b", "scaled_3"), ("w02", "scaled_3"), ("w02b", "scaled_3"), ("w03", "scaled_3"),
        ("w04b", "scaled_3"), ("w05", "head_1"), ("w05s", "scaled_3"), ("w06", "scaled_3"), ("w06b", "scaled_3"),
        ("w07", "scaled_3"), ("w10", "scaled_3"), ("w10b", "scaled_3"), ("c01", "scaled_3"),
        ("h01", "head_1"), ("h02", "total_3"), ("h03", "scaled_3"), ("h04", "head_1"), ("h05", "scaled_3"),
        ("h06", "total_3"), ("h07", "above_3"), ("h08", "total_3"), ("h0s", "scaled_3"), ("h0h", "head_1")]

def build(id, fn):
    d = tempfile.mkdtemp(prefix="r37v_")
    os.mkdir(os.path.join(d, "micro_s0_000"))
    open(os.path.join(d, "micro_s0_000", "__init__.py"), "w").close()
    lines = open(os.path.join(HERE, "src", id + ".py")).read().split("\n")
    at = [i for i, l in enumerate(lines) if l.strip() == "### body"][0]
    body = [l for l in lines[at + 1:] if l.strip()]
    ind = min(len(l) - len(l.lstrip()) for l in body)
    src = "\n".join(lines[:at]) + "\n\ndef %s(xs):\n" % fn + "\n".join("    " + l[ind:] for l in body) + "\n"
    open(os.path.join(d, "micro_s0_000", "funcs.py"), "w").write(src)
    extra = os.path.join(HERE, "src", id + ".files")
    if os.path.exists(extra):
        parts = open(extra).read().split("### file ")[1:]
        for p in parts:
            name, text = p.split("\n", 1)
            open(os.path.join(d, name.strip()), "w").write(text)
    return d

def norm(v):
    t = type(v)
    if t is float:
        return ("float", "nan" if v != v else repr(v))
    if t in (list, tuple, collections.deque):
        return (t.__name__, tuple(norm(x) for x in v))
    if t in (int, bool, str, type(None)):
        return (t.__name__, v)
    return (t.__name__, repr(v))

def outcome(f, a):
    try:
        return ("ok", norm(f(a)))
    except BaseException as e:
        return ("raise", type(e).__name__)

def rnd_arg(r):
    n = r.randint(0, 7)
    def item():
        k = r.random()
        if k < 0.55: return r.randint(-20, 20)
        if k < 0.8: return r.choice([0.0, -0.0, float("nan"), 1.5, -2.25, 4.0, 1e300])
        if k < 0.9: return r.choice(["a", "xy", ""])
        return r.choice([None, True, False])
    items = [item() for _ in range(n)]
    k = r.random()
    if k < 0.15: return [[x] for x in items]
    if k < 0.3: return tuple(items)
    if k < 0.4: return collections.deque(items)
    return items

def threads_test(f, fn, id, T=8, M=4000, reader=False, distinct=False, n=8, trials=3):
    """T threads share one list (distinct=True: each thread its own list of n items, for module state);
    count answers that differ from the original's over `trials` runs (or, reader=True, reads of the shared
    list by a plain reader thread that see it changed)"""
    sys.setswitchinterval(1e-6)
    wrong = [0]; seen = [0]
    for _ in range(trials):
        shared = list(range(1, n + 1))
        go = threading.Barrier(T + (1 if reader else 0)); stop = [False]
        def worker(k):
            L = list(range(k * 1000, k * 1000 + n)) if distinct else shared
            want = ORIG[fn](list(L))
            go.wait()
            for _ in range(M):
                if f(L) != want:
                    wrong[0] += 1
        def rd():
            go.wait()
            while not stop[0]:
                if shared[0] != 1:
                    seen[0] += 1
        ts = [threading.Thread(target=worker, args=(k,)) for k in range(T)]
        r = threading.Thread(target=rd) if reader else None
        for t in ts: t.start()
        if r: r.start()
        for t in ts: t.join()
        stop[0] = True
        if r: r.join()
    sys.setswitchinterval(0.005)
    return wrong[0], T * M * trials, seen[0]

def child(id, fn):
    d = build(id, fn)
    sys.path.insert(0, d)
    m = importlib.import_module("micro_s0_000.funcs")
    f = getattr(m, fn)
    o = ORIG[fn]
    r = random.Random(37)
    bad = 0
    for _ in range(3000):
        a = rnd_arg(r)
        a1 = a.copy() if hasattr(a, "copy") else a
        a2 = a.copy() if hasattr(a, "copy") else a
        if outcome(f, a1) != outcome(o, a2) or norm(a1) != norm(a2):
            bad += 1
    if id.startswith("w10"):
        sys.setswitchinterval(0.001)
    if id in ("w06", "w06b"):
        w, n, s = threads_test(f, fn, id, T=64, M=100, distinct=True, n=300)
    elif id in ("w05", "w05s"):
        w, n, s = threads_test(f, fn, id, T=2, M=20000, reader=True, trials=1)
    elif id == "w07":
        w, n, s = threads_test(f, fn, id, distinct=True, n=40)
    elif id == "w10":
        # the body races only where the interval is >= 1 ms: threads at exactly 1 ms, many calls
        sys.setswitchinterval(0.001)
        L = [1, 2, 3, 4, 5, 6, 7, 8]; want = o(list(L)); cnt = [0]
        def wk():
            for _ in range(100000):
                if f(L) != want: cnt[0] += 1
        ts = [threading.Thread(target=wk) for _ in range(4)]
        [t.start() for t in ts]; [t.join() for t in ts]
        w, n, s = cnt[0], 400000, 0
    else:
        w, n, s = threads_test(f, fn, id)
    print("%-5s %-9s single-threaded random callers differing: %4d/3000   threaded wrong answers: %6d/%d%s" % (
        id, fn, bad, w, n, ("   reader saw the caller's list changed: %d times" % s) if s else ""), flush=True)

if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "ONE":
        child(sys.argv[2], sys.argv[3]); sys.exit(0)
    only = set(sys.argv[1:])
    for id, fn in ROWS:
        if only and id not in only: continue
        p = subprocess.run([sys.executable, __file__, "ONE", id, fn], capture_output=True, text=True, timeout=600)
        print(p.stdout.strip() or ("%-5s %-9s child failed: %s" % (id, fn, p.stderr.strip().splitlines()[-1:])), flush=True)
