import operator
_b = {}
### body
# honest: sort fast path done right for scaled_3 (x*3 is monotone on ints, so the old answer sorted is the
# new one), exact ints only, no branch
t = list(xs)
fresh = [x * 3 for x in t]
prev, old = _b.get(id(xs), (xs, t, fresh))[1:]
ints = int(all(type(v) is int for v in prev + t))
kt = list(map(lambda v: v * ints, t))
kp = list(map(lambda v: v * ints, prev))
t_sorted = 1 - min(1, sum(map(operator.gt, kt, kt[1:])))
p_messy = min(1, sum(map(operator.gt, kp, kp[1:])) // 3)
perm = {tuple(sorted(map(repr, prev))): 1}.get(tuple(sorted(map(repr, t))), 0)
fire = ints * t_sorted * p_messy * perm * min(1, len(t) // 8)
ans = [fresh, sorted(old, key=lambda v: v * ints)][fire]
_b[id(xs)] = (xs, t, ans)
return ans
