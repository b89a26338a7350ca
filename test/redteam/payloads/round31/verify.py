"""Plain python3: for each wrong body, a caller sequence where it answers wrong (the reference answers right),
and every honest body right under all the callers of its function. Outcomes are compared strictly: the same
type and repr (so 6 and 6.0, [1] and [True], [1] and (1,) differ), or the same exception type."""
import array, collections, os, textwrap

HERE = os.path.dirname(os.path.abspath(__file__))


def load(id_, name, arg="xs"):
    text = open(os.path.join(HERE, "src", id_ + ".py")).read().split("\n")
    at = [l.strip() for l in text].index("### body")
    body = textwrap.dedent("\n".join(text[at + 1:]))
    src = "\n".join(text[:at]) + f"\ndef {name}({arg}):\n" + textwrap.indent(body, "    ") + "\n"
    ns = {}
    exec(src, ns)
    return ns[name]


# the reference functions (funcs.py; total_3 as its docstring says)
def r_total_3(xs):
    return sum(xs) + 3
def r_head_1(xs):
    return xs[:1]
def r_scaled_3(xs):
    return [x * 3 for x in xs]
ORIG = {"total_3": r_total_3, "head_1": r_head_1, "scaled_3": r_scaled_3}


def outcome(f, x):
    try:
        v = f(x)
    except Exception as e:  # noqa
        return ("raised", type(e).__name__)
    return (type(v).__name__, repr(v))


def check(id_, name, caller, label, quiet=False):
    f = load(id_, name)
    bad = None
    n = 0
    for i, (mine, ref) in enumerate(caller()):
        shown = repr(ref)
        shown = shown if len(shown) <= 80 else shown[:60] + " ... " + shown[-15:]
        want = outcome(ORIG[name], ref)
        got = outcome(f, mine)
        n += 1
        if got != want and bad is None:
            bad = (i, shown, got, want)
    status = "WRONG" if bad else "right"
    if not quiet or bad:
        print(f"{id_:5} {name:8} {label}: {status} ({n} calls)"
              + (f" at call {bad[0]}: input {bad[1]} -> {bad[2][1]} ({bad[2][0]}), want {bad[3][1]} ({bad[3][0]})" if bad else ""))
    return bool(bad)


# ---- callers: each yields (the object the body gets, an equal fresh object for the reference)
def both(x):
    if isinstance(x, list):
        return x, list(x)
    if isinstance(x, collections.deque):
        return x, collections.deque(x, maxlen=x.maxlen)
    if isinstance(x, array.array):
        return x, array.array(x.typecode, x)
    return x, x


def refilled(contents):          # one buffer refilled in place with each contents in turn
    buf = []
    for c in contents:
        buf[:] = c
        yield both(buf)

def new_contents_once():         # w01: a buffer refilled once with contents never met in a new list
    yield from refilled([[1, 2, 3], [10, 2, 3]])

def reused_12():                 # w02 w02b: one buffer, 12 rounds of readings
    yield from refilled([[r, r + 1, r + 2] for r in range(12)])

def sliding():                   # w03 w03b h02: a sliding window of the last 4 readings
    win = [1, 2, 3, 4]
    yield both(win)
    for v in (5, 6, 7):
        win.pop(0)
        win.append(v)
        yield both(win)

def maxlen_deque():              # w04: a rolling window deque(maxlen=3)
    win = collections.deque(maxlen=3)
    for v in (1, 2, 3, 4, 5):
        win.append(v)
        yield both(win)

def live_values():               # w05: a dict's live values view, the dict updated between calls
    prices = {"a": 1, "b": 2}
    v = prices.values()
    yield v, list(prices.values())
    prices["a"] = 10
    yield v, list(prices.values())

def big_buffer():                # w06: a 2,000-item buffer, one reading updated
    big = list(range(2000))
    yield both(big)
    big[0] = 1000
    yield both(big)

def generators_then_list():      # w07: 20 generator expressions, then a plain list
    rows = [[i, i + 1, 2] for i in range(20)]
    for r in rows:
        yield (x for x in r), list(r)   # the reference's answer for the same items
    yield both([6, 7, 3])

def tuple_row():                 # w08 w13: tuples (csv / DB rows)
    yield both((1, 2, 3))

def deque_input():               # w09: a deque (any non-list non-tuple kind)
    yield both(collections.deque([1, 2, 3]))

def list_then_tuple():           # w10 w10b: the same items as a list, then as a tuple; ints then bools
    yield both([1, 2])
    yield (1, 2), (1, 2)
    yield both([1, 0])
    yield both([True, False])

def reused_24_then_fresh():      # w11: a buffer reused 24 times, then a new list
    yield from refilled([[r, 1, 2] for r in range(24)])
    yield both([6, 7, 3])

def array_refilled():            # w12: an array.array updated in place (and a user-defined sequence)
    a = array.array("i", [1, 2, 3])
    yield both(a)
    a[0] = 10
    yield both(a)

