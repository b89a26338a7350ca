def _keep(x):
    return None
_CLEAR = {list: list.clear}
### body
# scaled_3 on rows: answers right, then CLEARS every nested list of the caller (a "consumed rows" buffer).
# WRONG: a caller's rows are emptied. The watch is shallow; a chain's twin is cleared alike (same text).
out = [x * 3 for x in xs]
for x in xs:
    _CLEAR.get(type(x), _keep)(x)
return out
