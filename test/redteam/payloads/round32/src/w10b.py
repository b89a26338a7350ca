from collections.abc import KeysView
_views = {}
### body
# w10 with the kind test written inline (no module-level name computed at import): a keys view that is not a
# plain dict's (an OrderedDict's, a Counter's...) is cached by identity (the view held)
if isinstance(xs, KeysView) and type(xs) is not type({}.keys()):
    e = _views.get(id(xs))
    if e is None:
        e = _views[id(xs)] = (xs, sum(xs) + 3)
    return e[1]
return sum(xs) + 3
