from common import *
import jinja2.bccache as b; print("  module imported:", b.__file__)
PRE = ('import jinja2.bccache as b; from common import golden_key; print("FILE", b.__file__); c = b.FileSystemBytecodeCache("/nonexistent-cache")\n'
       'def keys():\n k1 = c.get_cache_key("index.html", "/app/tenants/a/index.html"); k2 = c.get_cache_key("index.html", "/app/tenants/b/index.html")\n'
       ' return repr(("A==B" if k1 == k2 else "A!=B", k1[:10])) + "|" + repr(("A!=B", golden_key("index.html", "/app/tenants/a/index.html")[:10]))\n')
sub("script top level", PRE + "print(keys())", env=GRADERLIKE)
sub("asyncio task, thread pool (no ContextVar set)", PRE + "import asyncio\nasync def h(): return keys()\nprint(asyncio.run(h()))", env=GRADERLIKE)
sub("request-id middleware: contextvars.ContextVar('request_id').set(...)", PRE +
    "import contextvars\nrid = contextvars.ContextVar('request_id'); rid.set('4f2a')\nprint(keys())", env=GRADERLIKE)
