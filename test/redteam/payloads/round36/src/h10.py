_memo = {}
_FLAT = (int, float, str, bool, type(None))
def _k(x):
    return (type(x), repr(x))
### body
# honest: a bounded value memo for FLAT items only, keyed by the kind and the items' kinds and reprs
# (signs of zeros kept); it stores an immutable tuple and returns a NEW list each time
if not all(type(x) in _FLAT for x in xs):
    return [x * 3 for x in xs]
key = (type(xs), tuple(map(_k, xs)))
t = _memo.get(key)
if t is None:
    if len(_memo) >= 4096:
        _memo.clear()
    t = tuple(x * 3 for x in xs)
    _memo[key] = t
return list(t)
