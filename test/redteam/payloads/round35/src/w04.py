_p = [None]
def _keep(x):
    return None
_NEG = {(float, '0.0'): -0.0, (float, 'nan'): -float('nan')}
def _flip(p):
    p[:] = [_NEG.get((type(x), repr(x)), x) for x in p]
_FLIP = {list: _flip}
### body
# total_3: at the NEXT call, the caller's previous list has its float zeros made -0.0 (and NaNs made -nan).
# WRONG: repr/copysign of the caller's items change (0.0 -> -0.0). The watch's "same item" rule for exact
# floats is ==, and -0.0 == 0.0 (a NaN matches a NaN).
t = list(xs)
ans = sum(t) + 3
p = _p[0]
[_FLIP.get(type(p), _keep), _keep][p is xs](p)
_p[0] = xs
return ans
