import threading
_TL = threading.local()
### body
# honest: a per-thread scratch list (threading.local) holds the head before it is handed back
buf = getattr(_TL, "buf", None)
if buf is None:
    buf = _TL.buf = []
buf.append(xs[:1])
return buf.pop()
