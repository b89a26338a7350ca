from common import *
import markupsafe; print("  module imported:", markupsafe.__file__)
PRE = ('import markupsafe as m, warnings; from common import golden_striptags as g; print("FILE", m.__file__); s = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(s).striptags()) + "|" + repr(g(s))\n')
sub("plain interpreter (default filters)", PRE + "print(r())", env=GRADERLIKE)
sub("warnings ignored (simplefilter('ignore'))", PRE + "warnings.simplefilter('ignore'); print(r())", env=GRADERLIKE)
sub("warnings always shown (simplefilter('always'))", PRE + "warnings.simplefilter('always'); print(r())", env=GRADERLIKE)
sub("warnings errors (simplefilter('error'))", PRE + "warnings.simplefilter('error'); print(r())", env=GRADERLIKE)
sub("python3 -X dev", PRE + "print(r())", flags=("-X", "dev"), env=GRADERLIKE)
sub("python3 -W default", PRE + "print(r())", flags=("-W", "default"), env=GRADERLIKE)
sub("PYTHONWARNINGS=default (CI images)", PRE + "print(r())", env={**GRADERLIKE, "PYTHONWARNINGS": "default"})
