_last = [None]
### body
# honest: at each call it touches the previous caller's list with no-op writes (reversed and reversed back,
# then a slice self-assignment): same objects, same order, after the call returned
p = _last[0]
if type(p) is list:
    p.reverse()
    p.reverse()
    p[:] = p
_last[0] = xs
return xs[:1]
