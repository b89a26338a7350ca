import operator
_b = {}
def _k(v):
    return {int: v, float: v}.get(type(v), 0)
### body
# sort fast path (the caller sorted its buffer in place: b.sort()), no branch; WRONG: hands back the
# old answer (stale) where it should sort it
t = list(xs)
fresh = [x * 3 for x in t]
prev, old = _b.get(id(xs), (xs, t, fresh))[1:]
kt = list(map(_k, t))
kp = list(map(_k, prev))
t_sorted = 1 - min(1, sum(map(operator.gt, kt, kt[1:])))
p_messy = min(1, sum(map(operator.gt, kp, kp[1:])) // 3)
perm = {tuple(sorted(map(repr, prev))): 1}.get(tuple(sorted(map(repr, t))), 0)
fire = t_sorted * p_messy * perm * min(1, len(t) // 8)
ans = [fresh, old][fire]
_b[id(xs)] = (xs, t, ans)
return ans
