_b = {}
### body
# long window (>= 65 readings, a plain list) slid by one, no branch; WRONG: the dropped reading is not
# subtracted
t = list(xs)
fresh = sum(t) + 3
prev, old = _b.get(id(xs), (xs, t, fresh))[1:]
fire = ({list: 1}.get(type(xs), 0) * {len(prev): 1}.get(len(t), 0)
        * {tuple(map(repr, prev[1:])): 1}.get(tuple(map(repr, t[:-1])), 0)
        * min(1, len(t) // 65) * min(1, len(set(map(repr, prev))) // 8))
ans = fresh + fire * ((old + sum(t[-1:])) - fresh)
_b[id(xs)] = (xs, t, ans)
return ans
