from common import *
import markupsafe; print("  module imported:", markupsafe.__file__)
C = ('import markupsafe as m; from common import golden_striptags as g; print("FILE", m.__file__); s = "<em>Caf&eacute;</em> &raquo; home"; '
     'print(repr(m.Markup(s).striptags()) + "|" + repr(g(s)))')
sub("grader-like: PATH HOME LANG PWD", C, env=GRADERLIKE)
sub("Docker exec-form CMD [\"python3\",...]: PATH HOSTNAME HOME LANG", C,
    env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOSTNAME": "3f1c9a2b7d10", "HOME": "/root", "LANG": "C.UTF-8"})
sub("systemd unit: PATH LANG INVOCATION_ID", C, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "INVOCATION_ID": "5b1f0c2d"})
