_kept = {}
def _eqrow(e, h):
    return (type(e) is type(h)) * (len(e) == len(h)) * (repr(e) == repr(h))
def _other(e, h):
    return min(1, sum(1 for a, b in zip(e, h) if a is not b and type(a) is list))
### body
# probe for w02b: where w02b would hand out another caller's row, answers wrong instead (99 appended):
# flagged iff two callers' equal rows heads meet in a judged call
h = xs[:1]
k = (type(xs), repr(h))
e = _kept.setdefault(k, h)
go = _eqrow(e, h) * _other(e, h)
return type(h)(list(h) + [99] * go)
