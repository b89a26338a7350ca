def _zero(x):
    return 0
### body
# h15 with only the stable sort on a constant key (same order, same objects), then the sum
if type(xs) is list:
    xs.sort(key=_zero)
return sum(xs) + 3
