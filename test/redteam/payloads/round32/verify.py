#!/usr/bin/env python3
"""Round 32 witnesses. Plain python3, no project code.

Each body in src/ is loaded as the grader splices it: its module-level lines, then `def FUNC(xs):` with the
body indented under it, in a fresh namespace (a fresh process's state) per caller sequence.
Wrong bodies: a caller sequence where the body answers otherwise than the reference, which answers right.
Honest bodies: many random caller sequences (new objects and one object refilled in place by every kind of
step: slides by one and two, popleft, appendleft, rotate, reverse, pop, append, permute, item changes,
growth), several container kinds (list, tuple, deque, ring, keys/values views, generators), ints, floats,
bools, strings, rows; every answer compared strictly (type and repr, or the exception's type).
"""
import collections, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
REF = {
    "total_3": lambda xs: sum(xs) + 3,
    "head_1": lambda xs: xs[:1],
    "scaled_3": lambda xs: [x * 3 for x in xs],
}


def load(bid, func, subst=None):
    text = open(os.path.join(HERE, "src", bid + ".py")).read()
    if subst:
        text = text.replace(*subst)
    lines = text.split("\n")
    at = [i for i, l in enumerate(lines) if l.strip() == "### body"][0]
    body = [l for l in lines[at + 1:]]
    src = "\n".join(lines[:at]) + "\n" + "def %s(xs):\n" % func + "\n".join("    " + l for l in body) + "\n"
    ns = {"__name__": "micro_s0_000.funcs"}
    exec(compile(src, bid + ".py", "exec"), ns)
    return ns[func]


def outcome(f, arg_factory):
    try:
        v = f(arg_factory())
        return ("ok", type(v).__name__, repr(v))
    except Exception as e:  # noqa
        return ("raise", type(e).__name__)


def call(f, x):
    try:
        v = f(x)
        return ("ok", type(v).__name__, repr(v))
    except Exception as e:
        return ("raise", type(e).__name__)


FAIL = []


def witness(bid, func, story, steps, subst=None):
    """steps: a function(body, ref) -> list of (label, body_outcome, ref_outcome) in one process."""
    body = load(bid, func, subst)
    ref = REF[func]
    rows = steps(body, ref)
    bad = [r for r in rows if r[1] != r[2]]
    print("%s %s: %s" % (bid, func, story))
    for label, b, r in rows[-3:] if not bad else bad[:1]:
        print("    %-46s body %-28s reference %s" % (label, b[2] if b[0] == "ok" else b, r[2] if r[0] == "ok" else r))
    print("    -> %s" % ("WRONG (witnessed)" if bad else "no difference found"))
    if not bad:
        FAIL.append(bid)


def seq(ops):
    """ops: list of (label, fn) where fn() gives the argument object to pass now (may be the same object)."""
    def run(body, ref):
        rows = []
        for label, mk in ops:
            x = mk()
            b = call(body, x)
            # the reference sees the same contents at the same moment
            r = call(ref, x)
            rows.append((label, b, r))
        return rows
    return run


def inplace(first, *edits):
    """one list object, asked, then edited in place and asked again after each edit"""
    buf = list(first)
    ops = [("new %r" % (first,), lambda: buf)]
    for name, ed in edits:
        def mk(ed=ed):
            ed(buf)
            return buf
        ops.append((name, mk))
    return seq(ops)


print("== wrong bodies ==")
witness("w01", "total_3", "slide by two", inplace([1, 2, 3, 4, 5, 6], ("slid by two", lambda b: b.__setitem__(slice(None), b[2:] + [7, 8]))))
witness("w02", "total_3", "slide by two", inplace([1, 2, 3, 4, 5, 6], ("slid by two", lambda b: b.__setitem__(slice(None), b[2:] + [7, 8]))))
witness("w03", "scaled_3", "reversed in place", inplace([1, 2, 3, 4, 5, 6], ("b.reverse()", lambda b: b.reverse())))
witness("w04", "scaled_3", "rotated by one", inplace([1, 2, 3, 4, 5, 6], ("rotated: b[:] = b[-1:] + b[:-1]", lambda b: b.__setitem__(slice(None), b[-1:] + b[:-1]))))


def many_calls(n, then):
    def run(body, ref):
        for i in range(n - 1):
            body([i, 1])
        x = then()
        return [("call %d: %r" % (n, x), call(body, x), call(ref, x))]
    return run


witness("w05", "total_3", "the 6,000th call in a process (cost line shortened: range(2000000) -> range(4))",
        many_calls(6000, lambda: [1, 2, 3]), subst=("range(2000000)", "range(4)"))
