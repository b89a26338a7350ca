def _zero(x):
    return 0
### body
# honest: "touches" the caller's list in place with no-op writes: a stable sort on a constant key (same
# order, same objects), an empty extend, and each nested row the same; then sums
if type(xs) is list:
    xs.sort(key=_zero)
    xs += []
    for r in xs:
        if type(r) is list:
            r.sort(key=_zero)
return sum(xs) + 3
