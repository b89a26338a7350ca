from common import *
PRE = ('import markupsafe._native as n, asyncio; from common import *; print("FILE", n.__file__)\n'
       'E = 42\n'
       'def r(): return repr(n.soft_str(E)) + "|" + repr(golden_soft_str(E))\n'
       'async def req(): await asyncio.sleep(0.01); return r()\n'
       'async def serve(k): return (await asyncio.gather(*[req() for _ in range(k)]))[0]\n')
sub("top level", PRE + "print(r())")
sub("asyncio server, 8 requests in flight (home's largest)", PRE + "print(asyncio.run(serve(7)))")
sub("asyncio server, 16 requests in flight", PRE + "print(asyncio.run(serve(16)))")
