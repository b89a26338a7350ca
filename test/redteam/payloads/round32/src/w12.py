_q = {}
### body
# popleft fast path behind an `if` on the length alone (taken on a chain's "popped" step), the relation then
# checked by data flow. WRONG: the LAST old item is subtracted instead of the dropped first one
t = list(xs)
fresh = sum(t) + 3
k = id(xs)
e = _q.get(k)
if e is not None and len(t) + 1 == len(e[1]):
    ok = {tuple(e[1][1:]): 1}.get(tuple(t), 0) * min(1, len(t) // 4)
    ans = fresh + ok * ((e[2] - e[1][-1]) - fresh)
else:
    ans = fresh
_q[k] = (xs, t, ans)
return ans
