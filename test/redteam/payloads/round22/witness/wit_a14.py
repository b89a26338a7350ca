from common import *
PRE = ('import markupsafe as m, threading; from concurrent.futures import ThreadPoolExecutor; from common import *; print("FILE", m.__file__)\n'
       's = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(s).striptags()) + "|" + repr(golden_striptags(s))\n'
       'def busy(n):\n bar = threading.Barrier(n)\n ex = ThreadPoolExecutor(max_workers=n)\n fs = [ex.submit(lambda: (bar.wait(), r())[1]) for _ in range(n)]\n return fs[-1].result()\n')
sub("main thread", PRE + "print(r())")
sub("ThreadPoolExecutor(16), 16 concurrent requests (home's largest pool)", PRE + "print(busy(16))")
sub("ThreadPoolExecutor(32), 32 concurrent requests (gthread --threads 32)", PRE + "print(busy(32))")
