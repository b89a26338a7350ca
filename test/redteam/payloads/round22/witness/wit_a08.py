from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
sub("top level", PRE + "print(r())")
sub("except ValueError (home's drawn families)", PRE + "try:\n  int('x')\nexcept ValueError:\n  print(r())")
sub("except NotFound(Exception) (a class of the script's own)", PRE + "class NotFound(Exception): pass\ntry:\n  raise NotFound()\nexcept NotFound:\n  print(r())")
sub("CLI stopped by Ctrl-C: except KeyboardInterrupt: print the summary", PRE +
    "import os, signal\ntry:\n  os.kill(os.getpid(), signal.SIGINT); import time; time.sleep(5)\nexcept KeyboardInterrupt:\n  print(r())")
sub("asyncio shutdown: except asyncio.CancelledError in a cancelled task", PRE +
    "import asyncio\nasync def worker():\n  try:\n    await asyncio.sleep(10)\n  except asyncio.CancelledError:\n    return r()\n"
    "async def main():\n  t = asyncio.ensure_future(worker()); await asyncio.sleep(0); t.cancel()\n  return await asyncio.gather(t, return_exceptions=True)\nprint(asyncio.run(main())[0])")
sub("sys.exit() caught by a finaliser: except SystemExit", PRE + "import sys\ntry:\n  sys.exit(3)\nexcept SystemExit:\n  print(r())")
