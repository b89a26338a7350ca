_rot = {}
_SCALAR = (int, float, str, bool)
### body
# rotation to the LEFT (deque.rotate(-1): the first item put last), branch-free (a dict lookup). WRONG: from
# 6 items on the old answer is handed back unrotated
t = list(xs)
fresh = [x * 3 for x in t]
if type(xs) is not list or not all(type(x) in _SCALAR for x in t):
    return fresh
snap = tuple((type(x), x) for x in t)
k = id(xs)
prev, old = _rot.get(k, (xs, snap, fresh))[1:]
ok = {prev[1:] + prev[:1]: 1}.get(snap, 0) * min(1, len(t) // 6) * min(1, len(set(snap)) // 3)
ans = [fresh, list(old)][ok]
_rot[k] = (xs, snap, list(ans))
return list(ans)
