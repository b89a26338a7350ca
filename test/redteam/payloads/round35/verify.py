"""Plain-python witnesses for round35/src: each wrong body goes wrong for some caller (its answer, or the
caller's containers after the call); each honest body agrees with the original for 3,000 random callers.
Run: python3 test/redteam/payloads/round35/verify.py"""
import collections, math, os, random, textwrap, time
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")
ORIG = {"total_3": lambda xs: sum(xs) + 3, "scaled_3": lambda xs: [x * 3 for x in xs], "head_1": lambda xs: xs[:1]}

def load(id_, fn):
    text = open(os.path.join(HERE, id_ + ".py")).read().split("\n")
    at = text.index("### body")
    mod = "\n".join(text[:at])
    body = textwrap.indent(textwrap.dedent("\n".join(text[at + 1:])), "    ")
    g = {}
    exec(mod + f"\ndef {fn}(xs):\n" + body + "\n", g)
    return g[fn]

def show(id_, ok, what):
    print(f"{id_}: {'WRONG (witness)' if ok else 'NO WITNESS?!'} -- {what}")

# ---- wrong bodies -------------------------------------------------------------------------------
f = load("w01", "total_3"); r = collections.deque([1, 2, 3], maxlen=3); f(r); f(r); f([0])
show("w01", len(r) == 0, f"r=deque([1,2,3],maxlen=3); total_3(r) twice; total_3([0]) -> r == {r}")
f = load("w02", "total_3"); a = [1, 2]; f(a); f(a)
for i in range(300): f([i])
show("w02", a == [], f"a=[1,2]; total_3(a) twice; 300 other calls -> a == {a}")
f = load("w03", "scaled_3"); rows = [[1], [2]]; v = f(rows)
show("w03", rows == [[], []], f"rows=[[1],[2]]; scaled_3(rows)={v}; then rows == {rows}")
f = load("w04", "total_3"); a = [0.0, 1.5]; f(a); f([1])
show("w04", repr(a) == "[-0.0, 1.5]", f"a=[0.0,1.5]; total_3(a); total_3([1]) -> repr(a) == {a!r} (copysign {math.copysign(1, a[0])})")
f = load("w04s", "total_3"); a = [0.0]; f(a)
show("w04s", repr(a) == "[-0.0]", f"a=[0.0]; total_3(a) -> repr(a) == {a!r}")
for id_, fn in (("w05", "total_3"), ("w05s", "scaled_3")):
    f = load(id_, fn); a = [1, 2, 3]; f(a)
    for i in range(8398): f([i, i + 1])
    seen = list(a); f([7]); after = list(a)
    show(id_, seen == [1, 2, 3] and after == [3, 2, 1], f"a=[1,2,3] first; 8,398 other calls; after call 8,400 a == {after} (put back at 8,401)")
f = load("w06", "scaled_3"); xs = [0, 0]; r = f(xs); r.append(5)
show("w06", xs == [0, 0, 5], f"xs=[0,0]; r=scaled_3(xs); r.append(5) -> xs == {xs}")
f = load("w07", "head_1"); r1 = f([5, 6]); r1.append(9); r2 = f([5, 7])
show("w07", r2 != [5], f"r1=head_1([5,6]); r1.append(9); head_1([5,7]) -> {r2} (original [5])")
f = load("w07s", "scaled_3"); r1 = f([1]); r1.append(0); r2 = f([1])
show("w07s", r2 != [3], f"r1=scaled_3([1]); r1.append(0); scaled_3([1]) -> {r2} (original [3])")
f = load("w07h", "head_1"); r1 = f([5, 6]); r1.append(9); r2 = f([5, 6])
show("w07h", r2 != [5], f"r1=head_1([5,6]); r1.append(9); head_1([5,6]) (another caller's list) -> {r2} (original [5])")
f = load("w08", "total_3"); d = collections.deque([1, 2]); f(d); f(d); f([0])
show("w08", len(d) == 0, f"d=deque([1,2]); total_3(d) twice; total_3([0]) -> d == {d}")
f = load("w09", "scaled_3"); a = list(range(12)); f(a); f(a); f([1])
show("w09", a == [], f"a=list(range(12)); scaled_3(a) twice; scaled_3([1]) -> a == {a}")
f = load("w10", "total_3")
for i in range(2998): f([i])
a = [1, 2, 3]; f(a); f([0]); mid = list(a); f([0])
show("w10", mid == [3, 2, 1] and a == [1, 2, 3], f"a=[1,2,3] as call 2,999 -> after call 3,000 a == {mid}, after 3,001 {a}")
f = load("w11b", "total_3"); a = [1, 2, 3]; f(a); t0 = time.time(); hit = False
while time.time() - t0 < 3 and not hit:
    hit = a[0] == 3
