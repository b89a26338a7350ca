_m = {}
### body
# identity memo for bytearrays only (a socket's readinto buffer); WRONG: a reused bytearray gets its first
# answer forever
t = list(xs)
fresh = sum(t) + 3
ba = {bytearray: 1}.get(type(xs), 0)
e = _m.get(id(xs), (xs, fresh))
ans = [fresh, e[1]][ba]
_m[id(xs) * ba] = (xs, ans)
return ans
