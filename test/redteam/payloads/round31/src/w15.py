_memo = {}
### body
# identity memo validated by a shallow snapshot: the very item objects (held, so their ids stay unique);
# an item list changed in place keeps its identity, so rows edited inside the outer list are not seen
k = id(xs)
t = tuple(xs)
e = _memo.get(k, (xs, None, None))
same = 2 - len({tuple(map(id, t)), tuple(map(id, e[1] or (None,)))})
fresh = [x * 3 for x in t]
ans = (e[2] or []) * same + fresh * (1 - same)
_memo[k] = (xs, t, ans)
return list(ans)
