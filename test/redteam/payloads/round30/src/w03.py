_memo = {}
### body
# identity memo validated by the multiset of items (cheap "did the buffer change" check)
k = id(xs)
fp = (len(xs), sum(xs), tuple(sorted(xs)))
e = _memo.get(k)
if e is not None and e[1] == fp:
    return list(e[2])
out = [x * 3 for x in xs]
_memo[k] = (xs, fp, out)
return list(out)
