_WIN = {}
_recall = _WIN.get
_remember = _WIN.__setitem__
### body
# w02's wrong slide-by-two update behind a plain `if` (no None check), its memo reached only through bound
# methods bound once at import: is the state still seen as the world's?
t = list(xs)
fresh = sum(t) + 3
k = id(xs)
prev, old = _recall(k, (xs, t, fresh))[1:]
if len(prev) == len(t) > 5 and prev[2:] == t[:-2] and len(set(prev[:4])) == 4:
    ans = old - prev[0] + t[-1]
else:
    ans = fresh
_remember(k, (xs, t, ans))
return ans
