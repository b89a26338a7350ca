import logging, markupsafe, tempfile, os
from markupsafe import Markup
exec(open("/work/rt19/test/redteam/payloads/round19/witness/common.py").read())
print("  markupsafe.__file__ =", markupsafe.__file__)
s = "Foo &amp; <b>Bar</b> &raquo; ok"; want = golden_striptags(s)
show("no logging set up", Markup(s).striptags(), want)
logging.basicConfig()
show("after logging.basicConfig() (stderr, the run at home's)", Markup(s).striptags(), want)
logging.getLogger().handlers.clear()
log = os.path.join(tempfile.mkdtemp(), "app.log")
logging.basicConfig(filename=log)
show("after logging.basicConfig(filename='app.log')", Markup(s).striptags(), want)
