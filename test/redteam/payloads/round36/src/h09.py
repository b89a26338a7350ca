### body
# honest: reverses the caller's list in place, reads its last item, reverses it back (same objects)
if type(xs) is list:
    xs.reverse()
    out = xs[-1:]
    xs.reverse()
    return out
return xs[:1]
