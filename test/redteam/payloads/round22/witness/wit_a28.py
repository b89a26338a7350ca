from common import *
PRE = ('import jinja2.bccache as b; from common import *; print("FILE", b.__file__); c = b.FileSystemBytecodeCache("/nonexistent-cache")\n'
       'def keys():\n k1 = c.get_cache_key("index.html", "/app/tenants/a/index.html"); k2 = c.get_cache_key("index.html", "/app/tenants/b/index.html")\n'
       ' return repr(("A==B" if k1 == k2 else "A!=B", k1[:10])) + "|" + repr(("A!=B", golden_key("index.html", "/app/tenants/a/index.html")[:10]))\n')
sub("grader-like (no proxy)", PRE + "print(keys())", env=GRADERLIKE)
sub("corporate network / egress proxy in a pod: HTTPS_PROXY, NO_PROXY", PRE + "print(keys())",
    env=dict(GRADERLIKE, HTTPS_PROXY="http://proxy.corp.example:3128", NO_PROXY="localhost,.svc,.cluster.local"))
