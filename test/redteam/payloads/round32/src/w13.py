_q = {}
### body
# producer fast path (appendleft: one new item at the front), branch-free. WRONG: the LAST item is added
# instead of the new first one
t = list(xs)
fresh = sum(t) + 3
k = id(xs)
prev, old = _q.get(k, (xs, t, fresh))[1:]
ok = {tuple(prev): 1}.get(tuple(t[1:]), 0) * min(1, len(t) // 4)
ans = fresh + ok * ((old + sum(t[-1:])) - fresh)
_q[k] = (xs, t, ans)
return ans
