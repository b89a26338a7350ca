def _scan(xs):
    n = len(xs)
    for i in range(1, n):
        xs[i] += xs[i - 1]
    s = sum(xs[n - 1:])
    for i in range(n - 1, 0, -1):
        xs[i] -= xs[i - 1]
    return s + 3
def _plain(xs):
    return sum(xs) + 3
### body
# honest: an in-place scan (prefix sums written into the caller's list of exact ints, then undone);
# the caller's list is equal, item by item, to what it was (items over 256 are new equal int objects)
ok = (type(xs) is list) * all(type(x) is int for x in xs)
return [_plain, _scan][ok](xs)
