from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(S).striptags()) + "|" + repr(golden_striptags(S))\n')
sub("grader-like: PATH HOME LANG=C.UTF-8 PWD", PRE + "print(r())", env=GRADERLIKE)
sub("the flip's value: DJANGO_SETTINGS_MODULE=1", PRE + "print(r())", env=dict(GRADERLIKE, DJANGO_SETTINGS_MODULE="1"))
sub("Django: gunicorn mysite.wsgi (DJANGO_SETTINGS_MODULE=mysite.settings)", PRE + "print(r())",
    env=dict(GRADERLIKE, DJANGO_SETTINGS_MODULE="mysite.settings"))
sub("Django: manage.py's os.environ.setdefault(...) before the import", "import os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'shop.settings.production')\n" + PRE + "print(r())", env=GRADERLIKE)
