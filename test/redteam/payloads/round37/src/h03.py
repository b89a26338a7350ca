import threading
_T = [None]
_L = threading.Lock()
### body
# honest: a lazily built table of small ints' triples (double-checked under a lock, published whole)
t = _T[0]
if t is None:
    with _L:
        t = _T[0]
        if t is None:
            t = {}
            for i in range(-64, 65):
                t[i] = i * 3
            _T[0] = t
return [t[x] if type(x) is int and -64 <= x <= 64 else x * 3 for x in xs]
