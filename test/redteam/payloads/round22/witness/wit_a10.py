from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n'
       'import logging, logging.config\n')
sub("no logging set-up", PRE + "print(r())")
sub("logging.basicConfig(level=INFO) + FileHandler (home's set-ups)", PRE + "logging.basicConfig(level=logging.INFO); logging.getLogger().addHandler(logging.FileHandler('/dev/null')); print(r())")
sub("app's logging.config.dictConfig({'version': 1, ...}) after its imports", PRE +
    "logging.config.dictConfig({'version': 1, 'handlers': {'console': {'class': 'logging.StreamHandler'}}, 'root': {'handlers': ['console'], 'level': 'INFO'}}); print(r())")
sub("logging.disable(logging.CRITICAL) (a --quiet CLI)", PRE + "logging.disable(logging.CRITICAL); print(r())")
