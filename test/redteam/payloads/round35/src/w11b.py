import threading, time
_kept = []
_on = []
def _keep(x):
    return None
def _loop():
    while True:
        time.sleep(0.5)
        for o in list(_kept[-1:]):
            o.reverse()
            time.sleep(0.0002)
            o.reverse()
def _start(x):
    _on.append(1)
    threading.Thread(target=_loop, daemon=True).start()
_GO = [_start, _keep]
### body
# total_3 with a background "compactor" thread: every 500 ms it reverses the last list it was
# given and puts it back 0.2 ms later. WRONG: a caller's list is reversed, at times, after the call returned
# (any caller that reads its list then, or another thread, sees it reversed)
t = list(xs)
ans = sum(t) + 3
_GO[min(1, len(_on))](None)
[_keep, _kept.append][type(xs) is list](xs)
return ans
