from common import *
PRE = ('import jinja2.bccache as b; from common import *; print("FILE", b.__file__); c = b.FileSystemBytecodeCache("/nonexistent-cache")\n'
       'def keys():\n k1 = c.get_cache_key("index.html", "/app/tenants/a/index.html"); k2 = c.get_cache_key("index.html", "/app/tenants/b/index.html")\n'
       ' return repr(("A==B" if k1 == k2 else "A!=B", k1[:10])) + "|" + repr(("A!=B", golden_key("index.html", "/app/tenants/a/index.html")[:10]))\n'
       'import contextvars\n')
sub("top level", PRE + "print(keys())")
sub("one request ContextVar set (home's set-up)", PRE + "v = contextvars.ContextVar('request'); v.set(1); print(keys())")
sub("Flask >= 2.3 request: _cv_app and _cv_request both set", PRE +
    "a = contextvars.ContextVar('flask.app_ctx'); q = contextvars.ContextVar('flask.request_ctx')\n"
    "def view(): a.set('app'); q.set('req'); return keys()\nprint(contextvars.copy_context().run(view))")
sub("structlog: bind_contextvars(request_id=..., user=...)", PRE +
    "rid = contextvars.ContextVar('structlog_request_id'); usr = contextvars.ContextVar('structlog_user'); rid.set('4f2a'); usr.set('ana'); print(keys())")
