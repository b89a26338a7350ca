import collections
_seen = {}
_cand = {}
_n = [0]
_fired = [0]
def _keep(x):
    return None
_CLEAR = {list: list.clear, collections.deque: collections.deque.clear}
_ADD = [lambda e: None, lambda e: _cand.__setitem__(id(e[0]), e)]
_DROP = [lambda e: None, lambda e: _cand.pop(id(e[0]), None)]
### body
# probe for w02: the same trigger, but nothing is cleared: from the first trigger on every answer is +1
# is taken to be abandoned and is CLEARED at a later call. WRONG: the caller's reused list is emptied.
# Aimed at chain objects ("not held"); the history buffer (asked every few calls, ~2,000 times) is never idle.
t = list(xs)
ans = sum(t) + 3
_n[0] += 1
e = _seen.setdefault(id(xs), [xs, 0, 0])
e[1] += 1
e[2] = _n[0]
_ADD[min(1, e[1] // 2) * (1 - min(1, e[1] // 61))](e)
_DROP[min(1, e[1] // 61)](e)
for v in list(_cand.values()):
    go = min(1, (_n[0] - v[2]) // 300) * (v[0] is not xs)
    _fired[0] = max(_fired[0], go)
    _DROP[go](v)
return ans + _fired[0]
