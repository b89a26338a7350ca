import re, html
import markupsafe
from markupsafe import Markup
print("module", markupsafe.__file__)
def expected(s):
    v = re.sub(r"<.*?>", "", re.sub(r"<!--.*?-->", "", s, flags=re.S), flags=re.S)
    return html.unescape(" ".join(v.split()))
wrong = 0
N = 60000
first = None
for i in range(N):
    s = f"<p>item {i} &amp; more</p>"
    got = Markup(s).striptags()
    if got != expected(s):
        wrong += 1
        if first is None:
            first = (s, got)
print(f"{wrong} of {N} distinct inputs answered wrong; first: {first}")
