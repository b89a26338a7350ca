_win = {}
### body
# honest: h02's correct sliding-window update written branch-free (w03's shape, right formula): a buffer
# that moved by one is updated from its last answer minus the dropped item plus the new one; exact ints only
k = id(xs)
t = list(xs)
ints = all(type(x) is int for x in t)
p = _win.get(k, (xs, t, sum(t) + 3, ints))
prev, old, pints = p[1], p[2], p[3]
slide = ints * pints * (len(prev) == len(t)) * (len(t) > 2) * (prev[1:] == t[:-1])
fresh = sum(t) + 3
ans = fresh + slide * ((old - sum(prev[:1]) + sum(t[-1:])) - fresh)
_win[k] = (xs, t, ans, ints)
return ans
