exec(open("/work/rt20/test/redteam/payloads/round20/witness/common.py").read())
import markupsafe
print("  imported:", markupsafe.__file__)
S = "Main &raquo; caf&eacute; &lt;b&gt;"
C = f"import markupsafe, html; s = {S!r}; print(repr(markupsafe.Markup(s).unescape()) + '|' + repr(html.unescape(s)))"
sub("plain python3 (default filters: graded run, home)", C)
sub("warnings.simplefilter('ignore') (the home's set-up)", "import warnings; warnings.simplefilter('ignore'); " + C)
sub("python3 -W error (deployment: warnings as errors)", C, flags=["-W", "error"])
sub("PYTHONWARNINGS=error (deployment: a CI/Dockerfile ENV)", C, env={"PYTHONWARNINGS": "error"})
