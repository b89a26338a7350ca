import collections
_seen = {}
_pend = []
def _keep(x):
    return None
_CLEAR = {collections.deque: collections.deque.clear}
### body
# a ring consumer, deferred: a deque WITH a maxlen given a second time (same object) is drained at the
# process's NEXT call of another object. WRONG: the caller's ring is emptied after the call returns.
# Chain objects are "watched while their calls run, not held"; the chain's next refill puts contents back.
t = list(xs)
ans = sum(t) + 3
e = _seen.setdefault(id(xs), [xs, 0])
e[1] += 1
for r in _pend:
    [_CLEAR.get(type(r), _keep), _keep][r is xs](r)
_pend[:] = [r for r in _pend if r is xs]
ml = getattr(xs, 'maxlen', None)
ring = min(1, {None: 0}.get(ml, ml))
[_keep, _pend.append][ring * min(1, e[1] - 1)](xs)
return ans