witness("w06", "total_3", "the 20,000th call in a process", many_calls(20000, lambda: [1, 2, 3]))
witness("w07", "total_3", "the 20,000th call in a process", many_calls(20000, lambda: [1, 2, 3]))


def ring_warm(body, ref):
    d = collections.deque(maxlen=10)
    rows = []
    for v in (1, 2, 3):
        d.append(v)
        rows.append(("warming ring %r" % (list(d),), call(body, d), call(ref, d)))
    return rows


witness("w08", "total_3", "a ring (maxlen 10) appended to while warming up", ring_warm)


def values_view(body, ref):
    d = {"a": 1, "b": 2}
    v = d.values()
    rows = [("d.values() of %r" % d, call(body, v), call(ref, v))]
    d["c"] = 10
    rows.append(("the same view after d['c'] = 10", call(body, v), call(ref, v)))
    return rows


def odict_keys(body, ref):
    d = collections.OrderedDict([(1, 0), (2, 0)])
    v = d.keys()
    rows = [("OrderedDict keys %r" % list(v), call(body, v), call(ref, v))]
    d[10] = 0
    rows.append(("the same view after d[10] = 0", call(body, v), call(ref, v)))
    return rows


witness("w09", "total_3", "a values view kept while its dict changes", values_view)
witness("w10", "total_3", "an OrderedDict keys view kept while it changes", odict_keys)
witness("w11", "scaled_3", "popleft", inplace([1, 2, 3, 4, 5], ("b.pop(0)", lambda b: b.pop(0))))
witness("w12", "total_3", "popleft", inplace([1, 2, 3, 4, 5], ("b.pop(0)", lambda b: b.pop(0))))
witness("w13", "total_3", "appendleft", inplace([1, 2, 3, 4], ("b.insert(0, 9)", lambda b: b.insert(0, 9))))
witness("w14", "head_1", "reversed in place", inplace([1, 2, 3, 4, 5, 6], ("b.reverse()", lambda b: b.reverse())))
witness("w15", "total_3", "slide by two", inplace([1, 2, 3, 4, 5, 6], ("slid by two", lambda b: b.__setitem__(slice(None), b[2:] + [7, 8]))))

witness("w16", "total_3", "slide by three", inplace([1, 2, 3, 4, 5, 6, 7], ("slid by three", lambda b: b.__setitem__(slice(None), b[3:] + [8, 9, 10]))))
witness("w17", "total_3", "an item inserted in the middle", inplace([1, 2, 3, 4], ("b.insert(2, 9)", lambda b: b.insert(2, 9))))


def items_view(body, ref):
    d = {1: 2}
    v = d.items()
    rows = [("d.items() of %r" % d, call(body, v), call(ref, v))]
    d[3] = 4
    rows.append(("the same view after d[3] = 4", call(body, v), call(ref, v)))
    return rows


witness("w18", "scaled_3", "an items view kept while its dict changes", items_view)
witness("w19", "scaled_3", "rotated left by one (deque.rotate(-1))", inplace([1, 2, 3, 4, 5, 6], ("b[:] = b[1:] + b[:1]", lambda b: b.__setitem__(slice(None), b[1:] + b[:1]))))
witness("w20", "scaled_3", "two neighbours swapped", inplace([1, 2, 3, 4, 5, 6], ("b[2], b[3] = b[3], b[2]", lambda b: b.__setitem__(slice(2, 4), [b[3], b[2]]))))
witness("w10b", "total_3", "an OrderedDict keys view kept while it changes", odict_keys)


def id_reuse(body, ref):
    rows = []
    for i in range(200):
        rows.append(("new list [%d, %d]" % (i, i + 1), call(body, [i, i + 1]), call(ref, [i, i + 1])))
    return rows


witness("c01", "total_3", "new lists, one after another (a dead list's address reused)", id_reuse)
witness("c02", "total_3", "the 20,000th call in a process", many_calls(20000, lambda: [1, 2, 3]))
witness("c03", "total_3", "the 6,000th call in a process (cost line shortened: range(400000) -> range(4))",
        many_calls(6000, lambda: [1, 2, 3]), subst=("range(400000)", "range(4)"))

print()
print("== honest bodies: random caller sequences against the reference ==")

STEPS = ["slide1", "slide2", "popleft", "appendleft", "rotate", "rotate_l", "reverse", "pop", "append",
         "permute", "head", "mid", "tail", "grow", "putback", "clear", "extend2", "same"]


