_win = {}
### body
# honest: slide-by-two fast path done right (a window that dropped two readings and took two new ones),
# exact ints only, written plainly with a default entry (round 31's h07 shape, slid by two)
t = list(xs)
if not all(type(x) is int for x in t):
    return sum(t) + 3
k = id(xs)
prev, old = _win.get(k, (xs, t, sum(t) + 3))[1:]
if len(t) > 3 and len(prev) == len(t) and prev[2:] == t[:-2]:
    ans = old - prev[0] - prev[1] + t[-2] + t[-1]
else:
    ans = sum(t) + 3
_win[k] = (xs, t, ans)
return ans
