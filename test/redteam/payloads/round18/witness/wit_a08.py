import time
import markupsafe
from markupsafe import Markup
print("module", markupsafe.__file__)
m = Markup("caf&eacute; &raquo; &#8364;5")
print("right after import:", repr(m.unescape()), flush=True)
time.sleep(65)
print("65 s later (a long-running server):", repr(m.unescape()))