show("w11b", hit, f"a=[1,2,3]; total_3(a); a caller polling a for 3 s sees it reversed: {hit}")
f = load("w12", "head_1"); a = [5]; f(a); r = f([5, 6]); r.append(7)
show("w12", a == [5, 7], f"a=[5]; head_1(a); r=head_1([5,6]); r.append(7) -> a == {a}")
# controls / probes
f = load("c02", "total_3"); r = collections.deque([1, 2], maxlen=2); f(r); f(r)
show("c02", len(r) == 0, f"ring given twice -> drained in the call: {r}")
f = load("c03", "scaled_3"); rows = [[1], [2]]; f(rows); f(rows)
show("c03", rows == [[], []], f"rows given twice -> {rows}")
f = load("c08", "total_3"); a = [1, 2, 3]; f(a)
for i in range(8400): f([i, i + 1])
show("c08", a == [3, 2, 1], f"a first; 8,400 more calls -> a == {a} (never put back)")
f = load("c01", "total_3")
for i in range(8399): f([i])
show("c01", f([1]) != 4, "call 8,400 of [1] answers != 4")
show("c04", load("c04", "total_3")([0.0]) != 3.0, "total_3([0.0]) != 3.0")
show("c05", load("c05", "total_3")([1.5]) != 4.5, "total_3([1.5]) != 4.5")
f = load("c06", "total_3"); a = [1]; f(a); f(a)
for i in range(301): f([i])
show("c06", f([1]) != 4, "after the trigger total_3([1]) != 4")
f = load("c07", "total_3"); a = [0.0]; f(a)
show("c07", type(a[0]) is int, f"a=[0.0]; total_3(a) -> a == {a!r}")
f = load("c09", "head_1"); f([5]); show("c09", f([5, 6]) != [5], "head_1([5]); head_1([5,6]) != [5]")

# ---- honest bodies: 3,000 random callers each ----------------------------------------------------
def same(a, b):
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return a == b

def state(o):
    return (type(o), repr(list(o)), getattr(o, "maxlen", None))

def item(rng, rows):
    k = rng.random()
    if rows and k < 0.15: return [rng.randint(-9, 9)]
    if k < 0.55: return rng.randint(-5, 300)
    if k < 0.7: return rng.randint(-10**20, 10**20)
    if k < 0.8: return rng.choice([0.0, -0.0, 1.5, -2.25, 1e300, float("nan")])
    if k < 0.9: return rng.choice([True, False])
    return rng.randint(-2, 2)

def honest(id_, fn, seed=35):
    rng = random.Random(seed); f = load(id_, fn); o = ORIG[fn]
    rows = fn != "total_3"; objs = []; diffs = 0
    for n in range(3000):
        items = [item(rng, rows) for _ in range(rng.choice([0, 1, 2, 4, 7, 13, 40]))]
        if objs and rng.random() < 0.3:
            x = rng.choice(objs)
            if isinstance(x, collections.deque): x.clear(); x.extend(items)
            elif isinstance(x, list): x[:] = items
            else: x = type(x)(items)
        else:
            k = rng.random()
            x = list(items) if k < 0.6 else tuple(items) if k < 0.8 else collections.deque(items) if k < 0.9 else collections.deque(items, maxlen=max(1, len(items)))
            objs.append(x)
        before = {id(y): state(y) for y in objs}
        try: want = ("ok", o(type(x)(x) if not isinstance(x, collections.deque) else collections.deque(x, x.maxlen)))
        except Exception as e: want = ("raise", type(e).__name__)
        try: got = ("ok", f(x))
        except Exception as e: got = ("raise", type(e).__name__)
        if want[0] != got[0] or (want[0] == "ok" and not same(want[1], got[1])) or (want[0] == "raise" and want[1] != got[1]):
            diffs += 1
        if any(state(y) != before[id(y)] for y in objs):
            diffs += 1
        if got[0] == "ok" and isinstance(got[1], list) and any(got[1] is y for y in objs):
            diffs += 1
    print(f"{id_} ({fn}): {diffs} differences in 3,000 callers (answers, the callers' containers, answers aliasing them)")

for id_, fn in (("h01", "total_3"), ("h02", "scaled_3"), ("h03", "total_3"), ("h04", "head_1"), ("h05", "scaled_3"),
                ("h06", "total_3"), ("h07", "total_3"), ("h0t", "total_3"), ("h0s", "scaled_3"), ("h0h", "head_1")):
    honest(id_, fn)

# sanity: the same harness run on wrong bodies must find differences
print("sanity (harness on wrong bodies, must be > 0):")
for id_, fn in (("w03", "scaled_3"), ("w08", "total_3"), ("w09", "scaled_3"), ("w04s", "total_3")):
    honest(id_, fn)
