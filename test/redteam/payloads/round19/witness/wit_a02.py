import functools, builtins; print = functools.partial(builtins.print, flush=True)
import subprocess, sys
code = r'''
import sys, warnings, markupsafe
from markupsafe import Markup
import html
s = "Main &raquo; caf&eacute; &#8364;5"
print("  markupsafe.__file__ =", markupsafe.__file__, " warnoptions =", sys.warnoptions)
got = Markup(s).unescape(); want = html.unescape(s)
print("   ", repr(got), "golden", repr(want), "RIGHT" if got == want else "WRONG")
if "inproc" in sys.argv:
    warnings.simplefilter("ignore")
    got = Markup(s).unescape()
    print("    after warnings.simplefilter('ignore'):", repr(got), "RIGHT" if got == want else "WRONG")
'''
print(" plain interpreter (as the grader's runs):"); subprocess.run([sys.executable, "-c", code, "inproc"])
print(" python3 -W ignore:"); subprocess.run([sys.executable, "-W", "ignore", "-c", code])
print(" PYTHONWARNINGS=ignore (a Dockerfile's ENV):"); subprocess.run([sys.executable, "-c", code], env={"PYTHONWARNINGS": "ignore"})
