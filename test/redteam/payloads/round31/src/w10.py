_memo = {}
### body
# value memo: the first items of a sequence already seen are handed back (keyed by its items)
try:
    key = tuple(xs)
    r = _memo.get(key)
except TypeError:
    return xs[:1]
if r is None:
    r = _memo[key] = xs[:1]
return r[:]
