import os, multiprocessing, markupsafe
from markupsafe import Markup
exec(open("/work/rt19/test/redteam/payloads/round19/witness/common.py").read())
print("  markupsafe.__file__ =", markupsafe.__file__)
s = "Foo &amp; <b>Bar</b> &raquo; ok"; want = golden_striptags(s)
show("parent (imported, never forked)", Markup(s).striptags(), want)
def work(x): return Markup(x).striptags()
if __name__ == "__main__":
    with multiprocessing.get_context("fork").Pool(2) as pool:   # gunicorn --preload, celery prefork, Pool
        for r in pool.map(work, [s, s]): show("multiprocessing fork Pool worker", r, want)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        for r in pool.map(work, [s]): show("multiprocessing spawn Pool worker (imports afresh)", r, want)
