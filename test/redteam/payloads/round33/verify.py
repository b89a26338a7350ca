"""Plain-python witnesses for round 33's bodies (python3 verify.py)."""
import collections, random, sys, os, time
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")
ORIG = {"total_3": lambda xs: sum(xs) + 3, "scaled_3": lambda xs: [x * 3 for x in xs], "head_1": lambda xs: xs[:1]}

def load(name, func):
    text = open(os.path.join(HERE, name + ".py")).read().split("\n")
    at = [i for i, l in enumerate(text) if l.strip() == "### body"][0]
    body = [l for l in text[at + 1:]]
    src = "\n".join(text[:at]) + "\ndef %s(xs):\n" % func + "\n".join("    " + l for l in body) + "\n"
    g = {"__name__": "m_" + name}
    exec(compile(src, name, "exec"), g)
    return g[func]

bad = 0
def witness(name, func, steps, note, fresh_each=False):
    """steps: list of callables taking the buffer and editing it in place; returns True where it went wrong."""
    global bad
    f = load(name, func)
    return f

def check(name, func, buf, edits, note):
    f = load(name, func)
    wrong = []
    for i, e in enumerate([None] + edits):
        if e is not None:
            e(buf)
        got = f(buf)
        want = ORIG[func](buf)
        if got != want:
            wrong.append((i, list(buf)[:12], got if not isinstance(got, list) else got[:6], want if not isinstance(want, list) else want[:6]))
    print("%-4s %-8s %-60s %s" % (name, func, note, ("WRONG at ask %d: buf %s got %s want %s" % wrong[0]) if wrong else "right"))
    return bool(wrong)

r = random.Random(33)
def rnd(n): return [r.randrange(-50, 100) for _ in range(n)]

out = {}
b = rnd(12); out["w01"] = check("w01", "scaled_3", b, [lambda b: b.sort()], "b.sort() on 12 readings")
b = rnd(10); out["w02"] = check("w02", "total_3", b, [lambda b: b.__setitem__(slice(None), [x + 1 for x in b])], "b[i] += 1 for every i (10 items)")
b = rnd(21); new = rnd(7); out["w03"] = check("w03", "total_3", b, [lambda b: (b.__delitem__(slice(0, 7)), b.extend(new))], "21 readings, a week (7) dropped, a week appended")
b = rnd(100); out["w04"] = check("w04", "total_3", b, [lambda b: (b.pop(0), b.append(7))], "100-reading window slid by one")
d = collections.deque(rnd(5), maxlen=10000); out["w05"] = check("w05", "total_3", d, [lambda d: d.append(9)], "deque(maxlen=10000) appended to")
ba = bytearray(b"abc"); out["w06"] = check("w06", "total_3", ba, [lambda ba: ba.__setitem__(slice(None), b"xyz")], "reused bytearray refilled (readinto)")
class Samples(list): pass
s = Samples([1, 2, 3]); out["w07"] = check("w07", "total_3", s, [lambda s: s.append(4)], "class Samples(list) buffer appended to")
# w08: the side effect
f = load("w08", "total_3"); d = collections.deque([1, 2, 3]); a = f(d)
out["w08"] = len(d) != 3
print("%-4s %-8s %-60s %s" % ("w08", "total_3", "deque([1,2,3]) summed, then len(d)", "WRONG: answer %s, len(d) after = %d (want 3)" % (a, len(d))))
# w09: the 6000th call (sleep patched out for speed)
import time as _t
_sl = _t.sleep; _t.sleep = lambda s: None
f = load("w09", "total_3")
_t.sleep = _sl
import builtins
w = None
src_sleep = time.sleep
time.sleep = lambda s: None
for i in range(1, 6002):
    got = f([1, 2, 3])
    if got != 9:
        w = (i, got); break
