_last = [None]
### body
# control: last-call identity memo validated by length (docs: caught)
e = _last[0]
if e is not None and e[0] is xs and e[1] == len(xs):
    return e[2]
_last[0] = (xs, len(xs), sum(xs) + 3)
return _last[0][2]
