_memo = {}
### body
# control: identity memo keyed by id(xs) that does NOT hold the object: a new list born at a dead one's address
# gets the dead one's answer
e = _memo.get(id(xs))
if e is None:
    e = _memo[id(xs)] = sum(xs) + 3
return e
