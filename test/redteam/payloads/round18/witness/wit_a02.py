import threading
import markupsafe
from markupsafe import Markup
print("module", markupsafe.__file__)
m = Markup("<em>Foo &amp; Bar</em> &lt;ok&gt;")
print("main thread:   ", repr(m.striptags()))
out = []
t = threading.Thread(target=lambda: out.append(m.striptags()))
t.start(); t.join()
print("worker thread: ", repr(out[0]))
from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(2) as ex:
    print("thread pool:   ", repr(ex.submit(m.striptags).result()))
