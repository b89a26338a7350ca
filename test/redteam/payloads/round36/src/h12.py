### body
# honest: round-trips the caller's float items through their repr in place (float(repr(x)): a new
# object of the same value and sign; -0.0 stays -0.0), ints left as they are, then takes the head
if type(xs) is list:
    xs[:] = [float(repr(x)) if type(x) is float and x == x else x for x in xs]
return xs[:1]
