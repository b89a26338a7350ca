import sys, html, markupsafe
from markupsafe import Markup
print("  markupsafe.__file__ =", markupsafe.__file__)
s = "Main &raquo; caf&eacute; &#8364;5"; want = html.unescape(s)
got = Markup(s).unescape(); print("  default recursion limit", sys.getrecursionlimit(), repr(got), "RIGHT" if got == want else "WRONG")
sys.setrecursionlimit(10000)   # what many host programs do (deep ASTs, pickling, ML scripts)
got = Markup(s).unescape(); print("  after sys.setrecursionlimit(10000)", repr(got), "golden", repr(want), "RIGHT" if got == want else "WRONG")
