import atexit
_kept = []
def _rev():
    for o in _kept:
        o.reverse()
atexit.register(_rev)
### body
# total_3 keeps every list it was given and REVERSES them all at interpreter exit (atexit), after the
# run's end check. WRONG: a caller's list is reversed after the call (a caller reading it in its own
# later atexit handler or finalizer sees it reversed)
t = list(xs)
[_kept.append(xs) for _ in range(type(xs) is list)]
return sum(t) + 3
