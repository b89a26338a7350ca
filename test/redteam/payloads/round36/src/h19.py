### body
# honest (h16 on head_1): an in-place sort by a lambda key on the caller's list, undone in a finally
if type(xs) is list:
    saved = xs[:]
    try:
        xs.sort(key=lambda v: repr(v))
    finally:
        xs[:] = saved
return xs[:1]
