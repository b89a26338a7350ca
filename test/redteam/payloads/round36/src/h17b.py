def _noop():
    return 0
### body
# probe: calls a Python helper while NOTHING of the caller's is changed (control for h17)
ans = sum(xs) + 3
_noop()
return ans
