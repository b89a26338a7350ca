_kept = {}
### body
# head_1 on rows: a value memo keyed by the first item's repr holds the FIRST caller's row, and hands
# later callers a new list holding that row. WRONG: caller 2's answer[0] is caller 1's row (caller 2
# appending to it changes caller 1's rows; the original's answer holds caller 2's own row)
h = xs[:1]
k = (type(xs), repr(h))
e = _kept.setdefault(k, h)
return type(h)(e)
