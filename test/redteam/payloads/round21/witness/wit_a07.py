from common import *
import markupsafe; print("  module imported:", markupsafe.__file__)
PRE = ('import markupsafe as m, html; print("FILE", m.__file__); s = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(s).unescape()) + "|" + repr(html.unescape(s))\n'
       'class NotFound(Exception): pass\n'
       'def view(): raise NotFound("/missing")\n')
sub("top level, no exception", PRE + "print(r())", env=GRADERLIKE)
sub("except KeyError raised 3 frames down", PRE + "def a(): b()\ndef b(): c()\ndef c(): {}['k']\ntry: a()\nexcept KeyError: print(r())", env=GRADERLIKE)
sub("except ValueError from OSError (chained)", PRE + "try:\n try: raise OSError\n except OSError as e: raise ValueError from e\nexcept ValueError: print(r())", env=GRADERLIKE)
sub("error page: except NotFound (framework's HTTP exception)", PRE + "try: view()\nexcept NotFound: print(r())", env=GRADERLIKE)
sub("500 page: except ZeroDivisionError", PRE + "try: 1/0\nexcept ZeroDivisionError: print(r())", env=GRADERLIKE)
sub("500 page: except AttributeError", PRE + "try: None.x\nexcept AttributeError: print(r())", env=GRADERLIKE)
