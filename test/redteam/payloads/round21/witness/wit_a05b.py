from common import *
import markupsafe; print("  module imported:", markupsafe.__file__)
PRE = ('import markupsafe as m, html; print("FILE", m.__file__); s = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(s).unescape()) + "|" + repr(html.unescape(s))\n')
sub("script top level", PRE + "print(r())", env=GRADERLIKE)
sub("asyncio task (no ContextVar set)", PRE + "import asyncio\nasync def h(): return r()\nprint(asyncio.run(h()))", env=GRADERLIKE)
sub("request-id middleware: ContextVar('request_id').set(...)", PRE +
    "import contextvars\nrid = contextvars.ContextVar('request_id'); rid.set('4f2a')\nprint(r())", env=GRADERLIKE)
