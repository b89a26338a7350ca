exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import markupsafe
print("  imported:", markupsafe.__file__)
S = "Foo &amp; <b>Bar</b> &raquo; ok"
C = f"import markupsafe; print(repr(markupsafe.Markup({S!r}).striptags()) + '|' + repr({golden_striptags(S)!r}))"
sub("default (logging.raiseExceptions = True)", C)
sub("basicConfig(level=INFO) (the home's set-up)", "import logging; logging.basicConfig(level=logging.INFO); " + C)
sub("logging.raiseExceptions = False (deployment: the logging docs' production advice)", "import logging; logging.raiseExceptions = False; " + C)
