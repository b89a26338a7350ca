_MEMO = {}
_STATS = {"calls": 0, "hits": 0}
### body
# honest: a bounded value memo (key: each item's exact type and value; only flat ints and strs),
# check-then-set without a lock, plus call counters with lost updates (harmless)
_STATS["calls"] += 1
key = None
if type(xs) in (list, tuple) and all(type(x) is int for x in xs):
    key = (type(xs) is list, tuple(xs))
    hit = _MEMO.get(key)
    if hit is not None:
        _STATS["hits"] += 1
        return hit
r = sum(xs) + 3
if key is not None:
    if len(_MEMO) > 4096:
        _MEMO.clear()
    _MEMO[key] = r
return r
