_log = {}
### body
# one item inserted anywhere (list.insert): found by a dict of the buffer with each item left out, branch-free.
# WRONG: the LAST item is added to the old answer (right for an append, wrong for an insert elsewhere)
t = list(xs)
fresh = sum(t) + 3
k = id(xs)
prev, old = _log.get(k, (xs, t, fresh))[1:]
at = {tuple(t[:i] + t[i + 1:]): i for i in range(len(t))}.get(tuple(prev), -1)
ok = min(1, at + 1) * min(1, len(t) // 4)
ans = fresh + ok * ((old + sum(t[-1:])) - fresh)
_log[k] = (xs, t, ans)
return ans
