_prev = []
### body
# scaled_3 on rows: keeps the answer's inner rows and EMPTIES them at the next call. WRONG: a caller's
# answer rows are emptied after the call returned (the top-level answer list is left alone)
out = [x * 3 for x in xs]
for r in _prev:
    r.clear()
_prev[:] = [r for r in out if type(r) is list]
return out
