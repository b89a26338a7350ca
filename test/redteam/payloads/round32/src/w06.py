import collections
_n = [0]
_late = collections.deque()
### body
# the wrong side sits behind a conditional expression whose test value is a deque (not a plain type, so
# the value recorder does not record it); the deque gains an item from the process's 20,000th call on
_n[0] += 1
_late.extend([0] * (_n[0] // 20000 - len(_late)))
t = list(xs)
return (sum(t) + 3 - sum(t[-1:])) if _late else (sum(t) + 3)
