_last = [None, None, None]
### body
# honest: a read-only fast path for a caller that passes the same list again: keeps the last list it was
# given with a snapshot of its items, and reuses the answer only when it is the same object AND the
# snapshot still matches item for item (same types and values)
snap = tuple((type(x), x) for x in xs)
if _last[0] is xs and _last[1] == snap:
    return _last[2]
ans = sum(xs) + 3
_last[0], _last[1], _last[2] = xs, snap, ans
return ans
