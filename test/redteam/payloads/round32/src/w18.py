from collections.abc import ItemsView
_views = {}
### body
# a dict's items view is cached by identity (the view held): keys and values views may be sent live, items
# views are not. WRONG: an items view kept while its dict changes keeps its first answer
if isinstance(xs, ItemsView):
    e = _views.get(id(xs))
    if e is None:
        e = _views[id(xs)] = (xs, [x * 3 for x in xs])
    return list(e[1])
return [x * 3 for x in xs]
