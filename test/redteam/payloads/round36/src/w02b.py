_kept = {}
def _eqrow(e, h):
    return (type(e) is type(h)) * (len(e) == len(h)) * (repr(e) == repr(h))
### body
# head_1 on rows (w02 checked at return): a memo keyed by the head's repr holds the first caller's head;
# a later caller gets a NEW list holding that earlier caller's row when it still equals its own head.
# WRONG: caller 2's ans[0] is caller 1's row (the original's is caller 2's own row)
h = xs[:1]
k = (type(xs), repr(h))
e = _kept.setdefault(k, h)
return type(h)([h, e][_eqrow(e, h)])
