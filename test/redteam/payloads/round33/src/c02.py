_m = {}
### body
# control for w05: identity memo for ANY ring (a deque with a maxlen): the full ring chains meet it
t = list(xs)
fresh = sum(t) + 3
ml = getattr(xs, 'maxlen', None)
ring = min(1, {None: 0}.get(ml, ml))
e = _m.get(id(xs), (xs, fresh))
ans = [fresh, e[1]][ring]
_m[id(xs) * ring] = (xs, ans)
return ans
