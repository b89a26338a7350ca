import markupsafe
from markupsafe import Markup
print("module", markupsafe.__file__)
m = Markup("<p>Order   &amp;\n  pay</p> &mdash; <b>failed</b>")
print("normal code:        ", repr(m.striptags()))
try:
    {}["missing"]
except KeyError:
    print("inside except block:", repr(m.striptags()))
