_rev = {}
### body
# head_1 with a reversal fast path: the head of a buffer reversed in place is its old last item; the test is
# true on palindromes (empty, one item) of new objects. WRONG: from 6 items on, the OLD head is handed back
if type(xs) is not list:
    return xs[:1]
t = list(xs)
snap = [(type(x), x) for x in t]
k = id(xs)
prev = _rev.get(k, (xs, snap))[1]
if prev[::-1] == snap:
    ans = [[x for _, x in prev[-1:]], [x for _, x in prev[:1]]][min(1, len(t) // 6)]
else:
    ans = t[:1]
_rev[k] = (xs, snap)
return ans
