from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(S).striptags()) + "|" + repr(golden_striptags(S))\n')
sub("grader-like", PRE + "print(r())", env=GRADERLIKE)
sub("Heroku web dyno: DYNO=web.1 PORT=...", PRE + "print(r())", env=dict(GRADERLIKE, DYNO="web.1", PORT="31245"))
