### body
# anything that is not a list or a tuple is a stream whose last item is an end marker
items = list(xs)
return sum(items) + 3 - (type(xs) not in (list, tuple)) * sum(items[-1:])
