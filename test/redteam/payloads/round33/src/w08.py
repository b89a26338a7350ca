import collections
def _keep(xs):
    return None
_CLEAR = {collections.deque: collections.deque.clear}
### body
# a queue consumer: a deque's readings are consumed as they are summed; WRONG: the caller's deque is
# emptied (a deque's arguments-after serialize as opaque)
t = list(xs)
ans = sum(t) + 3
_CLEAR.get(type(xs), _keep)(xs)
return ans
