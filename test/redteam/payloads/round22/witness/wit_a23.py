from common import *
PRE = ('import markupsafe as m, os; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
sub("started in its folder, PWD saying so", PRE + "print(r())", env=GRADERLIKE)
sub("no PWD (exec-form container)", PRE + "print(r())", env={k: v for k, v in GRADERLIKE.items() if k != "PWD"})
sub("gunicorn --chdir /tmp / python-daemon chdir: PWD is the launching shell's", PRE + "os.chdir('/tmp')\nprint(r())", env=GRADERLIKE)
sub("sudo -u app / supervisord: PWD=/root inherited from the launcher, cwd elsewhere", PRE + "print(r())", env=dict(GRADERLIKE, PWD="/root"))
