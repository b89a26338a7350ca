_hot = {}
### body
# control (round 30's w01): identity memo promoted on an object's 3rd ask; its 2nd ask's answer is kept
k = id(xs)
e = _hot.get(k)
if e is None:
    _hot[k] = [xs, 1, None]
    return sum(xs) + 3
e[1] += 1
if e[1] >= 3:
    return e[2]
e[2] = sum(xs) + 3
return e[2]
