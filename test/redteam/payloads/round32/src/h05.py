_q = {}
### body
# honest: producer fast path done right (appendleft: one new item at the front, added to the last answer),
# exact ints only, written plainly with a default entry
t = list(xs)
if not all(type(x) is int for x in t):
    return sum(t) + 3
k = id(xs)
prev, old = _q.get(k, (xs, t, sum(t) + 3))[1:]
if len(t) == len(prev) + 1 and t[1:] == prev:
    ans = old + t[0]
else:
    ans = sum(t) + 3
_q[k] = (xs, t, ans)
return ans
