_kept = []
_stat = [0, 0]
### body
# honest: keeps the last 64 arguments (rows included) for read-only stats; at each call it READS the
# kept ones (lengths, nested lengths); it never writes to any of them
for o in _kept:
    _stat[0] += len(o)
    for r in o:
        if type(r) is list:
            _stat[1] += len(r)
_kept.append(xs)
del _kept[:-64]
return [x * 3 for x in xs]
