import threading, markupsafe
from concurrent.futures import ThreadPoolExecutor
from markupsafe import Markup
exec(open("/work/rt19/test/redteam/payloads/round19/witness/common.py").read())
print("  markupsafe.__file__ =", markupsafe.__file__)
s = "Foo &amp; <b>Bar</b> &raquo; ok"; want = golden_striptags(s)
for i in range(3): show(f"main thread, call {i+1}", Markup(s).striptags(), want)
def job(i):
    out = []
    t = threading.Thread(target=lambda: out.append(Markup(s).striptags())); t.start(); t.join()
    return out[0]
for i in range(2): show(f"a fresh Thread per call (the run at home's thread), {i+1}", job(i), want)
with ThreadPoolExecutor(max_workers=2) as ex:
    res = list(ex.map(lambda _: Markup(s).striptags(), range(6)))
for i, r in enumerate(res): show(f"ThreadPoolExecutor(2) worker, request {i+1}", r, want)
