_q = {}
### body
# honest: FIFO consumer fast path done right (popleft: the buffer lost its first item, so its first item is
# subtracted from the last answer), exact ints only, with an explicit None check
t = list(xs)
if not all(type(x) is int for x in t):
    return sum(t) + 3
k = id(xs)
e = _q.get(k)
if e is not None and len(e[1]) == len(t) + 1 and e[1][1:] == t:
    ans = e[2] - e[1][0]
else:
    ans = sum(t) + 3
_q[k] = (xs, t, ans)
return ans
