import threading
_LOCK = threading.Lock()
### body
# WRONG (racy for any other reader): reverses the caller's list in place and back, under a module lock.
# Its own calls never see the window; any other code reading the shared list (a server's other handler) does
if type(xs) is list:
    with _LOCK:
        xs.reverse()
        out = xs[-1:]
        xs.reverse()
    return out
return xs[:1]
