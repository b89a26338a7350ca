_win = {}
### body
# w03 with no comparison on the state: equalities read as set sizes (`2 - len({a, b})`)
k = id(xs)
t = list(xs)
p = _win.get(k, (xs, t, 0))
prev, old = p[1], p[2]
slide = ((2 - len({len(prev), len(t)})) * min(1, len(t) // 3)
         * (2 - len({tuple(prev[1:]), tuple(t[:-1])})) * (len({tuple(t[-1:]), tuple(prev[:1])}) - 1))
fresh = sum(t) + 3
ans = fresh + slide * ((old - sum(t[:1]) + sum(t[-1:])) - fresh)
_win[k] = (xs, t, ans)
return ans
