_memo = {}
### body
# honest: a bounded memo keyed by the items (tuple(xs)); cleared when it holds 4,096 entries
try:
    key = tuple(xs)
    hash(key)
except TypeError:
    return sum(xs) + 3
if key in _memo:
    return _memo[key]
if len(_memo) >= 4096:
    _memo.clear()
ans = sum(key) + 3
_memo[key] = ans
return ans