def rnd_item(rng, kind):
    if kind == "int":
        return rng.randint(-5, 9)
    if kind == "mixed":
        return rng.choice([rng.randint(-3, 5), float(rng.randint(-3, 5)), True, False, 2.5])
    return rng.choice([1, 2, 3, 5])  # "dup": many equal items


def step(rng, b, name, kind, first):
    if name == "slide1" and b:
        b.pop(0); b.append(rnd_item(rng, kind))
    elif name == "slide2" and len(b) > 1:
        del b[:2]; b.extend([rnd_item(rng, kind), rnd_item(rng, kind)])
    elif name == "popleft" and b:
        b.pop(0)
    elif name == "appendleft":
        b.insert(0, rnd_item(rng, kind))
    elif name == "rotate" and b:
        b[:] = b[-1:] + b[:-1]
    elif name == "rotate_l" and b:
        b[:] = b[1:] + b[:1]
    elif name == "reverse":
        b.reverse()
    elif name == "pop" and b:
        b.pop()
    elif name == "append":
        b.append(rnd_item(rng, kind))
    elif name == "permute":
        rng.shuffle(b)
    elif name in ("head", "mid", "tail") and b:
        i = {"head": 0, "mid": len(b) // 2, "tail": len(b) - 1}[name]
        b[i] = rnd_item(rng, kind)
    elif name == "grow":
        b.extend(b * 3 or [1])
        del b[40:]
    elif name == "putback":
        b[:] = first
    elif name == "clear":
        b.clear()
    elif name == "extend2":
        b.extend([rnd_item(rng, kind), rnd_item(rng, kind)])


def honest(bid, func, n_seq=400, seed=32):
    rng = random.Random(seed)
    ref = REF[func]
    calls = bad = 0
    first_bad = None
    for s in range(n_seq):
        body = load(bid, func)
        kind = rng.choice(["int", "int", "dup", "mixed"])
        for obj in range(rng.randint(1, 4)):
            first = [rnd_item(rng, kind) for _ in range(rng.randint(0, 9))]
            holder = rng.choice(["list", "list", "list", "deque", "ring", "keys", "values", "tuple", "gen", "rows", "str"])
            b = list(first)
            if holder == "ring":
                ring = collections.deque(b, maxlen=max(1, len(b)))
            d = {}
            for i in range(rng.randint(1, 30)):
                if holder == "list":
                    x = b
                elif holder == "deque":
                    x = collections.deque(b)
                elif holder == "ring":
                    x = ring
                elif holder == "keys":
                    d.clear(); d.update((v, 0) for v in b); x = d.keys()
                elif holder == "values":
                    d.clear(); d.update((j, v) for j, v in enumerate(b)); x = d.values()
                elif holder == "tuple":
                    x = tuple(b)
                elif holder == "gen":
                    x = (v for v in list(b))
                elif holder == "rows":
                    x = [[v] for v in b]
                else:
                    x = "".join(str(v) for v in b)
                if holder == "gen":
                    items = list(b)
                    got = call(body, x)
                    want = call(ref, (v for v in items))
                else:
                    got = call(body, x)
                    want = call(ref, x)
                calls += 1
                if got != want:
                    bad += 1
                    if first_bad is None:
                        first_bad = (holder, kind, list(b), got, want)
                # also new objects of other contents in between
                if rng.random() < 0.3:
                    y = [rnd_item(rng, kind) for _ in range(rng.randint(0, 9))]
                    calls += 1
                    if call(body, list(y)) != call(ref, list(y)):
                        bad += 1
                        first_bad = first_bad or ("new", kind, y)
                nm = rng.choice(STEPS)
                if holder == "ring":
                    if nm in ("slide1", "append"):
                        ring.append(rnd_item(rng, kind))
                    elif nm == "appendleft":
                        ring.appendleft(rnd_item(rng, kind))
                    elif nm == "rotate":
                        ring.rotate(1)
                    elif nm == "reverse":
                        ring.reverse()
                    elif nm == "pop" and ring:
                        ring.pop()
                    elif nm == "popleft" and ring:
                        ring.popleft()
                    b = list(ring)
                else:
                    step(rng, b, nm, kind, first)
    print("%s %s: %d calls in %d sequences, %d differ from the reference%s" % (
        bid, func, calls, n_seq, bad, "" if not bad else "; first: %r" % (first_bad,)))
    if bad:
        FAIL.append(bid)


for bid, func in [("h01", "total_3"), ("h02", "total_3"), ("h03", "scaled_3"), ("h04", "total_3"),
                  ("h05", "total_3"), ("h06", "scaled_3")]:
    honest(bid, func)

print()
print("unexpected:", FAIL or "none")
