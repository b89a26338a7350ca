_prev = []
### body
# head_1: the answer is a new list holding a COPY of the first item where it is a list (rows), and the body
# keeps that copy and appends 99 to it at the next call. WRONG: a caller's answer row grows after the
# call returned (flat answers are left alone: the change lives only inside rows)
h = xs[:1]
c = [list(r) for r in h if type(r) is list]
for r in _prev:
    r.append(99)
_prev[:] = c
return type(h)(c + [r for r in h if type(r) is not list])
