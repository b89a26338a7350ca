_b = {}
### body
# control: a slide-by-ONE window (a named chain step), >= 6 items, no branch; WRONG: dropped item not
# subtracted
t = list(xs)
fresh = sum(t) + 3
prev, old = _b.get(id(xs), (xs, t, fresh))[1:]
fire = ({len(prev): 1}.get(len(t), 0) * {tuple(map(repr, prev[1:])): 1}.get(tuple(map(repr, t[:-1])), 0)
        * min(1, len(t) // 6) * min(1, len(set(map(repr, prev))) // 4))
ans = fresh + fire * ((old + sum(t[-1:])) - fresh)
_b[id(xs)] = (xs, t, ans)
return ans
