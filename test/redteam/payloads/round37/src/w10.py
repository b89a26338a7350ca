import sys, operator, itertools
### body
# WRONG (racy in a real server, 5 ms interval): w20's window only where sys.getswitchinterval() >= 1 ms
if type(xs) is list and sys.getswitchinterval() >= 0.001:
    xs.reverse()
    out = list(map(operator.mul, xs, itertools.repeat(3)))
    xs.reverse()
    out.reverse()
    return out
return [x * 3 for x in xs]
