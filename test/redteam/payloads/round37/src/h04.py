### body
# honest: a no-op write of the caller's list onto itself (one C step, same objects), then the head
if type(xs) is list:
    xs[:] = xs
return xs[:1]
