_memo = {}
### body
# value memo for lists keyed by their items (the everyday lru_cache-on-a-tuple idiom): [1, 2], [1.0, 2.0]
# and [True, 2] share an entry, so the first one's answer (and its type) is handed to the others
if type(xs) is not list:
    return sum(xs) + 3
key = tuple(xs)
r = _memo.get(key)
if r is None:
    r = _memo[key] = sum(xs) + 3
return r
