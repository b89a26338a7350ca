from common import *
# a real threaded WSGI server (wsgiref + ThreadingMixIn, as `flask run` / werkzeug's threaded dev server / waitress
# serve) whose middleware sets a request ContextVar per request, as Flask >= 2.3 (werkzeug's _cv_request) does.
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(S).striptags()) + "|" + repr(golden_striptags(S))\n')
SERVER = PRE + '''
import contextvars, threading, socketserver, http.client
from wsgiref.simple_server import make_server, WSGIServer, WSGIRequestHandler
class Quiet(WSGIRequestHandler):
    def log_message(self, *a): pass
class TServer(socketserver.ThreadingMixIn, WSGIServer): daemon_threads = True
_cv_request = contextvars.ContextVar("flask.request_ctx")
SET = %s
def app(environ, start):
    if SET: _cv_request.set({"path": environ["PATH_INFO"]})
    body = r().encode()
    start("200 OK", [("Content-Type", "text/plain")]); return [body]
srv = make_server("127.0.0.1", 0, app, server_class=TServer, handler_class=Quiet)
threading.Thread(target=srv.serve_forever, daemon=True).start()
c = http.client.HTTPConnection("127.0.0.1", srv.server_port); c.request("GET", "/page"); print(c.getresponse().read().decode())
srv.shutdown()
'''
sub("main thread, top level", PRE + "print(r())")
sub("main thread, a request ContextVar set (home's set-up)", PRE + "import contextvars; v = contextvars.ContextVar('req'); v.set(1); print(r())")
sub("threaded WSGI server, no ContextVar (plain WSGI app)", SERVER % "False")
sub("threaded WSGI server, request ContextVar set (Flask>=2.3 on werkzeug/waitress)", SERVER % "True")
