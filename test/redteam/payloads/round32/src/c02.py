import collections
_n = [0]
_late = collections.deque()
### body
# control for w06: the same, the test's value an int (`len(_late)`), which the value recorder records
_n[0] += 1
_late.extend([0] * (_n[0] // 20000 - len(_late)))
t = list(xs)
return (sum(t) + 3 - sum(t[-1:])) if len(_late) else (sum(t) + 3)
