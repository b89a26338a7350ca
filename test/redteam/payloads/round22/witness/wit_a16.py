from common import *
PRE = ('import jinja2.bccache as b; from common import *; print("FILE", b.__file__); c = b.FileSystemBytecodeCache("/nonexistent-cache")\n'
       'def keys():\n k1 = c.get_cache_key("index.html", "/srv/app/tenants/a/index.html"); k2 = c.get_cache_key("index.html", "/srv/app/tenants/b/index.html")\n'
       ' return repr(("A==B" if k1 == k2 else "A!=B", k1[:10])) + "|" + repr(("A!=B", golden_key("index.html", "/srv/app/tenants/a/index.html")[:10]))\n')
sub("grader-like", PRE + "print(keys())", env=GRADERLIKE)
sub("the flip's value: INVOCATION_ID=1", PRE + "print(keys())", env=dict(GRADERLIKE, INVOCATION_ID="1"))
sub("systemd service (app.service): INVOCATION_ID=<32 hex>", PRE + "print(keys())",
    env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "INVOCATION_ID": "6f1d3c2e9a8b4c7d8e0f1a2b3c4d5e6f", "JOURNAL_STREAM": "8:41532"})
