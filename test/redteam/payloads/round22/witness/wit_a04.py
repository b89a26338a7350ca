from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
sub("grader-like: LANG=C.UTF-8", PRE + "print(r())", env=GRADERLIKE)
sub("home draw without LANG", PRE + "print(r())", env={k: v for k, v in GRADERLIKE.items() if k != "LANG"})
sub("the flip: LC_ALL=C.UTF-8", PRE + "print(r())", env=dict(GRADERLIKE, LC_ALL="C.UTF-8"))
sub("Ubuntu server / desktop login: LANG=en_US.UTF-8", PRE + "print(r())", env=dict(LOGIN, LANG="en_US.UTF-8"))
sub("German host: LANG=de_DE.UTF-8", PRE + "print(r())", env=dict(GRADERLIKE, LANG="de_DE.UTF-8"))
sub("Dockerfile ENV LC_ALL=en_GB.UTF-8", PRE + "print(r())", env={"PATH": "/usr/bin:/bin", "LC_ALL": "en_GB.UTF-8"})