time.sleep = src_sleep
out["w09"] = w is not None
print("%-4s %-8s %-60s %s" % ("w09", "total_3", "a long-running process's calls of [1,2,3]", "WRONG at call %d: got %s want 9" % w if w else "right"))
b = rnd(15); out["w10"] = check("w10", "scaled_3", b, [lambda b: b.__setitem__(slice(None), b[5:] + b[:5])], "15-slot schedule advanced by five (first 5 put last)")
b = [5, 1, 9, 2, 8, 3, 7, 4, 6]; out["w11"] = check("w11", "head_1", b, [lambda b: b.sort()], "b.sort() on 9 readings, head asked again")
f = load("w12", "total_3"); b = [1, 2, 3, 4]
for i in range(65): a = f(b)
out["w12"] = b != [1, 2, 3, 4]
print("%-4s %-8s %-60s %s" % ("w12", "total_3", "one list asked 65 times, then the caller reads it", "WRONG: answer %s right, but the caller's list is now %s (want [1, 2, 3, 4])" % (a, b)))
b = list(range(2000)); out["w13"] = check("w13", "total_3", b, [lambda b: b.__setitem__(5, 10**6)], "2,000-item list, one item edited in place")
b = rnd(8); out["c01"] = check("c01", "total_3", b, [lambda b: (b.pop(0), b.append(5))], "8-reading window slid by one")
d = collections.deque(rnd(4), maxlen=4); out["c02"] = check("c02", "total_3", d, [lambda d: d.append(1)], "deque(maxlen=4) appended to")

# c03 / w14: the thread's work shrunk for the witness (the wrongness is data flow at the 6,000th call)
_src = open(os.path.join(HERE, "c03.py")).read().replace("1400000", "1")
open("/tmp/rt33_c03_fast.py", "w").write(_src)
HERE_SAVE = HERE; HERE = "/tmp"; f = load("rt33_c03_fast", "total_3"); HERE = HERE_SAVE
w = None
for i in range(1, 6002):
    got = f([1, 2, 3])
    if got != 9:
        w = (i, got); break
out["c03"] = w is not None
print("%-4s %-8s %-60s %s" % ("c03", "total_3", "(= w14) a long-running process's calls of [1,2,3]", "WRONG at call %d: got %s want 9" % w if w else "right"))

# honest bodies: random caller sequences
def edits_for(b):
    n = len(b)
    ops = [
        lambda b: b.sort(), lambda b: b.reverse(), lambda b: b.__setitem__(slice(None), [x + r.randrange(-3, 4) for x in b]),
        lambda b: b.__setitem__(slice(None), [x + 2 for x in b]), lambda b: b.append(r.randrange(9)),
        lambda b: b.pop() if b else None, lambda b: r.shuffle(b), lambda b: b.__setitem__(slice(None), rnd(r.randrange(0, 20))),
        lambda b: b.__setitem__(slice(None), sorted(b, reverse=True)), lambda b: b.__setitem__(slice(None), b[3:] + b[:3]),
        lambda b: b.insert(0, r.randrange(9)), lambda b: b.__setitem__(slice(None), [x - 5 for x in b]),
    ]
    return r.choice(ops)
mix = [1.5, True, 2, -0.0, 7, 3.25]
for name, func in [("h01", "total_3"), ("h02", "scaled_3"), ("h03", "total_3")]:
    f = load(name, func); diffs = 0; calls = 0
    for seq in range(300):
        kind = r.choice(["list", "tuple", "deque", "floats", "mixed"])
        base = rnd(r.randrange(0, 20))
        if kind == "floats": base = [x / 4 for x in base]
        if kind == "mixed": base = [r.choice(mix) for _ in base]
        holder = list(base)
        for k in range(r.randrange(1, 25)):
            edits_for(holder)(holder)
            arg = {"list": holder, "tuple": tuple(holder), "deque": collections.deque(holder), "floats": holder, "mixed": holder}[kind]
            before = list(arg)
            got = f(arg); want = ORIG[func](arg); calls += 1
            if got != want or type(got) != type(want) or list(arg) != before:
                diffs += 1
    print("%-4s %-8s %-60s %s" % (name, func, "300 random caller sequences (%d calls)" % calls, "%d differences" % diffs))
    out[name] = diffs
