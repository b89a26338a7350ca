_tmemo = {}
_seen = []
### body
# tuples are hashable: memoized by value; lists are kept in a registry and computed fresh
if type(xs) is tuple:
    r = _tmemo.get(xs)
    if r is None:
        r = _tmemo[xs] = xs[:1]
    return r
_seen.append(xs)
return xs[:1]
