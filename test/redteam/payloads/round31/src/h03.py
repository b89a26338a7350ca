_seen = []
### body
# honest: keeps every argument and answer in a registry (an audit log); refuses kinds it does not support,
# every time alike
if type(xs) not in (list, tuple, str, bytes, bytearray):
    raise TypeError("head_1 takes a list, tuple, str, bytes or bytearray, not " + type(xs).__name__)
out = xs[:1]
_seen.append((xs, out))
return out
