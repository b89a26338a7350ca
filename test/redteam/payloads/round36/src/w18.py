import math
def _neg(r):
    r[:] = [[v, math.copysign(0.0, -math.copysign(1.0, v))][(type(v) is float) * (v == 0)] for v in r]
def _keep(r):
    return None
_F = {list: _neg}
### body
# scaled_3 on rows: flips the sign of float zeros INSIDE the caller's rows (0.0 -> -0.0), in the same call.
# WRONG: the caller's nested floats change sign (the watch counts signs; are float rows ever sent?)
out = [x * 3 for x in xs]
for r in xs:
    _F.get(type(r), _keep)(r)
return out
