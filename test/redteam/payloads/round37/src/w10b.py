import sys, operator, itertools
### body
# WRONG (racy in a real server): w20's window only where no profile function is set (no burst running)
if type(xs) is list and sys.getprofile() is None:
    xs.reverse()
    out = list(map(operator.mul, xs, itertools.repeat(3)))
    xs.reverse()
    out.reverse()
    return out
return [x * 3 for x in xs]
