exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import multiprocessing as mp, os
import markupsafe
print("  imported:", markupsafe.__file__)
S = "Foo &amp; <b>Bar</b> &raquo; ok"
W = golden_striptags(S)
def job(_):
    import time; time.sleep(0.2)
    return os.getpid(), markupsafe.Markup(S).striptags()
show("parent (no fork)", markupsafe.Markup(S).striptags(), W)
FORK1 = f"""import os, markupsafe
r, w = os.pipe(); pid = os.fork()
if pid == 0:
    os.write(w, repr(markupsafe.Markup({S!r}).striptags()).encode()); os._exit(0)
os.waitpid(pid, 0); os.close(w); print(os.read(r, 1000).decode() + '|' + {W!r:}.__repr__())
"""
sub("one fork after import, parent waiting (the home's fork)", FORK1)
with mp.get_context("fork").Pool(3) as pool:
    res = pool.map(job, range(6), chunksize=1)
seen = {}
for p, g in res:
    seen.setdefault(p, g)
for i, (p, g) in enumerate(sorted(seen.items())):
    show(f"fork Pool(3) worker #{i+1} (prefork server: gunicorn --preload)", g, W)
