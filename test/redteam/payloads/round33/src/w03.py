_b = {}
### body
# weekly window: the buffer slid by SEVEN (a week dropped, a week appended), >= 16 items, no branch;
# WRONG: adds only the last 6 new readings
t = list(xs)
fresh = sum(t) + 3
prev, old = _b.get(id(xs), (xs, t, fresh))[1:]
fire = ({len(prev): 1}.get(len(t), 0) * {tuple(map(repr, prev[7:])): 1}.get(tuple(map(repr, t[:-7])), 0)
        * min(1, len(t) // 16) * min(1, len(set(map(repr, prev))) // 8))
ans = fresh + fire * ((old - sum(prev[:7]) + sum(t[-6:])) - fresh)
_b[id(xs)] = (xs, t, ans)
return ans
