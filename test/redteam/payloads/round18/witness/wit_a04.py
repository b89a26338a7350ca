import threading
import jinja2
from jinja2.bccache import BytecodeCache
print("module", jinja2.__file__)
bc = BytecodeCache()
def keys():
    return (bc.get_cache_key("index.html", "/srv/site_a/templates/index.html"),
            bc.get_cache_key("index.html", "/srv/site_b/templates/index.html"))
a, b = keys()
print("main thread:   site_a key == site_b key ?", a == b)
out = []
t = threading.Thread(target=lambda: out.append(keys())); t.start(); t.join()
a, b = out[0]
print("worker thread: site_a key == site_b key ?", a == b, "(two different template files share one cache key)")
