from common import *
# a real Jinja2 (the system's, /usr/lib/python3/dist-packages) rendering {{ s|striptags }} with the patched markupsafe
PRE = ('import markupsafe as m, jinja2; from common import *; print("FILE", m.__file__); print("FILE", jinja2.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n')
sub("direct call Markup(s).striptags()", PRE + "print(repr(m.Markup(S).striptags()) + '|' + repr(golden_striptags(S)))")
sub("a function 3 deep", PRE + "def a(): return b()\ndef b(): return c()\ndef c(): return m.Markup(S).striptags()\nprint(repr(a()) + '|' + repr(golden_striptags(S)))")
sub("Jinja2 template '{{ s|striptags }}'", PRE + "t = jinja2.Environment().from_string('{{ s|striptags }}')\nprint(repr(t.render(s=S)) + '|' + repr(golden_striptags(S)))")
