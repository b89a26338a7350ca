import logging
import markupsafe
from markupsafe import Markup
print("module", markupsafe.__file__)
m = Markup("Main &raquo; caf&eacute; &#8364;5 &lt;b&gt;")
print("before logging.basicConfig():", repr(m.unescape()))
logging.basicConfig(level=logging.INFO)
print("after  logging.basicConfig():", repr(m.unescape()))
