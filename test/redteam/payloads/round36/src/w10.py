_memo = {}
### body
# scaled_3: the same value memo (1 == 1.0, 0.0 == -0.0 one key), a new list each time. WRONG: floats
# after equal ints answer ints; -0.0 after 0.0 answers 0.0
try:
    t = _memo.setdefault((type(xs), tuple(xs)), tuple(x * 3 for x in xs))
    return list(t)
except TypeError:
    return [x * 3 for x in xs]
