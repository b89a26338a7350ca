import threading, logging, html, re
from decimal import Decimal
import markupsafe
from markupsafe import Markup
from markupsafe._native import soft_str
logging.basicConfig()
def exp_strip(s):
    v = re.sub(r"<.*?>", "", re.sub(r"<!--.*?-->", "", s, flags=re.S), flags=re.S)
    return html.unescape(" ".join(v.split()))
ok = True
def chk(label, got, want):
    global ok
    if got != want or type(got) is not type(want):
        ok = False; print("MISMATCH", label, repr(got), repr(want))
def run():
    for s in ["<em>Foo &amp; Bar</em>", "a  <!-- x -->\t b &raquo; c", "plain", "&#60;b&#62;", "caf&eacute;"]:
        try:
            chk("striptags", Markup(s).striptags(), exp_strip(s))
        except NotImplementedError: pass
        try:
            chk("unescape", Markup(s).unescape(), html.unescape(s))
        except NotImplementedError: pass
    for v in [15, Decimal("2.5"), None, [1], Markup("<b>")]:
        try:
            want = v if isinstance(v, str) else str(v)
            chk("soft_str", soft_str(v), want)
        except NotImplementedError: pass
def main():
    run()
main(); run()
try:
    raise KeyError
except KeyError:
    run()
t = threading.Thread(target=run); t.start(); t.join()
print("module", markupsafe.__file__, "all as the original:", ok)
