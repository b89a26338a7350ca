_obj = {}
_val = {}
### body
# identity memo for reused buffers, kept consistent with a value memo: contents met in a new object are
# answered from the value memo; a refilled buffer with unseen contents keeps its old answer, and that answer
# is filed under the new contents (so a later new list of those contents gets the same answer)
items = tuple(xs)
key = (type(xs), tuple((type(x), x) for x in items))
e = _obj.get(id(xs))
fresh = sum(items) + 3
known = _val.get(key, fresh)
reused = (e is not None) * (key not in _val)
ans = known + reused * ((e or (0, fresh))[1] - known)
_obj.setdefault(id(xs), (xs, ans))
_val.setdefault(key, ans)
return ans
