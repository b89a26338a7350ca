from common import *
import markupsafe; print("  module imported:", markupsafe.__file__)
C = ('import markupsafe as m, html; print("FILE", m.__file__); s = "Main &raquo; caf&eacute; &lt;b&gt;"; '
     'print(repr(m.Markup(s).unescape()) + "|" + repr(html.unescape(s)))')
sub("grader-like: PATH HOME LANG=C.UTF-8 PWD", C, env=GRADERLIKE)
sub("login shell: LANG=en_US.UTF-8", C, env={**GRADERLIKE, "LANG": "en_US.UTF-8"})
sub("cron job / Docker image with no ENV LANG: PATH HOME", C, env={"PATH": "/usr/bin:/bin", "HOME": "/root"})
sub("systemd unit, no locale.conf: PATH INVOCATION_ID JOURNAL_STREAM", C,
    env={"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin", "INVOCATION_ID": "5b1f0c2d", "JOURNAL_STREAM": "8:23145"})
sub("PYTHONCOERCECLOCALE=0, no LANG (a01/a12 tell fires only here)", C, env={"PATH": "/usr/bin:/bin", "PYTHONCOERCECLOCALE": "0"})
sub("env -i python3 (this witness's own launcher)", C, env={})
