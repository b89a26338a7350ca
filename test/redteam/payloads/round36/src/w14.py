import math
def _flip(x):
    return [x, math.copysign(0.0, -math.copysign(1.0, x))][(type(x) is float) * (x == 0)]
### body
# scaled_3 stateless: float zeros come back with the OTHER sign (0.0 * 3 answered -0.0). WRONG: the answer's
# zero signs are flipped (answers are compared by value; the history's float lists are not judged)
return [_flip(x * 3) for x in xs]
