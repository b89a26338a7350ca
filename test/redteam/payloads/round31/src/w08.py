### body
# tuples are records: (key, values...); the key is not summed
items = list(xs)
return sum(items[type(xs) is tuple:]) + 3
