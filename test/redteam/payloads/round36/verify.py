#!/usr/bin/env python3
"""Round 36 verify: a witness for each wrong body; 3,000 random callers for each honest body.
A caller observes: its answer (value and type, float sign, NaN = NaN), its argument containers after
the call and after all later calls (value and type), its answer after all later calls, and whether its
answer (or an item of it) is the same object as another caller's argument or answer, or (at the top)
as its own argument where the original's never is."""
import collections, math, random, sys, os, itertools
HERE = os.path.dirname(os.path.abspath(__file__))
ORIG = {"total_3": "return sum(xs) + 3", "scaled_3": "return [x * 3 for x in xs]", "head_1": "return xs[:1]"}

def load(src_text, fn):
    lines = src_text.split("\n")
    at = [i for i, l in enumerate(lines) if l.strip() == "### body"][0]
    head, body = lines[:at], [l for l in lines[at + 1:]]
    code = "\n".join(head) + "\ndef %s(xs):\n" % fn + "\n".join("    " + l for l in body) + "\n"
    g = {"__name__": "m_" + fn}
    exec(compile(code, "<%s>" % fn, "exec"), g)
    return g[fn]

def body(id, fn):
    return load(open(os.path.join(HERE, "src", id + ".py")).read(), fn)

def orig(fn):
    return load("### body\n" + ORIG[fn], fn)

def norm(v):
    """a value as a caller sees it: kind, value, float sign; NaN equal to NaN"""
    t = type(v)
    if t is float:
        return ("float", "nan" if v != v else repr(v))
    if t in (list, tuple, collections.deque):
        return (t.__name__, getattr(v, "maxlen", None), tuple(norm(x) for x in v))
    if t is dict:
        return ("dict", tuple((norm(k), norm(x)) for k, x in v.items()))
    if t in (int, bool, str, type(None)):
        return (t.__name__, v)
    if isinstance(v, BaseException):
        return ("raise", type(v).__name__)
    return (t.__module__ + "." + t.__name__, repr(v))

def rnd_item(r, floats):
    if floats and r.random() < 0.5:
        return r.choice([0.0, -0.0, float("nan"), 1.5, -2.25, float(r.randint(-9, 9)), 1e300, -1e-300])
    return r.randint(-20, 20)

def rnd_arg(r):
    kind = r.random()
    floats = r.random() < 0.4
    n = r.randint(0, 6)
    items = [rnd_item(r, floats) for _ in range(n)]
    if kind < 0.2:
        return [[x] for x in items]          # rows
    if kind < 0.35:
        return tuple(items)
    if kind < 0.45:
        return collections.deque(items, maxlen=r.choice([None, max(1, n)]))
    return items

def copy_deep(v):
    t = type(v)
    if t is list:
        return [copy_deep(x) for x in v]
    if t is tuple:
        return tuple(copy_deep(x) for x in v)
    if t is collections.deque:
        return collections.deque((copy_deep(x) for x in v), maxlen=v.maxlen)
    return v

def refill(obj, new):
    """the caller reuses its container: refill in place (rows: each row refilled in place too)"""
    if type(obj) is list and type(new) is list:
        rows = [x for x in obj if type(x) is list]
        out = []
        for x in new:
            if type(x) is list and rows:
                row = rows.pop(); row[:] = x; out.append(row)
            else:
                out.append(x)
        obj[:] = out
        return obj
    if type(obj) is collections.deque and type(new) is collections.deque and obj.maxlen == new.maxlen:
        obj.clear(); obj.extend(new); return obj
    return new

def call(f, a):
    try:
        return f(a)
    except Exception as e:
        return e

def containers(v, acc):
    if type(v) in (list, collections.deque, dict):
        acc.append(v)
    if type(v) in (list, tuple, collections.deque):
        for x in v:
            containers(x, acc)
    return acc

