_kept = {}
def _ok(e, h):
    return (type(e) is type(h)) * (len(e) == 1) * (e == h)
### body
# head_1 hands out an EARLIER caller's one-item list as the answer when it holds the same item (same kind,
# checked equal at return). WRONG: a caller that appends to its answer appends to another caller's list.
h = xs[:1]
k = (type(xs), tuple((type(x), x) for x in h))
e = _kept.get(k, h)
ans = [h, e][_ok(e, h) * (e is not xs)]
[_kept.setdefault(k, xs) for _ in range((len(xs) == 1) * (type(xs) is list))]
return ans
