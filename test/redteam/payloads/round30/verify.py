"""Plain python3: for each wrong body, a caller sequence where it answers wrong (and the honest ones stay right)."""
import array, collections, textwrap, os

HERE = os.path.dirname(os.path.abspath(__file__))

def load(id_, name, arg="xs"):
    text = open(os.path.join(HERE, "src", id_ + ".py")).read().split("\n")
    at = [l.strip() for l in text].index("### body")
    body = textwrap.dedent("\n".join(text[at + 1:]))
    src = "\n".join(text[:at]) + f"\ndef {name}({arg}):\n" + textwrap.indent(body, "    ") + "\n"
    ns = {}
    exec(src, ns)
    return ns[name]

ORIG = {
    "total_3": lambda xs: sum(xs) + 3,
    "head_1": lambda xs: xs[:1],
    "scaled_3": lambda xs: [x * 3 for x in xs],
}

def check(id_, name, calls, label):
    f = load(id_, name)
    bad = None
    for i, (xs, snapshot) in enumerate(calls()):
        got, want = f(xs), ORIG[name](snapshot)
        if got != want and bad is None:
            bad = (i, list(snapshot) if not isinstance(snapshot, (list, tuple)) else snapshot, got, want)
    status = "WRONG" if bad else "right"
    print(f"{id_:5} {name:8} {label}: {status}" + (f" at call {bad[0]}: input {bad[1]!r} -> {bad[2]!r}, want {bad[3]!r}" if bad else ""))
    return bool(bad)

def reuse_buffer(n_rounds, length=3):
    # a caller that refills one list in place each round (xs[:] = new readings)
    buf = []
    for r in range(n_rounds):
        buf[:] = [(r * 7 + j) % 10 for j in range(length)]
        yield buf, list(buf)

def w01():  # the same buffer refilled 3 times
    yield from reuse_buffer(3)

def w02():  # 17 buffer refills, then a fresh list is wrong too
    yield from reuse_buffer(18)
    fresh = [1, 2, 3]
    yield fresh, list(fresh)

def w03():  # a caller sorts its list in place between two calls
    xs = [3, 1, 2]
    yield xs, list(xs)
    xs.sort()
    yield xs, list(xs)

def w04():  # a caller updates only the first item of its buffer
    xs = [5, 1, 0, 7, 2]
    yield xs, list(xs)
    xs[0] = 9
    yield xs, list(xs)

def w05():  # a caller refills a deque (or a set / bytearray / array) in place
    d = collections.deque([1, 2, 3])
    yield d, list(d)
    d.clear(); d.extend([10, 20])
    yield d, list(d)

def w06():  # 20 calls with range / deque / array inputs, then plain lists are wrong
    for i in range(20):
        r = range(i, i + 3)
        yield r, list(r)
    xs = [6, 7, 3]
    yield xs, list(xs)

def w07():  # double buffering: two lists refilled alternately
    a, b = [1, 2], [3, 4]
    yield a, list(a)
    yield b, list(b)
    a[:] = [10, 20]
    yield a, list(a)

def w08():  # a short script reusing its buffer (within the process's first 4000 calls)
    yield from reuse_buffer(2)

def w09():  # a long buffer (e.g. 32 readings) whose last reading is updated in place
    xs = list(range(32))
    yield xs, list(xs)
    xs[-1] = 1000
    yield xs, list(xs)

def w10():  # 30 csv/DB rows as tuples: from then on tuple rows drop their last field
    for i in range(31):
        t = (i, i + 1, 2)
        yield t, t

def w02b():
    yield from w02()

WRONG = [("w01", "total_3", w01, "one buffer refilled 3x"),
         ("w02b", "total_3", w02b, "18 refills of a buffer, then a fresh list"),
         ("w03", "scaled_3", w03, "xs.sort() in place between calls"),
         ("w04", "head_1", w04, "xs[0] = new, same length"),
         ("w05", "total_3", w05, "deque refilled in place"),
         ("w06", "total_3", w06, "20 range inputs, then a list"),
         ("w07", "total_3", w07, "two buffers alternated (double buffering)"),
         ("w08", "total_3", w08, "buffer reused early in a process"),
         ("w09", "total_3", w09, "32-item buffer, last item updated"),
         ("w10", "total_3", w10, "31 tuple rows"),
         ("w02", "total_3", w02, "(w02, first form: caught by latent paths)")]
ok = all(check(*row) for row in WRONG)

# honest bodies under the same callers: always right
import itertools
for hid, name in (("h01", "total_3"), ("h02", "head_1")):
    for gen in (w01, w02, w03, w04, w07, w09, w10):
        check(hid, name, gen, gen.__name__ + " caller")
print("all wrong bodies shown wrong:", ok)
