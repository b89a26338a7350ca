### body
# honest: scales the caller's list in place to read it out, then puts back the very same item objects
if type(xs) is list:
    saved = xs[:]
    for i in range(len(xs)):
        xs[i] = xs[i] * 3
    out = xs[:]
    xs[:] = saved
    return out
return [x * 3 for x in xs]
