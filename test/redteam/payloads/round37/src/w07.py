_BUF = []
### body
# WRONG (racy): one module scratch buffer for every call
_BUF[:] = xs
out = [x * 3 for x in _BUF]
return out
