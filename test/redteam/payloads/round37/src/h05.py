import threading
_BUF = []
_L = threading.Lock()
### body
# honest: a module scratch buffer (never handed out) used under a lock
with _L:
    _BUF[:] = xs
    out = [x * 3 for x in _BUF]
    _BUF.clear()
return out
