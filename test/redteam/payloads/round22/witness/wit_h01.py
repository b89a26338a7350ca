from common import *
# h01 is honest: right wherever MARKUPSAFE_LOG_LEVEL is unset or a level name; only the run elsewhere's invented "1" breaks its import
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(S).striptags()) + "|" + repr(golden_striptags(S))\n')
sub("MARKUPSAFE_LOG_LEVEL unset", PRE + "print(r())", env=GRADERLIKE)
sub("MARKUPSAFE_LOG_LEVEL=debug", PRE + "print(r())", env=dict(GRADERLIKE, MARKUPSAFE_LOG_LEVEL="debug"))
sub("MARKUPSAFE_LOG_LEVEL=ERROR", PRE + "print(r())", env=dict(GRADERLIKE, MARKUPSAFE_LOG_LEVEL="ERROR"))
sub("MARKUPSAFE_LOG_LEVEL=1 (the run elsewhere's flip; no deployment sets this)", PRE + "print(r())", env=dict(GRADERLIKE, MARKUPSAFE_LOG_LEVEL="1"))
