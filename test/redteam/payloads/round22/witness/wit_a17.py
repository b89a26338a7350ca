from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
sub("grader-like", PRE + "print(r())", env=GRADERLIKE)
sub("login session (elsewhere-like)", PRE + "print(r())", env=LOGIN)
sub("Django under gunicorn: DJANGO_SETTINGS_MODULE=mysite.settings", PRE + "print(r())", env=dict(GRADERLIKE, DJANGO_SETTINGS_MODULE="mysite.settings"))
