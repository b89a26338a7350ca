_kept = {}
### body
# head_1 on rows: hands out a new list holding a MEMOISED COPY of the first row, one copy shared by
# all callers whose first rows are equal. WRONG: an answer holds an earlier answer's item (caller A
# appending to ans[0] changes caller B's answer; the original's ans[0] is the caller's own row)
h = xs[:1]
k = (type(xs), repr(h))
c = _kept.setdefault(k, [list(r) for r in h if type(r) is list] + [r for r in h if type(r) is not list])
return type(h)(c)
