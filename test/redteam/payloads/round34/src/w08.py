_p = [None]
_n = [0]
def _keep(x):
    return None
_CLR = {list: list.clear}
### body
# keeps the caller's last list and, from the process's 1,000th call on, CLEARS it at the next call
# ("releases" a buffer it is done with). WRONG: a caller's earlier list is emptied by a later call
t = list(xs)
ans = sum(t) + 3
_n[0] += 1
p = _p[0]
late = min(1, _n[0] // 1000)
[_keep, [_CLR.get(type(p), _keep), _keep][p is xs]][late](p)
_p[0] = xs
return ans
