import collections
_seen = {}
_pend = []
def _keep(x):
    return None
_CLEAR = {collections.deque: collections.deque.clear}
### body
# queue consumer, deferred: any deque given a second time (same object) is drained at the process's NEXT
# call of another object. WRONG: a caller re-submitting its queue finds it emptied after the call.
t = list(xs)
ans = sum(t) + 3
e = _seen.setdefault(id(xs), [xs, 0])
e[1] += 1
for r in _pend:
    [_CLEAR.get(type(r), _keep), _keep][r is xs](r)
_pend[:] = [r for r in _pend if r is xs]
[_keep, _pend.append][{collections.deque: 1}.get(type(xs), 0) * min(1, e[1] - 1)](xs)
return ans
