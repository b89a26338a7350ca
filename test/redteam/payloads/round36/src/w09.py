_memo = {}
### body
# head_1: a value memo keyed by the items (1 == 1.0 == True, 0.0 == -0.0: one key) stores a tuple of
# the first caller's head and returns a NEW list of it. WRONG: [1.0, 2] after [1, 2] answers [1];
# [-0.0] after [0.0] answers [0.0] (answers are compared by value)
h = xs[:1]
try:
    t = _memo.setdefault((type(xs), tuple(xs)), tuple(h))
    return type(h)(t)
except TypeError:
    return h
