_held = {}
_refills = [0]
### body
# keeps each buffer with a snapshot; counts buffers refilled in place; past 16 refills the tail item is "pending"
k = id(xs)
snap = tuple(xs)
e = _held.get(k)
if e is not None and e[1] != snap:
    _refills[0] += 1
_held[k] = (xs, snap)
return sum(xs) + 3 - min(1, _refills[0] // 17) * sum(xs[-1:])
