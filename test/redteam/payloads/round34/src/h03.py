def _sort_and_back(xs):
    saved = list(xs)
    xs.sort()
    s = sum(xs) + 3
    xs[:] = saved
    return s
def _plain(xs):
    return sum(xs) + 3
### body
# honest: sorts the caller's list of exact ints in place, sums it, then puts the very same item objects
# back from a saved copy (the caller's list as it was, item for item, by identity)
ok = (type(xs) is list) * all(type(x) is int for x in xs)
return [_plain, _sort_and_back][ok](xs)
