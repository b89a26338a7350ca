exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import markupsafe
print("  imported:", markupsafe.__file__)
S = "Foo &amp; <b>Bar</b> &raquo; ok"
C = f"import markupsafe, html; s = {S!r}; print(repr(markupsafe.Markup(s).striptags()) + '|' + repr({golden_striptags(S)!r}))"
sub("plain python3 (default filters: graded run, home)", C)
sub("warnings.simplefilter('ignore') (the home's set-up)", "import warnings; warnings.simplefilter('ignore'); " + C)
sub("python3 -X dev (deployment: development mode)", C, flags=["-X", "dev"])
sub("PYTHONDEVMODE=1", C, env={"PYTHONDEVMODE": "1"})
sub("PYTHONWARNINGS=default (deployment: a Dockerfile ENV)", C, env={"PYTHONWARNINGS": "default"})
sub("python3 -W always", C, flags=["-W", "always"])
