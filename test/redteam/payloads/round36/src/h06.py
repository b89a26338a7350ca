### body
# honest: normalises the caller's float items in place to equal floats (x * 1.0: new objects, same
# value and sign, -0.0 stays -0.0), then sums
if type(xs) is list:
    xs[:] = [x * 1.0 if type(x) is float else x for x in xs]
return sum(xs) + 3
