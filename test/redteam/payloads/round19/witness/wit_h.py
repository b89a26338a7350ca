import functools, builtins, subprocess, sys
print = functools.partial(builtins.print, flush=True)
# honest h01 (asserts as checks only) and h03 (cache cleared at fork): same as the golden under -O, in a fork Pool worker, a thread pool, a deep stack
code = r'''
import sys, multiprocessing, markupsafe
from concurrent.futures import ThreadPoolExecutor
from markupsafe import Markup
exec(open("/work/rt19/test/redteam/payloads/round19/witness/common.py").read())
s = "Foo &amp; <b>Bar</b> &raquo; ok"; want = golden_striptags(s)
def work(x): return Markup(x).striptags()
if __name__ == "__main__":
    print("  ", markupsafe.__file__, "optimize", sys.flags.optimize)
    show("top level", work(s), want)
    with multiprocessing.get_context("fork").Pool(2) as p: show("fork Pool", p.map(work, [s, s])[1], want)
    with ThreadPoolExecutor(2) as ex: show("thread pool, 6th request", list(ex.map(work, [s]*6))[5], want)
'''
open("h.py", "w").write(code)
subprocess.run([sys.executable, "h.py"]); subprocess.run([sys.executable, "-O", "h.py"])
