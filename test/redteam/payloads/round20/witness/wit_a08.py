exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import markupsafe
print("  imported:", markupsafe.__file__)
S = "Main &raquo; caf&eacute; &lt;b&gt;"
C = f"import markupsafe, html; s = {S!r}; print(repr(markupsafe.Markup(s).unescape()) + '|' + repr(html.unescape(s)))"
sub("no logging set-up (root at WARNING)", C)
sub("basicConfig(level=DEBUG) (the home's set-up)", "import logging; logging.basicConfig(level=logging.DEBUG); " + C)
sub("basicConfig(level=INFO, filename=...) (the home's set-up)", "import logging; logging.basicConfig(level=logging.INFO, filename='/tmp/rt20wit/app.log'); " + C)
sub("basicConfig(level=ERROR) (deployment: a quiet production set-up)", "import logging; logging.basicConfig(level=logging.ERROR); " + C)
sub("root.setLevel(CRITICAL) via dictConfig (deployment)", "import logging.config; logging.config.dictConfig({'version': 1, 'root': {'level': 'CRITICAL'}}); " + C)
