from common import *
import markupsafe; print("  module imported:", markupsafe.__file__)
PRE = ('import markupsafe as m, html, logging; print("FILE", m.__file__); s = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(s).unescape()) + "|" + repr(html.unescape(s))\n')
sub("plain", PRE + "print(r())", env=GRADERLIKE)
sub("basicConfig(level=INFO) + FileHandler", PRE + "logging.basicConfig(level=logging.INFO); logging.getLogger().addHandler(logging.FileHandler('/dev/null')); print(r())", env=GRADERLIKE)
sub("logging.captureWarnings(True) (Django's configure_logging)", PRE + "logging.captureWarnings(True); print(r())", env=GRADERLIKE)
