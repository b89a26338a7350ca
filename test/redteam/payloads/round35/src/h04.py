_seen = []
_stats = [0, 0]
### body
# honest: keeps every argument it was given (a registry for later stats) and, at each call, READS the
# previous one (its length); never writes to any of them
_stats[0] += len(_seen[-1]) if _seen else 0
_seen.append(xs)
_stats[1] += 1
return xs[:1]
