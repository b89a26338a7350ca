import itertools
_N = 36
_RING = [[] for _ in range(_N)]
_CTR = itertools.count()
### body
# WRONG (racy past 36 overlapping calls): each call takes the next of 36 module scratch buffers
b = _RING[next(_CTR) % _N]
b[:] = xs
out = [x * 3 for x in b]
return out
