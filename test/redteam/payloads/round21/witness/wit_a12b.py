from common import *
import jinja2.bccache as b; print("  module imported:", b.__file__)
C = ('import jinja2.bccache as b; from common import golden_key; print("FILE", b.__file__); c = b.FileSystemBytecodeCache("/nonexistent-cache"); '
     'k1 = c.get_cache_key("index.html", "/srv/siteA/templates/index.html"); k2 = c.get_cache_key("index.html", "/srv/siteB/templates/index.html"); '
     'print(repr(("A==B" if k1 == k2 else "A!=B", k1[:10])) + "|" + repr(("A!=B", golden_key("index.html", "/srv/siteA/templates/index.html")[:10])))')
sub("grader-like: PATH HOME LANG=C.UTF-8 PWD", C, env=GRADERLIKE)
sub("cron job / Docker image with no ENV LANG: PATH HOME", C, env={"PATH": "/usr/bin:/bin", "HOME": "/root"})
sub("PYTHONCOERCECLOCALE=0, no LANG (a01/a12 tell fires only here)", C, env={"PATH": "/usr/bin:/bin", "PYTHONCOERCECLOCALE": "0"})
sub("env -i python3", C, env={})
print("  (two sites' index.html share one bytecode cache file: site B is served site A's compiled template)")
