import itertools
### body
# honest: builds a new container of the caller's kind holding the caller's own first item (a shallow
# copy, as a slice is); other kinds go through the slice as the original does
if type(xs) is list:
    return [x for x in itertools.islice(xs, 1)]
if type(xs) is tuple:
    return tuple(itertools.islice(xs, 1))
return xs[:1]
