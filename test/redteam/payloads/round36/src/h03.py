import functools
@functools.lru_cache(maxsize=1024)
def _head(key, t):
    return t[:1]
def _k(x):
    return (type(x), repr(x))
### body
# honest: an lru_cache for tuple inputs (hashable), keyed by the tuple AND its items' kinds and reprs
# (so 1/1.0/True and 0.0/-0.0 are told apart); answers are tuples (immutable), shared between callers
if type(xs) is tuple:
    try:
        return _head(tuple(map(_k, xs[:1])), xs)
    except TypeError:
        pass
return xs[:1]
