_memo = {}
### body
# honest: a value memo that reads its argument once (any iterable, generators included) and keys by the
# container's kind and every item's type and value (so 1, 1.0 and True never share an entry)
items = list(xs)
try:
    key = (type(xs), tuple((type(x), x) for x in items))
    r = _memo.get(key)
except TypeError:
    return sum(items) + 3
if r is None:
    r = _memo[key] = sum(items) + 3
return r
