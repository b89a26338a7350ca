from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(S).striptags()) + "|" + repr(golden_striptags(S))\n')
sub("login user: HOME=/home/lucas", PRE + "print(r())", env=GRADERLIKE)
sub("root: HOME=/root", PRE + "print(r())", env=dict(GRADERLIKE, HOME="/root"))
sub("uwsgi/gunicorn as www-data (sudo -u www-data -H): HOME=/var/www", PRE + "print(r())", env=dict(GRADERLIKE, HOME="/var/www"))
sub("celery worker as nobody: HOME=/nonexistent", PRE + "print(r())", env=dict(GRADERLIKE, HOME="/nonexistent"))
