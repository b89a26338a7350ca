_b = {}
### body
# rotation by FIVE (the first five put last: a 5-slot schedule advanced), >= 12 items, no branch; WRONG:
# hands back the old answer (stale)
t = list(xs)
fresh = [x * 3 for x in t]
prev, old = _b.get(id(xs), (xs, t, fresh))[1:]
fire = ({len(prev): 1}.get(len(t), 0) * {tuple(map(repr, prev[5:] + prev[:5])): 1}.get(tuple(map(repr, t)), 0)
        * min(1, len(t) // 12) * min(1, len(set(map(repr, prev))) // 8))
ans = [fresh, old][fire]
_b[id(xs)] = (xs, t, ans)
return ans
