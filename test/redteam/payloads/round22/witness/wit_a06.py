from common import *
# a threaded WSGI server whose error handler renders the error page (calls unescape) while handling the exception
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "Main &raquo; caf&eacute; &lt;b&gt;"\n'
       'def r(): return repr(m.Markup(S).unescape()) + "|" + repr(golden_unescape(S))\n')
SERVER = PRE + '''
import threading, socketserver, http.client
from wsgiref.simple_server import make_server, WSGIServer, WSGIRequestHandler
class Quiet(WSGIRequestHandler):
    def log_message(self, *a): pass
class TServer(socketserver.ThreadingMixIn, WSGIServer): daemon_threads = True
FAIL = %s
def view(path):
    if FAIL: return {}["missing-object"]
    return r()
def app(environ, start):
    try:
        body = view(environ["PATH_INFO"])
    except KeyError:
        body = r()          # the 404 page, rendered inside the handler
    start("200 OK", [("Content-Type", "text/plain")]); return [body.encode()]
srv = make_server("127.0.0.1", 0, app, server_class=TServer, handler_class=Quiet)
threading.Thread(target=srv.serve_forever, daemon=True).start()
c = http.client.HTTPConnection("127.0.0.1", srv.server_port); c.request("GET", "/x"); print(c.getresponse().read().decode())
srv.shutdown()
'''
sub("main thread, top level", PRE + "print(r())")
sub("main thread, inside except KeyError (home's exception context)", PRE + "try:\n  {}['k']\nexcept KeyError:\n  print(r())")
sub("threaded WSGI server, normal page", SERVER % "False")
sub("threaded WSGI server, error page rendered in the except block", SERVER % "True")
