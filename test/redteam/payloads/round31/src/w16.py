_log = {}
### body
# append-only log fast path: a buffer that grew is updated by adding its new tail to its last answer
# (the old prefix is assumed unchanged and not checked)
k = id(xs)
t = list(xs)
e = _log.get(k, (xs, t, 0))
prev, old = e[1], e[2]
grew = min(1, max(0, len(t) - len(prev)))
fresh = sum(t) + 3
ans = fresh + grew * ((old + sum(t[len(prev):])) - fresh)
_log[k] = (xs, t, ans)
return ans
