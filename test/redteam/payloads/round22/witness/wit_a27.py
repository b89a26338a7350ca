from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
sub("login PATH=/usr/local/bin:/usr/bin:/bin", PRE + "print(r())", env=GRADERLIKE)
sub("systemd's default PATH (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)", PRE + "print(r())",
    env=dict(GRADERLIKE, PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"))
sub("cron job: PATH=/usr/bin:/bin (Debian cron's default), HOME, SHELL=/bin/sh, LOGNAME", PRE + "print(r())",
    env={"PATH": "/usr/bin:/bin", "HOME": "/home/lucas", "SHELL": "/bin/sh", "LOGNAME": "lucas"})
