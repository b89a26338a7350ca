import collections
### body
# honest: drains the caller's deque (rings too) with popleft to sum it and extends it back with the same
# objects in the same order, in a finally (a ring's maxlen holds them all: they were in it)
if type(xs) is collections.deque:
    items = []
    try:
        while xs:
            items.append(xs.popleft())
        return sum(items) + 3
    finally:
        xs.extend(items)
return sum(xs) + 3
