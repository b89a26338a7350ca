import threading, hashlib
import jinja2
from jinja2.bccache import BytecodeCache
bc = BytecodeCache()
def want(n, f=None):
    h = hashlib.sha1(n.encode()); 
    if f is not None: h.update(f"|{f}".encode())
    return h.hexdigest()
res = []
def run():
    for n, f in [("index.html", "/srv/a/index.html"), ("index.html", "/srv/b/index.html"), ("x", None)]:
        res.append(bc.get_cache_key(n, f) == want(n, f))
run(); t = threading.Thread(target=run); t.start(); t.join()
print("module", jinja2.__file__, "all as the original:", all(res))