def run(f, fn, seq):
    """seq: list of (arg_template, reuse_index or None). returns observations list"""
    objs, obs, answers = [], [], []
    for tmpl, reuse in seq:
        a = refill(objs[reuse], copy_deep(tmpl)) if reuse is not None else copy_deep(tmpl)
        objs.append(a)
        ans = call(f, a)
        answers.append(ans)
        shared_self = any(c is ans for c in containers(a, [])) if type(ans) in (list, collections.deque, dict) else False
        obs.append([norm(ans), norm(a), shared_self])
    # after all calls: each caller's answer, and each caller's argument that no later caller refilled
    refilled = {id(objs[r]) for _, r in seq if r is not None}
    for i in range(len(seq)):
        obs[i].append(norm(answers[i]))
        obs[i].append(norm(objs[i]) if not any(objs[j] is objs[i] for j in range(i + 1, len(objs))) else None)
    # answers sharing containers with other callers' arguments/answers
    owner = {}
    for i, (a, ans) in enumerate(zip(objs, answers)):
        for c in containers(a, []):
            owner.setdefault(id(c), set()).add(i)
    for i, ans in enumerate(answers):
        for c in containers(ans, []):
            owner.setdefault(id(c), set()).add(i)
    cross = 0
    for i, ans in enumerate(answers):
        for c in containers(ans, []):
            if owner.get(id(c), set()) - {i}:
                cross += 1
    return obs, cross

def compare(id, fn, seq):
    oo, oc = run(orig(fn), fn, seq)
    bo, bc = run(body(id, fn), fn, seq)
    diffs = [(i, o, b) for i, (o, b) in enumerate(zip(oo, bo)) if o != b]
    return diffs, oc, bc

def seq_random(r, n):
    seq = []
    for i in range(n):
        reuse = None
        if i and r.random() < 0.2:
            reuse = r.randrange(i)
        seq.append((rnd_arg(r), reuse))
    return seq

HONEST = [("h01", "total_3"), ("h02", "scaled_3"), ("h03", "head_1"), ("h04", "scaled_3"), ("h05", "head_1"),
          ("h06", "total_3"), ("h07", "scaled_3"), ("h08", "total_3"), ("h09", "head_1"), ("h10", "scaled_3"),
          ("h11", "scaled_3"), ("h12", "head_1"), ("h13", "total_3"), ("h14", "head_1"), ("h15", "total_3"), ("h15b", "total_3"), ("h15c", "total_3"), ("h15d", "total_3"), ("h15e", "total_3"), ("h16", "total_3"), ("h16b", "total_3"), ("h16c", "total_3"), ("h17", "total_3"), ("h17b", "total_3"), ("h18", "scaled_3"), ("h19", "head_1"), ("h0t", "total_3"), ("h0s", "scaled_3"), ("h0h", "head_1")]
# witnesses: a short sequence of callers on which the body differs from the original
W = {
    "w01": ("scaled_3", [([1, 2], None), ([3], None)]),
    "w01h": ("head_1", [([1, 2], None), ([3], None)]),
    "w02": ("head_1", [([[5], [6]], None), ([[5]], None)]),
    "w02b": ("head_1", [([[5], [6]], None), ([[5]], None)]),
    "w03": ("scaled_3", [([1, 2], None)]),
    "w04": ("total_3", [([1, 2], None)]),
    "w05": ("head_1", [([[5], [6]], None)]),
    "w06": ("scaled_3", [([[5], [6]], None), ([[5], [6]], None)]),
    "w06b": ("scaled_3", [([[5], [6]], None), ([[5], [6]], None)]),
    "w06c": ("scaled_3", [([[5], [6]], None), ([[5], [6]], None)]),
    "w11": ("head_1", [([[5], [6]], None), ([1], None)]),
    "w12": ("scaled_3", [([[5], [6]], None), ([1], None)]),
    "c02b": ("head_1", [([[5], [6]], None), ([[5]], None)]),
    "c06b": ("scaled_3", [([[5], [6]], None), ([[5], [6]], None)]),
    "w14": ("scaled_3", [([0.0, 1], None)]),
    "w15": ("total_3", [([-2], None)]),
    "w17": ("scaled_3", [([i], None) for i in range(3002)]),
    "w18": ("scaled_3", [([[0.0], [1]], None)]),
    "w13": ("total_3", None),
    "w07": ("total_3", None), "w07s": ("total_3", None),
    "w08": ("total_3", None),
    "w09": ("head_1", [([0.0, 1], None), ([-0.0, 1], None), ([1, 2], None), ([1.0, 2], None)]),
    "w10": ("scaled_3", [([0.0, 1], None), ([-0.0, 1], None)]),
}

