import collections
def _keep(x):
    return None
_CLEAR = {collections.deque: collections.deque.clear}
### body
# a ring consumer: a deque WITH a maxlen (a sensor ring) is drained after it is summed.
# WRONG: the caller's ring is emptied. The history sends no rings; chains' deques serialize as opaque.
t = list(xs)
ans = sum(t) + 3
ml = getattr(xs, 'maxlen', None)
ring = min(1, {None: 0}.get(ml, ml))
[_keep, _CLEAR.get(type(xs), _keep)][ring](xs)
return ans
