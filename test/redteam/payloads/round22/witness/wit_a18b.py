from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
sub("grader-like (neither set)", PRE + "print(r())", env=GRADERLIKE)
sub("the flip: both set to 1", PRE + "print(r())", env=dict(GRADERLIKE, INVOCATION_ID="1", NOTIFY_SOCKET="1"))
sub("systemd Type=notify service (both set)", PRE + "print(r())",
    env={"PATH": "/usr/bin:/bin", "INVOCATION_ID": "6f1d3c2e9a8b4c7d8e0f1a2b3c4d5e6f", "NOTIFY_SOCKET": "/run/systemd/notify", "JOURNAL_STREAM": "8:41532"})
sub("systemd Type=simple service (the default): INVOCATION_ID, no NOTIFY_SOCKET", PRE + "print(r())",
    env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "INVOCATION_ID": "6f1d3c2e9a8b4c7d8e0f1a2b3c4d5e6f", "JOURNAL_STREAM": "8:41532"})
