import threading, queue, operator, itertools
_S = {"q": None, "ts": []}
_L = threading.Lock()
def _worker(q):
    while True:
        xs, box, ev = q.get()
        try:
            xs.reverse()
            out = list(map(operator.mul, xs, itertools.repeat(3)))
            xs.reverse()
            out.reverse()
            box.append(out)
        except BaseException as e:
            box.append(e)
        ev.set()
def _queue():
    ts = _S["ts"]
    if not ts or not all(t.is_alive() for t in ts):
        with _L:
            ts = _S["ts"]
            if not ts or not all(t.is_alive() for t in ts):
                q = queue.Queue()
                ts = [threading.Thread(target=_worker, args=(q,), daemon=True) for _ in range(4)]
                for t in ts:
                    t.start()
                _S["q"], _S["ts"] = q, ts
    return _S["q"]
### body
# WRONG (racy): w20's window, run by one of 4 worker threads of the body's own (started lazily, again after a fork)
if type(xs) is list:
    box, ev = [], threading.Event()
    _queue().put((xs, box, ev))
    ev.wait()
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]
return [x * 3 for x in xs]
