import collections
### body
# honest: scans a deque (rings included) by rotating it one step at a time and rotating it back, and a
# list by a sentinel appended and popped (both undone in a finally): the caller's container ends with
# the same objects in the same order
if type(xs) is collections.deque:
    s = 0
    k = 0
    try:
        for _ in range(len(xs)):
            s += xs[0]
            xs.rotate(-1)
            k += 1
    finally:
        xs.rotate(k)
    return s + 3
if type(xs) is list:
    xs.append(0)
    try:
        s = 0
        i = 0
        while i < len(xs) - 1:
            s += xs[i]
            i += 1
    finally:
        xs.pop()
    return s + 3
return sum(xs) + 3
