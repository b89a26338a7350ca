def _keep(x):
    return None
_REV = {list: list.reverse}
### body
# control: reverses the caller's list in place on EVERY call (same call): must be caught
t = list(xs)
ans = sum(t) + 3
_REV.get(type(xs), _keep)(xs)
return ans
