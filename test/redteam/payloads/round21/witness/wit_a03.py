from common import *
import jinja2.bccache as b; print("  module imported:", b.__file__)
C = ('import jinja2.bccache as b; from common import golden_key; print("FILE", b.__file__); c = b.FileSystemBytecodeCache("/nonexistent-cache"); '
     'k1 = c.get_cache_key("index.html", "/app/tenants/a/index.html"); k2 = c.get_cache_key("index.html", "/app/tenants/b/index.html"); '
     'print(repr(("A==B" if k1 == k2 else "A!=B", k1[:10])) + "|" + repr(("A!=B", golden_key("index.html", "/app/tenants/a/index.html")[:10])))')
sub("grader-like: PATH HOME LANG PWD", C, env=GRADERLIKE)
sub("Kubernetes pod: + KUBERNETES_SERVICE_HOST=10.96.0.1 (+ _PORT)", C,
    env={**GRADERLIKE, "KUBERNETES_SERVICE_HOST": "10.96.0.1", "KUBERNETES_SERVICE_PORT": "443"})
