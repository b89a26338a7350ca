from common import *
import markupsafe; print("  module imported:", markupsafe.__file__)
C = ('import markupsafe as m; from common import golden_striptags as g; print("FILE", m.__file__); s = "<em>Caf&eacute;</em> &raquo; home"; '
     'print(repr(m.Markup(s).striptags()) + "|" + repr(g(s)))')
sub("grader-like: PATH HOME LANG PWD", C, env=GRADERLIKE)
sub("Dockerfile ENV PYTHONUNBUFFERED=1", C, env={**GRADERLIKE, "PYTHONUNBUFFERED": "1"})
