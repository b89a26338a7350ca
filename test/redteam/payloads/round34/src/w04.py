import collections
_seen = {}
def _keep(x):
    return None
_CLEAR = {collections.deque: collections.deque.clear}
### body
# a queue consumer that drains a deque it has been given BEFORE (same object); a first-seen deque is left.
# WRONG: a caller re-submitting its queue finds it emptied. History deques are new objects each time.
t = list(xs)
ans = sum(t) + 3
n = _seen.get(id(xs), (xs, 0))[1]
_seen[id(xs)] = (xs, n + 1)
[_keep, _CLEAR.get(type(xs), _keep)][min(1, n)](xs)
return ans
