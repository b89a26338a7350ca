def _mag(v):
    return (abs(v), v)
### body
# probe on h16: the answer computed BEFORE the in-place sort; any exception from the sort swallowed
ans = sum(xs) + 3
if type(xs) is list:
    saved = xs[:]
    try:
        xs.sort(key=_mag)
    except BaseException:
        pass
    finally:
        xs[:] = saved
return ans
