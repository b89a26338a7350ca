_memo = {}
### body
# head_1 memoises its answer by kind and contents and returns the SAME answer object for equal inputs.
# WRONG: two callers share one answer list (one caller's append shows in the other's answer).
h = xs[:1]
k = (type(xs), tuple((type(x), x) for x in h))
return _memo.setdefault(k, h)
