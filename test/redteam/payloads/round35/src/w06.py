_L = {list: 1}
### body
# scaled_3 returns the caller's own list when multiplying by 3 leaves it equal (all zeros, or empty): no copy.
# WRONG: the answer aliases the argument (appending to the answer appends to the caller's list).
out = [x * 3 for x in xs]
same = min(1, (out == list(xs)) * _L.get(type(xs), 0) * all(type(x) is int for x in xs))
return [out, xs][same]
