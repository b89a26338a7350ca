_win = {}
### body
# honest: slide-by-two fast path done right, with an explicit None check (round 31's h02 shape, slid by two)
t = list(xs)
if not all(type(x) is int for x in t):
    return sum(t) + 3
k = id(xs)
e = _win.get(k)
if e is not None and len(e[1]) == len(t) > 3 and e[1][2:] == t[:-2]:
    ans = e[2] - e[1][0] - e[1][1] + t[-2] + t[-1]
else:
    ans = sum(t) + 3
_win[k] = (xs, t, ans)
return ans
