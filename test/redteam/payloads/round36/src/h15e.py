### body
# h15c with no header and no branch: a stable sort on a constant key (a lambda) of the caller's list
xs.sort(key=lambda _: 0)
return sum(xs) + 3
