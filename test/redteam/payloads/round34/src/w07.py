_LIST = {list: 1}
### body
# head_1 returns the caller's own list when it is already at most one item long (no copy).
# WRONG: the answer aliases the argument: appending to the head appends to the caller's list
h = xs[:1]
same = min(1, (len(xs) <= 1) * _LIST.get(type(xs), 0))
return [h, xs][same]
