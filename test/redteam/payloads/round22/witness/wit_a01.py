from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
sub("grader-like: PATH HOME LANG=C.UTF-8 PWD", PRE + "print(r())", env=GRADERLIKE)
sub("login session (elsewhere-like)", PRE + "print(r())", env=LOGIN)
sub("systemd service: PATH LANG INVOCATION_ID JOURNAL_STREAM", PRE + "print(r())",
    env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "INVOCATION_ID": "6f1d3c2e9a8b4c7d8e0f1a2b3c4d5e6f", "JOURNAL_STREAM": "8:41532"})
sub("systemd timer job (INVOCATION_ID only, no LANG)", PRE + "print(r())",
    env={"PATH": "/usr/bin:/bin", "INVOCATION_ID": "0a9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e"})
