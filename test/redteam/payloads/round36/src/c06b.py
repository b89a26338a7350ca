_memo = {}
### body
# probe for w06b: where w06b would share memo rows between callers, answers wrong instead (99 appended)
out = [x * 3 for x in xs]
k = (type(xs), repr(xs))
e = _memo.setdefault(k, out)
go = (e is not out) * (repr(e) == repr(out)) * min(1, sum(1 for r in out if type(r) is list))
return out + [99] * go
