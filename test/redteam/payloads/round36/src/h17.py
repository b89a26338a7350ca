def _noop():
    return 0
### body
# probe/honest: appends a sentinel to the caller's list, calls a Python helper, pops the sentinel
ans = sum(xs) + 3
if type(xs) is list:
    xs.append(0)
    _noop()
    xs.pop()
return ans
