exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import markupsafe
print("  imported:", markupsafe.__file__)
S = "Foo &amp; <b>Bar</b> &raquo; ok"
W = golden_striptags(S)
def deep(n):
    if n == 0: raise KeyError("x")
    deep(n - 1)
try:
    deep(4)
except LookupError:
    show("except block, KeyError raised 4 frames down (the home's)", markupsafe.Markup(S).striptags(), W)
class NotFound(Exception): pass
def view():
    try:
        {}["missing"]
    except KeyError as e:
        raise NotFound("page") from e
try:
    view()
except NotFound:
    show("error page for NotFound raised from a KeyError (deployment)", markupsafe.Markup(S).striptags(), W)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        {}["x"]
except KeyError:
    show("except block, KeyError raised while handling another", markupsafe.Markup(S).striptags(), W)
