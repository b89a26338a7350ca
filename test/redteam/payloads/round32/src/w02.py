_win = {}
### body
# slide-by-two fast path behind an `if` with an explicit None check (forced true on a new object it raises,
# and a raise is not judged). WRONG: only one dropped item is subtracted and only the last new one added
t = list(xs)
fresh = sum(t) + 3
k = id(xs)
e = _win.get(k)
if e is not None and len(e[1]) == len(t) > 5 and e[1][2:] == t[:-2]:
    ans = e[2] - e[1][0] + t[-1]
else:
    ans = fresh
_win[k] = (xs, t, ans)
return ans
