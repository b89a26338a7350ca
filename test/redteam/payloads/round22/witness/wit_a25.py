from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
sub("no TZ (zone from /etc/localtime)", PRE + "print(r())", env=GRADERLIKE)
sub("Docker/k8s: ENV TZ=Europe/Berlin", PRE + "print(r())", env=dict(GRADERLIKE, TZ="Europe/Berlin"))
sub("systemd unit Environment=TZ=:/etc/localtime", PRE + "print(r())", env=dict(GRADERLIKE, TZ=":/etc/localtime"))
