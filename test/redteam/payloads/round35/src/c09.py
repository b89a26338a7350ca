_kept = {}
def _ok(e, h):
    return (type(e) is type(h)) * (len(e) == 1) * (e == h)
### body
# probe for w12: where w12 would hand out an earlier list, answers wrong (appends 99): flagged iff it fires in a judged call
# checked equal at return). WRONG: a caller that appends to its answer appends to another caller's list.
h = xs[:1]
k = (type(xs), tuple((type(x), x) for x in h))
e = _kept.get(k, h)
ans = [h, e + [99]][_ok(e, h) * (e is not xs)]
[_kept.setdefault(k, xs) for _ in range((len(xs) == 1) * (type(xs) is list))]
return ans
