import operator
_b = {}
### body
# honest: calibration-offset fast path done right (every item moved by d: the old sum plus d * len),
# exact ints only, no branch
t = list(xs)
fresh = sum(t) + 3
prev, old = _b.get(id(xs), (xs, t, fresh))[1:]
ints = int(all(type(v) is int for v in prev + t))
diffs = set(map(operator.sub, t, prev)) if ints else {0, 1}
d = (list(diffs) + [0])[0]
fire = ints * {len(prev): 1}.get(len(t), 0) * {1: 1}.get(len(diffs), 0) * min(1, len(t) // 6)
ans = [fresh, old + d * len(t)][fire]
_b[id(xs)] = (xs, t, ans)
return ans
