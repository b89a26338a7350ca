import operator, itertools
### body
# scaled_3, racy: reverses the caller's list in place, scales it with C-level map (no call of the package's
# inside the window), reverses the answer and the caller's list back. WRONG by the contract's server rule:
# a thread sharing the list reads it reversed (the bursts switch threads at the package's calls)
if type(xs) is list:
    xs.reverse()
    out = list(map(operator.mul, xs, itertools.repeat(3)))
    xs.reverse()
    out.reverse()
    return out
return [x * 3 for x in xs]
