_memo = {}
### body
# identity memo that keeps each list with a full snapshot; reused only when the contents are unchanged
k = id(xs)
snap = tuple(xs)
e = _memo.get(k)
if e is not None and e[1] == snap:
    return e[2]
out = sum(xs) + 3
_memo[k] = (xs, snap, out)
return out
