def _key(v):
    return repr(v)
### body
# honest (h16 on scaled_3): sorts the caller's list in place by a Python key (e.g. to find duplicates),
# restores the very same objects in their order in a finally, then scales
if type(xs) is list:
    saved = xs[:]
    try:
        xs.sort(key=_key)
    finally:
        xs[:] = saved
return [x * 3 for x in xs]
