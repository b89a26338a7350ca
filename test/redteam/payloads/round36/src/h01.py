### body
# honest: sorts the caller's list in place to sum small-to-large (a stable float order), then puts back
# the very same item objects in their order (floats, -0.0 and NaN included: same objects)
if type(xs) is list:
    saved = xs[:]
    xs.sort(key=abs)
    s = sum(xs)
    xs[:] = saved
    return sum(saved) + 3
return sum(xs) + 3
