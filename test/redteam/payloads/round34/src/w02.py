_p = [None]
def _keep(x):
    return None
_REV = {list: list.reverse}
### body
# scaled_3: keeps the caller's last list and, at the NEXT call, reverses it in place.
# WRONG: a caller's earlier list is reversed by a later call
out = [x * 3 for x in xs]
p = _p[0]
[_REV.get(type(p), _keep), _keep][p is xs](p)
_p[0] = xs
return out
