import threading, queue, operator, itertools
_Q = queue.Queue()
def _worker():
    while True:
        xs, box, ev = _Q.get()
        try:
            xs.reverse()
            out = list(map(operator.mul, xs, itertools.repeat(3)))
            xs.reverse()
            out.reverse()
            box.append(out)
        except BaseException as e:
            box.append(e)
        ev.set()
for _i in range(4):
    threading.Thread(target=_worker, daemon=True).start()
### body
# WRONG (racy): w20's window, run by one of 4 worker threads started at import
if type(xs) is list:
    box, ev = [], threading.Event()
    _Q.put((xs, box, ev))
    ev.wait()
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]
return [x * 3 for x in xs]