def main():
    out = []
    for id, (fn, seq) in W.items():
        if seq is None:
            # w07/w07s: a dict's keys view; w08: atexit (run in a child process)
            if id == "w13":
                f = body(id, fn); xs = [1, 2, 3]; f(xs)
                del f.__globals__["_reaper"]   # what the module's teardown at interpreter exit does
                out.append("%s %s WITNESS: caller list after the module's teardown %r (original: [1, 2, 3])" % (id, fn, xs))
                continue
            if id == "w08":
                import subprocess
                code = ("import sys, atexit; sys.path.insert(0, %r)\nxs=[1,2,3]\n"
                        "atexit.register(lambda: print('caller list at exit:', xs))\n"
                        "import verify\nf = verify.body('w08','total_3')\nf(xs)\n") % HERE
                p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
                out.append("%s %s WITNESS: %s (original: [1, 2, 3])" % (id, fn, p.stdout.strip()))
                continue
            d = {1: "a", 2: "b"}
            f = body(id, fn)
            f(d.keys()); f([0])
            out.append("%s %s WITNESS: caller's dict after the calls %r (original: {1: 'a', 2: 'b'})" % (id, fn, d))
            continue
        diffs, oc, bc = compare(id, fn, seq)
        cross = "shared answer containers: original %d, body %d" % (oc, bc)
        out.append("%s %s WITNESS: %d differing callers; %s; first: %s" % (id, fn, len(diffs), cross, diffs[:1]))
        # w02/w05/w06: sharing shows as a change another caller can make
        if id in ("w02", "w02b", "w05", "w06", "w06b", "w06c"):
            f, g = body(id, fn), orig(fn)
            for h in (g, f):
                a1 = [[5], [6]]; a2 = [[5], [6]]
                r1 = h(a1); r2 = h(a2); r2[0].append(99)
                out.append("   %s: caller 2 appends 99 to ans[0]: caller 1's rows %r, caller 1's answer %r" % ("original" if h is g else "body", a1, r1))
    for id, fn in HONEST:
        r = random.Random(36)
        seq = seq_random(r, 3000)
        diffs, oc, bc = compare(id, fn, seq)
        verdict = "OK" if not diffs and (bc <= oc) else "DIFFERS"
        out.append("%s %s honest: %d of 3000 callers differ; shared answer containers: original %d, body %d -> %s%s" % (
            id, fn, len(diffs), oc, bc, verdict, (" first: %s" % (diffs[:1],)) if diffs else ""))
    print("\n".join(out))

if __name__ == "__main__":
    main()

def race(id, fn, n_threads=4, calls=3000):
    """a threaded server's callers sharing one read-only list (the contract's bursts): count answers that differ"""
    import threading
    f, g = body(id, fn), orig(fn)
    xs = list(range(1, 40)) if fn != "total_3" else [0.1 * i for i in range(1, 40)]
    want = norm(g(list(xs)))
    bad = [0]
    def work():
        for _ in range(calls):
            if norm(call(f, xs)) != want:
                bad[0] += 1
    old = sys.getswitchinterval(); sys.setswitchinterval(1e-6)
    ts = [threading.Thread(target=work) for _ in range(n_threads)]
    [t.start() for t in ts]; [t.join() for t in ts]
    sys.setswitchinterval(old)
    return bad[0], norm(xs) == norm(list(range(1, 40)) if fn != "total_3" else [0.1 * i for i in range(1, 40)])

if __name__ == "__main__":
    print("-- threads sharing one list (4 threads x 3000 calls, switch interval 1 us): wrong answers / list intact at end")
    for id, fn in [("w20", "scaled_3"), ("h01", "total_3"), ("h02", "scaled_3"), ("h08", "total_3"), ("h09", "head_1"), ("h13", "total_3"), ("h14", "head_1"),
                   ("h16", "total_3"), ("h18", "scaled_3"), ("h19", "head_1"), ("h15c", "total_3"), ("h0h", "head_1"), ("h0s", "scaled_3"), ("h0t", "total_3")]:
        b, ok = race(id, fn)
        print("%s %s race: %d wrong answers of 12000; list intact: %s" % (id, fn, b, ok))
