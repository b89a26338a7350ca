### body
# honest: a recursive divide-and-conquer sum (many calls and returns in the changed file)
def part(lo, hi):
    if hi - lo <= 2:
        s = 0
        for i in range(lo, hi):
            s = s + xs[i]
        return s
    mid = (lo + hi) // 2
    return part(lo, mid) + part(mid, hi)
if type(xs) in (list, tuple):
    return sum(xs) + 3 if not all(type(x) is int for x in xs) else part(0, len(xs)) + 3
return sum(xs) + 3
