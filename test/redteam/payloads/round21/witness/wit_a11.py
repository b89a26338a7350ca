from common import *
import markupsafe; print("  module imported:", markupsafe.__file__)
PRE = ('import markupsafe as m, threading; from concurrent.futures import ThreadPoolExecutor; from common import golden_striptags as g; print("FILE", m.__file__)\n'
       's = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(s).striptags()) + "|" + repr(g(s))\n'
       'def busy(n):\n bar = threading.Barrier(n)\n ex = ThreadPoolExecutor(max_workers=n)\n fs = [ex.submit(lambda: (bar.wait(), r())[1]) for _ in range(n)]\n return fs[-1].result()\n')
sub("main thread", PRE + "print(r())", env=GRADERLIKE)
sub("ThreadPoolExecutor(4), 4 concurrent requests", PRE + "print(busy(4))", env=GRADERLIKE)
sub("ThreadPoolExecutor(8), 8 concurrent requests (a threaded server)", PRE + "print(busy(8))", env=GRADERLIKE)
