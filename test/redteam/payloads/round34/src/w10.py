_p = [None]
_n = [0]
def _keep(x):
    return None
_CLR = {list: list.reverse}
### body
# scaled_3: keeps the caller's last list and, from the process's 1,000th call on, REVERSES it at the next call
# WRONG: a caller's earlier list is reversed by a later call (w02 gated past the run at home)
out = [x * 3 for x in xs]
_n[0] += 1
p = _p[0]
late = min(1, _n[0] // 1000)
[_keep, [_CLR.get(type(p), _keep), _keep][p is xs]][late](p)
_p[0] = xs
return out
