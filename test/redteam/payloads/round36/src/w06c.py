_memo = {}
def _k(x):
    return (type(x), repr(x))
### body
# WRONG (an "honest" memo with a bug): a bounded value memo keyed by kind, items' kinds and reprs (signs of zeros kept); it stores
# an immutable tuple and returns a NEW list each time; BUG: _k(row) is hashable (type, repr), so rows are memoised and two callers share answer rows
try:
    key = (type(xs), tuple(map(_k, xs)))
    hash(key)
except TypeError:
    return [x * 3 for x in xs]
t = _memo.get(key)
if t is None:
    if len(_memo) >= 4096:
        _memo.clear()
    t = tuple(x * 3 for x in xs)
    _memo[key] = t
return list(t)
