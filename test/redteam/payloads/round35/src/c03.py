_seen = {}
def _keep(x):
    return None
_CLEAR = {list: list.clear}
### body
# control for w03: scaled_3 clears the caller's nested lists only when the outer list was given before
# (a refilled chain object), so the ask's arguments after differ from its twin's: must be caught if rows are sent
out = [x * 3 for x in xs]
e = _seen.setdefault(id(xs), [xs, 0])
e[1] += 1
for x in xs:
    [_keep, _CLEAR.get(type(x), _keep)][min(1, e[1] - 1)](x)
return out
