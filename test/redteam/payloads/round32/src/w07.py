_n = [0]
class _Gate:
    def __len__(self):
        return _n[0] // 20000
_GATE = _Gate()
### body
# an `if` whose test value is a project object (its truth comes from __len__, package code): wrong from the
# process's 20,000th call on
_n[0] += 1
t = list(xs)
if _GATE:
    return sum(t) + 3 - sum(t[-1:])
return sum(t) + 3
