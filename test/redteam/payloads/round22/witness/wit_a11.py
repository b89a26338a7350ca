from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(S).striptags()) + "|" + repr(golden_striptags(S))\n'
       'import logging\n')
# sentry_sdk.init() enables LoggingIntegration by default; its setup_once() does exactly this
SENTRY = ('import types, sys\nmod = types.ModuleType("sentry_sdk.integrations.logging")\n'
          'exec("import logging\\nold = logging.Logger.callHandlers\\ndef sentry_patched_callhandlers(self, record):\\n    return old(self, record)\\nlogging.Logger.callHandlers = sentry_patched_callhandlers\\n", mod.__dict__)\n')
sub("plain process", PRE + "print(r())")
sub("logging.basicConfig + handlers (home's set-ups)", PRE + "logging.basicConfig(level=logging.DEBUG); print(r())")
sub("sentry_sdk.init(dsn=...) (LoggingIntegration patches Logger.callHandlers)", PRE + SENTRY + "print(r())")
