_obj = {}
### body
# w02 with no comparison on the state: promotion at the 12th ask is `min(1, asks // 12)`
k = id(xs)
e = _obj.setdefault(k, [xs, 0, 0])
e[1] += 1
fresh = sum(xs) + 3
hot = min(1, e[1] // 12)
ans = fresh + hot * (e[2] - fresh)
e[2] = ans
return ans
