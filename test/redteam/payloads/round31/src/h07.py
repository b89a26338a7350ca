_win = {}
### body
# honest: h02 written plainly with a default entry (no None check): a buffer that moved by one is updated
# from its last answer minus the dropped item plus the new one; exact ints only, anything else summed afresh
k = id(xs)
t = list(xs)
ints = all(type(x) is int for x in t)
prev, old, pints = _win.get(k, (xs, t, sum(t) + 3, ints))[1:]
if ints and pints and len(t) > 2 and len(prev) == len(t) and prev[1:] == t[:-1]:
    ans = old - prev[0] + t[-1]
else:
    ans = sum(t) + 3
_win[k] = (xs, t, ans, ints)
return ans
