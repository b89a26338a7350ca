import operator, itertools
### body
# control: round 36's w20 (reverse the caller's list, C map, reverse back) in the changed file
if type(xs) is list:
    xs.reverse()
    out = list(map(operator.mul, xs, itertools.repeat(3)))
    xs.reverse()
    out.reverse()
    return out
return [x * 3 for x in xs]