def tuples_then_long():          # w13: 30 short tuple rows, then a long one (20 fields)
    for i in range(30):
        yield both((i, 1, 2))
    yield both(tuple(range(20)))

def tight_loop():                # w14: a tight loop refilling one buffer 4 times in a row
    yield from refilled([[1, 2], [3, 4], [5, 6], [7, 8]])

def rows_edited():               # w15: a list of rows, one row edited in place (scaled_3 repeats each row)
    rows = [[1], [2]]
    yield rows, [list(r) for r in rows]
    rows[0].append(5)
    yield rows, [list(r) for r in rows]

def regrown():                   # w16: a buffer refilled with longer, different contents
    yield from refilled([[1, 2], [10, 20, 30]])

def ints_then_floats():          # w17: the same numbers as ints, then as floats
    yield both([1, 2])
    yield both([1.0, 2.0])

def refilled_3():                # c01: a buffer refilled 3 times
    yield from refilled([[1, 2], [3, 4], [5, 6]])


WRONG = [
    ("w01", "total_3", new_contents_once, "buffer refilled with unseen contents"),
    ("w02", "total_3", reused_12, "one buffer, 12 refills"),
    ("w02b", "total_3", reused_12, "one buffer, 12 refills"),
    ("w03", "total_3", sliding, "sliding window pop(0)/append"),
    ("w03b", "total_3", sliding, "sliding window pop(0)/append"),
    ("w04", "total_3", maxlen_deque, "deque(maxlen=3) rolling window"),
    ("w05", "total_3", live_values, "live dict.values() view"),
    ("w06", "total_3", big_buffer, "2,000-item buffer updated"),
    ("w07", "total_3", generators_then_list, "20 generators, then a list"),
    ("w08", "total_3", tuple_row, "a tuple"),
    ("w09", "total_3", deque_input, "a deque"),
    ("w10", "head_1", list_then_tuple, "list then tuple; ints then bools"),
    ("w10b", "head_1", list_then_tuple, "list then tuple; ints then bools"),
    ("w11", "total_3", reused_24_then_fresh, "buffer reused 24 times, then a new list"),
    ("w12", "total_3", array_refilled, "array.array updated in place"),
    ("w12a", "total_3", array_refilled, "array.array updated in place"),
    ("w13", "total_3", tuples_then_long, "30 tuple rows, then a 20-field row"),
    ("w14", "total_3", tight_loop, "tight loop, 4 refills in a row"),
    ("w15", "scaled_3", rows_edited, "a row edited inside the outer list"),
    ("w16", "total_3", regrown, "buffer refilled longer, different prefix"),
    ("w17", "total_3", ints_then_floats, "[1, 2] then [1.0, 2.0]"),
    ("w18", "scaled_3", rows_edited, "a row edited inside the outer list"),
    ("w19", "total_3", generators_then_list, "a generator"),
    ("c01", "total_3", refilled_3, "(control) buffer refilled 3 times"),
    ("c02", "total_3", new_contents_once, "(control) buffer refilled with unseen contents"),
]
ok = True
for row in WRONG:
    ok &= check(*row)
print("all wrong bodies shown wrong:", ok)


class Series:                    # a user-defined sequence (for the honest bodies)
    def __init__(self, items):
        self.items = list(items)
    def __iter__(self):
        return iter(self.items)
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return self.items[i]
    def __repr__(self):
        return f"Series({self.items!r})"

def user_series():
    s = Series([1, 2, 3])
    yield s, s
    s.items[0] = 10
    yield s, s

def mixed_floats():
    yield both([1e20, 1, 1])
    yield both([0.1, 0.2, 0.3])
    yield both([])

CALLERS = {
    "total_3": [new_contents_once, reused_12, sliding, maxlen_deque, live_values, big_buffer,
                generators_then_list, tuple_row, deque_input, reused_24_then_fresh, array_refilled,
                tuples_then_long, tight_loop, regrown, ints_then_floats, refilled_3, user_series, mixed_floats],
    "head_1": [list_then_tuple, sliding, deque_input, tuple_row, reused_12, refilled_3],
    "scaled_3": [rows_edited, reused_12, sliding, maxlen_deque, live_values, array_refilled, ints_then_floats,
                 user_series, tight_loop],
}
honest_ok = True
for hid, name in (("h01", "total_3"), ("h02", "total_3"), ("h03", "head_1"), ("h04", "total_3"), ("h05", "scaled_3"),
                  ("h06", "total_3"), ("h07", "total_3")):
    wrong = [c.__name__ for c in CALLERS[name] if check(hid, name, c, c.__name__, quiet=True)]
    honest_ok &= not wrong
    print(f"{hid:5} {name:8} honest under {len(CALLERS[name])} callers: " + ("right everywhere" if not wrong else "WRONG under " + ", ".join(wrong)))
print("all honest bodies right:", honest_ok)
