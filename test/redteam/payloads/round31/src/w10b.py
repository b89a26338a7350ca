_memo = {}
### body
# w10 on sliceable lists and tuples only (anything else is sliced, or refused, every time): value memo keyed
# by the items alone, so [1] and [True], [1, 2] and (1, 2) share an entry
if type(xs) not in (list, tuple):
    return xs[:1]
try:
    key = tuple(xs)
    r = _memo.get(key)
except TypeError:
    return xs[:1]
if r is None:
    r = _memo[key] = xs[:1]
return r[:]
