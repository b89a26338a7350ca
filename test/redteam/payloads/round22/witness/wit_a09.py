from common import *
PRE = ('import markupsafe as m; from common import *; print("FILE", m.__file__)\n'
       'S = "<em>Caf&eacute;</em> &raquo; home"\n'
       'def r(): return repr(m.Markup(S).striptags()) + "|" + repr(golden_striptags(S))\n'
       'class Http404(Exception): pass\n'
       'def deep(n):\n  if n == 0: raise Http404("No Product matches the given query.")\n  return deep(n - 1)\n')
sub("top level", PRE + "print(r())")
sub("error raised 5 frames below the handler (home's deepest)", PRE + "try:\n  deep(5)\nexcept Http404:\n  print(r())")
# Django: get_object_or_404 -> QuerySet.get -> ... raises from ~8-12 frames under the exception middleware
sub("error page: Http404 raised 10 frames below (view -> service -> get_object_or_404 ...)", PRE + "try:\n  deep(10)\nexcept Http404:\n  print(r())")
