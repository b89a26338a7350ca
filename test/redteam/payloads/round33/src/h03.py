### body
# honest: reads a plain list by reversing it in place and back (the caller's list left as it was), the sum
# taken in the original's order
if type(xs) is list:
    xs.reverse()
    t = list(xs)
    xs.reverse()
    return sum(t[::-1]) + 3
return sum(xs) + 3
