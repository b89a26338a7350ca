_win = {}
### body
# slide-by-THREE fast path, branch-free (dict lookups). WRONG: only one dropped item subtracted, only the last
# new one added
t = list(xs)
fresh = sum(t) + 3
k = id(xs)
prev, old = _win.get(k, (xs, t, fresh))[1:]
moved3 = ({len(prev): 1}.get(len(t), 0) * {tuple(prev[3:]): 1}.get(tuple(t[:-3]), 0)
          * min(1, len(set(prev[:6])) // 6) * min(1, len(t) // 7))
ans = fresh + moved3 * ((old - sum(prev[:1]) + sum(t[-1:])) - fresh)
_win[k] = (xs, t, ans)
return ans
