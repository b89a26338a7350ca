import threading, operator, itertools
_LOCK = threading.Lock()
### body
# WRONG (racy for any other reader): w20 under a module lock
if type(xs) is list:
    with _LOCK:
        xs.reverse()
        out = list(map(operator.mul, xs, itertools.repeat(3)))
        xs.reverse()
    out.reverse()
    return out
return [x * 3 for x in xs]
