import copy, functools, operator
### body
# WRONG (racy): xs.reverse, copy.deepcopy(xs), xs.reverse run by C map: no event of the changed file inside the window;
# copy.deepcopy's stdlib frame is the only preemption point (the switch interval)
if type(xs) is list:
    r = list(map(operator.call, (xs.reverse, functools.partial(copy.deepcopy, xs), xs.reverse)))
    out = r[1]
    out.reverse()
    return [x * 3 for x in out]
return [x * 3 for x in xs]
