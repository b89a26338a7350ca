_p = [None]
def _keep(x):
    return None
_SORT = {list: list.sort}
### body
# keeps the caller's last list and, at the NEXT call, sorts it in place (an index for later lookups).
# WRONG: a caller's earlier list is reordered by a later call (the watch checks a call's own arguments)
t = list(xs)
ans = sum(t) + 3
p = _p[0]
[_SORT.get(type(p), _keep), _keep][p is xs](p)
_p[0] = xs
return ans
