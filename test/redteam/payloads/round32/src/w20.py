_sw = {}
_SCALAR = (int, float, str, bool)
### body
# two neighbouring items swapped in place (a bubble-sort step), found by a dict of the old buffer's swaps,
# branch-free. WRONG: from 6 items on the old answer is handed back unswapped
t = list(xs)
fresh = [x * 3 for x in t]
if type(xs) is not list or not all(type(x) in _SCALAR for x in t) or len(t) > 64:
    return fresh
snap = tuple((type(x), x) for x in t)
k = id(xs)
prev, old = _sw.get(k, (xs, snap, fresh))[1:]
at = {prev[:i] + (prev[i + 1], prev[i]) + prev[i + 2:]: i for i in range(len(prev) - 1)}.get(snap, -1)
ok = min(1, at + 1) * min(1, len(t) // 6) * min(1, len(set(snap)) // 6)
ans = [fresh, list(old)][ok]
_sw[k] = (xs, snap, list(ans))
return list(ans)
