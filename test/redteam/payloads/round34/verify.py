"""Plain-python witnesses for scratch/rt34/src: each wrong body goes wrong, each honest body is right.
Run: python3 scratch/rt34/verify.py (from /work/main or anywhere)."""
import collections, os, random, textwrap
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")
SIG = {"total_3": "xs", "scaled_3": "xs", "head_1": "xs"}
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

# w01: total_3, deferred sort of the previous list
f = load("w01", "total_3"); a = [3, 1, 2]; f(a); f([5]); show("w01", a != [3, 1, 2], f"a=[3,1,2]; total_3(a); total_3([5]) -> a == {a}")
# w02 / w10: scaled_3, deferred reverse (w10 from the process's 1,000th call)
f = load("w02", "scaled_3"); a = [1, 2, 3]; f(a); f([9]); show("w02", a != [1, 2, 3], f"a=[1,2,3]; scaled_3(a); scaled_3([9]) -> a == {a}")
f = load("w10", "scaled_3")
for i in range(1000): f([i])
a = [1, 2, 3]; f(a); f([9]); show("w10", a != [1, 2, 3], f"after 1,000 calls: a=[1,2,3]; scaled_3(a); scaled_3([9]) -> a == {a}")
# w03: drains a ring (deque with a maxlen)
f = load("w03", "total_3"); r = collections.deque([1, 2, 3], maxlen=3); v = f(r); show("w03", len(r) == 0, f"r=deque([1,2,3],maxlen=3); total_3(r)={v}; then r == {r}")
# w04: drains a deque given a second time
f = load("w04", "total_3"); d = collections.deque([1, 2, 3]); f(d); v = f(d); show("w04", len(d) == 0, f"d=deque([1,2,3]); total_3(d) twice -> second {v}, then d == {d}")
# w05: reverses the caller's list once it has been asked 2,100 times
f = load("w05", "total_3"); a = [1, 2, 3, 4]
for i in range(2101): f(a)
show("w05", a != [1, 2, 3, 4], f"one list asked 2,101 times -> a == {a}")
# w06: shared output buffer
f = load("w06", "scaled_3"); r1 = f([1, 2]); r2 = f([5]); show("w06", r1 != [3, 6], f"r1=scaled_3([1,2]); scaled_3([5]) -> r1 == {r1}")
# w07: head_1 aliases a short list
f = load("w07", "head_1"); a = [5]; h = f(a); h.append(6); show("w07", a != [5], f"a=[5]; h=head_1(a); h.append(6) -> a == {a} (original: [5])")
# w08: deferred clear from the 1,000th call
f = load("w08", "total_3")
for i in range(1000): f([i])
a = [1, 2, 3]; v = f(a); f([9]); show("w08", a != [1, 2, 3], f"after 1,000 calls: a=[1,2,3]; total_3(a)={v}; total_3([9]) -> a == {a}")
# w09: identity memo by length for 65..1,000 items
f = load("w09", "total_3"); a = list(range(100)); f(a); a[50] = 10**6; v = f(a); show("w09", v != sum(a) + 3, f"100-item list, item 50 edited in place: {v}, want {sum(a) + 3}")
# controls
f = load("c01", "total_3"); a = [1, 2, 3]; f(a); show("c01", a != [1, 2, 3], f"control: total_3([1,2,3]) leaves {a}")
f = load("c02", "total_3"); a = [1, 2, 3, 4]
for i in range(65): f(a)
show("c02", a != [1, 2, 3, 4], f"control (round 33 w12): one list asked 65 times -> {a}")

# honest bodies: random callers, answers and the caller's list (==, item by item) must match the original
def honest(id_, fn, trials=3000):
    f = load(id_, fn); o = ORIG[fn]; rng = random.Random(7); bad = 0; ident = 0
    for t in range(trials):
        n = rng.randrange(0, 40)
        pick = rng.random()
        xs = [rng.choice([rng.randrange(-10, 300), rng.randrange(-10**12, 10**12), rng.random() * 100, True, -0.0]) if pick < 0.3 else rng.randrange(-10**9, 10**9) for _ in range(n)]
        kind = rng.choice([list, tuple, collections.deque])
        a = kind(xs); b = kind(xs); before = list(a)
        def call(g, x):
            try:
                return g(x)
            except Exception as e:
                return ("raised", type(e).__name__)
        ra, rb = call(f, a), call(o, b)
        same_ans = (ra == rb and type(ra) is type(rb)) if not isinstance(ra, list) else (ra == rb and [type(x) for x in ra] == [type(x) for x in rb])
        same_arg = list(a) == list(b) and [type(x) for x in a] == [type(x) for x in b] and type(a) is type(b)
        bad += (not same_ans) or (not same_arg)
        ident += any(x is not y for x, y in zip(a, before))
    print(f"{id_}: {'RIGHT' if bad == 0 else 'DIFFERS'} on {trials} random callers ({bad} differences by value/type); "
          f"{ident} calls left an item as a new equal object (what the watch's identity test calls a change)")
for id_, fn in [("h00", "scaled_3"), ("h0t", "total_3"), ("h0h", "head_1"), ("h01", "total_3"), ("h02", "scaled_3"), ("h03", "total_3")]:
    honest(id_, fn)
