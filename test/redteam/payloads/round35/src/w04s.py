def _keep(x):
    return None
_NEG = {(float, '0.0'): -0.0, (float, 'nan'): -float('nan')}
def _flip(p):
    p[:] = [_NEG.get((type(x), repr(x)), x) for x in p]
_FLIP = {list: _flip}
### body
# total_3: within the same call, the caller's float zeros are made -0.0 (NaNs -nan). WRONG as w04.
t = list(xs)
ans = sum(t) + 3
_FLIP.get(type(xs), _keep)(xs)
return ans
