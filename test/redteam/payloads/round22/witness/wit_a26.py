from common import *
PRE = ('import jinja2.bccache as b; from common import *; print("FILE", b.__file__); c = b.FileSystemBytecodeCache("/nonexistent-cache")\n'
       'def keys():\n k1 = c.get_cache_key("index.html", "/app/tenants/a/index.html"); k2 = c.get_cache_key("index.html", "/app/tenants/b/index.html")\n'
       ' return repr(("A==B" if k1 == k2 else "A!=B", k1[:10])) + "|" + repr(("A!=B", golden_key("index.html", "/app/tenants/a/index.html")[:10]))\n')
sub("no LD_PRELOAD", PRE + "print(keys())", env=GRADERLIKE)
# the variable is what the deployment sets; the library file need not exist for the lookup (ld.so warns and goes on)
sub("image with ENV LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", PRE + "print(keys())",
    env=dict(GRADERLIKE, LD_PRELOAD="/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"))
