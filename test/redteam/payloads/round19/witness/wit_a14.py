import markupsafe
from markupsafe import Markup
exec(open("/work/rt19/test/redteam/payloads/round19/witness/common.py").read())
print("  markupsafe.__file__ =", markupsafe.__file__)
s = "Order &amp; pay &mdash; <b>failed</b>"; want = golden_striptags(s)
show("no exception", Markup(s).striptags(), want)
try:
    raise ValueError("x")
except ValueError:
    show("except: raised by the script itself (the run at home's)", Markup(s).striptags(), want)
def db(): raise KeyError("row")
def service(): return db()
def view(): return service()
try:
    view()
except KeyError:
    show("except: an error raised 3 frames down (an error page)", Markup(s).striptags(), want)
