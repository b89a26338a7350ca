exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import queue, threading
from concurrent.futures import ThreadPoolExecutor
import markupsafe
print("  imported:", markupsafe.__file__)
S = "Foo &amp; <b>Bar</b> &raquo; ok"
W = golden_striptags(S)
show("main thread", markupsafe.Markup(S).striptags(), W)
q, out = queue.Queue(), queue.Queue()
def worker():
    while True:
        job = q.get()
        if job is None: break
        out.put(markupsafe.Markup(job).striptags())
t = threading.Thread(target=worker, daemon=True); t.start()
for _ in range(3): q.put(S)
for i in range(3): show(f"a daemon worker thread reading a queue.Queue (the home's), call {i+1}", out.get(), W)
q.put(None); t.join()
with ThreadPoolExecutor(4) as ex:
    for i, g in enumerate(ex.map(lambda s: markupsafe.Markup(s).striptags(), [S] * 3)):
        show(f"ThreadPoolExecutor worker (deployment: a threaded server), call {i+1}", g, W)
show("main thread again, the pool shut down but its registry not yet emptied", markupsafe.Markup(S).striptags(), W)
