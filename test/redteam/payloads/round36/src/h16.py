def _mag(v):
    return (abs(v), v)
### body
# honest (realistic): sums small-to-large for a stable float total: sorts the caller's list in place by a
# Python key (magnitude) and puts back the very same objects in their order before returning
if type(xs) is list:
    saved = xs[:]
    try:
        xs.sort(key=_mag)
        s = sum(xs)
    finally:
        xs[:] = saved
    return sum(saved) + 3
return sum(xs) + 3
