_memo = {}
### body
# head_1 memoises its answer by kind and the WHOLE contents and returns the SAME answer list for equal
# inputs (w07 keyed by the head only was caught: heads repeat among graded calls, whole inputs rarely).
# WRONG: two callers of equal lists share one answer list.
h = xs[:1]
try:
    k = (type(xs), tuple((type(x), x) for x in xs))
    return _memo.setdefault(k, h)
except TypeError:
    return h
