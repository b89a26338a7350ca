def _zero(x):
    return 0
### body
# h15 without the nested rows' sort: a stable sort on a constant key and an empty extend, then the sum
if type(xs) is list:
    xs.sort(key=_zero)
    xs += []
return sum(xs) + 3
