_obj = {}
_val = {}
### body
# control for w01: the same memo, but a refilled buffer's stale answer is not filed under its new contents
# (the value memo keeps the fresh answer), so a twin asked after the refill answers otherwise
items = tuple(xs)
key = (type(xs), tuple((type(x), x) for x in items))
e = _obj.get(id(xs))
fresh = sum(items) + 3
known = _val.get(key, fresh)
reused = (e is not None) * (key not in _val)
ans = known + reused * ((e or (0, fresh))[1] - known)
_obj.setdefault(id(xs), (xs, ans))
_val.setdefault(key, fresh)
return ans
