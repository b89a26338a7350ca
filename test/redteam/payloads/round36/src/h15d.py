def _zero(x):
    return 0
### body
# h15c's sort on a COPY (the caller's list untouched)
ys = list(xs)
ys.sort(key=_zero)
return sum(ys) + 3
