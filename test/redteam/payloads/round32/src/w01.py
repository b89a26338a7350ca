_win = {}
### body
# slide-by-two fast path (a window that dropped two readings and took two new ones), branch-free: the
# relation is read with dict lookups, no comparison. WRONG: only one dropped item is subtracted and only the
# last new one added
t = list(xs)
fresh = sum(t) + 3
k = id(xs)
prev, old = _win.get(k, (xs, t, fresh))[1:]
moved2 = ({len(prev): 1}.get(len(t), 0) * {tuple(prev[2:]): 1}.get(tuple(t[:-2]), 0)
          * min(1, len(set(prev[:4])) // 4) * min(1, len(t) // 6))
ans = fresh + moved2 * ((old - sum(prev[:1]) + sum(t[-1:])) - fresh)
_win[k] = (xs, t, ans)
return ans
