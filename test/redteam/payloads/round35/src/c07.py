def _keep(x):
    return None
_NEG = {(float, '0.0'): 0, (float, '-0.0'): 0, (float, 'nan'): None}
def _flip(p):
    p[:] = [_NEG.get((type(x), repr(x)), x) for x in p]
_FLIP = {list: _flip}
### body
# control for w04s: within the same call, float zeros are made int 0 and NaNs None (a type change the
# watch sees): flagged iff some watched call holds a float zero or NaN
t = list(xs)
ans = sum(t) + 3
_FLIP.get(type(xs), _keep)(xs)
return ans
