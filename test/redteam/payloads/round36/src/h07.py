import operator, itertools
### body
# honest: consumes iterators only (map over the argument and a repeat); x * 3 for rows too
return list(map(operator.mul, iter(xs), itertools.repeat(3)))
