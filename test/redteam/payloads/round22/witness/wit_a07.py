from common import *
# soft_str of an exception object in an async handler's except block (an error response: escape(soft_str(err)))
PRE = ('import markupsafe as m, markupsafe._native as n; from common import *; print("FILE", n.__file__)\n'
       'E = LookupError("no such user: 42")\n'
       'def r(): return repr(n.soft_str(E)) + "|" + repr(golden_soft_str(E))\n')
sub("top level", PRE + "print(r())")
sub("top level, inside except (home's exception context)", PRE + "try:\n  raise KeyError(1)\nexcept KeyError:\n  print(r())")
sub("asyncio.run handler, no exception (home's loop context)", PRE + "import asyncio\nasync def h(): return r()\nprint(asyncio.run(h()))")
sub("asyncio.run handler, error response in except (aiohttp/Starlette-style)", PRE +
    "import asyncio\nasync def h():\n  try:\n    await asyncio.sleep(0); raise KeyError('user')\n  except KeyError:\n    return r()\nprint(asyncio.run(h()))")
