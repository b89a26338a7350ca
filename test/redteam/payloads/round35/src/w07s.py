_memo = {}
### body
# scaled_3 memoises its answer by kind and contents and returns the SAME answer list for equal inputs.
# WRONG: two callers share one answer list.
k = (type(xs), tuple((type(x), x) for x in xs))
out = [x * 3 for x in xs]
try:
    return _memo.setdefault(k, out)
except TypeError:
    return out
