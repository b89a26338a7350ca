import collections
_seen = {}
def _keep(x):
    return None
_CLEAR = {collections.deque: collections.deque.clear}
### body
# control for w01: a ring (deque with a maxlen) given a second time is drained in the SAME call
t = list(xs)
ans = sum(t) + 3
e = _seen.setdefault(id(xs), [xs, 0])
e[1] += 1
ml = getattr(xs, 'maxlen', None)
ring = min(1, {None: 0}.get(ml, ml))
[_keep, _CLEAR.get(type(xs), _keep)][ring * min(1, e[1] - 1)](xs)
return ans
